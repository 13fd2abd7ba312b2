//! The UCI protocol over pipes, against the real binary: handshake, options, `go` variants,
//! `bestmove` exactly once per `go`, `isready`/`stop`/`quit` during searches, pondering,
//! Chess960 castling and the `d`/`eval`/`go perft` extensions.

mod uci_support;

use std::time::{Duration, Instant};

use ox88::position::Position;
use uci_support::{Engine, best_of, field, is_legal};

#[test]
fn handshake_lists_every_option() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until(|line| line == "uciok");
    assert_eq!(
        lines[0],
        format!("id name Ox88 {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for expected in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Adaptive Overhead type check default true",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2430 min 600 max 2430",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name EvalFile type string default <embedded>",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Debug Log File type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|line| line == expected),
            "missing '{expected}'"
        );
    }
    assert!(engine.sync().is_empty());
    engine.send("quit");
    assert!(engine.exits());
}

#[test]
fn go_depth_gives_info_with_score_then_one_legal_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 3");
    let lines = engine.bestmove();
    let best = best_of(&lines);
    assert!(is_legal(None, &["e2e4", "e7e5"], &best), "{best}");
    let final_info = &lines[lines.len() - 2];
    assert!(final_info.starts_with("info depth "), "{final_info}");
    assert!(
        final_info.contains(" score cp ") || final_info.contains(" score mate "),
        "{final_info}"
    );
    for key in ["seldepth", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(field(final_info, key).is_some(), "no {key} in {final_info}");
    }
    assert!(engine.sync().is_empty(), "nothing after bestmove");
}

#[test]
fn go_before_any_position_searches_the_start_position() {
    let mut engine = Engine::start();
    engine.send("go depth 2");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &[], &best), "{best}");
}

#[test]
fn go_arguments_in_any_order_and_subset() {
    let mut engine = Engine::start();
    for go in [
        "go nodes 2000 depth 4",
        "go movetime 50",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go binc 10 btime 2000 movestogo 5 wtime 2000 winc 10",
        "go wtime 50 winc 0 btime 50 binc 0",
        "go wtime 0 btime 0",
        "go wtime -100 btime -100",
        "go btime 1000",
        "go mate 1 depth 2",
        "go depth 1 nodes 500 movetime 1000",
        "go wtime 1000 btime 1000 movestogo 1000000",
    ] {
        engine.send("position startpos moves d2d4");
        engine.send(go);
        let best = best_of(&engine.bestmove());
        assert!(is_legal(None, &["d2d4"], &best), "{go}: {best}");
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 3 searchmoves h2h3 zz99");
    let lines = engine.bestmove();
    assert_eq!(best_of(&lines), "h2h3");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string searchmoves: 'zz99'"))
    );
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut engine = Engine::start();
    // Checkmated (fool's mate) and stalemated.
    engine.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    engine.send("go depth 3");
    let lines = engine.bestmove();
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert_eq!(lines[lines.len() - 2], "info depth 0 score mate 0");
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go wtime 1000 btime 1000");
    let lines = engine.bestmove();
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert_eq!(lines[lines.len() - 2], "info depth 0 score cp 0");
}

#[test]
fn fifty_quick_go_stop_cycles_each_get_exactly_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    for cycle in 0..50 {
        match cycle % 3 {
            0 => engine.send("go infinite"),
            1 => engine.send("go wtime 100000 btime 100000"),
            _ => engine.send("go depth 30"),
        }
        engine.send("stop");
    }
    let mut bestmoves = 0;
    while bestmoves < 50 {
        let lines = engine.bestmove();
        let best = best_of(&lines);
        assert!(is_legal(None, &["e2e4"], &best), "{best}");
        bestmoves += 1;
    }
    // The next bestmove belongs to this marker search: no stray 51st one came before it.
    engine.send("go depth 1 searchmoves h7h6");
    assert_eq!(best_of(&engine.bestmove()), "h7h6");
    assert!(engine.sync().is_empty());
}

#[test]
fn isready_is_answered_during_a_search_without_ending_it() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until_prefix("info depth");
    let before_ready = engine.sync();
    assert!(
        before_ready
            .iter()
            .all(|line| !line.starts_with("bestmove")),
        "{before_ready:?}"
    );
    engine.send("stop");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &[], &best));
}

#[test]
fn infinite_and_ponder_hold_bestmove_back() {
    let mut engine = Engine::start();
    // depth 1 completes at once; `infinite` must still wait for `stop`.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go infinite depth 1");
    engine.read_until_prefix("info depth 1");
    let waiting = engine.sync();
    assert!(
        waiting.iter().all(|line| !line.starts_with("bestmove")),
        "{waiting:?}"
    );
    engine.send("stop");
    assert_eq!(best_of(&engine.bestmove()), "a1a8");

    // A finished ponder search waits for ponderhit.
    engine.send("go ponder depth 1");
    engine.read_until_prefix("info depth 1");
    let waiting = engine.sync();
    assert!(
        waiting.iter().all(|line| !line.starts_with("bestmove")),
        "{waiting:?}"
    );
    engine.send("ponderhit");
    assert_eq!(best_of(&engine.bestmove()), "a1a8");

    // A ponder search on a clock continues under the clock after ponderhit.
    engine.send("go ponder wtime 3000 btime 3000");
    engine.read_until_prefix("info depth 1");
    engine.send("ponderhit");
    assert_eq!(best_of(&engine.bestmove()), "a1a8");

    // Stop during ponder also gives exactly one bestmove.
    engine.send("go ponder wtime 3000 btime 3000");
    engine.send("stop");
    engine.bestmove();
    engine.send("go depth 1 searchmoves g1f1");
    assert_eq!(best_of(&engine.bestmove()), "g1f1");
}

#[test]
fn quit_during_a_search_exits() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until_prefix("info depth");
    engine.send("quit");
    assert!(engine.exits());
}

#[test]
fn end_of_input_exits_idle_and_mid_search() {
    let mut idle = Engine::start();
    idle.close_input();
    assert!(idle.exits());
    let mut searching = Engine::start();
    searching.send("go infinite");
    searching.read_until_prefix("info depth");
    searching.close_input();
    assert!(searching.exits());
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Chess960 value true");
    // Shredder-FEN; the king on b1 castles with the rook on a1 ("b1a1") and on h1 ("b1h1").
    engine.send("position fen r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1 moves b1h1");
    engine.send("d");
    let board = engine.sync();
    assert!(
        board.iter().all(|line| !line.starts_with("info string")),
        "{board:?}"
    );
    assert!(
        board
            .iter()
            .any(|line| line == " | R |   |   |   |   | R | K |   | 1"),
        "{board:?}"
    );
    engine.send("position fen r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1");
    engine.send("go depth 1 searchmoves b1a1");
    assert_eq!(best_of(&engine.bestmove()), "b1a1");
    // Standard chess writes castling king-two-squares.
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    engine.send("go depth 1 searchmoves e1g1");
    assert_eq!(best_of(&engine.bestmove()), "e1g1");
}

#[test]
fn display_eval_and_perft_extensions() {
    let mut engine = Engine::start();
    engine.send("position fen 4k3/8/8/8/7b/8/4r3/4K3 w - - 0 1");
    engine.send("d");
    let board = engine.sync();
    assert!(
        board
            .iter()
            .any(|line| line == "Fen: 4k3/8/8/8/7b/8/4r3/4K3 w - - 0 1")
    );
    assert!(
        board.iter().any(|line| line == "Checkers: e2 h4"),
        "{board:?}"
    );
    assert!(
        board
            .iter()
            .any(|line| line.starts_with("Key: ") && line.len() == 21)
    );
    engine.send("eval");
    assert!(!engine.sync().is_empty());
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.read_until_prefix("Nodes searched");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert_eq!(lines.iter().filter(|line| line.contains(": ")).count(), 21);
    assert!(lines.iter().any(|line| line == "e2e4: 600"));
    assert_eq!(lines[lines.len() - 2], "");
    engine.send("bench 2");
    let signature = engine.read_until(|line| line.ends_with(" nps"));
    let words: Vec<&str> = signature[signature.len() - 1].split_whitespace().collect();
    assert_eq!(words.len(), 4, "{signature:?}");
    assert!(
        words[0].parse::<u64>().is_ok_and(|nodes| nodes > 0),
        "{signature:?}"
    );
    assert_eq!(words[1], "nodes");
}

#[test]
fn show_wdl_and_multipv_annotate_info_lines() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("setoption name MultiPV value 2");
    engine.send("go depth 2");
    let lines = engine.bestmove();
    let info = &lines[lines.len() - 2];
    assert!(field(info, "wdl").is_some(), "{info}");
    assert!(field(info, "multipv").is_some(), "{info}");
}

#[test]
fn options_take_effect_and_setoption_during_a_search_waits() {
    let mut engine = Engine::start();
    engine.send("setoption name Hash value 32");
    engine.send("setoption name Clear Hash");
    engine.send("setoption name Threads value 2");
    engine.send("ucinewgame");
    assert!(engine.sync().is_empty());
    engine.send("go infinite");
    engine.send("setoption name Hash value 8");
    engine.send("setoption name Move Overhead value 100");
    engine.send("stop");
    engine.bestmove();
    assert!(engine.sync().is_empty());
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 1200");
    engine.send("go depth 3");
    let best = best_of(&engine.bestmove());
    assert!(is_legal(None, &[], &best));
}

/// The line of `eval` that gives the network's total.
fn network_total(lines: &[String]) -> String {
    lines
        .iter()
        .find(|line| line.starts_with("Network evaluation"))
        .cloned()
        .unwrap_or_else(|| panic!("no total in {lines:?}"))
}

#[test]
fn eval_file_loads_a_net_and_refuses_a_bad_one_keeping_the_current() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let good = dir.join("uci-evalfile-good.nnue");
    let truncated = dir.join("uci-evalfile-truncated.nnue");
    let net = std::fs::read("src/nnue/ox88.nnue").expect("the embedded net is in the repository");
    std::fs::write(&good, &net).unwrap();
    std::fs::write(&truncated, &net[..net.len() / 2]).unwrap();

    let mut engine = Engine::start();
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send("eval");
    let embedded = network_total(&engine.sync());

    for bad in [
        truncated.display().to_string(),
        "/no/such/net.nnue".to_string(),
        "/dev/zero".to_string(),
        dir.display().to_string(),
    ] {
        engine.send(&format!("setoption name EvalFile value {bad}"));
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("info string EvalFile not loaded")
                    && line.ends_with("still using <embedded>")),
            "{lines:?}"
        );
        engine.send("eval");
        assert_eq!(network_total(&engine.sync()), embedded);
    }
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string EvalFile")
                && line.contains(" loaded (checksum ")),
        "{lines:?}"
    );
    engine.send("eval");
    assert_eq!(
        network_total(&engine.sync()),
        embedded,
        "the same net, the same total"
    );
    engine.send("go depth 3");
    assert!(best_of(&engine.bestmove()).len() >= 4);
    engine.send("quit");
    assert!(engine.exits());
}

/// A fake GUI whose clock charges every move of ours `lag` more than the time between its
/// `go` and our `bestmove`: three moves as White at 3+0. Returns the engine's lines.
fn play_against_a_lagging_clock(engine: &mut Engine, lag: Duration) -> Vec<String> {
    engine.send("ucinewgame");
    let mut position = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut clock_ms: i64 = 3_000;
    let mut lines = Vec::new();
    for _ in 0..3 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let sent = Instant::now();
        engine.send(&format!("go wtime {clock_ms} btime 3000 winc 0 binc 0"));
        let answer = engine.bestmove();
        let charged = sent.elapsed() + lag;
        clock_ms -= charged.as_millis() as i64;
        let ours = best_of(&answer);
        lines.extend(answer);
        for text in [Some(ours), None] {
            let legal = position.legal_moves();
            let mv = match text {
                Some(text) => *legal
                    .iter()
                    .find(|mv| mv.to_uci(false) == text)
                    .expect("bestmove is legal"),
                None => legal[0],
            };
            moves.push(mv.to_uci(false));
            position.make_move(mv);
        }
    }
    lines
}

/// The overhead in a "Move Overhead raised to N ms" line.
fn raised_overhead(lines: &[String]) -> Option<i64> {
    lines.iter().find_map(|line| {
        let rest = line.strip_prefix("info string Move Overhead raised to ")?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[test]
fn a_lagging_gui_clock_raises_the_move_overhead_unless_fixed() {
    let lag = Duration::from_millis(300);
    let mut engine = Engine::start();
    let lines = play_against_a_lagging_clock(&mut engine, lag);
    // The GUI charged at least `lag` more than the engine could have measured (its own
    // measure lies inside the GUI's), so the overhead rises at least that far.
    let raised =
        raised_overhead(&lines).unwrap_or_else(|| panic!("the overhead is raised: {lines:?}"));
    assert!(raised >= 300, "raised to {raised} ms");

    let mut fixed = Engine::start();
    fixed.send("setoption name Adaptive Overhead value false");
    let lines = play_against_a_lagging_clock(&mut fixed, lag);
    assert_eq!(raised_overhead(&lines), None, "{lines:?}");
}

#[test]
fn syzygy_path_loads_tables_that_the_search_probes() {
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let mut engine = Engine::start();
    engine.send("setoption name SyzygyPath value /no/such/ox88/tables");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string SyzygyPath not loaded")),
        "{lines:?}"
    );
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables.display()
    ));
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string SyzygyPath")
                && line.contains("5 WDL and 5 DTZ tables: 5 with 3 pieces")),
        "{lines:?}"
    );
    // KQvKR, the rook hanging: the tree probes the 3-piece endings after captures.
    let fen = "4k3/8/8/8/8/8/3r4/4KQ2 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 6");
    let lines = engine.bestmove();
    assert_eq!(best_of(&lines), "e1d2");
    let final_info = &lines[lines.len() - 2];
    let hits: u64 = field(final_info, "tbhits")
        .and_then(|text| text.parse().ok())
        .unwrap_or(0);
    assert!(hits > 0, "{final_info}");
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3");
    let lines = engine.bestmove();
    assert!(!lines[lines.len() - 2].contains("tbhits"), "{lines:?}");
    engine.send("quit");
    assert!(engine.exits());
}

#[test]
fn debug_log_file_refusals_keep_the_session() {
    let mut engine = Engine::start();
    engine.send("setoption name Debug Log File value /no/such/ox88/dir/session.log");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string Debug Log File not opened: cannot create")),
        "{lines:?}"
    );
    engine.send("setoption name Debug Log File value <empty>");
    engine.send("analyze xml");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string analyze takes no argument")),
        "{lines:?}"
    );
    engine.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    engine.send("analyze json");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.contains("no valid position is set")),
        "{lines:?}"
    );
    engine.send("position startpos");
    engine.send("analyze json");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("{\"fen\":\"rnbqkbnr/")
                && line.contains("\"legal_moves\":20")),
        "{lines:?}"
    );
    engine.send("quit");
    assert!(engine.exits());
}
