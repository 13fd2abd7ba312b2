//! The `engine perft` command line: output format and errors (exit code 2, one line on stderr);
//! the same rule for the other tools' arguments (`datagen`, `bench`, `train`).

use std::process::{Command, Output};

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("the engine binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn perft_prints_total_time_and_speed() {
    let output = engine(&["perft", "3"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let last = text.lines().last().expect("a summary line");
    assert!(last.starts_with("nodes 8902 time "), "{last}");
    assert!(last.contains(" nps "), "{last}");
}

#[test]
fn divide_lists_every_root_move() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = engine(&["perft", "2", "--fen", kiwipete, "--divide"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let moves: Vec<&str> = text.lines().filter(|line| line.contains(": ")).collect();
    assert_eq!(moves.len(), 48);
    assert!(moves.contains(&"e1g1: 43"), "{text}");
    let sum: u64 = moves
        .iter()
        .map(|line| {
            line.rsplit(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(sum, 2039);
    assert!(
        text.lines()
            .last()
            .expect("summary")
            .starts_with("nodes 2039 ")
    );
}

#[test]
fn chess960_divide_writes_king_takes_rook() {
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let output = engine(&["perft", "1", "--fen", fen, "--divide", "--chess960"]);
    let text = stdout(&output);
    assert!(
        text.contains("e1h1: 1") && text.contains("e1a1: 1"),
        "{text}"
    );
    let standard = stdout(&engine(&["perft", "1", "--fen", fen, "--divide"]));
    assert!(
        standard.contains("e1g1: 1") && standard.contains("e1c1: 1"),
        "{standard}"
    );
    assert!(
        text.lines()
            .last()
            .expect("summary")
            .starts_with("nodes 26 ")
    );
}

#[test]
fn bad_input_exits_with_code_2_and_one_line() {
    for args in [
        vec!["perft", "3", "--fen", "not a fen"],
        vec!["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["perft", "99"],
        vec!["perft", "x"],
        vec!["perft"],
    ] {
        let output = engine(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(!error.trim().is_empty(), "{args:?}: no message");
        assert!(stdout(&output).is_empty(), "{args:?}: printed to stdout");
        assert!(!error.contains("panicked"), "{args:?}: {error}");
    }
    let output = engine(&["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(error.contains("king"), "{error}");
}

#[test]
fn tool_arguments_the_machine_cannot_meet_exit_with_code_2_and_a_message() {
    let output_path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("datagen-refused.txt");
    let _ = std::fs::remove_file(&output_path);
    let output_arg = output_path.to_str().expect("a UTF-8 temporary path");
    let net_path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("train-refused.nnue");
    let net_arg = net_path.to_str().expect("a UTF-8 temporary path");
    for (args, message) in [
        (
            vec![
                "datagen",
                "--hash",
                "100000000",
                "--games",
                "1",
                "--output",
                output_arg,
            ],
            "cannot allocate 100000000 MB for the hash table",
        ),
        (
            vec![
                "datagen",
                "--hash",
                "18446744073709551615",
                "--output",
                output_arg,
            ],
            "cannot allocate 18446744073709551615 MB",
        ),
        (
            vec!["datagen", "--threads", "100000", "--output", output_arg],
            "--threads 100000 is out of range",
        ),
        (
            vec!["bench", "--depth", "0"],
            "bench depth 0 is out of range",
        ),
        (
            vec!["train", "--data", "no-such-data.bin", "--output", net_arg],
            "cannot open no-such-data.bin",
        ),
        (
            vec![
                "train", "--data", "x.bin", "--output", net_arg, "--lr", "NaN",
            ],
            "train: --lr must be a finite number above 0",
        ),
        (
            vec![
                "train", "--data", "x.bin", "--output", net_arg, "--hidden", "0",
            ],
            "train: --hidden, --batch and --epochs must be positive",
        ),
        (
            vec![
                "train",
                "--data",
                "x.bin",
                "--output",
                net_arg,
                "--score-weight",
                "2",
            ],
            "train: --score-weight must be in 0..=1",
        ),
    ] {
        let output = engine(&args);
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
        assert!(error.contains(message), "{args:?}: {error}");
        assert_eq!(error.trim().lines().count(), 1, "{args:?}: {error}");
        assert!(stdout(&output).is_empty(), "{args:?}: printed to stdout");
    }
    assert!(
        !output_path.exists(),
        "a refused datagen must not create its output file"
    );
    assert!(!net_path.exists(), "a refused train must not write a net");
}
