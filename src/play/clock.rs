//! Chess clocks for `engine play --time BASE+INC`: the time control as typed, the two clocks,
//! and how much of its own clock the engine may spend on one move.
//!
//! The base is in minutes and the increment in seconds, as players say it ("5+3"). Each side's
//! clock loses the time it took for a move and then gains the increment; a clock that would go
//! below zero stays at zero and that side has lost on time (its flag fell).

use std::fmt;
use std::time::Duration;

use crate::types::Color;

/// What the engine keeps back on its own clock for printing and process overhead.
const ENGINE_OVERHEAD: Duration = Duration::from_millis(50);
/// The engine plans as if this many moves remained to be played on its clock.
const MOVES_TO_GO: u32 = 30;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `MINUTES[+SECONDS]`, e.g. `5+3`, `10`, `0.5+1`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (base, increment),
            None => (text, "0"),
        };
        let minutes = parse_amount(base)
            .ok_or_else(|| format!("time control '{text}': expected MINUTES+SECONDS, e.g. 5+3"))?;
        let seconds = parse_amount(increment).ok_or_else(|| {
            format!("time control '{text}': the increment '{increment}' is not a number of seconds")
        })?;
        if minutes <= 0.0 {
            return Err(format!(
                "time control '{text}': the base time must be above zero"
            ));
        }
        if minutes > 24.0 * 60.0 || seconds > 3600.0 {
            return Err(format!(
                "time control '{text}': more than a day is not a game"
            ));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(minutes * 60.0),
            increment: Duration::from_secs_f64(seconds),
        })
    }

    /// The PGN `TimeControl` tag value: seconds, `+` increment in seconds (e.g. `300+3`).
    pub fn pgn_tag(&self) -> String {
        let seconds = |duration: Duration| {
            let value = duration.as_secs_f64();
            if value.fract() == 0.0 {
                format!("{value:.0}")
            } else {
                format!("{value}")
            }
        };
        format!("{}+{}", seconds(self.base), seconds(self.increment))
    }
}

fn parse_amount(text: &str) -> Option<f64> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// Both sides' remaining time.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Indexed by `Color::index()`.
    remaining: [Duration; 2],
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: [control.base; 2],
        }
    }

    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color.index()]
    }

    /// Charges `color` for a move that took `spent`; false when its flag fell.
    pub fn charge(&mut self, color: Color, spent: Duration) -> bool {
        let remaining = &mut self.remaining[color.index()];
        if spent >= *remaining {
            *remaining = Duration::ZERO;
            return false;
        }
        *remaining = *remaining - spent + self.control.increment;
        true
    }

    /// How long the engine, playing `color`, may think about its next move: an even share
    /// of the clock plus most of the increment, never closer to zero than the overhead.
    pub fn engine_budget(&self, color: Color) -> Duration {
        let remaining = self.remaining(color);
        let share = remaining / MOVES_TO_GO + self.control.increment * 3 / 4;
        let ceiling = if remaining > ENGINE_OVERHEAD * 2 {
            remaining - ENGINE_OVERHEAD
        } else {
            remaining / 2
        };
        share.min(ceiling)
    }

    /// One line with both clocks, e.g. `White 4:58   Black 5:00`.
    pub fn describe(&self) -> String {
        format!(
            "White {}   Black {}",
            ClockTime(self.remaining(Color::White)),
            ClockTime(self.remaining(Color::Black))
        )
    }
}

/// A remaining time as shown on a clock: `m:ss`, with tenths under ten seconds.
pub struct ClockTime(pub Duration);

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = self.0.as_millis() / 100;
        let seconds = tenths / 10;
        if seconds < 10 {
            write!(f, "0:0{}.{}", seconds, tenths % 10)
        } else {
            let hours = seconds / 3600;
            let minutes = seconds / 60 % 60;
            if hours > 0 {
                write!(f, "{hours}:{minutes:02}:{:02}", seconds % 60)
            } else {
                write!(f, "{minutes}:{:02}", seconds % 60)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        let control = TimeControl::parse("5+3").expect("valid");
        assert_eq!(control.base, Duration::from_secs(300));
        assert_eq!(control.increment, Duration::from_secs(3));
        assert_eq!(control.pgn_tag(), "300+3");
        let control = TimeControl::parse("0.5").expect("valid");
        assert_eq!(control.pgn_tag(), "30+0");
        assert_eq!(
            TimeControl::parse("1+0.5").expect("valid").pgn_tag(),
            "60+0.5"
        );
        for bad in ["", "x", "5+", "+3", "-1+2", "0+3", "5+y", "1e9"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_run_and_fall() {
        let mut clock = Clock::new(TimeControl::parse("1+2").expect("valid"));
        assert!(clock.charge(Color::White, Duration::from_secs(10)));
        assert_eq!(clock.remaining(Color::White), Duration::from_secs(52));
        assert_eq!(clock.describe(), "White 0:52   Black 1:00");
        assert!(!clock.charge(Color::Black, Duration::from_secs(61)));
        assert_eq!(clock.remaining(Color::Black), Duration::ZERO);
        assert_eq!(
            ClockTime(Duration::from_millis(9_450)).to_string(),
            "0:09.4"
        );
        assert_eq!(ClockTime(Duration::from_secs(3725)).to_string(), "1:02:05");
    }

    #[test]
    fn engine_keeps_within_its_clock() {
        let clock = Clock::new(TimeControl::parse("5+3").expect("valid"));
        assert_eq!(
            clock.engine_budget(Color::White),
            Duration::from_millis(12_250)
        );
        let mut short = Clock::new(TimeControl::parse("0.001").expect("valid"));
        assert!(short.engine_budget(Color::Black) < Duration::from_millis(60));
        assert!(short.charge(Color::Black, Duration::from_millis(59)));
        assert!(short.engine_budget(Color::Black) <= Duration::from_millis(1));
    }
}
