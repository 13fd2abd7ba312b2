//! The player's keyboard: stdin read line by line on a thread of its own, so the game loop
//! can wait for a line with a deadline (the player's clock) and notice a flag fall on time.

use std::io::BufRead;
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

pub enum Input {
    Line(String),
    /// stdin is closed (or unreadable): the session ends.
    End,
    /// The deadline passed before a line came.
    Timeout,
}

pub struct Keyboard {
    lines: Receiver<String>,
}

impl Keyboard {
    /// Starts the reader thread. It ends at end of input; the channel then disconnects.
    pub fn spawn() -> Keyboard {
        let (sender, lines) = unbounded();
        thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Keyboard { lines }
    }

    /// The next line, waiting at most `deadline` (forever when `None`).
    pub fn read(&self, deadline: Option<Duration>) -> Input {
        match deadline {
            None => match self.lines.recv() {
                Ok(line) => Input::Line(line),
                Err(_) => Input::End,
            },
            Some(wait) => match self.lines.recv_timeout(wait) {
                Ok(line) => Input::Line(line),
                Err(RecvTimeoutError::Timeout) => Input::Timeout,
                Err(RecvTimeoutError::Disconnected) => Input::End,
            },
        }
    }
}
