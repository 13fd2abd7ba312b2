//! `engine random`, `analyze`, `selftest`, `replay` and the `--json` outputs from the
//! outside: what they print, their exit codes, and the refusals (exit code 2).

mod uci_support;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use uci_support::Engine;

fn engine(args: &[&str]) -> Output {
    engine_with(args, &[])
}

fn engine_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_engine"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the engine runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ox88-cli-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn random_is_reproducible_and_parses() {
    let first = engine(&["random", "--count", "50", "--seed", "11"]);
    let again = engine(&["random", "--count", "50", "--seed", "11"]);
    let other = engine(&["random", "--count", "50", "--seed", "12"]);
    assert!(first.status.success());
    assert_eq!(stdout(&first), stdout(&again));
    assert_ne!(stdout(&first), stdout(&other));
    let lines: Vec<String> = stdout(&first).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 50);
    for fen in &lines {
        ox88::position::Position::from_fen(fen).expect("every line is a legal FEN");
    }
    let epd = engine(&[
        "random", "--count", "3", "--format", "epd", "--pieces", "KQvK", "--side", "white",
    ]);
    for line in stdout(&epd).lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[1], "w");
        let pieces: String = fields[0]
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect();
        let mut sorted: Vec<char> = pieces.chars().collect();
        sorted.sort_unstable();
        assert_eq!(sorted, vec!['K', 'Q', 'k'], "{line}");
    }
}

#[test]
fn random_refuses_bad_specs() {
    for args in [
        &["random", "--pieces", "KQQQQQQQQQQvK"][..],
        &["random", "--pieces", "KvKQ3P7"][..],
        &["random", "--pieces", "RvK"][..],
        &["random", "--balanced", "-5"][..],
        &["random", "--side", "red"][..],
    ] {
        let output = engine(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&output).is_empty(), "{args:?}");
    }
}

#[test]
fn random_balanced_positions_are_level() {
    let output = engine(&[
        "random",
        "--count",
        "4",
        "--balanced",
        "60",
        "--json",
        "--seed",
        "2",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.starts_with("{\"seed\":2,\"count\":4,"), "{text}");
    assert_eq!(text.matches(" 0 1\"").count(), 4, "{text}");
}

#[test]
fn analyze_prints_the_picture() {
    let output = engine(&["analyze", "--fen", "4k3/8/2n5/1B5r/5N2/8/8/4K3 b - - 0 1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("Pinned      black Nc6 by Bb5"), "{text}");
    assert!(
        text.contains("black Rh5 (1 attacked, 0 defended)"),
        "{text}"
    );
    assert!(text.contains("Control: attackers white/black"), "{text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe");

    let moves = engine(&["analyze", "--moves", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7", "--json"]);
    let json = stdout(&moves);
    assert!(json.contains("\"checkmate\":true"), "{json}");
    assert!(json.contains("\"checkers\":[\"f7\"]"), "{json}");

    for args in [
        &["analyze", "--fen", "8/8/8/8 w - - 0 1"][..],
        &["analyze", "--moves", "e4 e4"][..],
    ] {
        let output = engine(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).starts_with("engine: bad --"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn perft_and_bench_json() {
    let perft = stdout(&engine(&["perft", "3", "--divide", "--json"]));
    assert!(perft.starts_with("{\"fen\":\"rnbqkbnr/"), "{perft}");
    assert!(perft.contains("\"depth\":3,\"nodes\":8902,"), "{perft}");
    assert!(
        perft.contains("{\"move\":\"e2e4\",\"nodes\":600}"),
        "{perft}"
    );
    let bench = stdout(&engine(&["bench", "--depth", "3", "--json"]));
    assert!(
        bench.starts_with("{\"depth\":3,\"positions\":[{\"index\":1,"),
        "{bench}"
    );
    assert_eq!(bench.lines().count(), 1);
}

#[test]
fn selftest_passes_and_fails_when_broken() {
    let good = engine(&["selftest"]);
    let text = stdout(&good);
    assert!(good.status.success(), "{text}");
    assert!(text.contains("selftest passed: 5 checks"), "{text}");
    for check in ["bench", "uci"] {
        let broken = engine_with(&["selftest"], &[("OX88_SELFTEST_BREAK", check)]);
        let text = stdout(&broken);
        assert_eq!(broken.status.code(), Some(1), "{text}");
        assert!(text.contains(&format!("FAIL {check}")), "{text}");
        assert!(text.contains("selftest FAILED: 1 of 5 checks"), "{text}");
    }
    let flag = engine(&["selftest", "--break", "network"]);
    assert!(stdout(&flag).contains("FAIL network"));
    let unknown = engine(&["selftest", "--break", "everything"]);
    assert_eq!(unknown.status.code(), Some(2));
}

/// A GUI session with a debug log: two fixed searches, each awaited as a GUI would.
fn logged_session(log: &std::path::Path) {
    let mut gui = Engine::start();
    gui.send(&format!(
        "setoption name Debug Log File value {}",
        log.display()
    ));
    gui.send("uci");
    gui.read_until_prefix("uciok");
    gui.send("position startpos moves e2e4");
    gui.send("go depth 8");
    gui.bestmove();
    gui.send("isready");
    gui.read_until_prefix("readyok");
    gui.send("position fen r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    gui.send("go nodes 20000");
    gui.bestmove();
    gui.send("quit");
    assert!(gui.exits());
}

#[test]
fn replay_reproduces_a_logged_session() {
    let log = temp_path("session.log");
    logged_session(&log);
    let text = std::fs::read_to_string(&log).expect("the log was written");
    assert!(text.starts_with("# Ox88 "), "{text}");
    assert!(text.contains(">> go depth 8"), "{text}");
    assert_eq!(text.matches("<< bestmove ").count(), 2, "{text}");

    let replay = engine(&["replay", log.to_str().expect("utf-8 path")]);
    let report = stdout(&replay);
    assert!(replay.status.success(), "{report}");
    assert!(report.contains("bestmove lines: 2 of 2 equal"), "{report}");
    assert!(report.contains(" 0 differ"), "{report}");
    assert_eq!(
        std::fs::read_to_string(&log).expect("still there"),
        text,
        "the replay does not overwrite the log"
    );

    // A log whose first bestmove was something else: shown, exit 1.
    let first = text
        .lines()
        .find(|line| line.contains("<< bestmove "))
        .expect("a bestmove line")
        .to_string();
    let tampered_line = format!(
        "{} << bestmove a2a3",
        first.split("<<").next().unwrap_or("")
    );
    let tampered = temp_path("tampered.log");
    let mut file = std::fs::File::create(&tampered).expect("create");
    file.write_all(text.replacen(&first, &tampered_line, 1).as_bytes())
        .expect("write");
    drop(file);
    let replay = engine(&["replay", tampered.to_str().expect("utf-8 path")]);
    let report = stdout(&replay);
    assert_eq!(replay.status.code(), Some(1), "{report}");
    assert!(
        report.contains("bestmove 1: logged 'bestmove a2a3', replayed 'bestmove "),
        "{report}"
    );

    let broken = temp_path("broken.log");
    std::fs::write(&broken, "0 >> uci\nnot a log line\n").expect("write");
    let replay = engine(&["replay", broken.to_str().expect("utf-8 path")]);
    assert_eq!(replay.status.code(), Some(2));
    assert!(
        stderr(&replay).contains("line 2 is not"),
        "{}",
        stderr(&replay)
    );
    let missing = engine(&["replay", "/no/such/file.log"]);
    assert_eq!(missing.status.code(), Some(2));
}
