//! Static evaluation: a tapered middle-game/end-game score, side to move's point of view.
//!
//! The score is a sum of weighted terms, each counted for white and black (white minus
//! black), then blended by game phase and scaled in drawish end games:
//!
//! ```text
//!   mg, eg  = psq_score (material + piece-square, kept by Position)
//!           + pawns (passed, isolated, doubled, backward, connected, unstoppable)
//!           + pieces (mobility, king attacks, bishop pair, rooks on files, pawn threats)
//!           + king safety (pawn shield and storm) + tempo
//!   white   = (mg * phase + eg * scale / 64 * (24 - phase)) / 24
//! ```
//! Every term reports through a `Sink`: `add(color, term, index, weight, count)`. The search's
//! `evaluate` uses a sink that just sums the weights; `describe` keeps one sum per term; the
//! tuner's `trace` records the counts, so the evaluation is written once and the tuner sees
//! exactly the function the search uses (it is linear in the weights of `weights.rs`).
//! A few end games with known outcomes (KBN vs K, mating a bare king) are evaluated by
//! `endgame::special` instead.
//!
//! The tuned numbers themselves live in the leaf module `weights` (`src/weights.rs`), below
//! `position`, because the position keeps material and piece-square values incrementally
//! (`psqt`) and must not import the evaluation that sits above it.
//!
//! The search calls `evaluate_cached`: the same function, except that the terms of pawns and
//! kings alone (pawn structure, shelter) come from a per-thread `PawnTable` when it has them.

pub mod endgame;
mod king_safety;
pub mod network;
pub mod params;
mod pawn_table;
mod pawns;
mod pieces;
pub mod trace;

use std::fmt::Write;

use crate::position::Position;
use crate::tapered::S;
use crate::types::{Color, PieceType, Square, on_board};
use crate::weights;
use params::Term;
pub use pawn_table::PawnTable;

/// Game phase from 0 (bare kings and pawns) to `PHASE_MAX` (all pieces on the board).
pub const PHASE_MAX: i32 = 24;

/// End-game scale factors are out of this.
pub const SCALE_NORMAL: i32 = 64;

pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        phase += pos.count(color, PieceType::Knight) + pos.count(color, PieceType::Bishop);
        phase += 2 * pos.count(color, PieceType::Rook) + 4 * pos.count(color, PieceType::Queen);
    }
    phase.min(PHASE_MAX)
}

/// Where the terms report. `weight` is the table entry `index` of `term`; it counts `count`
/// times for `color`.
pub trait Sink {
    fn add(&mut self, color: Color, term: Term, index: usize, weight: S, count: i32);
}

/// The search's sink: one running white-minus-black sum.
pub(crate) struct Total(pub(crate) S);

impl Sink for Total {
    #[inline(always)]
    fn add(&mut self, color: Color, _term: Term, _index: usize, weight: S, count: i32) {
        match color {
            Color::White => self.0 += weight * count,
            Color::Black => self.0 -= weight * count,
        }
    }
}

/// Facts several terms share, computed once per evaluation.
pub(crate) struct Info {
    /// `pawn_attacks[color][sq]`: a pawn of `color` attacks `sq`.
    pub pawn_attacks: [[bool; 128]; 2],
    /// Per colour and file (shifted by one, so files -1 and 8 exist and are empty): the
    /// lowest relative rank of that colour's pawns (8 when none) and the highest (-1 when none).
    pub rearmost: [[i8; 10]; 2],
    pub frontmost: [[i8; 10]; 2],
}

impl Info {
    pub(crate) fn new(pos: &Position) -> Info {
        let mut info = Info {
            pawn_attacks: [[false; 128]; 2],
            rearmost: [[8; 10]; 2],
            frontmost: [[-1; 10]; 2],
        };
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for &sq in pos.squares(color, PieceType::Pawn) {
                let ahead = sq as i32 + color.forward();
                for side in [-1, 1] {
                    if on_board(ahead + side) {
                        info.pawn_attacks[c][(ahead + side) as usize] = true;
                    }
                }
                let file = (sq & 7) as usize + 1;
                let rank = color.relative_rank(sq) as i8;
                info.rearmost[c][file] = info.rearmost[c][file].min(rank);
                info.frontmost[c][file] = info.frontmost[c][file].max(rank);
            }
        }
        info
    }

    /// True when no pawn of either colour stands on `file` (0..8).
    #[inline(always)]
    pub(crate) fn file_has_pawns(&self, color: Color, file: Square) -> bool {
        self.frontmost[color.index()][file as usize + 1] >= 0
    }
}

/// All terms except material and piece-square values (which `Position` keeps).
#[inline(always)]
fn terms<T: Sink>(pos: &Position, sink: &mut T) {
    let info = Info::new(pos);
    let passed_files = pawn_table::compute(pos, &info, sink);
    piece_terms(pos, &info, passed_files, sink);
}

/// The terms that depend on more than pawns and kings (`pawn_table::compute` has the rest).
#[inline(always)]
fn piece_terms<T: Sink>(pos: &Position, info: &Info, passed_files: [u8; 2], sink: &mut T) {
    for color in [Color::White, Color::Black] {
        pawns::passers(pos, info, color, passed_files[color.index()], sink);
        pieces::evaluate(pos, info, color, sink);
    }
    sink.add(pos.side_to_move(), Term::Tempo, 0, weights::TEMPO, 1);
}

/// Blends a white-minus-black score by phase and scales its end-game half.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32, scale: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase) * scale / SCALE_NORMAL) / PHASE_MAX
}

/// The end-game scale for a score whose end-game half is `eg` (white's point of view).
#[inline(always)]
fn scale_for(pos: &Position, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    endgame::scale_factor(pos, strong)
}

/// Centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    finish(pos, || {
        let mut total = Total(pos.psq_score());
        terms(pos, &mut total);
        total.0
    })
}

/// `evaluate`, with the pawn-king terms looked up in (or added to) `table`; the search's
/// evaluation. Always equal to `evaluate(pos)`.
pub fn evaluate_cached(pos: &Position, table: &mut PawnTable) -> i32 {
    finish(pos, || {
        let info = Info::new(pos);
        let pawn_king = table.get(pos, &info);
        let mut total = Total(pos.psq_score() + pawn_king.score);
        piece_terms(pos, &info, pawn_king.passed_files, &mut total);
        total.0
    })
}

/// The known end games, else the tapered and scaled sum of the terms; side to move's view.
#[inline(always)]
fn finish(pos: &Position, sum: impl FnOnce() -> S) -> i32 {
    let white = match endgame::special(pos) {
        Some(value) => value,
        None => {
            let sum = sum();
            let scale = scale_for(pos, sum.eg());
            taper(sum.mg(), sum.eg(), phase(pos), scale)
        }
    };
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Per-term sums, for `describe` and the tests.
pub struct Breakdown {
    /// One row per term: (term, white's sum, black's sum). Material and piece-square values
    /// are counted from the piece lists.
    pub rows: Vec<(Term, [S; 2])>,
    pub phase: i32,
    /// End-game scale out of `SCALE_NORMAL`.
    pub scale: i32,
    /// Set when a known end game replaced the terms (white's point of view).
    pub special: Option<i32>,
    /// The final score from white's point of view (equals `evaluate` for white to move).
    pub white: i32,
}

struct PerTerm(Vec<(Term, [S; 2])>);

impl Sink for PerTerm {
    fn add(&mut self, color: Color, term: Term, _index: usize, weight: S, count: i32) {
        let row = match self.0.iter().position(|(known, _)| *known == term) {
            Some(row) => row,
            None => {
                self.0.push((term, [S::ZERO; 2]));
                self.0.len() - 1
            }
        };
        self.0[row].1[color.index()] += weight * count;
    }
}

/// Material and piece-square values of every piece, reported as terms.
pub(crate) fn material_terms<T: Sink>(pos: &Position, sink: &mut T) {
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            let k = kind as usize - 1;
            for &sq in pos.squares(color, kind) {
                sink.add(color, Term::Material, k, weights::MATERIAL[k], 1);
                // Tables are written rank 8 first and from white's side.
                let rank = color.relative_rank(sq) as usize;
                let written = (7 - rank) * 8 + (sq & 7) as usize;
                let weight = weights::PIECE_SQUARE[k][written];
                sink.add(color, Term::PieceSquare, k * 64 + written, weight, 1);
            }
        }
    }
}

/// Splits the evaluation into its terms.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut per_term = PerTerm(Vec::new());
    material_terms(pos, &mut per_term);
    terms(pos, &mut per_term);
    let mut sum = S::ZERO;
    for (_, sides) in &per_term.0 {
        sum += sides[0] - sides[1];
    }
    let phase = phase(pos);
    let scale = scale_for(pos, sum.eg());
    let special = endgame::special(pos);
    let white = special.unwrap_or_else(|| taper(sum.mg(), sum.eg(), phase, scale));
    Breakdown {
        rows: per_term.0,
        phase,
        scale,
        special,
        white,
    }
}

/// A human-readable breakdown of the evaluation by term (the UCI `eval` command).
pub fn describe(pos: &Position) -> String {
    let parts = breakdown(pos);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<28}|{:>14}|{:>14}|{:>14}",
        "Term", "White mg  eg", "Black mg  eg", "Total mg  eg"
    );
    let _ = writeln!(text, "{}", "-".repeat(28 + 3 * 15));
    let mut sum = S::ZERO;
    for (term, [white, black]) in &parts.rows {
        let total = *white - *black;
        sum += total;
        let _ = writeln!(
            text,
            "{:<28}|{:>7}{:>7}|{:>7}{:>7}|{:>7}{:>7}",
            params::display_name(*term),
            white.mg(),
            white.eg(),
            black.mg(),
            black.eg(),
            total.mg(),
            total.eg()
        );
    }
    let _ = writeln!(text, "{}", "-".repeat(28 + 3 * 15));
    let _ = writeln!(
        text,
        "{:<28}|{:>14}|{:>14}|{:>7}{:>7}",
        "Sum",
        "",
        "",
        sum.mg(),
        sum.eg()
    );
    let _ = writeln!(
        text,
        "Phase {} of {PHASE_MAX}, end-game scale {} of {SCALE_NORMAL}",
        parts.phase, parts.scale
    );
    if let Some(value) = parts.special {
        let _ = writeln!(
            text,
            "Known end game: {value} cp (replaces the terms above)"
        );
    }
    let relative = match pos.side_to_move() {
        Color::White => parts.white,
        Color::Black => -parts.white,
    };
    let _ = writeln!(text, "Final evaluation: {} cp (white's view)", parts.white);
    let _ = writeln!(
        text,
        "Final evaluation: {relative} cp (side to move's view)"
    );
    text
}
