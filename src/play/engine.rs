//! Ox88 as the opponent: the searcher, the chosen strength and the random source for the
//! strength's choice. The game loop asks it for a move within a time budget, for a hint and
//! for its view of a draw offer.

use std::time::Duration;

use crate::moves::Move;
use crate::position::Position;
use crate::random::Rng;
use crate::search::{Limits, Score, SearchSignals, Searcher};
use crate::strength::Strength;

/// Transposition table size for play: small, a terminal game needs no more.
const HASH_MB: usize = 16;

/// Thinking time per move without a clock: a modest fixed budget, longer at full strength.
/// (The level's node budget usually ends a limited search well before it.)
pub fn default_budget(strength: Strength) -> Duration {
    if strength.is_full() {
        Duration::from_millis(1000)
    } else {
        Duration::from_millis(400)
    }
}

/// Ox88 takes a draw when its own evaluation says it is worse by `DRAW_ACCEPT_WORSE`, or
/// level within `DRAW_ACCEPT_LEVEL` after `DRAW_ACCEPT_PLIES` plies.
const DRAW_ACCEPT_WORSE: i32 = -50;
const DRAW_ACCEPT_LEVEL: i32 = 20;
const DRAW_ACCEPT_PLIES: usize = 20;

/// Whether Ox88 accepts a draw offer, given an assessment `score` of the side to move
/// (`engine_to_move`: whether that is Ox88) after `plies` moves of the game.
pub fn accepts_draw(score: Score, engine_to_move: bool, plies: usize) -> bool {
    let mover_view = match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(moves) if moves > 0 => crate::search::MATE,
        Score::Mate(_) => -crate::search::MATE,
    };
    let engine_view = if engine_to_move {
        mover_view
    } else {
        -mover_view
    };
    engine_view <= DRAW_ACCEPT_WORSE
        || (plies >= DRAW_ACCEPT_PLIES && engine_view.abs() <= DRAW_ACCEPT_LEVEL)
}

/// What the engine's own evaluation says, from the side to move's point of view.
pub struct Assessment {
    pub best: Option<Move>,
    pub score: Score,
}

pub struct EnginePlayer {
    searcher: Searcher,
    pub strength: Strength,
    rng: Rng,
}

impl EnginePlayer {
    pub fn new(strength: Strength, rng: Rng) -> EnginePlayer {
        EnginePlayer {
            searcher: Searcher::new(HASH_MB),
            strength,
            rng,
        }
    }

    /// Forgets what it learned in the last game.
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The move to play at the current strength, thinking at most `budget`. `None` only
    /// when there is no legal move.
    pub fn choose_move(&mut self, pos: &Position, budget: Duration) -> Option<Move> {
        let legal = pos.legal_moves();
        match legal.len() {
            0 => return None,
            1 => return Some(legal[0]),
            _ => {}
        }
        let mut limits = Limits::movetime(budget);
        self.strength.restrict(&mut limits);
        let result = self
            .searcher
            .search(pos, &limits, &SearchSignals::new(), &mut |_| {});
        self.strength
            .pick(pos, &result, &mut self.rng)
            .map(|(mv, _)| mv)
    }

    /// Full-strength analysis of the position within `budget` (hints, draw offers).
    pub fn assess(&mut self, pos: &Position, budget: Duration) -> Assessment {
        if pos.legal_moves().is_empty() {
            return Assessment {
                best: None,
                score: Score::Centipawns(0),
            };
        }
        let result = self.searcher.search(
            pos,
            &Limits::movetime(budget),
            &SearchSignals::new(),
            &mut |_| {},
        );
        Assessment {
            best: result.best,
            score: result.score,
        }
    }
}
