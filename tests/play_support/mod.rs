//! Runs `engine play` as a child process with a scripted stdin, for the `play_*` tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// `engine play --no-color --seed 7 ARGS` with `input` on stdin, then end of input.
pub fn play(args: &[&str], input: &str) -> Run {
    play_slowly(args, input, Duration::ZERO)
}

/// Like `play`, but keeps stdin open for `pause` after writing `input`.
pub fn play_slowly(args: &[&str], input: &str, pause: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["play", "--no-color", "--seed", "7"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine binary starts");
    {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        stdin
            .write_all(input.as_bytes())
            .expect("the engine reads its input");
        std::thread::sleep(pause);
    }
    let output = child.wait_with_output().expect("the engine finishes");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code(),
    }
}

/// A fresh path under the system temp directory for this test.
pub fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ox88-play-{}-{name}", std::process::id()))
}
