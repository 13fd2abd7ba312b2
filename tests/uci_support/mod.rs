//! Drives the real `engine` binary over pipes for the UCI integration tests.
//!
//! A reader thread forwards every stdout line into a channel, so a test can wait for a line
//! with a generous timeout (a hang fails the test instead of blocking it; no test asserts how
//! fast anything is).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use ox88::position::Position;
use ox88::position::fen::START_FEN;

/// Long enough for any single answer on a loaded two-core machine.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `PATIENCE` or when the engine closed stdout.
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one that satisfies `done`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let Some(line) = self.next_line() else {
                panic!(
                    "no matching line; transcript so far:\n{}",
                    self.transcript.join("\n")
                );
            };
            let finished = done(&line);
            seen.push(line);
            if finished {
                return seen;
            }
        }
    }

    pub fn read_until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(|line| line.starts_with(prefix))
    }

    /// `isready` and the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|line| line == "readyok");
        lines.pop();
        lines
    }

    /// Waits for the `bestmove` line and returns all lines up to it.
    pub fn bestmove(&mut self) -> Vec<String> {
        self.read_until_prefix("bestmove")
    }

    /// True when the process exits within `PATIENCE`.
    pub fn exits(&mut self) -> bool {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The word after `bestmove`.
pub fn best_of(lines: &[String]) -> String {
    let last = lines.last().expect("at least the bestmove line");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{last}");
    words.next().expect("bestmove names a move").to_string()
}

/// Is `text` a legal move (UCI text) in `fen` after `moves`?
pub fn is_legal(fen: Option<&str>, moves: &[&str], text: &str) -> bool {
    let mut pos = Position::from_fen(fen.unwrap_or(START_FEN)).expect("test FEN is valid");
    for &played in moves {
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_uci(pos.is_chess960()) == played)
            .expect("test moves are legal");
        pos.make_move(mv);
    }
    let chess960 = pos.is_chess960();
    pos.legal_moves()
        .iter()
        .any(|mv| mv.to_uci(chess960) == text)
}

/// The value after `key` in an `info` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        if word == key {
            return words.next();
        }
    }
    None
}
