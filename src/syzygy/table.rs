//! One Syzygy table file: its header, and a probe of it (decompression: `pairs`).
//!
//! Layout of a file (all multi-byte numbers little-endian unless said otherwise):
//! ```text
//!   magic (4)              WDL 71 E8 23 5D, DTZ D7 66 0C A5
//!   flags (1)              bit 0: two sides stored (WDL of an unsymmetric material),
//!                          bit 1: pawns (then four sub-tables, one per leading-pawn file a..d)
//!   per file:              order byte (and a second one when both sides have pawns),
//!                          one byte per piece: low nibble side 0's piece order, high side 1's
//!   (pad to even)
//!   per sub-table:         pairs header: flags, block size, span, padding, block count,
//!                          symbol lengths, lowest symbol per length, symbol tree
//!   DTZ only:              value maps (per file, four of them: one per WDL outcome)
//!   per sub-table:         sparse index (6 bytes an entry), block lengths (2 bytes a block)
//!   per sub-table:         64-byte aligned compressed blocks
//!   checksum (16)          so a whole file is 16 bytes past a multiple of 64
//! ```
//! A sub-table ("part") is one side to move and one leading-pawn file. Its values are
//! compressed by recursive pairing (each symbol stands for a pair of shorter symbols, down to
//! single values) and the symbols are coded with a canonical Huffman code, in blocks of fixed
//! byte size. The sparse index says, every `span` values, which block holds that value and
//! where in the block; block lengths (values per block, less one) lead from there to the block
//! that holds any index.
//!
//! The header (and small indexes) are read once when the table is first probed; blocks are
//! read with positional reads for each probe, so a table is never read whole and one open
//! file serves every thread (`&self` only). Everything read from the file is checked before
//! use: a damaged or truncated file gives an error at open or `None` from a probe.

use std::fs::File;
use std::path::Path;

use super::index::{Layout, MAX_PIECES, Shape, encode};
use super::pairs::{Compressed, Region, Symbol, count_values, read_at};

const WDL_MAGIC: [u8; 4] = [0x71, 0xE8, 0x23, 0x5D];
const DTZ_MAGIC: [u8; 4] = [0xD7, 0x66, 0x0C, 0xA5];

/// Indexes up to this size are kept in memory; bigger ones (7-piece tables) are read per probe.
const IN_MEMORY_LIMIT: u64 = 4 << 20;

/// Part flags (the first byte of a pairs header).
mod part_flag {
    /// DTZ: which side to move this table stores (0 white, 1 black, in table colours).
    pub const SIDE: u8 = 1;
    /// DTZ: values go through the per-outcome maps.
    pub const MAPPED: u8 = 2;
    /// DTZ: wins are stored in plies (otherwise in moves, to be doubled).
    pub const WIN_PLIES: u8 = 4;
    /// DTZ: losses are stored in plies.
    pub const LOSS_PLIES: u8 = 8;
    /// DTZ: the maps hold 16-bit values.
    pub const WIDE: u8 = 16;
    /// Every position of the part has one value, stored in the header.
    pub const SINGLE_VALUE: u8 = 128;
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableKind {
    Wdl,
    Dtz,
}

/// The material a table is for, as its file name spells it (stronger side first).
#[derive(Clone, Debug)]
pub struct Material {
    /// Piece counts per side (0 = the side named first) and kind (index = `PieceType`).
    pub counts: [[u8; 7]; 2],
    pub pieces: usize,
}

impl Material {
    /// Parses a table name such as "KRPvKP".
    pub fn parse(name: &str) -> Option<Material> {
        let (first, second) = name.split_once('v')?;
        let mut counts = [[0u8; 7]; 2];
        for (side, part) in [first, second].iter().enumerate() {
            if !part.starts_with('K') {
                return None;
            }
            for letter in part.chars() {
                let kind = match letter {
                    'P' => 1,
                    'N' => 2,
                    'B' => 3,
                    'R' => 4,
                    'Q' => 5,
                    'K' => 6,
                    _ => return None,
                };
                counts[side][kind] += 1;
            }
            if counts[side][6] != 1 {
                return None;
            }
        }
        let pieces: usize = counts.iter().flatten().map(|&count| count as usize).sum();
        (pieces <= MAX_PIECES).then_some(Material { counts, pieces })
    }

    pub fn has_pawns(&self) -> bool {
        self.counts[0][1] + self.counts[1][1] > 0
    }

    pub fn symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    fn shape(&self) -> Shape {
        let unique = self.counts.iter().any(|side| side[1..6].contains(&1));
        Shape {
            has_pawns: self.has_pawns(),
            unique_pieces: !self.has_pawns() && unique,
            pawns_both_sides: self.counts[0][1] > 0 && self.counts[1][1] > 0,
        }
    }
}

#[derive(Debug)]
enum Values {
    Single(u8),
    Compressed(Box<Compressed>),
}

/// A sub-table: one side to move and one leading-pawn file.
#[derive(Debug)]
struct Part {
    /// Piece codes in index order (table colours: 0..7 side named first, 8.. the other).
    pieces: [u8; MAX_PIECES],
    layout: Layout,
    flags: u8,
    values: Values,
    /// DTZ: the four outcome maps (loss, blessed loss... in the file's order), when MAPPED.
    maps: [Vec<u16>; 4],
}

/// A table, opened and its header read.
#[derive(Debug)]
pub struct Table {
    file: File,
    kind: TableKind,
    material: Material,
    shape: Shape,
    sides: usize,
    files: usize,
    parts: Vec<Part>,
}

/// What a probe of one table can tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    Value(i32),
    /// A DTZ table stores only one side to move, and this is the other one.
    OtherSide,
}

/// Sequential reads of the header, each checked against the file's length.
struct Header<'a> {
    file: &'a File,
    len: u64,
    at: u64,
}

impl Header<'_> {
    fn bytes(&mut self, count: u64) -> Result<Vec<u8>, String> {
        let end = self.at.checked_add(count).filter(|&end| end <= self.len);
        let Some(end) = end else {
            return Err(format!(
                "header runs past the end of the file (byte {})",
                self.at
            ));
        };
        let mut buf = vec![0u8; count as usize];
        read_at(self.file, self.at, &mut buf).map_err(|error| error.to_string())?;
        self.at = end;
        Ok(buf)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.bytes(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let bytes = self.bytes(2)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    fn u32(&mut self) -> Result<u32, String> {
        let bytes = self.bytes(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn align(&mut self, to: u64) {
        self.at = self.at.div_ceil(to) * to;
    }

    fn region(&mut self, len: u64) -> Result<Region, String> {
        let offset = self.at;
        let end = offset.checked_add(len).filter(|&end| end <= self.len);
        if end.is_none() {
            return Err(format!(
                "index runs past the end of the file (byte {offset})"
            ));
        }
        let bytes = if len <= IN_MEMORY_LIMIT {
            Some(self.bytes(len)?)
        } else {
            None
        };
        self.at = offset + len;
        Ok(Region { offset, len, bytes })
    }
}

impl Table {
    /// Opens a table file and reads its header. `material` comes from the file's name.
    pub fn open(path: &Path, kind: TableKind, material: Material) -> Result<Table, String> {
        let file = File::open(path).map_err(|error| error.to_string())?;
        let len = file.metadata().map_err(|error| error.to_string())?.len();
        if len % 64 != 16 {
            return Err(format!(
                "size {len} is not a table's (16 more than a multiple of 64)"
            ));
        }
        let shape = material.shape();
        let mut header = Header {
            file: &file,
            len,
            at: 0,
        };
        let magic = header.bytes(4)?;
        let expected = match kind {
            TableKind::Wdl => WDL_MAGIC,
            TableKind::Dtz => DTZ_MAGIC,
        };
        if magic != expected {
            return Err("not a Syzygy table of this kind (wrong magic bytes)".to_string());
        }
        let flags = header.u8()?;
        if (flags & 2 != 0) != shape.has_pawns {
            return Err("pawn flag disagrees with the file name".to_string());
        }
        let sides = match kind {
            TableKind::Wdl if !material.symmetric() => 2,
            _ => 1,
        };
        if kind == TableKind::Wdl && (flags & 1 != 0) != (sides == 2) {
            return Err("side flag disagrees with the file name".to_string());
        }
        let files = if shape.has_pawns { 4 } else { 1 };
        let count = material.pieces;

        let mut parts = Vec::with_capacity(files * sides);
        for file_index in 0..files {
            let first = header.u8()?;
            let second = if shape.pawns_both_sides {
                header.u8()?
            } else {
                0xFF
            };
            let codes = header.bytes(count as u64)?;
            for side in 0..sides {
                let mut pieces = [0u8; MAX_PIECES];
                for (slot, &code) in pieces.iter_mut().zip(&codes) {
                    *slot = if side == 0 { code & 0xF } else { code >> 4 };
                }
                let nibble = |byte: u8| if side == 0 { byte & 0xF } else { byte >> 4 };
                let order = [nibble(first), nibble(second)];
                let layout = Layout::new(shape, &pieces[..count], order, file_index)
                    .ok_or_else(|| "inconsistent piece order in the header".to_string())?;
                check_pieces(&material, &pieces[..count])?;
                parts.push(Part {
                    pieces,
                    layout,
                    flags: 0,
                    values: Values::Single(0),
                    maps: Default::default(),
                });
            }
        }
        header.align(2);

        let mut pending = Vec::with_capacity(parts.len());
        for part in parts.iter_mut() {
            pending.push(read_pairs_header(&mut header, part, kind)?);
        }

        if kind == TableKind::Dtz && material.symmetric() && shape.has_pawns {
            // Such a table is read with colours swapped so that its first side is to move;
            // a part claiming the other side would send every probe to the other side.
            if parts.iter().any(|part| part.flags & part_flag::SIDE != 0) {
                return Err("symmetric table stores the wrong side".to_string());
            }
        }

        if kind == TableKind::Dtz {
            for file_index in 0..files {
                let part = &mut parts[file_index * sides];
                if part.flags & part_flag::MAPPED == 0 {
                    continue;
                }
                let wide = part.flags & part_flag::WIDE != 0;
                if wide {
                    header.align(2);
                }
                for map in part.maps.iter_mut() {
                    if wide {
                        let entries = header.u16()? as u64;
                        let bytes = header.bytes(entries * 2)?;
                        *map = bytes
                            .chunks_exact(2)
                            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
                            .collect();
                    } else {
                        let entries = header.u8()? as u64;
                        *map = header.bytes(entries)?.into_iter().map(u16::from).collect();
                    }
                }
            }
            header.align(2);
        }

        let mut sparse = Vec::with_capacity(parts.len());
        for setup in &pending {
            sparse.push(match setup {
                Some(setup) => Some(header.region(setup.sparse_count * 6)?),
                None => None,
            });
        }
        let mut lengths = Vec::with_capacity(parts.len());
        for setup in &pending {
            lengths.push(match setup {
                Some(setup) => Some(header.region(setup.length_count * 2)?),
                None => None,
            });
        }
        for (index, setup) in pending.into_iter().enumerate() {
            let Some(setup) = setup else { continue };
            header.align(64);
            let data_offset = header.at;
            let data_len = setup
                .blocks
                .checked_mul(setup.block_size)
                .ok_or_else(|| "block count overflows".to_string())?;
            let end = data_offset.checked_add(data_len).filter(|&end| end <= len);
            if end.is_none() {
                return Err("compressed data runs past the end of the file".to_string());
            }
            header.at = data_offset + data_len;
            let (Some(sparse), Some(lengths)) = (sparse[index].take(), lengths[index].take())
            else {
                continue;
            };
            parts[index].values = Values::Compressed(Box::new(Compressed {
                block_size: setup.block_size,
                span: setup.span,
                sparse,
                lengths,
                length_count: setup.length_count,
                blocks: setup.blocks,
                data_offset,
                min_len: setup.min_len,
                base: setup.base,
                lowest: setup.lowest,
                symbols: setup.symbols,
            }));
        }

        Ok(Table {
            file,
            kind,
            material,
            shape,
            sides,
            files,
            parts,
        })
    }

    pub fn kind(&self) -> TableKind {
        self.kind
    }

    /// Looks up a position given as the squares of its pieces, grouped by `piece_squares`:
    /// for a table piece code (table colours) it returns the dense squares of those pieces,
    /// already in table orientation. `side` is the side to move in table colours (0 = the
    /// side named first). For DTZ, `wdl` (-2..=2) picks the value map.
    pub fn probe(
        &self,
        side: usize,
        wdl: i32,
        piece_squares: &dyn Fn(u8, &mut Vec<usize>),
    ) -> Option<Lookup> {
        let count = self.material.pieces;
        let mut squares: Vec<usize> = Vec::with_capacity(MAX_PIECES);
        let file_index = if self.shape.has_pawns {
            let lead = self.parts.first()?.pieces[0];
            piece_squares(lead, &mut squares);
            let (_, file) = super::index::leading_pawn(&squares)?;
            file
        } else {
            0
        };
        if file_index >= self.files {
            return None;
        }
        let part = match self.kind {
            TableKind::Wdl => self
                .parts
                .get(file_index * self.sides + side.min(self.sides - 1))?,
            TableKind::Dtz => {
                let part = self.parts.get(file_index)?;
                let any_side = self.material.symmetric() && !self.shape.has_pawns;
                if (part.flags & part_flag::SIDE) as usize != side && !any_side {
                    return Some(Lookup::OtherSide);
                }
                part
            }
        };

        // The squares in the part's piece order, one run of equal codes at a time.
        squares.clear();
        for i in 0..count {
            if i == 0 || part.pieces[i] != part.pieces[i - 1] {
                piece_squares(part.pieces[i], &mut squares);
            }
        }
        if squares.len() != count || squares.iter().any(|&square| square >= 64) {
            return None;
        }
        let index = encode(self.shape, &part.layout, &mut squares)?;
        let value = self.decode(part, index)? as i32;
        match self.kind {
            TableKind::Wdl => Some(Lookup::Value(value - 2)),
            TableKind::Dtz => self.dtz_value(part, value, wdl).map(Lookup::Value),
        }
    }

    /// The value at `index` of a part.
    fn decode(&self, part: &Part, index: u64) -> Option<u16> {
        match &part.values {
            Values::Single(value) => Some(*value as u16),
            Values::Compressed(compressed) if index < part.layout.size => {
                compressed.value(&self.file, index)
            }
            Values::Compressed(_) => None,
        }
    }

    /// A stored DTZ value to plies (before the caller's adjustment for the outcome).
    fn dtz_value(&self, part: &Part, stored: i32, wdl: i32) -> Option<i32> {
        let mut value = stored;
        if part.flags & part_flag::MAPPED != 0 {
            // The maps are in the file's order: win, loss, cursed win, blessed loss.
            let map = match wdl {
                2 => 0,
                -2 => 1,
                1 => 2,
                -1 => 3,
                _ => return None,
            };
            value = *part.maps[map].get(stored as usize)? as i32;
        }
        let plies_flag = match wdl {
            2 => part_flag::WIN_PLIES,
            -2 => part_flag::LOSS_PLIES,
            _ => 0,
        };
        if part.flags & plies_flag == 0 || wdl & 1 != 0 {
            value *= 2;
        }
        Some(value)
    }
}

/// What a compressed part's header says, before its indexes are placed.
struct PairsSetup {
    block_size: u64,
    span: u64,
    sparse_count: u64,
    length_count: u64,
    blocks: u64,
    min_len: u32,
    base: Vec<u64>,
    lowest: Vec<u16>,
    symbols: Vec<Symbol>,
}

/// Reads a part's pairs header; None for a single-value part.
fn read_pairs_header(
    header: &mut Header,
    part: &mut Part,
    kind: TableKind,
) -> Result<Option<PairsSetup>, String> {
    part.flags = header.u8()?;
    if part.flags & part_flag::SINGLE_VALUE != 0 {
        let value = header.u8()?;
        // A single-value DTZ part holds no information (its positions are all draws or
        // decided elsewhere); its stored byte is not a distance.
        part.values = Values::Single(if kind == TableKind::Wdl { value } else { 0 });
        return Ok(None);
    }
    let block_shift = header.u8()?;
    let span_shift = header.u8()?;
    let padding = header.u8()? as u64;
    let blocks = header.u32()? as u64;
    let max_len = header.u8()? as u32;
    let min_len = header.u8()? as u32;
    if block_shift > 20 || span_shift > 40 || span_shift == 0 {
        return Err("block size or index span out of range".to_string());
    }
    if min_len == 0 || max_len < min_len || max_len > 32 {
        return Err("code lengths out of range".to_string());
    }
    let lengths = (max_len - min_len + 1) as usize;
    let mut lowest = Vec::with_capacity(lengths);
    for _ in 0..lengths {
        lowest.push(header.u16()?);
    }
    let symbol_count = header.u16()? as usize;
    let tree = header.bytes(symbol_count as u64 * 3)?;
    if symbol_count & 1 != 0 {
        header.bytes(1)?;
    }
    let mut symbols: Vec<Symbol> = tree
        .chunks_exact(3)
        .map(|bytes| Symbol {
            left: (((bytes[1] & 0xF) as u16) << 8) | bytes[0] as u16,
            right: ((bytes[2] as u16) << 4) | (bytes[1] >> 4) as u16,
            values_less_one: 0,
        })
        .collect();
    count_values(&mut symbols)?;

    // Canonical Huffman: codes of one length are consecutive numbers, and a longer code
    // compares below every shorter one once both are left-aligned in 64 bits.
    let mut base = vec![0u64; lengths];
    for i in (0..lengths - 1).rev() {
        base[i] = (base[i + 1]
            .wrapping_add(lowest[i] as u64)
            .wrapping_sub(lowest[i + 1] as u64))
            / 2;
    }
    for (i, value) in base.iter_mut().enumerate() {
        *value <<= 64 - (min_len as usize + i);
    }

    let span = 1u64 << span_shift;
    let size = part.layout.size;
    Ok(Some(PairsSetup {
        block_size: 1 << block_shift,
        span,
        sparse_count: size.div_ceil(span),
        length_count: blocks + padding,
        blocks,
        min_len,
        base,
        lowest,
        symbols,
    }))
}

/// The pieces of a part must be the table's material, each code a king..pawn of a side.
fn check_pieces(material: &Material, pieces: &[u8]) -> Result<(), String> {
    let mut counts = [[0u8; 7]; 2];
    for &code in pieces {
        let kind = (code & 7) as usize;
        if kind == 0 || kind == 7 {
            return Err(format!("bad piece code {code} in the header"));
        }
        counts[(code >> 3) as usize & 1][kind] += 1;
    }
    if counts != material.counts {
        return Err("header pieces disagree with the file name".to_string());
    }
    Ok(())
}
