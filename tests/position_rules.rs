//! Rules and incremental state of the position: make/unmake restores everything exactly, the
//! Zobrist key and piece-square sum never drift from a from-scratch recomputation, and the
//! tricky rules (en passant pins, castling through check, lost castling rights,
//! underpromotion, draws) come out right.

use ox88::moves::{Move, flag};
use ox88::position::Position;

/// Small deterministic generator so playouts are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

fn uci_moves(position: &Position) -> Vec<String> {
    position
        .legal_moves()
        .iter()
        .map(|mv| mv.to_uci(position.is_chess960()))
        .collect()
}

fn find(position: &Position, uci: &str) -> Move {
    position
        .legal_moves()
        .into_iter()
        .find(|mv| mv.to_uci(position.is_chess960()) == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", position.to_fen()))
}

const PLAYOUT_STARTS: [&str; 6] = [
    ox88::position::fen::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
];

#[test]
fn random_playouts_keep_incremental_state_exact() {
    let mut rng = XorShift(0x0088_5EED);
    let mut plies = 0;
    for start in PLAYOUT_STARTS {
        for _game in 0..40 {
            let mut position = pos(start);
            let mut snapshots = Vec::new();
            for _ply in 0..120 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(rng.next() % moves.len() as u64) as usize];
                snapshots.push((position.clone(), position.to_fen()));
                let predicted = position.key_after(mv);
                let rights = |fen: &str| fen.split(' ').nth(2).map(str::to_string);
                let rights_before = rights(&position.to_fen());
                position.make_move(mv);
                plies += 1;
                // The prefetch key is exact for ordinary moves and captures.
                let ordinary = !mv.is_castle()
                    && !mv.is_promotion()
                    && !mv.is_en_passant()
                    && mv.flag() != flag::DOUBLE_PUSH
                    && rights(&position.to_fen()) == rights_before;
                if ordinary {
                    assert_eq!(predicted, position.key(), "key_after {mv:?} from {start}");
                }
                position
                    .verify()
                    .unwrap_or_else(|error| panic!("after {mv:?} from {start}: {error}"));
                assert_eq!(position.key(), position.compute_key());
                // FEN round trip reproduces the same position, key included.
                let reread = pos(&position.to_fen());
                assert_eq!(reread.key(), position.key(), "{}", position.to_fen());
                assert_eq!(reread.to_fen(), position.to_fen());
                // A null move and back changes nothing.
                if !position.in_check() {
                    position.make_null_move();
                    assert_eq!(position.key(), position.compute_key());
                    position.unmake_null_move();
                }
            }
            // Unmake every move: each earlier position comes back exactly.
            while let Some((before, fen)) = snapshots.pop() {
                position.unmake_move();
                assert_eq!(position, before);
                assert_eq!(position.to_fen(), fen);
                position.verify().expect("consistent after unmake");
            }
        }
    }
    assert!(plies > 10_000, "only {plies} plies played");
}

#[test]
fn en_passant_that_exposes_the_king_on_the_rank_is_illegal() {
    let pinned = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2");
    assert!(!uci_moves(&pinned).contains(&"e5d6".to_string()));
    let free = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 2");
    assert!(uci_moves(&free).contains(&"e5d6".to_string()));
    // Capturing en passant removes a pawn that gives check.
    let check = pos("8/8/8/3pP3/4K3/8/8/7k w - d6 0 2");
    assert!(uci_moves(&check).contains(&"e5d6".to_string()));
}

#[test]
fn en_passant_square_only_when_a_capture_is_possible() {
    let mut position = Position::startpos();
    position.make_move(find(&position, "e2e4"));
    assert_eq!(position.en_passant_square(), None);
    let mut position = pos("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
    position.make_move(find(&position, "e2e4"));
    assert!(position.en_passant_square().is_some());
    assert!(uci_moves(&position).contains(&"d4e3".to_string()));
}

#[test]
fn no_castling_through_or_out_of_check() {
    let through = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    let moves = uci_moves(&through);
    assert!(!moves.contains(&"e1g1".to_string()), "castled through f1");
    assert!(moves.contains(&"e1c1".to_string()));
    let in_check = pos("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    let moves = uci_moves(&in_check);
    assert!(!moves.contains(&"e1g1".to_string()) && !moves.contains(&"e1c1".to_string()));
    // The b1 square may be attacked for the long castle; only the king's path matters.
    let b_file = pos("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(uci_moves(&b_file).contains(&"e1c1".to_string()));
    // Landing in check is not allowed either.
    let landing = pos("2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(!uci_moves(&landing).contains(&"e1c1".to_string()));
}

#[test]
fn castling_rights_go_when_the_rook_is_captured() {
    let mut position = pos("4k3/8/8/8/8/8/6b1/R3K2R b KQ - 0 1");
    position.make_move(find(&position, "g2h1"));
    assert_eq!(position.to_fen(), "4k3/8/8/8/8/8/8/R3K2b w Q - 0 2");
    assert!(!uci_moves(&position).contains(&"e1g1".to_string()));
    assert_eq!(position.key(), position.compute_key());
}

#[test]
fn chess960_castling_with_a_rook_shielding_the_king_target() {
    // King b1, castling rook c1... the classic trap: rook a1 of black behind the castling rook.
    let trap = pos("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    let moves = uci_moves(&trap);
    assert!(!moves.contains(&"c1b1".to_string()), "{moves:?}");
    let free = pos("4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    let mut position = free.clone();
    position.set_chess960(true);
    let castle = find(&position, "c1b1");
    assert!(castle.is_castle());
    position.make_move(castle);
    assert_eq!(
        position.to_fen().split(' ').next(),
        Some("4k3/8/8/8/8/8/8/2KR4")
    );
    position.unmake_move();
    assert_eq!(position, free);
}

#[test]
fn underpromotions_are_generated_and_made() {
    let position = pos("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
    let moves = uci_moves(&position);
    for promotion in [
        "a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n",
    ] {
        assert!(
            moves.contains(&promotion.to_string()),
            "{promotion} missing"
        );
    }
    let mut position = position;
    position.make_move(find(&position, "a7b8n"));
    assert_eq!(position.to_fen(), "1N5k/8/8/8/8/8/8/K7 b - - 0 1");
    position.verify().expect("consistent");
}

#[test]
fn checkmate_stalemate_and_draws() {
    assert!(pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").is_checkmate());
    assert!(pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").is_stalemate());
    assert!(!Position::startpos().is_checkmate());
    assert!(pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1").is_insufficient_material());
    assert!(pos("8/8/4k3/8/8/3K4/5N2/8 w - - 0 1").is_insufficient_material());
    assert!(pos("8/2b5/4k3/8/8/3K4/5B2/8 w - - 0 1").is_insufficient_material());
    assert!(!pos("8/3b4/4k3/8/8/3K4/5B2/8 w - - 0 1").is_insufficient_material());
    assert!(!pos("8/8/4k3/8/8/3K4/4NN2/8 w - - 0 1").is_insufficient_material());
    assert!(!pos("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1").is_insufficient_material());
    assert!(pos("8/8/4k3/8/8/3K4/8/8 w - - 100 80").is_fifty_move_draw());
}

#[test]
fn repetition_counts_game_history_and_search_path() {
    let mut position = Position::startpos();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for uci in shuffle {
        position.make_move(find(&position, uci));
    }
    // Second occurrence: a draw inside the search (path of 4 plies), not yet threefold.
    assert!(position.is_repetition(4));
    assert!(!position.is_threefold());
    for uci in shuffle {
        position.make_move(find(&position, uci));
    }
    assert!(position.is_threefold());
    // A capture or pawn move resets the clock, and with it the repetition window.
    position.make_move(find(&position, "e2e4"));
    assert!(!position.is_repetition(1));
}

#[test]
fn extreme_move_counters_do_not_overflow() {
    let mut position = pos("4k3/8/8/8/8/8/8/4K2R b K - 65535 65535");
    position.make_move(find(&position, "e8d8"));
    assert_eq!(position.halfmove_clock(), 65535);
    assert_eq!(position.fullmove_number(), 65535);
    position.unmake_move();
    assert_eq!(position.to_fen(), "4k3/8/8/8/8/8/8/4K2R b K - 65535 65535");
}
