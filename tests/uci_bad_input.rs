//! Bad input over pipes: every line is answered with an `info string` (or silence) and the
//! previous valid state stays, except for a refused `position`, which leaves no position (the
//! next `go` answers `bestmove (none)`); the engine keeps answering afterwards.

mod uci_support;

use uci_support::{Engine, best_of, is_legal};

fn fen_shown(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.sync();
    lines
        .iter()
        .find_map(|line| line.strip_prefix("Fen: "))
        .expect("d prints the FEN")
        .to_string()
}

/// What `d` says when no position is set.
const NO_POSITION: &str = "info string no valid position is set";

/// `d` answers that there is no position (and prints no board).
fn shows_no_position(engine: &mut Engine) -> bool {
    engine.send("d");
    let lines = engine.sync();
    lines.len() == 1 && lines[0].starts_with(NO_POSITION)
}

#[test]
fn garbage_lines_are_reported_and_ignored() {
    let mut engine = Engine::start();
    engine.send("xyzzy");
    engine.send("");
    engine.send("   \t  ");
    engine.send(&"q".repeat(100_000));
    engine.send(&format!("position fen {}", "8/".repeat(30_000)));
    // That FEN was refused and left no position; set one again to search.
    engine.send("position startpos");
    engine.send_bytes(b"\xff\xfe garbage \x00\n");
    engine.send("go \t depth\t1\r");
    let lines = engine.bestmove();
    assert!(
        lines
            .iter()
            .any(|line| line == "info string unknown command 'xyzzy'")
    );
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string unknown command 'qqqq"))
    );
    assert!(
        lines.iter().all(|line| line.len() < 400),
        "long input is not echoed whole"
    );
    assert!(is_legal(None, &[], &best_of(&lines)));
}

#[test]
fn crlf_and_tabs_are_whitespace() {
    let mut engine = Engine::start();
    engine.send_bytes(b"isready\r\n");
    engine.read_until(|line| line == "readyok");
    engine.send_bytes(b"position\tstartpos\tmoves\te2e4\r\n");
    assert_eq!(
        fen_shown(&mut engine),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn bad_fens_leave_no_position() {
    let mut engine = Engine::start();
    for bad in [
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/R3K3 b Q - 0 1 extra",
        "position fen 4k2Q/8/8/8/8/8/8/4K3 w - - 0 1",
        "position fen K7/8/8/8/8/8/8/7k w - - 0 1 1 1 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - -5 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        "position fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "position fen 4k3/4P3/8/8/8/8/8/4K3 q - - 0 1",
        "position fen 4P3/4k3/8/8/8/8/8/4K3 w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 99999999",
        "position middlegame",
        "position",
        "position startpos e2e4",
    ] {
        engine.send("position startpos moves g1f3");
        engine.send(bad);
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("info string position refused")),
            "'{bad}' was not reported: {lines:?}"
        );
        assert!(shows_no_position(&mut engine), "after '{bad}'");
    }
    // Four fields are a valid FEN.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w - -");
    assert_eq!(fen_shown(&mut engine), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn an_illegal_move_refuses_the_whole_position() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5 e4e5 g1f3");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string position refused")
                && line.contains("'e4e5'")
                && line.contains("move 3 of the list")),
        "{lines:?}"
    );
    assert!(shows_no_position(&mut engine));
    engine.send("go depth 1");
    assert_eq!(best_of(&engine.bestmove()), "(none)");
    for garbage in ["e2", "e2e4e5", "0000", "@@@@", "e7e8x", "a1a1"] {
        engine.send("position startpos");
        engine.send(&format!("position startpos moves d2d4 {garbage}"));
        engine.sync();
        assert!(shows_no_position(&mut engine), "'{garbage}'");
    }
    // An empty list after `moves` is no move at all.
    engine.send("position startpos moves d2d4 ");
    assert_eq!(
        fen_shown(&mut engine),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    engine.send("go depth 1");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &["d2d4"], &best), "{best}");
}

#[test]
fn a_castling_right_without_its_rook_is_dropped_and_the_new_position_searched() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    engine.send("go depth 3");
    let lines = engine.bestmove();
    let dropped: Vec<&String> = lines
        .iter()
        .filter(|line| line.starts_with("info string castling right 'K' dropped"))
        .collect();
    assert_eq!(dropped.len(), 1, "{lines:?}");
    let best = best_of(&lines);
    assert!(
        best.starts_with("e1"),
        "a king move of the new position: {best}"
    );
    assert!(
        is_legal(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &[], &best),
        "{best}"
    );
    assert_eq!(fen_shown(&mut engine), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn an_en_passant_square_without_the_pawn_is_dropped_and_the_position_accepted() {
    let mut engine = Engine::start();
    // A white pawn on e5 could take on d6, but no black pawn stands on d5.
    engine.send("position fen 4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1");
    let lines = engine.sync();
    assert_eq!(
        lines,
        ["info string en passant square d6 dropped: no pawn can just have double-stepped past it"]
    );
    assert_eq!(fen_shown(&mut engine), "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
    engine.send("go depth 2");
    let best = best_of(&engine.bestmove());
    assert!(
        is_legal(Some("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1"), &[], &best),
        "{best}"
    );
    assert_ne!(best, "e5d6");
}

#[test]
fn no_position_answers_bestmove_none_until_a_valid_one() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("position fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string position refused")
                && line.contains("2 white kings")),
        "{lines:?}"
    );
    engine.send("go depth 3");
    let lines = engine.bestmove();
    assert!(
        lines.iter().any(|line| line.starts_with(NO_POSITION)),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|line| line.contains(" pv ")),
        "nothing is searched: {lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    // Exactly one bestmove, and go perft, d and eval say there is no position.
    engine.send("go perft 2");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with(NO_POSITION),
        "{lines:?}"
    );
    assert!(shows_no_position(&mut engine));
    engine.send("eval");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with(NO_POSITION),
        "{lines:?}"
    );
    // go infinite without a position still waits for stop before its bestmove.
    engine.send("go infinite");
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|line| line.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    assert_eq!(best_of(&engine.bestmove()), "(none)");
    // A valid position makes go work again.
    engine.send("position startpos moves e2e4");
    engine.send("go depth 3");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &["e2e4"], &best), "{best}");
    assert!(engine.sync().is_empty(), "no second bestmove");
}

#[test]
fn bad_option_values_are_refused() {
    let mut engine = Engine::start();
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 100000",
        "setoption name Hash value sixteen",
        "setoption name Hash",
        "setoption name Threads value -1",
        "setoption name MultiPV value 1.5",
        "setoption name Ponder value maybe",
        "setoption name Move Overhead value 99999999999999999999",
        "setoption name No Such Option value 3",
        "setoption Hash 3",
        "setoption name",
        "debug sideways",
        "bench -3",
    ] {
        engine.send(bad);
        let lines = engine.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string "),
            "'{bad}': {lines:?}"
        );
    }
    engine.send("go depth 1");
    assert!(is_legal(None, &[], &best_of(&engine.bestmove())));
}

#[test]
fn bad_go_words_are_reported_and_the_rest_still_counts() {
    let mut engine = Engine::start();
    engine.send("go depth x banana depth 2 searchmoves e2e4 q9q9 movetime");
    let lines = engine.bestmove();
    let strings = lines
        .iter()
        .filter(|line| line.starts_with("info string"))
        .count();
    assert!(strings >= 4, "{lines:?}");
    assert_eq!(best_of(&lines), "e2e4");
    engine.send("go perft 99");
    assert_eq!(engine.sync().len(), 1);
}

#[test]
fn stop_and_ponderhit_when_idle_are_harmless() {
    let mut engine = Engine::start();
    engine.send("stop");
    engine.send("ponderhit");
    engine.send("stop");
    assert!(engine.sync().is_empty());
    engine.send("go depth 1");
    engine.bestmove();
    engine.send("stop");
    engine.send("ponderhit");
    assert!(engine.sync().is_empty(), "no second bestmove");
}

#[test]
fn unknown_leading_words_are_skipped() {
    let mut engine = Engine::start();
    engine.send("joho isready");
    let lines = engine.read_until(|line| line == "readyok");
    assert_eq!(lines[0], "info string ignoring unknown words 'joho'");
}

#[test]
fn hash_larger_than_memory_is_refused_and_the_old_table_kept() {
    // 65536 MB is in range for the option but more than this machine's memory (24 GiB): the
    // allocation fails, is reported, and the engine keeps playing with its previous table. On
    // a machine that could really hand out 64 GiB the test would only waste it, so it skips.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let total_kib: u64 = meminfo
        .lines()
        .filter(|line| line.starts_with("MemTotal:") || line.starts_with("SwapTotal:"))
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    if total_kib == 0 || total_kib >= 60 * 1024 * 1024 {
        eprintln!("skipped: this machine has {total_kib} KiB of memory and swap");
        return;
    }
    let mut engine = Engine::start();
    engine.send("setoption name Hash value 65536");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string cannot allocate 65536 MB")),
        "{lines:?}"
    );
    engine.send("go depth 3");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &[], &best), "{best}");
}
