//! `engine tb` from the outside: one position, a batch, and the refusals (exit code 2).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn local_tables() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/syzygy")
        .display()
        .to_string()
}

fn engine(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("the engine ends")
}

#[test]
fn one_position_prints_wdl_dtz_and_the_best_move() {
    let tables = local_tables();
    let output = engine(
        &[
            "tb",
            "--path",
            &tables,
            "--fen",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
        ],
        "",
    );
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("wdl 2 (win)"), "{text}");
    assert!(text.contains("dtz 1"), "{text}");
    assert!(text.contains("best e7e8"), "{text}");
    assert!(text.contains("e8="), "the SAN of the promotion: {text}");
}

#[test]
fn a_batch_answers_every_line_and_goes_on_after_errors() {
    let tables = local_tables();
    let input = "8/8/8/8/8/8/4KQ2/7k w - - 0 1\n\
                 not a fen\n\
                 \n\
                 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n\
                 4k3/8/8/8/8/8/8/RR2K3 w - - 0 1\n\
                 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n";
    let output = engine(&["tb", "--path", &tables, "--batch"], input);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], "wdl 2 dtz 7 best f2e1");
    assert!(lines[1].starts_with("error bad FEN"), "{}", lines[1]);
    assert!(lines[2].starts_with("error") && lines[2].contains("castling"));
    assert!(lines[3].starts_with("error 4 pieces"), "{}", lines[3]);
    assert_eq!(lines[4], "wdl -2 dtz -1 best (none)");

    let output = engine(&["tb", "--path", &tables, "--batch", "--wdl-only"], input);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().next(), Some("wdl 2"));
}

#[test]
fn bad_arguments_exit_with_code_2() {
    let tables = local_tables();
    let cases: [&[&str]; 5] = [
        &["tb", "--path", &tables],
        &["tb", "--fen", "8/8/8/8/8/8/4KQ2/7k w - - 0 1"],
        &[
            "tb",
            "--path",
            "/no/such/ox88/dir",
            "--fen",
            "8/8/8/8/8/8/4KQ2/7k w - - 0 1",
        ],
        &["tb", "--path", &tables, "--fen", "not a fen"],
        &[
            "tb",
            "--path",
            &tables,
            "--fen",
            "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1",
        ],
    ];
    for args in cases {
        let output = engine(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?} says why on stderr");
    }
}
