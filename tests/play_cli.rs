//! `engine play` command line: bad arguments fail with one line and exit code 2; plain output
//! when stdout is not a terminal; end of input ends cleanly.

mod play_support;

use std::process::Command;

use play_support::play;

fn refused(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("play")
        .args(args)
        .output()
        .expect("the engine binary runs");
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "one line for {args:?}: {stderr}");
    stderr
}

#[test]
fn bad_arguments_exit_with_code_2() {
    assert!(refused(&["--fen", "not a fen"]).starts_with("engine: bad --fen: "));
    assert!(
        refused(&["--level", "9000"])
            .starts_with("engine: bad --level: level 9000 is out of range")
    );
    assert!(refused(&["--level", "godlike"]).contains("unknown level 'godlike'"));
    assert!(refused(&["--time", "fast"]).starts_with("engine: bad --time: time control 'fast'"));
    assert!(refused(&["--time", "0+5"]).contains("base time must be above zero"));
    assert!(refused(&["--color", "purple"]).starts_with("engine: bad --color 'purple'"));
}

#[test]
fn plain_output_without_a_terminal() {
    // No --no-color here beyond the helper's; without a terminal the output is plain anyway.
    let output = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["play", "--level", "easy", "--seed", "3"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the engine binary runs");
    assert_eq!(output.status.code(), Some(0));
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(!out.contains('\x1b'), "no escape codes: {out}");
    assert!(out.contains(" 1   R  N  B  Q  K  B  N  R   1"), "{out}");
    assert!(out.trim_end().ends_with("Goodbye."), "{out}");
}

#[test]
fn end_of_input_mid_game_exits_cleanly() {
    let run = play(&["--level", "easy"], "e4");
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("You play 1. e4"), "{}", run.stdout);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn numeric_and_named_levels() {
    let run = play(&["--level", "1500"], "");
    assert!(run.stdout.contains("at level 1500 Elo."), "{}", run.stdout);
    let run = play(&["--level", "Extra"], "");
    assert!(
        run.stdout.contains("at level extra, 2000 Elo."),
        "{}",
        run.stdout
    );
}
