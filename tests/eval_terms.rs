//! Each evaluation term points the right way on hand-made positions, and the end-game rules
//! (scaling, KBN vs K, the rule of the square) do what their docs say.
//!
//! Terms are read from `eval::breakdown`, white minus black, so a position built to show one
//! feature for white must give that term the expected sign whatever the tuned weights are.

use ox88::eval::endgame::scale_factor;
use ox88::eval::params::Term;
use ox88::eval::{SCALE_NORMAL, breakdown, describe, evaluate};
use ox88::position::Position;
use ox88::tapered::S;
use ox88::types::Color;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// White-minus-black sum of one term.
fn term(fen: &str, wanted: Term) -> S {
    breakdown(&position(fen))
        .rows
        .iter()
        .filter(|(term, _)| *term == wanted)
        .map(|(_, [white, black])| *white - *black)
        .fold(S::ZERO, |sum, value| sum + value)
}

/// Middle-game plus end-game value of one term (its overall direction).
fn total(fen: &str, wanted: Term) -> i32 {
    let value = term(fen, wanted);
    value.mg() + value.eg()
}

#[test]
fn pawn_structure_signs() {
    // White's e-pawn is passed; black's pawns are not.
    assert!(total("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1", Term::PassedPawn) > 0);
    // A further advanced passer is worth more.
    assert!(
        total("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", Term::PassedPawn)
            > total("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", Term::PassedPawn)
    );
    // White's a-pawn is isolated, black's f/g pawns are not.
    assert!(total("4k3/5pp1/8/8/8/8/P5P1/4K3 w - - 0 1", Term::IsolatedPawn) < 0);
    // White has doubled c-pawns.
    assert!(total("4k3/1pp5/8/8/8/2P5/1PP5/4K3 w - - 0 1", Term::DoubledPawn) < 0);
    // White's d3 pawn is behind its neighbours and black's e5 pawn guards d4... from c5.
    assert!(total("4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1", Term::BackwardPawn) < 0);
    // White's d4/e4 phalanx against black's split pawns.
    assert!(total("4k3/p6p/8/8/3PP3/8/8/4K3 w - - 0 1", Term::ConnectedPawn) > 0);
}

#[test]
fn passed_pawn_king_distance_and_race() {
    // Black's king far from white's passer is better for white than a near one.
    let far = evaluate(&position("7k/8/8/8/1P6/8/8/K7 b - - 0 1"));
    let near = evaluate(&position("8/8/8/1k6/1P6/8/8/K7 b - - 0 1"));
    assert!(far < near, "far {far} near {near} (black's view)");
    // Rule of the square: with the king on e5, white to move queens by force, black to move
    // catches the pawn; a king on d6 stands inside the square anyway.
    let runs = "8/8/8/P3k3/8/8/8/K7 w - - 0 1";
    let caught = "8/8/8/P3k3/8/8/8/K7 b - - 0 1";
    let inside = "8/8/3k4/P7/8/8/8/K7 w - - 0 1";
    assert!(total(runs, Term::UnstoppablePasser) > 0);
    assert_eq!(total(caught, Term::UnstoppablePasser), 0);
    assert_eq!(total(inside, Term::UnstoppablePasser), 0);
    assert!(evaluate(&position(runs)) > evaluate(&position(inside)) + 100);
}

#[test]
fn piece_terms_signs() {
    // Knight in the centre against a knight in the corner.
    assert!(total("n3k3/8/8/8/3N4/8/8/4K3 w - - 0 1", Term::KnightMobility) > 0);
    // A rook on an open file against one behind its own pawn.
    assert!(total("3rk3/3p4/8/8/8/8/8/4KR2 w - - 0 1", Term::RookOpenFile) > 0);
    assert!(
        total(
            "3rk3/3p4/8/8/8/8/3P4/3RK3 w - - 0 1",
            Term::RookSemiOpenFile
        ) == 0
    );
    // Two bishops against bishop and knight.
    assert!(total("2b1k1n1/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::BishopPair) > 0);
    // White's pawn attacks black's knight.
    assert!(total("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", Term::ThreatByPawn) > 0);
}

#[test]
fn king_safety_signs() {
    // Same material; white's king keeps its pawn shield, black's shield has advanced.
    let sheltered = "6k1/8/5ppp/8/8/8/5PPP/6K1 w - - 0 1";
    assert!(total(sheltered, Term::PawnShield) > 0);
    // A queen and a rook that reach no square of black's king zone add nothing.
    let attack = "6k1/5ppp/8/8/8/8/5PPP/3RQ1K1 w - - 0 1";
    assert!(
        term(
            "6k1/5ppp/3Q4/8/8/8/5PPP/6K1 w - - 0 1",
            Term::KingAttackWeight
        )
        .mg()
            > 0
    );
    assert_eq!(term(attack, Term::KingAttackWeight), S::ZERO);
}

#[test]
fn tempo_belongs_to_the_side_to_move() {
    assert!(total("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Term::Tempo) > 0);
    assert!(total("4k3/8/8/8/8/8/8/4K3 b - - 0 1", Term::Tempo) < 0);
}

#[test]
fn drawish_endings_scale_toward_zero() {
    let knn = position("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1");
    assert_eq!(scale_factor(&knn, Color::White), 0);
    assert!(evaluate(&knn).abs() < 60, "KNN vs K: {}", evaluate(&knn));
    let rook_bishop = position("4kb2/8/8/8/8/8/8/3RK3 w - - 0 1");
    assert_eq!(scale_factor(&rook_bishop, Color::White), SCALE_NORMAL / 8);
    assert!(
        evaluate(&rook_bishop).abs() < 80,
        "KR vs KB: {}",
        evaluate(&rook_bishop)
    );
    let rook_knight = position("4kn2/8/8/8/8/8/8/3RK3 w - - 0 1");
    assert_eq!(scale_factor(&rook_knight, Color::White), SCALE_NORMAL / 8);
    let minor_minor = position("4kn2/8/8/8/8/8/8/3BK3 w - - 0 1");
    assert_eq!(scale_factor(&minor_minor, Color::White), 0);
    // A minor-piece edge without pawns: KRB vs KR.
    let edge = position("4kr2/8/8/8/8/8/8/2BRK3 w - - 0 1");
    assert_eq!(scale_factor(&edge, Color::White), SCALE_NORMAL / 8);
    // With pawns the stronger side keeps winning chances, the more the more pawns it has
    // and the wider they are spread: one pawn (one flank) 36 + 7 - 4, a full set 64.
    let pawns = position("4kb2/8/8/8/8/8/4P3/3RK3 w - - 0 1");
    assert_eq!(scale_factor(&pawns, Color::White), 39);
    let two_flanks = position("4kb2/8/8/8/8/8/P3P3/3RK3 w - - 0 1");
    assert_eq!(scale_factor(&two_flanks, Color::White), 50);
    let full = position("4kb2/pppp1ppp/8/8/8/8/PPPPPPPP/3RK3 w - - 0 1");
    assert_eq!(scale_factor(&full, Color::White), SCALE_NORMAL);
    // Opposite-coloured bishops halve the end-game score.
    let ocb = position("2b1k3/8/8/8/8/8/4PP2/2B1K3 w - - 0 1");
    assert_eq!(scale_factor(&ocb, Color::White), SCALE_NORMAL / 2);
    let same = position("4kb2/8/8/8/8/8/4PP2/2B1K3 w - - 0 1");
    assert_eq!(scale_factor(&same, Color::White), 36 + 2 * 7 - 4);
}

#[test]
fn bishop_and_knight_mate_drives_to_the_right_corner() {
    // Dark-squared bishop (c1... here e3 is dark): the mating corners are a1 and h8.
    let right = evaluate(&position("7k/8/8/8/8/4BN2/8/4K3 w - - 0 1"));
    let wrong = evaluate(&position("k7/8/8/8/8/4BN2/8/4K3 w - - 0 1"));
    assert!(right > wrong, "right {right} wrong {wrong}");
    assert!(right > 600);
    // Seen from black's side the score is negative.
    assert!(evaluate(&position("7k/8/8/8/8/4BN2/8/4K3 b - - 0 1")) < -600);
    // A bare king against a rook is pushed to the edge.
    let edge = evaluate(&position("7k/8/8/8/8/8/8/R3K3 w - - 0 1"));
    let centre = evaluate(&position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"));
    assert!(edge > centre);
}

#[test]
fn describe_shows_every_part() {
    let text = describe(&Position::startpos());
    for needle in [
        "Material",
        "Piece square",
        "Knight mobility",
        "Tempo",
        "Final evaluation",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    let text = describe(&pos);
    let last = text.lines().last().expect("describe has lines");
    assert!(last.contains(&format!("{} cp", evaluate(&pos))), "{last}");
}

#[test]
fn start_position_is_balanced() {
    let start = evaluate(&Position::startpos());
    let tempo = total("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Term::Tempo);
    assert!(start.abs() <= tempo.abs() + 5, "start {start}");
}
