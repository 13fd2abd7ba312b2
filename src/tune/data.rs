//! Reading `engine tune`'s input: the labels of a line, the quiet-position filter, and the
//! training and validation sets as flat arrays of sparse evaluation coefficients.

use std::fs::File;
use std::io::{BufRead, BufReader};

use super::sigmoid;
use crate::eval::evaluate;
use crate::eval::trace::{Trace, trace};
use crate::moves::MoveList;
use crate::position::Position;
use crate::position::movegen::GenType;
use crate::search::{Limits, Score, SearchSignals, Searcher};
use crate::types::Color;

/// A position is quiet when captures change its score by at most this much.
const QUIET_MARGIN: i32 = 60;

/// Reads the result label of a line: `[1.0]`-style or `c9 "1-0"`-style.
pub fn parse_result(line: &str) -> Option<f64> {
    if let Some(open) = line.rfind('[') {
        let close = line[open..].find(']')? + open;
        let value: f64 = line[open + 1..close].trim().parse().ok()?;
        return (0.0..=1.0).contains(&value).then_some(value);
    }
    if line.contains("\"1-0\"") {
        Some(1.0)
    } else if line.contains("\"0-1\"") {
        Some(0.0)
    } else if line.contains("\"1/2-1/2\"") {
        Some(0.5)
    } else {
        None
    }
}

/// The optional search score after the `[result]` label (`datagen` writes one).
pub fn parse_score(line: &str) -> Option<i32> {
    let close = line.rfind(']')?;
    line[close + 1..].split_whitespace().next()?.parse().ok()
}

/// The FEN part of a line: the first four fields, plus the clocks when they are numbers.
pub fn parse_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut taken: Vec<&str> = fields.iter().take(4).copied().collect();
    for field in fields.iter().skip(4).take(2) {
        if field.parse::<u32>().is_ok() {
            taken.push(field);
        } else {
            break;
        }
    }
    taken.join(" ")
}

/// Captures-only alpha-beta on the static evaluation (side to move's point of view).
fn quiescence(pos: &mut Position, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    let stand_pat = evaluate(pos);
    if stand_pat >= beta || depth == 0 {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut moves = MoveList::new();
    pos.generate(GenType::Noisy, &mut moves);
    for mv in moves {
        pos.make_move(mv);
        let value = -quiescence(pos, -beta, -alpha, depth - 1);
        pos.unmake_move();
        if value >= beta {
            return value;
        }
        alpha = alpha.max(value);
    }
    alpha
}

/// True when the static evaluation of `pos` can stand for its value.
pub fn is_quiet(pos: &mut Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let static_value = evaluate(pos);
    let resolved = quiescence(pos, -30000, 30000, 8);
    (resolved - static_value).abs() <= QUIET_MARGIN
}

/// All positions as flat arrays (a `Vec` per position would cost more memory than the data).
pub(super) struct Dataset {
    /// (parameter index, white-minus-black count), position after position.
    pub(super) coefficients: Vec<(u16, i16)>,
    /// Position `i` owns `coefficients[starts[i]..starts[i + 1]]`.
    pub(super) starts: Vec<u32>,
    pub(super) phase: Vec<u8>,
    /// Scale when white / black is ahead, out of `SCALE_NORMAL`.
    pub(super) scale: Vec<[u8; 2]>,
    pub(super) result: Vec<f32>,
    /// The search's score when the line has one (white's view), else NaN.
    pub(super) score: Vec<f32>,
    /// What the gradient pulls towards: the result, blended with the score (`set_targets`).
    pub(super) target: Vec<f32>,
    /// `evaluate` for the weights compiled in, white's point of view.
    pub(super) static_eval: Vec<i32>,
}

impl Dataset {
    pub(super) fn new() -> Dataset {
        Dataset {
            coefficients: Vec::new(),
            starts: vec![0],
            phase: Vec::new(),
            scale: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
            target: Vec::new(),
            static_eval: Vec::new(),
        }
    }

    /// Training targets: `(1 - weight) * result + weight * sigmoid(score)` where a score is
    /// known, the plain result elsewhere.
    pub(super) fn set_targets(&mut self, k: f64, weight: f64) {
        self.target = (0..self.len())
            .map(|i| {
                let result = self.result[i] as f64;
                let score = self.score[i] as f64;
                if score.is_nan() {
                    result as f32
                } else {
                    ((1.0 - weight) * result + weight * sigmoid(k, score)) as f32
                }
            })
            .collect();
    }

    fn push(
        &mut self,
        pos: &Position,
        linear: &Trace,
        result: f64,
        score: Option<i32>,
    ) -> Result<(), String> {
        self.coefficients.extend_from_slice(&linear.coefficients);
        let end = u32::try_from(self.coefficients.len()).map_err(|_| "too much data")?;
        self.starts.push(end);
        self.phase.push(linear.phase as u8);
        self.scale
            .push([linear.scale[0] as u8, linear.scale[1] as u8]);
        self.result.push(result as f32);
        self.score
            .push(score.map_or(f32::NAN, |score| score as f32));
        let relative = evaluate(pos);
        self.static_eval.push(match pos.side_to_move() {
            Color::White => relative,
            Color::Black => -relative,
        });
        Ok(())
    }
}

/// Lines are dealt to the validation set in blocks (one block in `VALIDATION_EVERY`), so the
/// positions of one game, which `datagen` writes together, mostly stay on one side: the
/// validation error then shows how well the weights carry over to games they never saw.
const VALIDATION_BLOCK: usize = 512;
const VALIDATION_EVERY: usize = 10;

pub(super) struct Loaded {
    pub(super) training: Dataset,
    pub(super) validation: Dataset,
    pub(super) lines: usize,
    pub(super) unreadable: usize,
    pub(super) not_quiet: usize,
    pub(super) special: usize,
}

/// The score of a `nodes`-node search of `pos`, white's point of view (mates clamped).
fn search_score(searcher: &mut Searcher, pos: &Position, nodes: u64) -> i32 {
    let signals = SearchSignals::new();
    let result = searcher.search(pos, &Limits::nodes(nodes), &signals, &mut |_| {});
    let value = match result.score {
        Score::Centipawns(value) => value.clamp(-3000, 3000),
        Score::Mate(moves) if moves > 0 => 3000,
        Score::Mate(_) => -3000,
    };
    match pos.side_to_move() {
        Color::White => value,
        Color::Black => -value,
    }
}

pub(super) fn load(path: &std::path::Path, search_nodes: u64) -> Result<Loaded, String> {
    let mut searcher = Searcher::new(16);
    let file =
        File::open(path).map_err(|error| format!("cannot open {}: {error}", path.display()))?;
    let mut loaded = Loaded {
        training: Dataset::new(),
        validation: Dataset::new(),
        lines: 0,
        unreadable: 0,
        not_quiet: 0,
        special: 0,
    };
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let block = loaded.lines / VALIDATION_BLOCK;
        loaded.lines += 1;
        let Some(result) = parse_result(&line) else {
            loaded.unreadable += 1;
            continue;
        };
        let Ok(mut pos) = Position::from_fen(&parse_fen(&line)) else {
            loaded.unreadable += 1;
            continue;
        };
        if !is_quiet(&mut pos) {
            loaded.not_quiet += 1;
            continue;
        }
        let Some(linear) = trace(&pos) else {
            loaded.special += 1;
            continue;
        };
        let set = if block % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
            &mut loaded.validation
        } else {
            &mut loaded.training
        };
        let score = match parse_score(&line) {
            None if search_nodes > 0 => Some(search_score(&mut searcher, &pos, search_nodes)),
            known => known,
        };
        set.push(&pos, &linear, result, score)?;
    }
    Ok(loaded)
}
