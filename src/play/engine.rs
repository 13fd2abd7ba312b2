//! Ox88 as the opponent: the searcher, the chosen strength and the random source for the
//! strength's choice. The game loop asks it for a move within a time budget, for a hint and
//! for its view of a draw offer.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::moves::Move;
use crate::position::Position;
use crate::search::{Limits, Score, Searcher};
use crate::strength::{Rng, Strength};
use crate::time::TimeManager;

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
        let mut limits = Limits {
            time: TimeManager::fixed(budget),
            ..Limits::infinite()
        };
        self.strength.restrict(&mut limits);
        limits.multipv = limits.multipv.min(legal.len());
        let stop = Arc::new(AtomicBool::new(false));
        let result = self.searcher.search(pos, &limits, &stop, &mut |_| {});
        self.strength
            .choose_in(pos, &result.lines, &mut self.rng)
            .or(result.best)
            .filter(|mv| legal.contains(mv))
            .or(Some(legal[0]))
    }

    /// Full-strength analysis of the position within `budget` (hints, draw offers).
    pub fn assess(&mut self, pos: &Position, budget: Duration) -> Assessment {
        if pos.legal_moves().is_empty() {
            return Assessment {
                best: None,
                score: Score::Centipawns(0),
            };
        }
        let limits = Limits {
            time: TimeManager::fixed(budget),
            ..Limits::infinite()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let result = self.searcher.search(pos, &limits, &stop, &mut |_| {});
        Assessment {
            best: result.best,
            score: result.score,
        }
    }
}
