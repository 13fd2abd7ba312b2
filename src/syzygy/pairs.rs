//! The compressed values of one sub-table: positional reads, the pairing tree and the
//! canonical Huffman blocks (see `table` for where they sit in the file).
//!
//! To find value `index`: the sparse index entry `index / span` names a block and an offset
//! in it; the block lengths (values per block, less one) walk from there to the block that
//! holds the index; the block's Huffman codes are read one symbol at a time until the symbol
//! that covers the offset; the pairing tree splits that symbol down to one value. Every read
//! and every step is checked, so a damaged file gives `None`, never a panic or a loop.

use std::fs::File;

pub(super) fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            let read = file.seek_read(&mut buf[done..], offset + done as u64)?;
            if read == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            done += read;
        }
        Ok(())
    }
}

/// Bytes of the file, either kept in memory or read when asked.
#[derive(Debug)]
pub(super) struct Region {
    pub offset: u64,
    pub len: u64,
    pub bytes: Option<Vec<u8>>,
}

impl Region {
    pub(super) fn read(&self, file: &File, at: u64, buf: &mut [u8]) -> Option<()> {
        let end = at.checked_add(buf.len() as u64)?;
        if end > self.len {
            return None;
        }
        match &self.bytes {
            Some(bytes) => {
                buf.copy_from_slice(bytes.get(at as usize..end as usize)?);
                Some(())
            }
            None => read_at(file, self.offset + at, buf).ok(),
        }
    }
}

/// One node of the pairing tree: a symbol is a pair of two earlier symbols, or a value.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Symbol {
    pub left: u16,
    pub right: u16,
    /// How many values the symbol stands for, less one.
    pub values_less_one: u32,
}

pub(super) const LEAF: u16 = 0xFFF;

/// A compressed part: where its blocks are and how to decode them.
#[derive(Debug)]
pub(super) struct Compressed {
    pub block_size: u64,
    pub span: u64,
    pub sparse: Region,
    pub lengths: Region,
    pub length_count: u64,
    pub blocks: u64,
    pub data_offset: u64,
    pub min_len: u32,
    /// Per code length (from `min_len`): the first code of that length, left-aligned in
    /// 64 bits. Longer codes have smaller values.
    pub base: Vec<u64>,
    /// Per code length: the lowest symbol of that length.
    pub lowest: Vec<u16>,
    pub symbols: Vec<Symbol>,
}

impl Compressed {
    /// The value at `index` (below the part's size).
    pub(super) fn value(&self, file: &File, index: u64) -> Option<u16> {
        // The sparse entry at or before our index: a block and the offset within it.
        let entry_index = index / self.span;
        let mut entry = [0u8; 6];
        self.sparse.read(file, entry_index * 6, &mut entry)?;
        let mut block = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as u64;
        let mut offset = u16::from_le_bytes([entry[4], entry[5]]) as i64;
        offset += (index % self.span) as i64 - (self.span / 2) as i64;

        let block_length = |block: u64| -> Option<i64> {
            if block >= self.length_count {
                return None;
            }
            let mut bytes = [0u8; 2];
            self.lengths.read(file, block * 2, &mut bytes)?;
            Some(u16::from_le_bytes(bytes) as i64)
        };
        while offset < 0 {
            block = block.checked_sub(1)?;
            offset += block_length(block)? + 1;
        }
        loop {
            let length = block_length(block)?;
            if offset <= length {
                break;
            }
            offset -= length + 1;
            block += 1;
        }
        if block >= self.blocks {
            return None;
        }

        let mut bytes = vec![0u8; self.block_size as usize];
        read_at(file, self.data_offset + block * self.block_size, &mut bytes).ok()?;
        let mut symbol = self.find_symbol(&bytes, offset as u64)?;

        // Down the pairing tree to the single value at our offset.
        let mut offset = symbol.1;
        loop {
            let node = self.symbols[symbol.0 as usize];
            if node.values_less_one == 0 {
                return Some(node.left);
            }
            let left = *self.symbols.get(node.left as usize)?;
            if offset <= left.values_less_one as u64 {
                symbol = (node.left, offset);
            } else {
                offset -= left.values_less_one as u64 + 1;
                symbol = (node.right, offset);
            }
            if symbol.0 as usize >= self.symbols.len() {
                return None;
            }
        }
    }

    /// Walks the Huffman codes of a block to the symbol that covers value `offset`; returns
    /// it with the offset left inside it.
    fn find_symbol(&self, block: &[u8], mut offset: u64) -> Option<(u16, u64)> {
        let block_bits = block.len() as u64 * 8;
        let mut next_byte = 0usize;
        let read_u32 = |next_byte: &mut usize| -> u64 {
            let mut word = 0u64;
            for _ in 0..4 {
                word = (word << 8) | *block.get(*next_byte).unwrap_or(&0) as u64;
                *next_byte += 1;
            }
            word
        };
        // 64 bits of codes, the next one left-aligned, and how many of them are loaded.
        let mut buffer = (read_u32(&mut next_byte) << 32) | read_u32(&mut next_byte);
        let mut loaded_bits: u32 = 64;
        let mut used_bits = 0u64;
        loop {
            let mut length = 0usize;
            while buffer < self.base[length] {
                length += 1;
                if length >= self.base.len() {
                    return None;
                }
            }
            let code_len = self.min_len + length as u32;
            used_bits += code_len as u64;
            if used_bits > block_bits {
                // The codes ran past the block: the file is damaged.
                return None;
            }
            let symbol =
                ((buffer - self.base[length]) >> (64 - code_len)) + self.lowest[length] as u64;
            let node = self.symbols.get(symbol as usize)?;
            if offset <= node.values_less_one as u64 {
                return Some((symbol as u16, offset));
            }
            offset -= node.values_less_one as u64 + 1;
            buffer <<= code_len;
            loaded_bits -= code_len;
            if loaded_bits <= 32 {
                loaded_bits += 32;
                buffer |= read_u32(&mut next_byte) << (64 - loaded_bits);
            }
        }
    }
}

/// Fills in how many values each symbol stands for, without recursion, rejecting a tree
/// with a cycle or a child outside the table.
pub(super) fn count_values(symbols: &mut [Symbol]) -> Result<(), String> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; symbols.len()];
    let broken = || "broken symbol tree".to_string();
    for root in 0..symbols.len() {
        if state[root] == DONE {
            continue;
        }
        let mut stack = vec![root];
        while let Some(&symbol) = stack.last() {
            let node = symbols[symbol];
            if state[symbol] == DONE || node.right == LEAF {
                state[symbol] = DONE;
                stack.pop();
                continue;
            }
            let (left, right) = (node.left as usize, node.right as usize);
            if left >= symbols.len() || right >= symbols.len() {
                return Err(broken());
            }
            state[symbol] = OPEN;
            let mut waiting = false;
            for child in [left, right] {
                match state[child] {
                    NEW => {
                        stack.push(child);
                        waiting = true;
                    }
                    OPEN => return Err(broken()),
                    _ => {}
                }
            }
            if waiting {
                continue;
            }
            let total =
                symbols[left].values_less_one as u64 + symbols[right].values_less_one as u64 + 1;
            symbols[symbol].values_less_one = u32::try_from(total).map_err(|_| broken())?;
            state[symbol] = DONE;
            stack.pop();
        }
    }
    Ok(())
}
