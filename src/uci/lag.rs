//! Learning the lag between the GUI's clock and ours, so a slow GUI or a loaded machine does
//! not make Ox88 lose on time.
//!
//! Ox88 measures its thinking from the moment a `go` line arrives to the moment it writes
//! `bestmove`. The GUI's clock also runs while the line travels through pipes, while the
//! operating system schedules both programs and while the GUI itself reacts, and that time is
//! invisible to the engine: it is what `Move Overhead` is there to cover. When the GUI sends
//! the next `go`, its clock tells how much time it charged for our last move:
//! `old clock + increment - new clock`. The difference from our own measure is the lag. If
//! the lag of a recent move exceeds `Move Overhead`, the overhead used from then on is raised
//! to that lag plus a small margin; it never falls below the option's value (the option is the
//! floor), and `Adaptive Overhead false` keeps it fixed at the option.
//!
//! Only moves of one game in a row are compared: the same side to move, the next `go` two
//! plies later, a clock that was not refilled (`movestogo 1` starts a new period), and a
//! search on our own clock (a ponder search is measured from `ponderhit`; one that missed is
//! skipped). Anything else just starts a new comparison.

use std::collections::VecDeque;
use std::time::Duration;

use crate::types::Color;

/// How many recent moves' lags are remembered: a single slow move raises the overhead for
/// this many moves, a steadily slow GUI keeps it raised.
const RECENT_MOVES: usize = 16;
/// Added to the largest recent lag, for the jitter around it.
const MARGIN_MS: i64 = 10;
/// The largest overhead the meter sets (the option's own maximum).
pub const MAX_LEARNED_MS: i64 = 5000;

/// What the GUI said about our clock at one `go`, and where in the game it was.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockSample {
    pub side: Color,
    /// Plies since the start of the game (from the FEN's move number and side to move).
    pub game_ply: u32,
    pub remaining_ms: i64,
    pub increment_ms: i64,
    pub moves_to_go: Option<u32>,
}

/// The lag meter of one UCI session.
#[derive(Clone, Debug, Default)]
pub struct LagMeter {
    /// The last timed move: its clock and how long we measured it took (`None`: not usable).
    previous: Option<(ClockSample, Duration)>,
    /// Lags of the most recent moves, in ms, newest last.
    recent: VecDeque<i64>,
}

impl LagMeter {
    pub fn new() -> LagMeter {
        LagMeter::default()
    }

    /// Forgets the last move (a new game, a search that was not a timed move of ours).
    pub fn break_sequence(&mut self) {
        self.previous = None;
    }

    /// A `go` with a clock arrived. Compares it with the previous timed move, if it is the
    /// next move of the same game, and remembers the lag.
    pub fn observe(&mut self, now: ClockSample) {
        let Some((before, measured)) = self.previous.take() else {
            return;
        };
        let continues = before.side == now.side
            && now.game_ply == before.game_ply + 2
            && before.moves_to_go.is_none_or(|moves| moves > 1);
        if !continues {
            return;
        }
        let charged = before.remaining_ms + before.increment_ms.max(0) - now.remaining_ms;
        let lag = charged - measured.as_millis() as i64;
        // A negative lag (the GUI charged less than we thought: clock refills, rounding) tells
        // nothing about the worst case.
        if charged >= 0 && lag >= 0 {
            if self.recent.len() == RECENT_MOVES {
                self.recent.pop_front();
            }
            self.recent.push_back(lag.min(MAX_LEARNED_MS));
        }
    }

    /// Our move for `sample` was sent after `measured` of thinking on our clock, or it cannot
    /// be measured (`None`: a ponder search that missed).
    pub fn moved(&mut self, sample: ClockSample, measured: Option<Duration>) {
        self.previous = measured.map(|measured| (sample, measured));
    }

    /// The overhead to use given the option's value: the option, or the largest recent lag
    /// and a margin if that is more.
    pub fn overhead_ms(&self, option_ms: i64) -> i64 {
        let learned = self
            .recent
            .iter()
            .max()
            .map_or(0, |&lag| (lag + MARGIN_MS).min(MAX_LEARNED_MS));
        option_ms.max(learned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game_ply: u32, remaining_ms: i64) -> ClockSample {
        ClockSample {
            side: Color::White,
            game_ply,
            remaining_ms,
            increment_ms: 100,
            moves_to_go: None,
        }
    }

    /// Plays `moves` moves each measured at `think` ms while the GUI charges `think + lag`.
    fn play(meter: &mut LagMeter, moves: u32, think: i64, lag: i64) {
        let mut clock = 10_000;
        for move_number in 0..moves {
            let now = sample(2 * move_number, clock);
            meter.observe(now);
            meter.moved(now, Some(Duration::from_millis(think as u64)));
            clock += 100 - think - lag;
        }
    }

    #[test]
    fn a_lagging_gui_raises_the_overhead_to_its_lag() {
        let mut meter = LagMeter::new();
        play(&mut meter, 10, 200, 150);
        assert_eq!(meter.overhead_ms(30), 150 + MARGIN_MS);
        // The option stays the floor.
        assert_eq!(meter.overhead_ms(500), 500);
    }

    #[test]
    fn a_prompt_gui_leaves_the_option() {
        let mut meter = LagMeter::new();
        play(&mut meter, 10, 200, 0);
        assert_eq!(meter.overhead_ms(30), 30);
    }

    #[test]
    fn one_slow_move_is_forgotten_after_the_recent_window() {
        let mut meter = LagMeter::new();
        play(&mut meter, 3, 100, 400);
        assert_eq!(meter.overhead_ms(30), 410);
        // A new game (its first move is no continuation), then a lag of 5 ms on every move.
        play(&mut meter, RECENT_MOVES as u32 + 1, 100, 5);
        assert_eq!(meter.overhead_ms(30), 30);
        assert_eq!(meter.overhead_ms(0), 5 + MARGIN_MS);
    }

    #[test]
    fn only_consecutive_moves_of_one_game_are_compared() {
        let mut meter = LagMeter::new();
        let first = sample(10, 10_000);
        // Not two plies later (a new game, a jump in the game): nothing learned.
        meter.moved(first, Some(Duration::from_millis(100)));
        meter.observe(sample(20, 5_000));
        // The other side to move.
        meter.moved(first, Some(Duration::from_millis(100)));
        meter.observe(ClockSample {
            side: Color::Black,
            ..sample(12, 5_000)
        });
        // The last move of a period (the clock is refilled after it).
        meter.moved(
            ClockSample {
                moves_to_go: Some(1),
                ..first
            },
            Some(Duration::from_millis(100)),
        );
        meter.observe(sample(12, 5_000));
        // A ponder search that missed.
        meter.moved(first, None);
        meter.observe(sample(12, 5_000));
        // After a break.
        meter.moved(first, Some(Duration::from_millis(100)));
        meter.break_sequence();
        meter.observe(sample(12, 5_000));
        assert_eq!(meter.overhead_ms(0), 0);
        // And the same pair, consecutive, does teach it.
        meter.moved(first, Some(Duration::from_millis(100)));
        meter.observe(sample(12, 5_000));
        assert_eq!(meter.overhead_ms(0), MAX_LEARNED_MS);
    }

    #[test]
    fn a_clock_that_grew_teaches_nothing() {
        let mut meter = LagMeter::new();
        let first = sample(0, 1_000);
        meter.moved(first, Some(Duration::from_millis(50)));
        meter.observe(sample(2, 61_000));
        assert_eq!(meter.overhead_ms(0), 0);
    }
}
