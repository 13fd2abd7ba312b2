//! The pawn table: a per-thread cache of the evaluation terms that depend only on pawns and
//! kings (pawn structure, pawn shield and storm), keyed by `Position::pawn_king_key`.
//!
//! Pawns and kings move in few of the nodes a search visits, so most evaluations find their
//! structure here instead of recomputing it (the speed it bought is measured in README,
//! "Search").
//! The cache is exact: a hit gives the very sum `structure` and `king_safety` would report,
//! so cached and uncached evaluations agree (a test checks it), and the bench signature does
//! not depend on the table.
//!
//! Each search thread owns one table: no sharing, no locks. An entry is 16 bytes:
//!
//! ```text
//!   key: u64 | score: S (packed mg/eg, white minus black) | passed files: [u8; 2] | padding
//! ```

use super::{Info, Total, king_safety, pawns};
use crate::position::Position;
use crate::tapered::S;
use crate::types::Color;

/// Entries per table (a power of two): 16 K entries, 256 KB, small enough for the L2 cache.
const ENTRIES: usize = 1 << 14;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    score: S,
    passed_files: [u8; 2],
}

/// The pawn-king part of an evaluation: its sum and the files of each side's passed pawns.
#[derive(Copy, Clone)]
pub(crate) struct PawnKingTerms {
    pub score: S,
    pub passed_files: [u8; 2],
}

pub struct PawnTable {
    entries: Vec<Entry>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

impl PawnTable {
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![Entry::default(); ENTRIES],
        }
    }

    /// Forgets every entry. (An empty entry has key 0, which no real position has in
    /// practice: its pawn-king key includes the two kings' keys.)
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The pawn-king terms of `pos`, from the table or computed and stored.
    pub(crate) fn get(&mut self, pos: &Position, info: &Info) -> PawnKingTerms {
        let key = pos.pawn_king_key();
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.key != key {
            let mut total = Total(S::ZERO);
            let passed_files = compute(pos, info, &mut total);
            *entry = Entry {
                key,
                score: total.0,
                passed_files,
            };
        }
        PawnKingTerms {
            score: entry.score,
            passed_files: entry.passed_files,
        }
    }
}

/// Reports the pawn-king terms of both sides to `sink`; returns each side's passed files.
pub(crate) fn compute<T: super::Sink>(pos: &Position, info: &Info, sink: &mut T) -> [u8; 2] {
    let mut passed_files = [0; 2];
    for color in [Color::White, Color::Black] {
        passed_files[color.index()] = pawns::structure(pos, info, color, sink);
        king_safety::evaluate(pos, color, sink);
    }
    passed_files
}
