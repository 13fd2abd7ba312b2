//! Everything the engine says to the GUI is formatted here and written by `Output::line`,
//! which locks stdout for the whole line and flushes it, so lines from the main thread
//! (`readyok`) and the search thread (`info`, `bestmove`) never interleave mid-line and never
//! sit in a buffer.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use super::debug_log::{DebugLog, Direction};
use crate::moves::Move;
use crate::search::{Bound, Progress, PvLine, Score};

/// The single writer to stdout, and the debug log (`debug_log`) beside it. Write errors on
/// stdout (a closed pipe) are ignored: the GUI is gone and the loop will see end of input.
#[derive(Clone, Default)]
pub struct Output {
    log: Arc<DebugLog>,
}

impl Output {
    pub fn line(&self, text: &str) {
        let mut log = self.log.lock();
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        let _ = writeln!(lock, "{text}");
        if let Some(path) = log.record(Direction::Out, Instant::now(), text) {
            let _ = writeln!(
                lock,
                "info string Debug Log File {path} could not be written; logging stopped"
            );
        }
        let _ = lock.flush();
    }

    /// Logs a line received from the GUI at `at` (nothing when no log is open).
    pub fn received(&self, text: &str, at: Instant) {
        // The lock ends with this statement: `info_string` below takes it again.
        let failed = self.log.lock().record(Direction::In, at, text);
        if let Some(path) = failed {
            self.info_string(&format!(
                "Debug Log File {path} could not be written; logging stopped"
            ));
        }
    }

    /// The debug log, to open and close with `Debug Log File`.
    pub fn log(&self) -> &DebugLog {
        &self.log
    }

    /// `info string …`, one line per line of `text` (an info string cannot span lines).
    pub fn info_string(&self, text: &str) {
        for part in text.lines() {
            self.line(&format!("info string {part}"));
        }
    }
}

/// Win/draw/loss in permille for a centipawn score, from a logistic model: the chance to win
/// is `1 / (1 + exp((WDL_CENTER - cp) / WDL_SCALE))`, the chance to lose is the mirror image,
/// and the draw takes the rest. Mate scores are certain.
pub fn wdl(score: Score) -> (u32, u32, u32) {
    const WDL_CENTER: f64 = 200.0;
    const WDL_SCALE: f64 = 80.0;
    match score {
        Score::Mate(moves) if moves > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Centipawns(cp) => {
            let cp = f64::from(cp.clamp(-4000, 4000));
            let win = (1000.0 / (1.0 + ((WDL_CENTER - cp) / WDL_SCALE).exp())).round() as u32;
            let loss = (1000.0 / (1.0 + ((WDL_CENTER + cp) / WDL_SCALE).exp())).round() as u32;
            let draw = 1000u32.saturating_sub(win + loss);
            (win, draw, 1000 - win - draw)
        }
    }
}

/// `cp N` or `mate N` (moves, not plies), with the bound when the search failed high or low.
pub fn score_text(score: Score, bound: Bound) -> String {
    let mut text = match score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => text.push_str(" lowerbound"),
        Bound::Upper => text.push_str(" upperbound"),
    }
    text
}

/// One `info depth … pv …` line for one PV line.
pub fn iteration_line(
    progress: &Progress,
    line: &PvLine,
    show_multipv: bool,
    show_wdl: bool,
    chess960: bool,
) -> String {
    let millis = progress.time.as_millis() as u64;
    let nps = progress.nodes.saturating_mul(1000) / millis.max(1);
    let mut text = format!(
        "info depth {} seldepth {}",
        progress.depth.max(0),
        progress.seldepth.max(progress.depth).max(0)
    );
    if show_multipv {
        text.push_str(&format!(" multipv {}", line.multipv));
    }
    text.push_str(&format!(" score {}", score_text(line.score, line.bound)));
    if show_wdl {
        let (win, draw, loss) = wdl(line.score);
        text.push_str(&format!(" wdl {win} {draw} {loss}"));
    }
    text.push_str(&format!(
        " nodes {} nps {nps} hashfull {}",
        progress.nodes,
        progress.hashfull.min(1000)
    ));
    if let Some(tbhits) = progress.tbhits {
        text.push_str(&format!(" tbhits {tbhits}"));
    }
    text.push_str(&format!(" time {millis}"));
    if !line.moves.is_empty() {
        text.push_str(" pv");
        for mv in &line.moves {
            text.push(' ');
            text.push_str(&mv.to_uci(chess960));
        }
    }
    text
}

/// `info depth D currmove M currmovenumber N`.
pub fn current_move_line(depth: i32, mv: Move, number: usize, chess960: bool) -> String {
    format!(
        "info depth {depth} currmove {} currmovenumber {number}",
        mv.to_uci(chess960)
    )
}

/// `bestmove M [ponder P]`, or `bestmove (none)` without a legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(best), None) => format!("bestmove {}", best.to_uci(chess960)),
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            best.to_uci(chess960),
            ponder.to_uci(chess960)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::flag;
    use crate::types::parse_square;
    use std::time::Duration;

    fn mv(from: &str, to: &str, kind: u16) -> Move {
        Move::new(
            parse_square(from).expect("square"),
            parse_square(to).expect("square"),
            kind,
        )
    }

    #[test]
    fn scores_and_bounds() {
        assert_eq!(score_text(Score::Centipawns(-35), Bound::Exact), "cp -35");
        assert_eq!(
            score_text(Score::Mate(3), Bound::Lower),
            "mate 3 lowerbound"
        );
        assert_eq!(
            score_text(Score::Mate(-2), Bound::Upper),
            "mate -2 upperbound"
        );
    }

    #[test]
    fn wdl_is_symmetric_and_sums_to_1000() {
        for cp in [-5000, -300, -1, 0, 1, 57, 300, 5000] {
            let (win, draw, loss) = wdl(Score::Centipawns(cp));
            assert_eq!(win + draw + loss, 1000, "cp {cp}");
            let (win_mirror, _, loss_mirror) = wdl(Score::Centipawns(-cp));
            assert_eq!((win, loss), (loss_mirror, win_mirror), "cp {cp}");
        }
        let (win, _, loss) = wdl(Score::Centipawns(0));
        assert_eq!(win, loss);
        assert!(wdl(Score::Centipawns(300)).0 > wdl(Score::Centipawns(100)).0);
        assert_eq!(wdl(Score::Mate(2)), (1000, 0, 0));
        assert_eq!(wdl(Score::Mate(-1)), (0, 0, 1000));
    }

    #[test]
    fn a_full_iteration_line() {
        let progress = Progress {
            depth: 5,
            seldepth: 9,
            nodes: 20_000,
            time: Duration::from_millis(40),
            hashfull: 3,
            tbhits: None,
        };
        let line = PvLine {
            multipv: 2,
            score: Score::Centipawns(31),
            value: 31,
            bound: Bound::Exact,
            moves: vec![
                mv("e2", "e4", flag::DOUBLE_PUSH),
                mv("e7", "e5", flag::DOUBLE_PUSH),
            ],
        };
        assert_eq!(
            iteration_line(&progress, &line, true, true, false),
            "info depth 5 seldepth 9 multipv 2 score cp 31 wdl 108 839 53 nodes 20000 nps 500000 \
             hashfull 3 time 40 pv e2e4 e7e5"
        );
        assert_eq!(
            iteration_line(&progress, &line, false, false, false),
            "info depth 5 seldepth 9 score cp 31 nodes 20000 nps 500000 hashfull 3 time 40 pv \
             e2e4 e7e5"
        );
        let with_tables = Progress {
            tbhits: Some(12),
            ..progress
        };
        assert_eq!(
            iteration_line(&with_tables, &line, false, false, false),
            "info depth 5 seldepth 9 score cp 31 nodes 20000 nps 500000 hashfull 3 tbhits 12 \
             time 40 pv e2e4 e7e5"
        );
    }

    #[test]
    fn bestmove_forms() {
        let castle = mv("e1", "h1", flag::CASTLE);
        let reply = mv("e8", "a8", flag::CASTLE);
        assert_eq!(bestmove_line(None, None, false), "bestmove (none)");
        assert_eq!(bestmove_line(Some(castle), None, false), "bestmove e1g1");
        assert_eq!(
            bestmove_line(Some(castle), Some(reply), true),
            "bestmove e1h1 ponder e8a8"
        );
        assert_eq!(
            current_move_line(7, castle, 3, false),
            "info depth 7 currmove e1g1 currmovenumber 3"
        );
    }
}
