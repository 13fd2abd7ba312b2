//! Training positions: read from `engine datagen`'s record files (and the older text format),
//! filtered, shuffled, split into training and validation sets.
//!
//! Filters, chosen here rather than when the data was made: the side to move not in check,
//! the move played neither a capture nor a promotion (the network learns quiet values; the
//! search resolves the noise), from ply `min_ply` of the game on, and no score at or beyond
//! `max_score` (mates and near-mates say little about the position's features).

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::datagen::format::{Record, read_records};
use crate::moves::Move;
use crate::position::Position;

/// What to keep.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    pub min_ply: usize,
    pub max_score: i32,
}

/// Counts of what loading found.
#[derive(Default, Debug)]
pub struct LoadStats {
    pub read: u64,
    pub kept: u64,
    pub damaged: u64,
    pub in_check: u64,
    pub noisy: u64,
    pub early: u64,
    pub extreme: u64,
    pub tail_bytes: usize,
}

impl Filter {
    /// Keeps `record` if it passes, counting why when it does not.
    fn admit(&self, record: Record, stats: &mut LoadStats, kept: &mut Vec<Record>) {
        stats.read += 1;
        let Some(pos) = record.position() else {
            stats.damaged += 1;
            return;
        };
        if pos.in_check() {
            stats.in_check += 1;
        } else if record.best_move().is_noisy() {
            stats.noisy += 1;
        } else if record.ply() < self.min_ply {
            stats.early += 1;
        } else if record.score().abs() >= self.max_score {
            stats.extreme += 1;
        } else {
            stats.kept += 1;
            kept.push(record);
        }
    }
}

/// Reads one file: `.bin` files are datagen records; any other file is the text format of
/// earlier datagen builds (`FEN [1.0] score`, already filtered when written, so its positions
/// are packed with no move and ply 255).
pub fn load(path: &Path, filter: &Filter, kept: &mut Vec<Record>) -> Result<LoadStats, String> {
    let file =
        File::open(path).map_err(|error| format!("cannot open {}: {error}", path.display()))?;
    let mut stats = LoadStats::default();
    if path.extension().is_some_and(|ext| ext == "bin") {
        let read = read_records(BufReader::with_capacity(1 << 20, file), |record| {
            filter.admit(record, &mut stats, kept)
        })
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        stats.tail_bytes = read.tail_bytes;
        return Ok(stats);
    }
    for line in BufReader::with_capacity(1 << 20, file).lines() {
        let line = line.map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        match text_record(&line) {
            Some(record) => filter.admit(record, &mut stats, kept),
            None => {
                stats.read += 1;
                stats.damaged += 1;
            }
        }
    }
    Ok(stats)
}

/// One line of the text format as a record.
pub fn text_record(line: &str) -> Option<Record> {
    let open = line.rfind('[')?;
    let close = line[open..].find(']')? + open;
    let result: f64 = line[open + 1..close].trim().parse().ok()?;
    let result = match (result * 2.0).round() as i32 {
        value @ 0..=2 => value as u8,
        _ => return None,
    };
    let score: i32 = line[close + 1..].split_whitespace().next()?.parse().ok()?;
    let pos = Position::from_fen(line[..open].trim()).ok()?;
    Some(Record::pack(&pos, score, Move::NULL, result, 255))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_reads_into_records() {
        let record = text_record(
            "r1bqkbnr/pp1p3p/6p1/4p3/3p4/3Q2P1/PPP2P1P/R1B1KBNR w KQkq - 0 10 [0.5] -53",
        )
        .unwrap();
        assert_eq!((record.result(), record.score()), (1, -53));
        assert!(record.position().is_some());
        assert!(text_record("8/8/8 w - - [0.5] 3").is_none());
        assert!(text_record("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [7.0] 3").is_none());
    }

    #[test]
    fn filters_drop_checks_noisy_moves_early_plies_and_extreme_scores() {
        let filter = Filter {
            min_ply: 8,
            max_score: 3000,
        };
        let mut stats = LoadStats::default();
        let mut kept = Vec::new();
        let quiet = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let push = quiet
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_uci(false) == "e2e4")
            .unwrap();
        filter.admit(Record::pack(&quiet, 50, push, 2, 20), &mut stats, &mut kept);
        filter.admit(Record::pack(&quiet, 50, push, 2, 3), &mut stats, &mut kept);
        filter.admit(
            Record::pack(&quiet, 5000, push, 2, 20),
            &mut stats,
            &mut kept,
        );
        let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        let take = check
            .legal_moves()
            .into_iter()
            .find(|mv| mv.is_capture())
            .unwrap();
        filter.admit(Record::pack(&check, 0, take, 1, 20), &mut stats, &mut kept);
        let capture = Position::from_fen("4k3/8/8/8/8/8/r7/1K6 w - - 0 1").unwrap();
        let take = capture
            .legal_moves()
            .into_iter()
            .find(|mv| mv.is_capture())
            .unwrap();
        filter.admit(
            Record::pack(&capture, 0, take, 1, 20),
            &mut stats,
            &mut kept,
        );
        assert_eq!(
            (
                stats.kept,
                stats.early,
                stats.extreme,
                stats.in_check,
                stats.noisy
            ),
            (1, 1, 1, 1, 1)
        );
        assert_eq!(kept.len(), 1);
    }
}
