//! Playing strength below full: one mechanism behind UCI `UCI_LimitStrength`/`UCI_Elo`,
//! UCI `Skill Level` and the levels of `engine play`.
//!
//! A weaker Ox88 is made of four knobs, all derived from one Elo number:
//!
//! 1. a node budget per move, so the search sees less (shallower tactics, like a weaker
//!    player, rather than random moves), interpolated between calibrated points;
//! 2. a MultiPV width, so the search scores a few alternatives to the best move;
//! 3. a bounded random choice among those lines: a line is eligible only when its score is
//!    within `max_loss` centipawns of the best, and among the eligible lines the chance falls
//!    off exponentially with the loss (`exp(-loss / temperature)`);
//! 4. under 1040 Elo, now and then a casual move (`choose_in`): any legal move that does not
//!    give away the piece it moves or allow mate in one, played without searching. Below
//!    1000 a smaller node budget no longer plays weaker (README, "Strength levels"), so the
//!    weakest levels differ by how often they do not look (4 % of moves at 1000, 24 % at
//!    800, 44 % at 600).
//!
//! Bounding the loss is what keeps weak levels plausible: at 1500 Elo no line more than 59
//! centipawns worse than the best is ever picked, so a queen is never given away on purpose;
//! from 1040 up the mistakes a weak level makes come from its short search horizon.
//!
//! At `FULL_STRENGTH_ELO`, the top of the range, every knob is off: no node budget, one line,
//! always the best move.
//!
//! ```text
//!   Elo     nodes   lines  max loss (cp)  temperature
//!    600      655     8        183             92
//!   1000      800     7        122             61
//!   1200      950     6         95             48
//!   1600    6 300     5         48             24
//!   2000   89 173     3         14              7
//!   2200  261 345     3          3              2
//!   2300  447 409     2          0              -
//!   2430+    full     1          0              -
//! ```
//! The calibration against Stockfish, and the mappings tried before this one, are in the
//! README ("Strength levels").

use crate::moves::Move;
use crate::position::Position;
use crate::random::Rng;
use crate::search::see::see_ge;
use crate::search::{Limits, MATE_BOUND, PvLine, SearchResult};

/// The weakest strength offered (UCI_Elo minimum, Skill Level 0).
pub const MIN_ELO: u32 = 600;
/// The top of the UCI_Elo range (Skill Level 20): full strength. A higher number could not
/// be honoured, since nothing plays stronger than the unrestricted search.
pub const MAX_ELO: u32 = FULL_STRENGTH_ELO;
/// Full strength: no limiting at all. What unrestricted Ox88 measures on Stockfish's
/// UCI_Elo scale at 10+0.1 (the setting it scores about half against), so the limited range
/// below it meets full strength without a jump. The measurements are in README, "Strength
/// levels".
pub const FULL_STRENGTH_ELO: u32 = 2430;
/// Where the loss bound reaches 0: limited levels from here to `FULL_STRENGTH_ELO` play their
/// search's best move within their node budget. It stayed at 2300 when full strength rose
/// past it, because the levels in the README were measured with it and moving it would
/// reshape every level's loss bound.
const NO_LOSS_ELO: u32 = 2300;

/// The levels a player may name, for help texts (`engine play --help` and its `help`), so a
/// recalibration that moves `MIN_ELO` or `MAX_ELO` changes them too.
pub fn level_choices() -> String {
    format!("easy, normal, hard, extra, master, or an Elo from {MIN_ELO} to {MAX_ELO}")
}

/// One line fewer every 300 Elo below this (8 at 600, 3 at 2000, never fewer than 2).
const LINES_SCALE_TOP_ELO: u32 = 2800;
/// The highest UCI `Skill Level`.
pub const MAX_SKILL_LEVEL: u32 = 20;

/// The named levels of `engine play`, weakest first, with their Elo.
pub const NAMED_LEVELS: [(&str, u32); 5] = [
    ("easy", 1000),
    ("normal", 1200),
    ("hard", 1600),
    ("extra", 2000),
    ("master", FULL_STRENGTH_ELO),
];

/// The node budget at a few Elo points; between two points it grows geometrically. Fitted
/// to calibration games (README, "Strength levels"): the budget at 1000 is the one at which
/// the first network's search scored about even against the hand-written build the levels
/// were first calibrated with, that at 1200 was shrunk when net 10 placed it near the top of
/// its band, and those at 1600 and 2000 were shrunk until games against Stockfish's limited
/// levels placed them within their bands. The last point is where the top segment would
/// end; full strength itself is unlimited.
const NODE_BUDGETS: [(u32, f64); 6] = [
    (MIN_ELO, 655.0),
    (1000, 800.0),
    (1200, 950.0),
    (1600, 6_300.0),
    (2000, 89_173.0),
    (FULL_STRENGTH_ELO, 900_000.0),
];
/// Under this Elo a level sometimes plays a casual move instead of a searched one (see
/// `Strength::choose_in`): searches of a few hundred nodes play much alike (README,
/// "Strength levels"), so the weakest levels differ by how often they do not look. Above
/// 1000, so `easy` (1000) plays a few casual moves: with net 5 it measured above its band
/// without them, and with net 10 at the top of its band with 2 %, so now 4 %.
const CASUAL_BELOW_ELO: u32 = 1040;
/// The loss bound at `MIN_ELO`; it shrinks as `(distance to NO_LOSS_ELO)^1.5`, so the
/// strong levels are hardly random at all (a linear bound made 2000 play far below 2000).
const MAX_LOSS_AT_MIN_ELO: f64 = 183.0;

/// A playing strength, on an Elo-like scale from `MIN_ELO` to `MAX_ELO` (full strength from
/// `FULL_STRENGTH_ELO` up).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength::full()
    }
}

impl Strength {
    /// No limiting.
    pub fn full() -> Strength {
        Strength { elo: MAX_ELO }
    }

    /// `UCI_Elo` (clamped into `MIN_ELO..=MAX_ELO`).
    pub fn from_elo(elo: u32) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// UCI `Skill Level` 0..=20, spread evenly from `MIN_ELO` to `FULL_STRENGTH_ELO` (20 is
    /// full strength).
    pub fn from_skill_level(level: u32) -> Strength {
        let level = level.min(MAX_SKILL_LEVEL);
        if level == MAX_SKILL_LEVEL {
            return Strength::full();
        }
        Strength::from_elo(MIN_ELO + level * (FULL_STRENGTH_ELO - MIN_ELO) / MAX_SKILL_LEVEL)
    }

    /// A named level (`easy` .. `master`, any case) or a number of Elo points in range.
    pub fn from_level_name(text: &str) -> Result<Strength, String> {
        let text = text.trim();
        if let Some(&(_, elo)) = NAMED_LEVELS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
        {
            return Ok(Strength::from_elo(elo));
        }
        match text.parse::<u32>() {
            Ok(elo) if (MIN_ELO..=MAX_ELO).contains(&elo) => Ok(Strength::from_elo(elo)),
            Ok(elo) => Err(format!(
                "level {elo} is out of range: give an Elo from {MIN_ELO} to {MAX_ELO}"
            )),
            Err(_) => Err(format!(
                "unknown level '{text}': use easy, normal, hard, extra, master or an Elo from \
                 {MIN_ELO} to {MAX_ELO}"
            )),
        }
    }

    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// True from `FULL_STRENGTH_ELO` up: the search runs unrestricted and its best move is
    /// played.
    pub fn is_full(&self) -> bool {
        self.elo >= FULL_STRENGTH_ELO
    }

    /// The level's name when it is one of the named levels, else its Elo as text.
    pub fn describe(&self) -> String {
        match NAMED_LEVELS.iter().find(|(_, elo)| *elo == self.elo) {
            Some((name, elo)) => format!("{name}, {elo} Elo"),
            None => format!("{} Elo", self.elo),
        }
    }

    /// Nodes allowed per move (`None` at full strength), interpolated in `NODE_BUDGETS`.
    pub fn node_budget(&self) -> Option<u64> {
        if self.is_full() {
            return None;
        }
        let elo = f64::from(self.elo);
        let segment = NODE_BUDGETS
            .windows(2)
            .find(|pair| self.elo < pair[1].0)
            .expect("a limited Elo lies below FULL_STRENGTH_ELO");
        let ((low_elo, low_nodes), (high_elo, high_nodes)) = (segment[0], segment[1]);
        let fraction = (elo - f64::from(low_elo)) / f64::from(high_elo - low_elo);
        Some((low_nodes * (high_nodes / low_nodes).powf(fraction)).round() as u64)
    }

    /// How many lines to search so `choose` has alternatives (1 at full strength).
    pub fn multipv(&self) -> usize {
        if self.is_full() {
            return 1;
        }
        (1 + (LINES_SCALE_TOP_ELO - self.elo) / 300).clamp(2, 8) as usize
    }

    /// The most a chosen line may score below the best one, in centipawns.
    pub fn max_loss(&self) -> i32 {
        let distance =
            f64::from(NO_LOSS_ELO.saturating_sub(self.elo)) / f64::from(NO_LOSS_ELO - MIN_ELO);
        (MAX_LOSS_AT_MIN_ELO * distance.powf(1.5)).round() as i32
    }

    /// Scale of the exponential fall-off of a line's chance with its loss, in centipawns.
    fn temperature(&self) -> f64 {
        f64::from(self.max_loss()) / 2.0
    }

    /// Tightens a search's limits to this strength: the node budget (the smaller one wins
    /// when `limits` already has one) and at least `multipv()` lines. No-op at full strength.
    pub fn restrict(&self, limits: &mut Limits) {
        if let Some(budget) = self.node_budget() {
            limits.nodes = Some(limits.nodes.map_or(budget, |nodes| nodes.min(budget)));
        }
        limits.multipv = limits.multipv.max(self.multipv());
    }

    /// The chance per move of a casual move: 0 from `CASUAL_BELOW_ELO` up, rising by 0.1 every
    /// 100 Elo under it (0.04 at 1000, 0.24 at 800, 0.44 at 600).
    pub fn casual_chance(&self) -> f64 {
        f64::from(CASUAL_BELOW_ELO.saturating_sub(self.elo)) / 1000.0
    }

    /// The move to play after `result`, and the reply to ponder on, both legal in `pos`:
    /// the search's best move at full strength, this strength's choice among the lines
    /// otherwise. A search that returned nothing usable (stopped before its first iteration)
    /// still yields a legal move; `None` only when there is no legal move. The one place the
    /// UCI loop and `engine play` decide what to play.
    pub fn pick(
        &self,
        pos: &Position,
        result: &SearchResult,
        rng: &mut Rng,
    ) -> Option<(Move, Option<Move>)> {
        let legal = pos.legal_moves();
        let searched = result.best.filter(|mv| legal.contains(mv));
        let mut best = searched.or_else(|| legal.first().copied())?;
        // The search's ponder move, else the reply in its principal variation.
        let reply_in_pv = result
            .lines
            .first()
            .filter(|line| line.moves.first() == Some(&best))
            .and_then(|line| line.moves.get(1).copied());
        let mut ponder = result
            .ponder
            .or(reply_in_pv)
            .filter(|_| searched == Some(best));
        if !self.is_full()
            && let Some(chosen) = self.choose_in(pos, &result.lines, rng)
            && chosen != best
            && legal.contains(&chosen)
        {
            best = chosen;
            ponder = None;
        }
        let ponder = ponder.filter(|&reply| {
            let mut after = pos.clone();
            after.make_move(best);
            after.is_legal(reply)
        });
        Some((best, ponder))
    }

    /// `choose`, except that with `casual_chance` the move is a casual one: any legal move
    /// that does not give away the piece it moves (SEE) and does not allow mate in one, the way
    /// a beginner plays a move without looking further. A proven mate is still never missed.
    pub fn choose_in(&self, pos: &Position, lines: &[PvLine], rng: &mut Rng) -> Option<Move> {
        let mate_found = lines
            .iter()
            .any(|line| !line.moves.is_empty() && line.value >= MATE_BOUND);
        if !mate_found && self.casual_chance() > 0.0 && rng.unit() < self.casual_chance() {
            let casual: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| see_ge(pos, mv, 0) && !allows_mate_in_one(pos, mv))
                .collect();
            if !casual.is_empty() {
                return Some(casual[rng.below(casual.len() as u64) as usize]);
            }
        }
        self.choose(lines, rng)
    }

    /// Picks the move to play from a search's lines (best first, as `SearchResult::lines`).
    /// `None` when `lines` holds no move (the caller then plays the search's best move).
    pub fn choose(&self, lines: &[PvLine], rng: &mut Rng) -> Option<Move> {
        let best = lines.iter().find(|line| !line.moves.is_empty())?;
        if self.is_full() {
            return Some(best.moves[0]);
        }
        let best_value = lines
            .iter()
            .filter(|line| !line.moves.is_empty())
            .map(|line| line.value)
            .max()
            .expect("at least one line has a move");
        // A proven mate for us is always played; a line that walks into a mate never is.
        if best_value >= MATE_BOUND || self.max_loss() == 0 {
            return Some(best.moves[0]);
        }
        let floor = best_value - self.max_loss();
        let candidates: Vec<(Move, f64)> = lines
            .iter()
            .filter(|line| !line.moves.is_empty() && line.value >= floor)
            .filter(|line| line.value > -MATE_BOUND || line.value == best_value)
            .map(|line| {
                let loss = f64::from(best_value - line.value);
                (line.moves[0], (-loss / self.temperature()).exp())
            })
            .collect();
        let total: f64 = candidates.iter().map(|(_, weight)| weight).sum();
        let mut pick = rng.unit() * total;
        for &(mv, weight) in &candidates {
            if pick < weight {
                return Some(mv);
            }
            pick -= weight;
        }
        candidates.last().map(|&(mv, _)| mv)
    }
}

/// True when some reply to `mv` mates at once.
fn allows_mate_in_one(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make_move(mv);
    after.legal_moves().iter().any(|&reply| {
        after.make_move(reply);
        let mate = after.in_check() && after.has_no_legal_move();
        after.unmake_move();
        mate
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Bound, Score};

    fn line(rank: usize, value: i32, mv: Move) -> PvLine {
        PvLine {
            multipv: rank,
            score: Score::from_internal(value),
            value,
            bound: Bound::Exact,
            moves: vec![mv],
        }
    }

    fn moves() -> [Move; 4] {
        [
            Move::new(0x14, 0x34, 0),
            Move::new(0x13, 0x33, 0),
            Move::new(0x06, 0x25, 0),
            Move::new(0x01, 0x22, 0),
        ]
    }

    #[test]
    fn levels_map_to_elo() {
        assert_eq!(Strength::from_skill_level(0).elo(), MIN_ELO);
        assert_eq!(Strength::from_skill_level(20), Strength::full());
        assert_eq!(Strength::from_skill_level(10).elo(), 1515);
        assert_eq!(Strength::from_elo(100).elo(), MIN_ELO);
        assert_eq!(
            Strength::from_level_name("Normal"),
            Ok(Strength::from_elo(1200))
        );
        assert_eq!(
            Strength::from_level_name("1500"),
            Ok(Strength::from_elo(1500))
        );
        assert!(Strength::from_level_name("5000").is_err());
        assert!(Strength::from_level_name("grandmaster").is_err());
        assert_eq!(Strength::from_elo(1200).describe(), "normal, 1200 Elo");
    }

    #[test]
    fn knobs_tighten_with_elo() {
        let full = Strength::full();
        assert_eq!(full.node_budget(), None);
        assert_eq!(full.multipv(), 1);
        assert_eq!(Strength::from_elo(600).node_budget(), Some(655));
        assert_eq!(Strength::from_elo(1000).node_budget(), Some(800));
        assert_eq!(Strength::from_elo(1200).node_budget(), Some(950));
        assert_eq!(Strength::from_elo(1600).node_budget(), Some(6_300));
        // Between points the budget grows geometrically: halfway is the geometric mean.
        assert_eq!(Strength::from_elo(1400).node_budget(), Some(2_446));
        assert_eq!(
            Strength::from_elo(FULL_STRENGTH_ELO - 1).node_budget(),
            Some(895_174)
        );
        assert_eq!(Strength::from_elo(1200).max_loss(), 95);
        assert!(Strength::from_elo(FULL_STRENGTH_ELO).is_full());
        assert!(!Strength::from_elo(FULL_STRENGTH_ELO - 1).is_full());
        assert_eq!(Strength::from_elo(MIN_ELO).max_loss(), 183);
        assert_eq!(Strength::from_elo(600).multipv(), 8);
        let mut previous = (0, usize::MAX, i32::MAX);
        for elo in (600..FULL_STRENGTH_ELO).step_by(100) {
            let strength = Strength::from_elo(elo);
            let nodes = strength.node_budget().expect("limited");
            assert!(nodes > previous.0);
            assert!(strength.multipv() <= previous.1);
            assert!(strength.max_loss() < previous.2 || strength.max_loss() == 0);
            previous = (nodes, strength.multipv(), strength.max_loss());
        }
    }

    #[test]
    fn restrict_keeps_the_smaller_budget() {
        let mut limits = Limits::new();
        Strength::from_elo(1200).restrict(&mut limits);
        assert_eq!(limits.nodes, Strength::from_elo(1200).node_budget());
        assert_eq!(limits.multipv, 6);
        let mut limits = Limits {
            nodes: Some(100),
            ..Limits::new()
        };
        Strength::from_elo(2000).restrict(&mut limits);
        assert_eq!(limits.nodes, Some(100));
        let mut limits = Limits::new();
        Strength::full().restrict(&mut limits);
        assert_eq!((limits.nodes, limits.multipv), (None, 1));
    }

    #[test]
    fn choice_stays_within_the_loss_bound() {
        let [a, b, c, d] = moves();
        let lines = [
            line(1, 50, a),
            line(2, 20, b),
            line(3, -400, c),
            line(4, -900, d),
        ];
        let strength = Strength::from_elo(1500);
        let mut rng = Rng::new(7);
        let mut seen = [0; 4];
        for _ in 0..2000 {
            let mv = strength.choose(&lines, &mut rng).expect("lines have moves");
            seen[moves()
                .iter()
                .position(|&m| m == mv)
                .expect("one of the lines")] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!((seen[2], seen[3]), (0, 0), "a blunder was chosen: {seen:?}");
        assert_eq!(Strength::full().choose(&lines, &mut rng), Some(a));
        assert_eq!(
            Strength::from_elo(FULL_STRENGTH_ELO - 1).choose(&lines, &mut rng),
            Some(a)
        );
    }

    #[test]
    fn mates_are_taken_and_avoided() {
        let [a, b, c, _] = moves();
        let mut rng = Rng::new(1);
        let winning = [line(1, crate::search::MATE - 3, a), line(2, 40, b)];
        let losing = [
            line(1, 0, a),
            line(2, -5, b),
            line(3, -crate::search::MATE + 4, c),
        ];
        let weakest = Strength::from_elo(MIN_ELO);
        for _ in 0..200 {
            assert_eq!(weakest.choose(&winning, &mut rng), Some(a));
            assert_ne!(weakest.choose(&losing, &mut rng), Some(c));
        }
        assert_eq!(weakest.choose(&[], &mut rng), None);
    }

    #[test]
    fn casual_moves_only_under_1040_and_never_careless() {
        // Any white rook move off the first rank allows ...Re1#.
        let pos =
            Position::from_fen("4r1k1/5ppp/8/8/8/2N5/5PPP/3R2K1 w - - 0 1").expect("valid FEN");
        let a = pos.legal_moves()[0];
        let lines = [line(1, 0, a)];
        let mut rng = Rng::new(7);
        let searching = Strength::from_elo(1040);
        assert_eq!(searching.casual_chance(), 0.0);
        for _ in 0..200 {
            assert_eq!(searching.choose_in(&pos, &lines, &mut rng), Some(a));
        }
        assert!((Strength::from_elo(1000).casual_chance() - 0.04).abs() < 1e-9);
        let weakest = Strength::from_elo(MIN_ELO);
        assert!((weakest.casual_chance() - 0.44).abs() < 1e-9);
        let mut casual = 0;
        for _ in 0..2000 {
            let mv = weakest.choose_in(&pos, &lines, &mut rng).expect("a move");
            if mv != a {
                casual += 1;
                assert!(see_ge(&pos, mv, 0), "{mv:?} gives away the piece it moves");
                assert!(!allows_mate_in_one(&pos, mv), "{mv:?} allows mate");
            }
        }
        // About 42 % casual moves (one in a few of them happens to be `a` itself).
        assert!((550..1000).contains(&casual), "{casual} casual moves");
        // A proven mate is never traded for a casual move.
        let mating = [line(1, crate::search::MATE - 3, a)];
        for _ in 0..200 {
            assert_eq!(weakest.choose_in(&pos, &mating, &mut rng), Some(a));
        }
    }

    #[test]
    fn rng_is_deterministic() {
        let mut first = Rng::new(42);
        let mut second = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(first.next_u64(), second.next_u64());
            assert!(first.unit() < 1.0);
            second.unit();
            assert!(first.below(6) < 6);
            second.below(6);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
