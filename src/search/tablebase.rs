//! The search's use of the Syzygy tables: which nodes probe, what a result scores, and which
//! root moves the tables let the search choose from.
//!
//! Inside the tree only WDL is probed (it is cheap and needs no move search of its own), at
//! nodes right after a capture or pawn move (halfmove clock 0, so the table's assumption of
//! a fresh 50-move count holds), without castling rights, with few enough pieces and enough
//! depth left. A win scores `TB_WIN - ply`: below every mate, above every evaluation, so the
//! search still prefers a real mate it sees and otherwise heads for the won ending.
//!
//! At the root, DTZ ranks every legal move under the 50-move rule (`RootMove::search_rank`);
//! only the best-ranked moves are searched (of the winning moves the fastest to zero, so that
//! a won ending always makes progress). When that worked, the tree stops probing (the
//! root already decided the result; the search only picks among moves that keep it). Without
//! DTZ tables the root falls back to WDL alone and the tree keeps probing.

use std::sync::Arc;

use super::params::{DRAW, TB_WIN};
use crate::moves::Move;
use crate::position::Position;
use crate::syzygy::{Tablebases, Wdl};
use crate::tt::Bound;

/// The tables and the UCI settings that say when to probe them.
#[derive(Clone)]
pub struct TablebaseUse {
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: probe only with this much depth left (or fewer pieces than the
    /// limit, where a probe is always worth it).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: probe positions with at most this many pieces (0: never).
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    pub fifty_move_rule: bool,
}

impl TablebaseUse {
    /// The most pieces a probed position may have: the setting, capped by the tables found.
    pub fn cardinality(&self) -> usize {
        self.probe_limit.min(self.tables.max_pieces())
    }
}

/// A WDL result as a search score at `ply`, with the bound it gives: a win is at least
/// `TB_WIN - ply` (a lower bound: a mate could be nearer), a loss at most its mirror. Under
/// the 50-move rule cursed wins and blessed losses are draws nudged by one centipawn.
pub fn wdl_score(wdl: Wdl, ply: usize, fifty_move_rule: bool) -> (i32, Bound) {
    let draw_margin = fifty_move_rule as i32;
    let value = wdl.value();
    if value > draw_margin {
        (TB_WIN - ply as i32, Bound::Lower)
    } else if value < -draw_margin {
        (-TB_WIN + ply as i32, Bound::Upper)
    } else {
        (DRAW + value * draw_margin, Bound::Exact)
    }
}

/// What the tables decided at the root.
pub struct RootFilter {
    /// The moves the search may choose from (a subset of the legal moves).
    pub moves: Vec<Move>,
    /// True when DTZ ranked the moves: the tree need not probe.
    pub by_dtz: bool,
    /// Probes made.
    pub probes: u64,
}

/// Ranks the root moves by the tables when the root is in them; None otherwise.
pub fn filter_root(tables: &TablebaseUse, pos: &Position) -> Option<RootFilter> {
    if pos.castling_rights() != 0 || pos.piece_total() > tables.cardinality() {
        return None;
    }
    let mut pos = pos.clone();
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let clock = pos.halfmove_clock();
    if let Some(moves) = tables.tables.root_moves(&mut pos) {
        let rank = |root: &crate::syzygy::RootMove| root.search_rank(clock, tables.fifty_move_rule);
        let best = moves.iter().map(rank).max()?;
        return Some(RootFilter {
            moves: moves
                .iter()
                .filter(|root| rank(root) == best)
                .map(|root| root.mv)
                .collect(),
            by_dtz: true,
            probes: moves.len() as u64,
        });
    }

    // No DTZ: keep the moves with the best WDL after them.
    let mut scored = Vec::with_capacity(legal.len());
    for &mv in &legal {
        pos.make_move(mv);
        let wdl = tables.tables.probe_wdl(&mut pos);
        pos.unmake_move();
        let (score, _) = wdl_score(wdl?.flip(), 1, tables.fifty_move_rule);
        scored.push((mv, score));
    }
    let best = scored.iter().map(|&(_, score)| score).max()?;
    Some(RootFilter {
        moves: scored
            .iter()
            .filter(|&&(_, score)| score == best)
            .map(|&(mv, _)| mv)
            .collect(),
        by_dtz: false,
        probes: scored.len() as u64,
    })
}
