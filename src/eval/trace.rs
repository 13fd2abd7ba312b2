//! The evaluation as a linear function of the weights, for the tuner.
//!
//! `trace(pos)` runs the same terms as `evaluate` with a sink that records, for every weight,
//! how many times it counts for white minus black (its coefficient). With the phase and the
//! two possible end-game scales stored beside them, the tuner recomputes the evaluation for
//! any weight vector without touching the board:
//!
//! ```text
//!   mg = sum(coefficient * weight.mg)     eg = sum(coefficient * weight.eg)
//!   white = taper(mg, eg, phase, scale[eg < 0])
//! ```
//! which equals `evaluate` (white's view) for the weights in `weights.rs`, up to the integer
//! rounding of `taper`.

use super::params::{PARAMETER_COUNT, Term, offset};
use super::{Sink, material_terms, phase, terms};
use crate::eval::endgame;
use crate::position::Position;
use crate::tapered::S;
use crate::types::Color;

/// One position's coefficients, sparse.
#[derive(Clone, Debug)]
pub struct Trace {
    /// (flat parameter index, white-minus-black count), indices ascending, no zero counts.
    pub coefficients: Vec<(u16, i16)>,
    pub phase: i32,
    /// End-game scale when white is ahead (`[0]`) and when black is (`[1]`).
    pub scale: [i32; 2],
}

struct Recorder {
    counts: Vec<i32>,
}

impl Sink for Recorder {
    fn add(&mut self, color: Color, term: Term, index: usize, _weight: S, count: i32) {
        let slot = &mut self.counts[offset(term) + index];
        match color {
            Color::White => *slot += count,
            Color::Black => *slot -= count,
        }
    }
}

/// The coefficients of `pos`, or `None` when a known end game (`endgame::special`) decides
/// its score instead of the weights.
pub fn trace(pos: &Position) -> Option<Trace> {
    if endgame::special(pos).is_some() {
        return None;
    }
    let mut recorder = Recorder {
        counts: vec![0; PARAMETER_COUNT],
    };
    material_terms(pos, &mut recorder);
    terms(pos, &mut recorder);
    let coefficients = recorder
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count != 0)
        .map(|(index, &count)| {
            let index = u16::try_from(index).expect("fewer than 65536 parameters");
            let count = i16::try_from(count).expect("a weight counts at most a few hundred times");
            (index, count)
        })
        .collect();
    Some(Trace {
        coefficients,
        phase: phase(pos),
        scale: [
            endgame::scale_factor(pos, Color::White),
            endgame::scale_factor(pos, Color::Black),
        ],
    })
}

impl Trace {
    /// The evaluation from white's point of view for the weights `values` (flat, mg/eg),
    /// unrounded.
    pub fn evaluate(&self, values: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(index, count) in &self.coefficients {
            let value = values[index as usize];
            mg += value[0] * count as f64;
            eg += value[1] * count as f64;
        }
        let scale = self.scale[usize::from(eg < 0.0)] as f64;
        let phase = self.phase as f64;
        let max = super::PHASE_MAX as f64;
        (mg * phase + eg * (max - phase) * scale / super::SCALE_NORMAL as f64) / max
    }
}
