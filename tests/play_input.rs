//! `engine play`: what the player types — moves in any form, refusals, promotion, commands.

mod play_support;

use play_support::play;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn illegal_moves_are_explained() {
    let run = play(&["--level", "easy"], "Nf4\ne2e5\nQh5\nO-O\nhello\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains(
            "'Nf4' is not a legal move. No knight of yours can go to f4. \
             Your knights can play: Na3, Nc3, Nf3, Nh3. Moves to f4: f4."
        ),
        "{out}"
    );
    assert!(
        out.contains("'e2e5' is not a legal move. The pawn on e2 can play: e3, e4"),
        "{out}"
    );
    assert!(out.contains("Your queen can play: none"), "{out}");
    assert!(out.contains("Castling is not possible now"), "{out}");
    assert!(
        out.contains("'hello' is neither a move nor a command"),
        "{out}"
    );
    assert!(!out.contains("You play"), "nothing was played: {out}");
}

#[test]
fn ambiguous_moves_list_the_candidates() {
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Nd2\nNfd2\n");
    let out = &run.stdout;
    assert!(
        out.contains("'Nd2' is ambiguous: it could be Nbd2 or Nfd2. Type one of them."),
        "{out}"
    );
    assert!(out.contains("You play 1. Nfd2"), "{out}");
}

#[test]
fn forgiving_input_forms() {
    let run = play(&["--level", "easy"], "E2-E4\n");
    assert!(run.stdout.contains("You play 1. e4"), "{}", run.stdout);
    let run = play(&["--level", "easy"], "g1f3\n");
    assert!(run.stdout.contains("You play 1. Nf3"), "{}", run.stdout);
}

#[test]
fn underpromotion_through_the_prompt() {
    let fen = "8/4P1k1/8/8/8/8/P7/K7 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "e8\nx\nn\nfen\n");
    let out = &run.stdout;
    assert!(out.contains("Promote to which piece? q = queen, r = rook, b = bishop, n = knight: "));
    assert!(out.contains("Please answer q, r, b or n."), "{out}");
    assert!(out.contains("You play 1. e8=N+"), "{out}");
    assert!(out.contains("Ox88 plays 1... K"), "{out}");
    // The knight stands on e8 in the final FEN.
    assert!(out.contains("Your move (White): 4N"), "{out}");
}

#[test]
fn coordinate_promotion_asks_too() {
    let fen = "8/4P1k1/8/8/8/8/P7/K7 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "e7e8\nb\n");
    assert!(
        run.stdout.contains("Promote to which piece?"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("You play 1. e8=B"), "{}", run.stdout);
}

#[test]
fn promotion_named_at_once() {
    let fen = "8/4P1k1/8/8/8/8/P7/K7 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "e7e8r\n");
    assert!(run.stdout.contains("You play 1. e8=R"), "{}", run.stdout);
    assert!(!run.stdout.contains("Promote to which piece?"));
}

#[test]
fn undo_takes_back_a_full_move() {
    let run = play(&["--level", "easy"], "e4\nundo\nfen\nundo\n");
    let out = &run.stdout;
    assert!(out.contains("You play 1. e4"), "{out}");
    assert!(out.contains("Ox88 plays 1... "), "{out}");
    assert!(out.contains("Took back 2 moves."), "{out}");
    assert!(out.contains(&format!("{START_FEN}\n")), "{out}");
    assert!(
        out.contains("There is no move of yours to take back."),
        "{out}"
    );
}

#[test]
fn undo_reopens_a_mate() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let run = play(&["--level", "easy", "--fen", fen], "Rd8#\nundo\nfen\n");
    let out = &run.stdout;
    assert!(out.contains("Checkmate: White wins."), "{out}");
    assert!(out.contains("Took back 1 move."), "{out}");
    assert!(out.contains(&format!("{fen}\n")), "{out}");
}

#[test]
fn playing_black_the_engine_moves_first() {
    let run = play(&["--color", "black", "--level", "easy"], "fen\n");
    let out = &run.stdout;
    assert!(
        out.contains("Game 1: you play Black, Ox88 plays White"),
        "{out}"
    );
    let engine = out.find("Ox88 plays 1. ").expect("the engine opened");
    let prompt = out
        .find("Your move (Black): ")
        .expect("then the human is asked");
    assert!(engine < prompt);
    // The board is drawn from Black's side: h-file on the left, rank 1 on top.
    assert!(out.contains("     h  g  f  e  d  c  b  a"), "{out}");
    assert!(out.contains("\n 1   R "), "{out}");
    // The FEN shows Black to move.
    assert!(out.contains(" b KQkq "), "{out}");
}

#[test]
fn commands_answer() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let run = play(
        &["--level", "easy", "--fen", fen],
        "help\nmoves d1\nmoves e9\nhint\nlevel hard\nlevel 99\nflip\npgn\nquit\ne4\n",
    );
    assert_eq!(run.code, Some(0));
    let out = &run.stdout;
    assert!(
        out.contains("undo            take back your last move"),
        "{out}"
    );
    assert!(
        out.contains(
            "The rook on d1 can play: Ra1, Rb1, Rc1, Rd2, Rd3, Rd4, Rd5, Rd6, Rd7, Rd8#, Re1, Rf1"
        ),
        "{out}"
    );
    assert!(out.contains("'e9' is not a square"), "{out}");
    assert!(out.contains("Hint: Rd8# (mate in 1)"), "{out}");
    assert!(
        out.contains("Ox88 now plays at level hard, 1600 Elo."),
        "{out}"
    );
    assert!(out.contains("level 99 is out of range"), "{out}");
    // flip: Black's side at the bottom.
    assert!(out.contains("     h  g  f  e  d  c  b  a"), "{out}");
    assert!(
        out.contains("[Black \"Ox88 (hard, 1600 Elo)\"]\n[Result \"*\"]"),
        "{out}"
    );
    assert!(
        out.trim_end().ends_with("Goodbye."),
        "quit ends the session: {out}"
    );
}

#[test]
fn new_game_starts_over() {
    let run = play(&["--level", "easy"], "e4\nnew\nfen\n");
    let out = &run.stdout;
    assert!(out.contains("Game 2: you play White"), "{out}");
    assert!(out.contains(&format!("{START_FEN}\n")), "{out}");
}
