//! The bench node count is a signature: it must not depend on the run, the clock or the
//! build profile.

use ox88::bench::{POSITIONS, run_positions};
use ox88::position::Position;

#[test]
fn bench_node_count_is_deterministic() {
    let (first, first_lines) = run_positions(5);
    let (second, second_lines) = run_positions(5);
    assert_eq!(first, second);
    assert!(first > 0);
    assert_eq!(first_lines.len(), POSITIONS.len());
    for (a, b) in first_lines.iter().zip(&second_lines) {
        assert_eq!((a.nodes, &a.best), (b.nodes, &b.best), "{}", a.fen);
    }
    assert_eq!(
        first_lines.iter().map(|line| line.nodes).sum::<u64>(),
        first
    );
}

#[test]
fn bench_positions_are_valid_and_varied() {
    let mut chess960 = 0;
    let mut in_check = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FEN parses");
        assert!(pos.verify().is_ok(), "{fen}");
        assert!(!pos.legal_moves().is_empty(), "{fen} has no legal move");
        chess960 += pos.is_chess960() as usize;
        in_check += pos.in_check() as usize;
    }
    assert!(POSITIONS.len() >= 40);
    assert!(chess960 >= 2, "{chess960} Chess960 positions");
    assert!(in_check >= 1);
}
