//! `setoption name Debug Log File value <path>`: every line in and out, with the time.
//!
//! The log is what `engine replay` reads to play a GUI session back, so its layout is fixed:
//!
//! ```text
//! # Ox88 0.1.0 debug log; milliseconds since this line, '>>' in from the GUI, '<<' out
//!          0 >> uci
//!          1 << id name Ox88 0.1.0
//!       1503 >> go depth 8
//!       1690 << bestmove e2e4 ponder e7e5
//! ```
//!
//! Input is stamped when its line was read, output when it was written. One mutex guards
//! both stdout and the file in `Output::line`, so the log's order is the order the GUI saw.
//! A failed write closes the log (said once on stdout) rather than failing the session.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Mutex;
use std::time::Instant;

/// Which way a line went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the GUI to the engine: `>>`.
    In,
    /// From the engine to the GUI: `<<`.
    Out,
}

impl Direction {
    pub fn marker(self) -> &'static str {
        match self {
            Direction::In => ">>",
            Direction::Out => "<<",
        }
    }
}

struct OpenLog {
    writer: BufWriter<File>,
    opened: Instant,
    path: String,
}

/// The log file, if one is open; shared by the session and the search thread's output.
#[derive(Default)]
pub struct DebugLog {
    file: Mutex<Option<OpenLog>>,
}

/// A lock on the log, held while a line goes to stdout and to the file.
pub struct LogGuard<'a> {
    guard: std::sync::MutexGuard<'a, Option<OpenLog>>,
}

impl LogGuard<'_> {
    /// Appends `line` if a log is open. Returns the path of a log that failed and was closed.
    pub fn record(&mut self, direction: Direction, at: Instant, line: &str) -> Option<String> {
        let log = self.guard.as_mut()?;
        let millis = at.saturating_duration_since(log.opened).as_millis();
        let written = writeln!(log.writer, "{millis:>10} {} {line}", direction.marker())
            .and_then(|()| log.writer.flush());
        match written {
            Ok(()) => None,
            Err(_) => self.guard.take().map(|log| log.path),
        }
    }
}

impl DebugLog {
    pub fn lock(&self) -> LogGuard<'_> {
        LogGuard {
            // A panic while holding the lock cannot leave a half-written state worth refusing.
            guard: self
                .file
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        }
    }

    /// Starts a new log at `path` (truncating it), replacing any open one. On error the
    /// open log, if any, stays.
    pub fn open(&self, path: &str) -> Result<(), String> {
        let file = File::create(path).map_err(|error| format!("cannot create {path}: {error}"))?;
        let mut writer = BufWriter::new(file);
        writeln!(
            writer,
            "# Ox88 {} debug log; milliseconds since this line, '>>' in from the GUI, '<<' out",
            env!("CARGO_PKG_VERSION")
        )
        .and_then(|()| writer.flush())
        .map_err(|error| format!("cannot write {path}: {error}"))?;
        *self.lock().guard = Some(OpenLog {
            writer,
            opened: Instant::now(),
            path: path.to_string(),
        });
        Ok(())
    }

    pub fn close(&self) {
        *self.lock().guard = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_stamped_lines_and_reopens() {
        let dir = std::env::temp_dir().join(format!("ox88-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("a.log");
        let path_text = path.to_str().expect("utf-8 path");
        let log = DebugLog::default();
        assert!(
            log.lock()
                .record(Direction::In, Instant::now(), "ignored")
                .is_none()
        );
        log.open(path_text).expect("opens");
        log.lock().record(Direction::In, Instant::now(), "uci");
        log.lock().record(Direction::Out, Instant::now(), "uciok");
        log.close();
        log.lock()
            .record(Direction::Out, Instant::now(), "after close");
        let text = std::fs::read_to_string(&path).expect("log written");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("# Ox88 "));
        assert!(lines[1].trim_start().ends_with(">> uci"), "{}", lines[1]);
        assert!(lines[2].trim_start().ends_with("<< uciok"), "{}", lines[2]);
        assert!(
            log.open(dir.join("no/such/dir/x.log").to_str().expect("path"))
                .is_err()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
