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
//! validation error. (On our self-play sets the validation error hardly moves while matches
//! show the last iteration stronger, so the last is the default: README, "Evaluation
//! tuning".) The
//! result is a new `src/weights.rs` text (`--output`), and the
//! errors (against game results) before and after.
//!
//! `data` reads the lines into flat arrays (and filters them); this file fits the weights.

use std::process::ExitCode;
use std::time::Instant;

use crate::eval::params::{self, PARAMETER_COUNT, Term};
use crate::eval::{PHASE_MAX, SCALE_NORMAL};

mod data;

use data::{Dataset, Loaded, load};
pub use data::{is_quiet, parse_fen, parse_result, parse_score};

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

#[inline(always)]
pub(super) fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

impl Dataset {
    pub(super) fn len(&self) -> usize {
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

/// The numeric arguments the descent can use: a NaN, infinite or negative step, K or pull
/// would run every iteration and write weights made of garbage.
fn check_arguments(args: &TuneArgs) -> Result<(), String> {
    let positive = |name: &str, value: f64| {
        if value.is_finite() && value > 0.0 {
            Ok(())
        } else {
            Err(format!(
                "tune --{name} {value} must be a finite number above 0"
            ))
        }
    };
    positive("rate", args.rate)?;
    if let Some(k) = args.k {
        positive("k", k)?;
    }
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        return Err(format!(
            "tune --l2 {} must be a finite number from 0 up",
            args.l2
        ));
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        return Err(format!(
            "tune --score-weight {} must be from 0 to 1",
            args.score_weight
        ));
    }
    Ok(())
}

pub fn run(args: &TuneArgs) -> ExitCode {
    if let Err(message) = check_arguments(args) {
        eprintln!("engine: {message}");
        return ExitCode::from(2);
    }
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
    use crate::position::Position;

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
