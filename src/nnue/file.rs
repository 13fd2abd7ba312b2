//! The net file: a header, then the quantised weights, little-endian.
//!
//! ```text
//!   byte  0..8    magic     "OX88NNUE"
//!   byte  8..12   version   u32: 2 (1, the one-output layout, is still read)
//!   byte 12..16   inputs    u32 = 768
//!   byte 16..20   hidden    u32 (must equal `HIDDEN`)
//!   byte 20..24   qa, qb    u16, u16 (255, 64)
//!   byte 24..28   scale     u32, centipawns per unit of float output (MIN_SCALE..=MAX_SCALE)
//!   byte 28..36   checksum  u64, FNV-1a of every byte after the header
//!   byte 36..     input weights i16 [768][hidden], input bias i16 [hidden],
//!                 version 2: output weights i16 [8][2·hidden], output biases i32 [8]
//!                 (one set per output bucket, `nnue::output_bucket`)
//!                 version 1: output weights i16 [2·hidden], output bias i32
//! ```
//! A version-1 file is a net without buckets: its one output set is copied into all eight, so
//! it evaluates exactly as before.
//! Anything that does not match exactly (magic, version, shape, scales, length, checksum) is
//! refused with a message that says what; a refused file never replaces the current net.

use super::{HIDDEN, INPUTS, MAX_SCALE, MIN_SCALE, Network, OUTPUT_BUCKETS, QA, QB};

pub const MAGIC: &[u8; 8] = b"OX88NNUE";
/// The version written: output buckets.
pub const VERSION: u32 = 2;
pub const HEADER_BYTES: usize = 36;
pub const PAYLOAD_BYTES: usize = payload_bytes(OUTPUT_BUCKETS);

/// Bytes after the header of a net with `buckets` output sets.
const fn payload_bytes(buckets: usize) -> usize {
    2 * (INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

/// FNV-1a, 64 bits: enough to tell a damaged or truncated file from the one written.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Reads a net file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Network, String> {
    if bytes.len() < HEADER_BYTES || &bytes[0..8] != MAGIC {
        return Err("not an Ox88 net file (no OX88NNUE header)".to_string());
    }
    let version = u32_at(bytes, 8);
    let buckets = match version {
        1 => 1,
        VERSION => OUTPUT_BUCKETS,
        _ => {
            return Err(format!(
                "net file version {version}, this build reads 1 and {VERSION}"
            ));
        }
    };
    let expected_bytes = payload_bytes(buckets);
    let (inputs, hidden) = (u32_at(bytes, 12) as usize, u32_at(bytes, 16) as usize);
    if inputs != INPUTS || hidden != HIDDEN {
        return Err(format!(
            "net shape {inputs}→{hidden}, this build runs {INPUTS}→{HIDDEN}"
        ));
    }
    let qa = u16::from_le_bytes([bytes[20], bytes[21]]) as i32;
    let qb = u16::from_le_bytes([bytes[22], bytes[23]]) as i32;
    let scale = u32_at(bytes, 24) as i32;
    if (qa, qb) != (QA, QB) {
        return Err(format!(
            "net quantisation {qa}/{qb}, this build uses {QA}/{QB}"
        ));
    }
    if !(MIN_SCALE..=MAX_SCALE).contains(&scale) {
        return Err(format!(
            "net scale {scale} outside {MIN_SCALE}..={MAX_SCALE} centipawns per unit"
        ));
    }
    let payload = &bytes[HEADER_BYTES..];
    if payload.len() != expected_bytes {
        return Err(format!(
            "net file has {} bytes of weights, expected {expected_bytes} (truncated or damaged)",
            payload.len()
        ));
    }
    let stored = u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes"));
    let computed = checksum(payload);
    if stored != computed {
        return Err(format!(
            "net file checksum {computed:016x} does not match its header's {stored:016x} (damaged)"
        ));
    }
    let mut words = payload
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
    let mut input_weights: Box<[[i16; HIDDEN]; INPUTS]> = vec![[0i16; HIDDEN]; INPUTS]
        .into_boxed_slice()
        .try_into()
        .expect("INPUTS rows");
    let mut next = || words.next().expect("length checked above");
    for row in input_weights.iter_mut() {
        for weight in row.iter_mut() {
            *weight = next();
        }
    }
    let input_bias = std::array::from_fn(|_| next());
    let mut output_weights = [[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS];
    for set in output_weights.iter_mut().take(buckets) {
        *set = std::array::from_fn(|_| next());
    }
    let biases = &payload[expected_bytes - 4 * buckets..];
    let mut output_bias = [0i32; OUTPUT_BUCKETS];
    for (bias, bytes) in output_bias.iter_mut().zip(biases.chunks_exact(4)) {
        *bias = i32::from_le_bytes(bytes.try_into().expect("4 bytes"));
    }
    // One output set (version 1) serves every bucket.
    for bucket in buckets..OUTPUT_BUCKETS {
        output_weights[bucket] = output_weights[0];
        output_bias[bucket] = output_bias[0];
    }
    for &weight in output_weights.iter().flatten() {
        if !(-127..=127).contains(&(weight as i32)) {
            return Err(format!(
                "output weight {weight} outside ±127 (the kernels need it)"
            ));
        }
    }
    Ok(Network::from_parts(
        input_weights,
        input_bias,
        output_weights,
        output_bias,
        scale,
        computed,
    ))
}

/// The bytes of a net file (the current version) holding these quantised weights: output
/// weights and biases bucket by bucket.
pub fn serialize(
    input_weights: &[i16],
    input_bias: &[i16],
    output_weights: &[i16],
    output_bias: &[i32],
    scale: i32,
) -> Vec<u8> {
    assert_eq!(input_weights.len(), INPUTS * input_bias.len());
    assert_eq!(output_bias.len(), OUTPUT_BUCKETS);
    assert_eq!(output_weights.len(), OUTPUT_BUCKETS * 2 * input_bias.len());
    let mut payload = Vec::with_capacity(PAYLOAD_BYTES);
    for &word in input_weights.iter().chain(input_bias).chain(output_weights) {
        payload.extend_from_slice(&word.to_le_bytes());
    }
    for bias in output_bias {
        payload.extend_from_slice(&bias.to_le_bytes());
    }
    let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(INPUTS as u32).to_le_bytes());
    bytes.extend_from_slice(&(input_bias.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&(QA as u16).to_le_bytes());
    bytes.extend_from_slice(&(QB as u16).to_le_bytes());
    bytes.extend_from_slice(&(scale as u32).to_le_bytes());
    bytes.extend_from_slice(&checksum(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    bytes
}

/// Reads a net file from disk.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    use std::io::Read;
    // One byte more than a net can have is enough to refuse a longer file, and a path such as
    // /dev/zero is never read to its (missing) end.
    let limit = (HEADER_BYTES + PAYLOAD_BYTES + 1) as u64;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(limit).read_to_end(&mut bytes))
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    parse(&bytes).map_err(|error| format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net() -> Vec<u8> {
        let weights: Vec<i16> = (0..INPUTS * HIDDEN).map(|i| (i % 50) as i16 - 25).collect();
        let bias = vec![7i16; HIDDEN];
        let output: Vec<i16> = (0..OUTPUT_BUCKETS * 2 * HIDDEN)
            .map(|i| (i % 9) as i16 - 4)
            .collect();
        let biases: Vec<i32> = (0..OUTPUT_BUCKETS as i32).map(|b| -1234 + b).collect();
        serialize(&weights, &bias, &output, &biases, 400)
    }

    #[test]
    fn a_written_net_reads_back() {
        let bytes = small_net();
        let net = parse(&bytes).unwrap();
        assert_eq!(net.input_weights[1][2], ((HIDDEN + 2) % 50) as i16 - 25);
        assert_eq!(net.input_bias, [7; HIDDEN]);
        assert_eq!(net.output_bias[0], -1234);
        assert_eq!(net.output_bias[7], -1227);
        assert_eq!(net.output_weights[1][0], ((2 * HIDDEN) % 9) as i16 - 4);
    }

    /// A version-1 file: the same input layer and one output set.
    fn version_one_net() -> Vec<u8> {
        let mut payload = Vec::new();
        for i in 0..INPUTS * HIDDEN + HIDDEN {
            payload.extend_from_slice(&((i % 11) as i16 - 5).to_le_bytes());
        }
        for i in 0..2 * HIDDEN {
            payload.extend_from_slice(&((i % 7) as i16 - 3).to_le_bytes());
        }
        payload.extend_from_slice(&(-99i32).to_le_bytes());
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        bytes.extend_from_slice(&(QA as u16).to_le_bytes());
        bytes.extend_from_slice(&(QB as u16).to_le_bytes());
        bytes.extend_from_slice(&400u32.to_le_bytes());
        bytes.extend_from_slice(&checksum(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    #[test]
    fn a_version_one_net_fills_every_bucket_with_its_one_output() {
        let net = parse(&version_one_net()).unwrap();
        for bucket in 0..OUTPUT_BUCKETS {
            assert_eq!(net.output_bias[bucket], -99);
            assert_eq!(net.output_weights[bucket], net.output_weights[0]);
        }
        assert_eq!(net.output_weights[0][4], 1);
        let mut truncated = version_one_net();
        truncated.pop();
        assert!(parse(&truncated).err().unwrap().contains("truncated"));
    }

    #[test]
    fn damaged_and_truncated_files_are_refused_with_a_reason() {
        let bytes = small_net();
        let truncated = parse(&bytes[..bytes.len() - 10]).err().unwrap();
        assert!(truncated.contains("truncated"), "{truncated}");
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 1000] ^= 1;
        let damaged = parse(&flipped).err().unwrap();
        assert!(damaged.contains("checksum"), "{damaged}");
        let mut wrong_magic = bytes.clone();
        wrong_magic[0] = b'X';
        assert!(parse(&wrong_magic).err().unwrap().contains("header"));
        let mut wrong_version = bytes.clone();
        wrong_version[8] = 9;
        assert!(parse(&wrong_version).err().unwrap().contains("version"));
        assert!(parse(b"").is_err());
        let mut wrong_scale = bytes.clone();
        wrong_scale[24..28].copy_from_slice(&5000u32.to_le_bytes());
        assert!(parse(&wrong_scale).err().unwrap().contains("scale"));
    }
}
