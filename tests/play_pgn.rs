//! `engine play` PGN output: `--pgn` at the end of a game, `save FILE`, and a check that
//! python-chess reads the file back to the same game (skipped when python3 or python-chess
//! is missing).

mod play_support;

use std::process::Command;

use play_support::{play, temp_path};

/// Reads `path` with python-chess and prints the tags and the SAN moves, one per line.
const READ_BACK: &str = r#"
import sys, chess.pgn
game = chess.pgn.read_game(open(sys.argv[1]))
assert game is not None and not game.errors, game.errors if game else "no game"
for name, value in game.headers.items():
    print(f"{name}={value}")
board = game.board()
for move in game.mainline_moves():
    print("move", board.san(move))
    board.push(move)
print("fen", board.fen())
print("outcome", board.outcome().result() if board.outcome() else "none")
"#;

fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn pgn_option_saves_the_finished_game() {
    let path = temp_path("mate.pgn");
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    let path_text = path.to_str().expect("temp path is UTF-8");
    let run = play(
        &[
            "--color", "black", "--level", "easy", "--fen", fen, "--pgn", path_text,
        ],
        "Qh4#\n",
    );
    assert!(
        run.stdout.contains(&format!("Game saved to {path_text}.")),
        "{}",
        run.stdout
    );
    let text = std::fs::read_to_string(&path).expect("the PGN file was written");
    let _ = std::fs::remove_file(&path);
    for tag in ["Event", "Site", "Date", "Round", "White", "Black"] {
        assert!(
            text.contains(&format!("[{tag} \"")),
            "{tag} missing: {text}"
        );
    }
    assert!(
        text.contains("[White \"Ox88 (easy, 1000 Elo)\"]\n[Black \"Human\"]"),
        "{text}"
    );
    assert!(
        text.contains("[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \""),
        "{text}"
    );
    assert!(text.ends_with("\n2... Qh4# 0-1\n"), "{text}");
}

#[test]
fn saved_game_reads_back_in_python_chess() {
    if !python_chess_available() {
        eprintln!("skipped: python3 with python-chess is not available");
        return;
    }
    let path = temp_path("roundtrip.pgn");
    let path_text = path.to_str().expect("temp path is UTF-8");
    // A capture with underpromotion, then castling if Ox88's reply allows it (else a king
    // move), then `save`.
    let fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let script = format!("bxa8\nn\nO-O\nKd1\nKf1\nKd2\nKf2\nsave {path_text}\n");
    let run = play(&["--level", "easy", "--time", "5+3", "--fen", fen], &script);
    assert!(run.stdout.contains("You play 1. bxa8=N"), "{}", run.stdout);
    assert!(run.stdout.contains("You play 2. "), "{}", run.stdout);
    let rust_pgn = std::fs::read_to_string(&path).expect("the PGN file was written");
    let output = Command::new("python3")
        .args(["-c", READ_BACK, path_text])
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python-chess refused the PGN: {stderr}\n{rust_pgn}"
    );
    let read = String::from_utf8_lossy(&output.stdout);
    // Every tag comes back with the same value.
    for line in rust_pgn.lines().filter(|line| line.starts_with('[')) {
        let (name, value) = line[1..line.len() - 1]
            .split_once(' ')
            .expect("tag name and value");
        let expected = format!("{name}={}", value.trim_matches('"'));
        assert!(
            read.lines().any(|line| line == expected),
            "{expected} not in {read}"
        );
    }
    // The same moves in the same SAN, in order.
    let python_moves: Vec<&str> = read
        .lines()
        .filter_map(|line| line.strip_prefix("move "))
        .collect();
    let movetext = rust_pgn
        .split("\n\n")
        .nth(1)
        .expect("movetext after the tags");
    let rust_moves: Vec<&str> = movetext
        .split_whitespace()
        .filter(|token| !token.ends_with('.') && *token != "*")
        .collect();
    assert_eq!(python_moves, rust_moves);
    assert!(python_moves.len() >= 3, "{rust_pgn}");
    assert!(read.contains("TimeControl=300+3"), "{read}");
}
