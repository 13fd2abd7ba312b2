//! Random legal positions (`engine random`'s generator) as a fuzzer of the core: on each,
//! every legal move two plies deep is made and unmade with the incremental state (Zobrist
//! keys, network accumulators, piece lists) checked against a from-scratch recomputation,
//! and perft's bulk count agrees with make/unmake counting.

use ox88::moves::MoveList;
use ox88::perft::{divide, perft};
use ox88::position::Position;
use ox88::position::movegen::GenType;
use ox88::random_position::{Generator, SideChoice};

fn count_by_making(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let mut nodes = 0;
    for &mv in &list {
        pos.make_move(mv);
        pos.verify()
            .unwrap_or_else(|error| panic!("after {mv:?}: {error}"));
        nodes += count_by_making(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

#[test]
fn random_positions_keep_incremental_state_exact() {
    for (seed, chess960) in [(41, false), (42, true)] {
        let mut generator = Generator::new(seed, None, SideChoice::Any, chess960, None);
        for _ in 0..150 {
            let mut pos = generator.next_position().expect("a position");
            let fen = pos.to_fen();
            pos.verify()
                .unwrap_or_else(|error| panic!("{fen}: {error}"));
            let made = count_by_making(&mut pos, 2);
            assert_eq!(made, perft(&mut pos, 2), "{fen}");
            let divided: u64 = divide(&mut pos, 2).iter().map(|(_, nodes)| nodes).sum();
            assert_eq!(divided, made, "{fen}");
            assert_eq!(pos.to_fen(), fen, "unmake restores the position");
            let reparsed = Position::from_fen(&fen).expect("its own FEN parses");
            assert_eq!(reparsed.key(), pos.key(), "{fen}");
        }
    }
}
