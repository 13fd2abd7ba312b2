//! `engine play` games that end: mates, draws by rule, resignation, draw offers, time.

mod play_support;

use std::time::Duration;

use play_support::{play, play_slowly};

#[test]
fn fools_mate_by_the_human_as_black() {
    // After 1. f3 e5 2. g4; the move is typed in lower case, as people do.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    let run = play(
        &["--color", "black", "--level", "easy", "--fen", fen],
        "qh4\n",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("You play 2... Qh4#"), "{out}");
    assert!(
        out.contains("Game over. Checkmate: Black wins. Result: 0-1"),
        "{out}"
    );
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
    assert!(
        out.contains("[FEN \"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2\"]")
    );
    assert!(out.contains("\n2... Qh4# 0-1\n"), "{out}");
    assert!(
        !out.contains("Ox88 plays 3."),
        "the engine must not move after mate: {out}"
    );
}

#[test]
fn back_rank_mate_by_the_human_as_white() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Rd8+\n");
    assert_eq!(run.code, Some(0));
    assert!(
        run.stdout.contains("Checkmate: White wins. Result: 1-0"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\n1. Rd8# 1-0\n"), "{}", run.stdout);
}

#[test]
fn stalemate_is_a_draw() {
    let fen = "7k/8/6Q1/8/8/8/8/K7 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Kb2\n");
    assert_eq!(run.code, Some(0));
    let out = &run.stdout;
    assert!(
        out.contains("Game over. Stalemate: Black has no legal move and is not in check."),
        "{out}"
    );
    assert!(
        out.contains("Result: 1/2-1/2") && out.contains("[Result \"1/2-1/2\"]"),
        "{out}"
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    // Black's king can only shuttle between h8 and h7, so the engine's replies are forced.
    let fen = "5B1k/5K2/8/8/8/8/8/6R1 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Rg2\nRg1\nRg2\nRg1\n");
    let out = &run.stdout;
    assert!(out.contains("Ox88 plays 4... Kh8"), "{out}");
    assert!(
        out.contains("Game over. Draw by threefold repetition. Result: 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let fen = "5B1k/5K2/8/8/8/8/8/6R1 w - - 99 80";
    let run = play(&["--level", "easy", "--fen", fen], "Rg2\n");
    assert!(
        run.stdout.contains("Draw by the fifty-move rule"),
        "{}",
        run.stdout
    );
}

#[test]
fn insufficient_material_is_a_draw() {
    let fen = "8/8/4k3/8/8/8/3n4/4K3 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Kxd2\n");
    assert!(
        run.stdout
            .contains("Draw by insufficient material: neither side can mate."),
        "{}",
        run.stdout
    );
}

#[test]
fn resignation_loses() {
    let run = play(&["--level", "easy"], "resign\ne4\n");
    let out = &run.stdout;
    assert!(
        out.contains("Game over. White resigns: Black wins. Result: 0-1"),
        "{out}"
    );
    assert!(
        out.contains("The game is over."),
        "a move after the end is refused: {out}"
    );
    assert!(!out.contains("You play"), "{out}");
}

#[test]
fn draw_offers_follow_the_evaluation() {
    // At the start Ox88 is not worse and the game is young: declined.
    let run = play(&["--level", "easy"], "draw\n");
    assert!(
        run.stdout.contains("Ox88 declines the draw offer"),
        "{}",
        run.stdout
    );
    // A queen down, Ox88 is glad to take it.
    let lost = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", lost], "draw\n");
    let out = &run.stdout;
    assert!(out.contains("Ox88 accepts the draw offer."), "{out}");
    assert!(
        out.contains("Game over. Draw agreed. Result: 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn the_human_loses_on_time() {
    // 0.001 minutes is 60 ms; the script stays silent for longer than that.
    let run = play_slowly(
        &["--level", "easy", "--time", "0.001+0"],
        "",
        Duration::from_millis(600),
    );
    assert_eq!(run.code, Some(0));
    let out = &run.stdout;
    assert!(
        out.contains("Game over. White loses on time: Black wins. Result: 0-1"),
        "{out}"
    );
    assert!(out.contains("[TimeControl \"0.06+0\"]"), "{out}");
}

#[test]
fn the_engine_keeps_within_its_clock() {
    // Ox88 (White) has three seconds for the whole game and must not lose on time.
    let run = play(
        &["--color", "black", "--level", "master", "--time", "0.05+0"],
        "e5\nNc6\nNf6\n",
    );
    let out = &run.stdout;
    assert!(out.contains("Ox88 plays 1. "), "{out}");
    assert!(out.contains("Clock: White "), "{out}");
    assert!(!out.contains("loses on time"), "{out}");
}

#[test]
fn a_start_position_that_is_already_over() {
    // Ox88 (Black) to move is stalemated before anything is played.
    let fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "e4\n");
    assert_eq!(run.code, Some(0));
    let out = &run.stdout;
    assert!(
        out.contains("Game over. Stalemate: Black has no legal move"),
        "{out}"
    );
    assert!(out.contains("The game is over."), "{out}");
}
