//! `engine tune`: Texel tuning of the evaluation weights.
//!
//! Input: labelled positions, one a line, the game result from white's point of view in
//! either of two forms (what `engine datagen` writes is the first; its optional number after
//! the label is the search's score of the position, white's view, in centipawns):
//!
//! ```text
//!   <FEN> [1.0] 35       [1.0] white won, [0.5] draw, [0.0] black won; score optional
//!   <FEN> c9 "1-0";      EPD with the result as a string: "1-0", "1/2-1/2", "0-1"
//! ```
//! Only quiet positions are kept: not in check, and a capture-only quiescence search does not
//! move the score more than `QUIET_MARGIN` from the static evaluation (otherwise the label
//! belongs to what happens after the exchange, not to the position). Known end games that
//! `eval::endgame::special` decides are skipped too. One block of lines in ten is held out
//! for validation (blocks, so that a game's positions stay on one side).
//!
//! Method (Texel): with `sigmoid(e) = 1 / (1 + 10^(-K e / 400))`, the error is the mean of
//! `(result - sigmoid(eval))^2`. First `K` is fitted for the current weights (golden-section
//! search), then all weights move by full-batch gradient descent with momentum. The
//! evaluation is linear in the weights before tapering (`eval::trace`), so each position is
//! stored once as its sparse coefficients and an iteration is a pass over plain arrays.
//! Guards against overfitting a few thousand games: the training target can blend in the
//! search score (`--score-weight`; `--search-nodes` scores lines that have none), piece-square
//! tables stay left-right symmetric, an optional L2 pull towards the start (`--l2`), frozen
//! tables (`--freeze`), and optionally (`--early-stop`) keeping the iteration with the lowest
//! validation error. (On our self-play sets of ~1,500 games the validation error hardly moves
//! while matches show the last iteration clearly stronger, so the last is the default.) The
//! result is a new `src/eval/weights.rs` text (`--output`), and the
//! errors (against game results) before and after.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::eval::params::{self, PARAMETER_COUNT, Term};
use crate::eval::trace::{Trace, trace};
use crate::eval::{PHASE_MAX, SCALE_NORMAL, evaluate};
use crate::movegen::GenType;
use crate::moves::MoveList;
use crate::position::Position;
use crate::search::{Limits, Score, Searcher};
use crate::types::Color;

/// A position is quiet when captures change its score by at most this much.
const QUIET_MARGIN: i32 = 60;

/// Momentum of the gradient descent (the fraction of the last step carried into the next).
const MOMENTUM: f64 = 0.9;

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions: `FEN [1.0]` or `FEN c9 "1-0";` lines.
    pub data: std::path::PathBuf,
    /// Gradient-descent iterations (full passes over the data).
    #[arg(long, default_value_t = 500)]
    pub iterations: usize,
    /// Where to write the new weights.rs (default: print it on stdout).
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
    /// Gradient-descent step: centipawns per unit of error gradient.
    #[arg(long, default_value_t = 20000.0)]
    pub rate: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Pull towards the starting weights: adds `l2 * (weight - start)^2` to the error.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Blend the search score (when a line has one) into the training target with this
    /// weight, 0 (results only) to 1 (scores only).
    #[arg(long, default_value_t = 0.5)]
    pub score_weight: f64,
    /// Tables left as they are, by name (e.g. `--freeze PIECE_SQUARE,MATERIAL`).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Keep the weights of the iteration with the lowest validation error instead of the last.
    #[arg(long)]
    pub early_stop: bool,
    /// Score lines that carry no search score with a search of this many nodes (0: don't).
    #[arg(long, default_value_t = 0)]
    pub search_nodes: u64,
    /// Let piece-square tables differ between the queen side and the king side.
    #[arg(long)]
    pub asymmetric: bool,
}

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
struct Dataset {
    /// (parameter index, white-minus-black count), position after position.
    coefficients: Vec<(u16, i16)>,
    /// Position `i` owns `coefficients[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    phase: Vec<u8>,
    /// Scale when white / black is ahead, out of `SCALE_NORMAL`.
    scale: Vec<[u8; 2]>,
    result: Vec<f32>,
    /// The search's score when the line has one (white's view), else NaN.
    score: Vec<f32>,
    /// What the gradient pulls towards: the result, blended with the score (`set_targets`).
    target: Vec<f32>,
    /// `evaluate` for the weights compiled in, white's point of view.
    static_eval: Vec<i32>,
}

impl Dataset {
    fn new() -> Dataset {
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
    fn set_targets(&mut self, k: f64, weight: f64) {
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

struct Loaded {
    training: Dataset,
    validation: Dataset,
    lines: usize,
    unreadable: usize,
    not_quiet: usize,
    special: usize,
}

/// The score of a `nodes`-node search of `pos`, white's point of view (mates clamped).
fn search_score(searcher: &mut Searcher, pos: &Position, nodes: u64) -> i32 {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::infinite()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = searcher.search(pos, &limits, &stop, &mut |_| {});
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

fn load(path: &std::path::Path, search_nodes: u64) -> Result<Loaded, String> {
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

#[inline(always)]
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

impl Dataset {
    fn len(&self) -> usize {
        self.result.len()
    }

    /// (mg, eg) sums of position `i` before tapering.
    #[inline(always)]
    fn sums(&self, i: usize, values: &[[f64; 2]]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        let range = self.starts[i] as usize..self.starts[i + 1] as usize;
        for &(index, count) in &self.coefficients[range] {
            let value = values[index as usize];
            mg += value[0] * count as f64;
            eg += value[1] * count as f64;
        }
        (mg, eg)
    }

    /// Tapering factors (mg weight, eg weight) of position `i` for an end-game sum `eg`.
    #[inline(always)]
    fn blend(&self, i: usize, eg: f64) -> (f64, f64) {
        let phase = self.phase[i] as f64;
        let max = PHASE_MAX as f64;
        let scale = self.scale[i][usize::from(eg < 0.0)] as f64 / SCALE_NORMAL as f64;
        (phase / max, (max - phase) / max * scale)
    }

    fn linear_eval(&self, i: usize, values: &[[f64; 2]]) -> f64 {
        let (mg, eg) = self.sums(i, values);
        let (mg_factor, eg_factor) = self.blend(i, eg);
        mg * mg_factor + eg * eg_factor
    }

    fn error(&self, k: f64, values: &[[f64; 2]]) -> f64 {
        let total: f64 = (0..self.len())
            .map(|i| {
                let error = self.result[i] as f64 - sigmoid(k, self.linear_eval(i, values));
                error * error
            })
            .sum();
        total / self.len() as f64
    }

    fn static_error(&self, k: f64) -> f64 {
        let total: f64 = (0..self.len())
            .map(|i| {
                let error = self.result[i] as f64 - sigmoid(k, self.static_eval[i] as f64);
                error * error
            })
            .sum();
        total / self.len() as f64
    }

    /// Gradient of the error with respect to every weight (mg, eg).
    fn gradient(&self, k: f64, values: &[[f64; 2]], gradient: &mut [[f64; 2]]) {
        gradient.iter_mut().for_each(|pair| *pair = [0.0; 2]);
        let constant = k * std::f64::consts::LN_10 / 400.0;
        for i in 0..self.len() {
            let (mg, eg) = self.sums(i, values);
            let (mg_factor, eg_factor) = self.blend(i, eg);
            let s = sigmoid(k, mg * mg_factor + eg * eg_factor);
            let slope = (s - self.target[i] as f64) * s * (1.0 - s) * constant;
            let range = self.starts[i] as usize..self.starts[i + 1] as usize;
            for &(index, count) in &self.coefficients[range] {
                let pair = &mut gradient[index as usize];
                pair[0] += slope * count as f64 * mg_factor;
                pair[1] += slope * count as f64 * eg_factor;
            }
        }
        let scale = 2.0 / self.len() as f64;
        gradient.iter_mut().for_each(|pair| {
            pair[0] *= scale;
            pair[1] *= scale;
        });
    }
}

/// Golden-section search for the K that minimizes `error(K)` on [0.1, 4].
fn fit_k(error: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.1, 4.0);
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut error_a, mut error_b) = (error(a), error(b));
    for _ in 0..40 {
        if error_a < error_b {
            high = b;
            b = a;
            error_b = error_a;
            a = high - ratio * (high - low);
            error_a = error(a);
        } else {
            low = a;
            a = b;
            error_a = error_b;
            b = low + ratio * (high - low);
            error_b = error(b);
        }
    }
    (low + high) / 2.0
}

fn rounded(values: &[[f64; 2]]) -> Vec<[f64; 2]> {
    values
        .iter()
        .map(|pair| [pair[0].round(), pair[1].round()])
        .collect()
}

/// Each piece-square entry paired with its file mirror (a-file <-> h-file), as flat indices.
fn mirrored_pairs() -> impl Iterator<Item = (usize, usize)> {
    let base = params::offset(Term::PieceSquare);
    (0..6 * 8).flat_map(move |row| {
        (0..4).map(move |file| (base + row * 8 + file, base + row * 8 + 7 - file))
    })
}

/// Adds the gradients of each piece-square entry and its mirror and gives the sum to both,
/// so tables that start symmetric stay symmetric: half the free weights, less room to learn
/// the accidents of a few thousand games.
fn tie_mirrored_squares(gradient: &mut [[f64; 2]]) {
    for (left, right) in mirrored_pairs() {
        let sum = [
            gradient[left][0] + gradient[right][0],
            gradient[left][1] + gradient[right][1],
        ];
        gradient[left] = sum;
        gradient[right] = sum;
    }
}

/// Replaces each piece-square entry and its mirror by their mean.
fn symmetrize(values: &mut [[f64; 2]]) {
    for (left, right) in mirrored_pairs() {
        let mean = [
            (values[left][0] + values[right][0]) / 2.0,
            (values[left][1] + values[right][1]) / 2.0,
        ];
        values[left] = mean;
        values[right] = mean;
    }
}

pub fn run(args: &TuneArgs) -> ExitCode {
    let start = Instant::now();
    let loaded = match load(&args.data, args.search_nodes) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("engine: {message}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "{} lines: {} training and {} validation positions, {} unreadable, {} not quiet, \
         {} known end games ({:.1} s)",
        loaded.lines,
        loaded.training.len(),
        loaded.validation.len(),
        loaded.unreadable,
        loaded.not_quiet,
        loaded.special,
        start.elapsed().as_secs_f64()
    );
    let Loaded {
        mut training,
        mut validation,
        ..
    } = loaded;
    if training.len() == 0 || validation.len() == 0 {
        eprintln!(
            "engine: too few usable positions in {} (need some for validation too)",
            args.data.display()
        );
        return ExitCode::from(2);
    }

    let initial = params::current();
    let mut values = initial.clone();
    if !args.asymmetric {
        symmetrize(&mut values);
    }
    let k = args
        .k
        .unwrap_or_else(|| fit_k(|k| training.static_error(k)));
    training.set_targets(k, args.score_weight);
    validation.set_targets(k, 0.0);
    let before = [training.static_error(k), validation.static_error(k)];
    eprintln!(
        "K = {k:.4}; error before: training {:.6}, validation {:.6}",
        before[0], before[1]
    );

    // Gradient descent with momentum. Each weight moves in proportion to the evidence for it,
    // so a weight that few positions use (a far rank of a piece-square table) stays near its
    // start; per-weight adaptive steps (Adam) move those as fast as material and overfit.
    let mut velocity = vec![[0.0; 2]; PARAMETER_COUNT];
    let mut gradient = vec![[0.0; 2]; PARAMETER_COUNT];
    let mut frozen = vec![false; PARAMETER_COUNT];
    for name in &args.freeze {
        let Some(position) = params::TABLES.iter().position(|table| table.name == name) else {
            eprintln!("engine: no weight table named {name}");
            return ExitCode::from(2);
        };
        let first: usize = params::TABLES[..position]
            .iter()
            .map(|table| table.values.len())
            .sum();
        let length = params::TABLES[position].values.len();
        frozen[first..first + length]
            .iter_mut()
            .for_each(|slot| *slot = true);
    }
    let mut best = (validation.error(k, &rounded(&values)), 0, values.clone());
    for iteration in 1..=args.iterations {
        training.gradient(k, &values, &mut gradient);
        if !args.asymmetric {
            tie_mirrored_squares(&mut gradient);
        }
        for index in (0..PARAMETER_COUNT).filter(|&index| !frozen[index]) {
            for half in 0..2 {
                let pull = 2.0 * args.l2 * (values[index][half] - initial[index][half]);
                let g = gradient[index][half] + pull;
                velocity[index][half] = MOMENTUM * velocity[index][half] + g;
                values[index][half] -= args.rate * velocity[index][half];
            }
        }
        if iteration % 25 == 0 || iteration == args.iterations {
            let candidate = rounded(&values);
            let held_out = validation.error(k, &candidate);
            if (args.early_stop && held_out < best.0) || iteration == args.iterations {
                best = (held_out, iteration, values.clone());
            }
            if iteration % 100 == 0 || iteration == args.iterations {
                eprintln!(
                    "iteration {iteration}: training {:.6}, validation {held_out:.6} ({:.0} s)",
                    training.error(k, &candidate),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    let (_, kept, values) = best;
    let values = rounded(&values);
    let after = [training.error(k, &values), validation.error(k, &values)];
    eprintln!(
        "kept iteration {kept}; error training {:.6} -> {:.6}, validation {:.6} -> {:.6} (K = {k:.4})",
        before[0], after[0], before[1], after[1]
    );

    let origin = format!(
        "`engine tune {}` ({} training + {} validation positions, iteration {kept} of {}, \
         K = {k:.3}, validation error {:.5} -> {:.5})",
        args.data
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned()),
        training.len(),
        validation.len(),
        args.iterations,
        before[1],
        after[1]
    );
    let text = params::render(&values, &origin);
    match &args.output {
        Some(path) => {
            if let Err(error) = std::fs::write(path, text) {
                eprintln!("engine: cannot write {}: {error}", path.display());
                return ExitCode::from(1);
            }
            eprintln!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_both_formats() {
        assert_eq!(parse_result("8/8/8/8/8/8/8/K6k w - - 0 1 [0.5]"), Some(0.5));
        assert_eq!(
            parse_result("8/8/8/8/8/8/8/K6k w - - c9 \"1-0\";"),
            Some(1.0)
        );
        assert_eq!(
            parse_result("8/8/8/8/8/8/8/K6k w - - c9 \"0-1\";"),
            Some(0.0)
        );
        assert_eq!(
            parse_result("8/8/8/8/8/8/8/K6k w - - c9 \"1/2-1/2\";"),
            Some(0.5)
        );
        assert_eq!(parse_result("8/8/8/8/8/8/8/K6k w - -"), None);
        assert_eq!(
            parse_fen("8/8/8/8/8/8/8/K6k w - - 3 40 [1.0]"),
            "8/8/8/8/8/8/8/K6k w - - 3 40"
        );
        assert_eq!(
            parse_fen("8/8/8/8/8/8/8/K6k w - - c9 \"1-0\";"),
            "8/8/8/8/8/8/8/K6k w - -"
        );
    }

    #[test]
    fn optional_search_score() {
        assert_eq!(
            parse_score("8/8/8/8/8/8/8/K6k w - - 0 1 [0.5] -23"),
            Some(-23)
        );
        assert_eq!(parse_score("8/8/8/8/8/8/8/K6k w - - 0 1 [0.5]"), None);
    }

    #[test]
    fn fitted_k_finds_a_minimum() {
        let k = fit_k(|k| (k - 1.3) * (k - 1.3));
        assert!((k - 1.3).abs() < 1e-4);
    }

    #[test]
    fn hanging_queen_is_not_quiet() {
        let mut quiet = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        assert!(is_quiet(&mut quiet));
        let mut hanging = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").expect("fen");
        assert!(!is_quiet(&mut hanging));
    }
}
