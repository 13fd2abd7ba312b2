//! The evaluation is colour-blind: a position and its mirror image (ranks flipped, colours
//! and side to move swapped) get the same score for the side to move. Checked on the perft
//! suite and on positions reached by random play from it, so every term (pawn races, king
//! shelter, end-game scaling) meets both colours.

use ox88::eval::params::current;
use ox88::eval::{PawnTable, breakdown, evaluate, evaluate_cached, trace::trace};
use ox88::position::Position;

/// The colour-flipped FEN: ranks mirrored, piece colours and side to move swapped.
fn flip_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        swap_case(fields[2])
    };
    let en_passant = if fields[3] == "-" {
        "-".to_string()
    } else {
        let bytes = fields[3].as_bytes();
        format!("{}{}", bytes[0] as char, (b'1' + b'8' - bytes[1]) as char)
    };
    let mut flipped = format!("{} {side} {castling} {en_passant}", board.join("/"));
    for clock in fields.iter().skip(4) {
        flipped.push(' ');
        flipped.push_str(clock);
    }
    flipped
}

fn suite_fens() -> Vec<String> {
    let path = format!("{}/perft/perftsuite.epd", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.lines()
        .filter_map(|line| line.split(';').next())
        .map(|fen| fen.trim().to_string())
        .filter(|fen| !fen.is_empty())
        .collect()
}

/// The suite plus positions from seeded random playouts (deterministic).
fn positions() -> Vec<Position> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    for fen in suite_fens() {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        out.push(pos.clone());
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            pos.make_move(mv);
            out.push(Position::from_fen(&pos.to_fen()).expect("a reached position is valid"));
        }
    }
    out
}

#[test]
fn flip_helper_round_trips() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(flip_fen(&flip_fen(fen)), fen);
    assert_eq!(
        flip_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 2"),
        "k6K/8/8/8/3Pp3/8/8/8 b - d3 0 2"
    );
}

#[test]
fn evaluation_is_symmetric() {
    let all = positions();
    assert!(all.len() > 5000, "only {} positions", all.len());
    for pos in &all {
        let fen = pos.to_fen();
        let mirrored = Position::from_fen(&flip_fen(&fen)).expect("mirror is valid");
        assert_eq!(evaluate(pos), evaluate(&mirrored), "{fen}");
    }
}

/// The pawn table is exact: along random games made with make/unmake (so the incremental
/// pawn-king key is what finds the entries), one shared table gives the uncached score at
/// every ply, whether the entry was a hit, a miss, or overwritten by another position.
#[test]
fn pawn_table_matches_uncached_evaluation() {
    let mut table = PawnTable::new();
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut checked = 0;
    for fen in suite_fens() {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        for _ in 0..80 {
            assert_eq!(
                evaluate_cached(&pos, &mut table),
                evaluate(&pos),
                "{}",
                pos.to_fen()
            );
            // Twice: the second call is a hit.
            assert_eq!(evaluate_cached(&pos, &mut table), evaluate(&pos));
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos.make_move(moves[(state % moves.len() as u64) as usize]);
        }
        // Back to the start: unmake restores the key, and the table still agrees.
        while !pos.history().is_empty() {
            pos.unmake_move();
        }
        assert_eq!(evaluate_cached(&pos, &mut table), evaluate(&pos), "{fen}");
    }
    assert!(checked > 5000, "only {checked} positions");
}

#[test]
fn breakdown_and_trace_reproduce_evaluate() {
    let weights = current();
    for pos in positions().iter().step_by(7) {
        let fen = pos.to_fen();
        let parts = breakdown(pos);
        let white = if fen.contains(" w ") {
            evaluate(pos)
        } else {
            -evaluate(pos)
        };
        assert_eq!(parts.white, white, "{fen}");
        if let Some(linear) = trace(pos) {
            let value = linear.evaluate(&weights);
            assert!(
                (value - white as f64).abs() <= 1.0,
                "{fen}: trace {value} vs {white}"
            );
        } else {
            assert!(parts.special.is_some(), "{fen}");
        }
    }
}
