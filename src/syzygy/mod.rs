//! Syzygy endgame tablebases: Ox88's own reader of the `.rtbw` (win/draw/loss) and `.rtbz`
//! (distance to zeroing) files.
//!
//! [`Tablebases`] is the set of tables found in some directories. Opening only lists the
//! files (their names say their material); a table's file is opened and its header read the
//! first time a probe needs it, and it then stays open for every thread (`Sync`, no locks
//! on the probe path after that first read). The layers inside:
//! - `index`: position → index inside a table (symmetries, piece groups);
//! - `table`: one file's header, and a probe of it;
//! - `pairs`: the decompression of one value (pairing tree, Huffman blocks);
//! - `probe`: the chess around the tables: captures and en passant, which the tables do not
//!   store, resolved by a small search; DTZ for the side a table does not store; root moves.
//!
//! Values are from the side to move's point of view. A file that is damaged or truncated is
//! skipped with a message when it is listed, or makes its probes return `None`; no input
//! reaches a panic.

mod index;
mod pairs;
mod probe;
mod table;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::position::Position;
use crate::types::{Color, PieceType};

pub use index::MAX_PIECES;
pub use probe::RootMove;
use table::{Material, Table, TableKind};

/// Win/draw/loss from the side to move's point of view, with the 50-move rule: a cursed win
/// is a win that the rule turns into a draw, a blessed loss the loss it saves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    pub fn from_value(value: i32) -> Option<Wdl> {
        match value {
            -2 => Some(Wdl::Loss),
            -1 => Some(Wdl::BlessedLoss),
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::CursedWin),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    pub fn value(self) -> i32 {
        self as i32
    }

    /// The same result seen by the other side.
    pub fn flip(self) -> Wdl {
        Wdl::from_value(-self.value()).expect("-2..=2 negated stays in range")
    }

    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }
}

/// A material configuration packed for lookups: 4 bits per piece count (pawn..queen) of the
/// first side in bits 0..20, of the second side in bits 20..40.
type MaterialKey = u64;

fn pack_side(counts: &[u8; 7]) -> u64 {
    (1..6).fold(0u64, |key, kind| {
        key | ((counts[kind] as u64 & 0xF) << (4 * (kind - 1)))
    })
}

fn material_key(first: &[u8; 7], second: &[u8; 7]) -> MaterialKey {
    pack_side(first) | (pack_side(second) << 20)
}

fn position_counts(pos: &Position, color: Color) -> [u8; 7] {
    let mut counts = [0u8; 7];
    for kind in PieceType::ALL {
        counts[kind as usize] = pos.count(color, kind).clamp(0, 15) as u8;
    }
    counts
}

/// A table file found on disk, opened on first use.
struct LazyTable {
    path: PathBuf,
    kind: TableKind,
    material: Material,
    table: OnceLock<Result<Table, String>>,
}

impl LazyTable {
    fn get(&self) -> Option<&Table> {
        self.table
            .get_or_init(|| {
                Table::open(&self.path, self.kind, self.material.clone())
                    .map_err(|error| format!("{}: {error}", self.path.display()))
            })
            .as_ref()
            .ok()
    }
}

/// The WDL and DTZ files of one material.
#[derive(Default)]
struct Entry {
    wdl: Option<LazyTable>,
    dtz: Option<LazyTable>,
}

/// A set of Syzygy tables (see the module doc).
#[derive(Default)]
pub struct Tablebases {
    entries: HashMap<MaterialKey, Entry>,
    max_pieces: usize,
    /// WDL and DTZ tables found, by number of pieces.
    wdl_counts: [usize; MAX_PIECES + 1],
    dtz_counts: [usize; MAX_PIECES + 1],
    /// Files skipped when listing, with why.
    skipped: Vec<String>,
}

/// The separator of directories in a path list, as the platform's PATH uses.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

impl Tablebases {
    /// Lists the tables in each directory of `paths` (separated by [`PATH_SEPARATOR`]).
    /// A directory that cannot be read is an error; a file that cannot be a table (a wrong
    /// size) is skipped and named in [`Tablebases::skipped`]. Empty parts are ignored.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let mut tablebases = Tablebases::default();
        for directory in paths
            .split(PATH_SEPARATOR)
            .filter(|part| !part.trim().is_empty())
        {
            tablebases.add_directory(Path::new(directory))?;
        }
        Ok(tablebases)
    }

    fn add_directory(&mut self, directory: &Path) -> Result<(), String> {
        let listing = std::fs::read_dir(directory).map_err(|error| {
            format!(
                "cannot read tablebase directory {}: {error}",
                directory.display()
            )
        })?;
        let mut paths: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        paths.sort();
        for path in paths {
            let kind = match path.extension().and_then(|extension| extension.to_str()) {
                Some("rtbw") => TableKind::Wdl,
                Some("rtbz") => TableKind::Dtz,
                _ => continue,
            };
            let Some(material) = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .and_then(Material::parse)
            else {
                continue;
            };
            match std::fs::metadata(&path) {
                Ok(metadata) if metadata.len() % 64 == 16 => {}
                Ok(metadata) => {
                    self.skipped.push(format!(
                        "{}: size {} is not a table's (damaged or truncated?)",
                        path.display(),
                        metadata.len()
                    ));
                    continue;
                }
                Err(error) => {
                    self.skipped.push(format!("{}: {error}", path.display()));
                    continue;
                }
            }
            let key = material_key(&material.counts[0], &material.counts[1]);
            let pieces = material.pieces;
            let entry = self.entries.entry(key).or_default();
            let slot = match kind {
                TableKind::Wdl => &mut entry.wdl,
                TableKind::Dtz => &mut entry.dtz,
            };
            if slot.is_some() {
                continue; // The first directory that has a table wins.
            }
            *slot = Some(LazyTable {
                path,
                kind,
                material,
                table: OnceLock::new(),
            });
            match kind {
                TableKind::Wdl => self.wdl_counts[pieces] += 1,
                TableKind::Dtz => self.dtz_counts[pieces] += 1,
            }
            self.max_pieces = self.max_pieces.max(pieces);
        }
        Ok(())
    }

    /// The most pieces of any table found (0 when there are none).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// WDL tables found with `pieces` pieces.
    pub fn wdl_tables(&self, pieces: usize) -> usize {
        self.wdl_counts.get(pieces).copied().unwrap_or(0)
    }

    /// DTZ tables found with `pieces` pieces.
    pub fn dtz_tables(&self, pieces: usize) -> usize {
        self.dtz_counts.get(pieces).copied().unwrap_or(0)
    }

    /// Files that were not taken, with why.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// Tables that failed when first opened (damaged headers), with why.
    pub fn failures(&self) -> Vec<String> {
        let mut failures = Vec::new();
        for entry in self.entries.values() {
            for table in [&entry.wdl, &entry.dtz].into_iter().flatten() {
                if let Some(Err(error)) = table.table.get() {
                    failures.push(error.clone());
                }
            }
        }
        failures
    }

    /// One line: how many tables for which piece counts, e.g.
    /// "35 WDL and 35 DTZ tables: 5 with 3 pieces, 30 with 4 pieces".
    pub fn summary(&self) -> String {
        let wdl: usize = self.wdl_counts.iter().sum();
        let dtz: usize = self.dtz_counts.iter().sum();
        let mut text = format!("{wdl} WDL and {dtz} DTZ tables");
        let per_count: Vec<String> = (0..=MAX_PIECES)
            .filter(|&pieces| self.wdl_counts[pieces] + self.dtz_counts[pieces] > 0)
            .map(|pieces| {
                let tables = self.wdl_counts[pieces].max(self.dtz_counts[pieces]);
                format!("{tables} with {pieces} pieces")
            })
            .collect();
        if !per_count.is_empty() {
            text.push_str(": ");
            text.push_str(&per_count.join(", "));
        }
        text
    }

    /// The table of this position's material, and whether the position must be read with
    /// colours swapped (the table names the stronger side first; a symmetric table stores
    /// only the first side to move).
    fn find(&self, pos: &Position, kind: TableKind) -> Option<(&Table, bool)> {
        let white = position_counts(pos, Color::White);
        let black = position_counts(pos, Color::Black);
        let (entry, swapped) = match self.entries.get(&material_key(&white, &black)) {
            Some(entry) => (entry, white == black && pos.side_to_move() == Color::Black),
            None => (self.entries.get(&material_key(&black, &white))?, true),
        };
        let table = match kind {
            TableKind::Wdl => entry.wdl.as_ref()?,
            TableKind::Dtz => entry.dtz.as_ref()?,
        };
        Some((table.get()?, swapped))
    }

    /// Reads one table for this position as it stands (no captures resolved).
    fn probe_table(&self, pos: &Position, kind: TableKind, wdl: i32) -> Option<table::Lookup> {
        let (table, swapped) = self.find(pos, kind)?;
        debug_assert_eq!(table.kind(), kind);
        let side = (pos.side_to_move() == Color::Black) as usize ^ swapped as usize;
        let piece_squares = |code: u8, out: &mut Vec<usize>| {
            let first_side = (code >> 3) & 1 == 0;
            let color = if first_side != swapped {
                Color::White
            } else {
                Color::Black
            };
            let kind = PieceType::from_index(code & 7);
            if kind == PieceType::None {
                return;
            }
            let mirror = if swapped { 56 } else { 0 };
            out.extend(
                pos.squares(color, kind)
                    .iter()
                    .map(|&square| crate::types::to_64(square) ^ mirror),
            );
        };
        table.probe(side, wdl, &piece_squares)
    }
}
