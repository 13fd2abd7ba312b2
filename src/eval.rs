//! The evaluation as a person sees it (UCI `eval`). The engine evaluates with its network
//! (`nnue`, kept up to date by `Position`); this module shows the network's evaluation and
//! what each piece contributes to it, as
//! the evaluation with the piece minus the evaluation without it (kings stay: a board
//! without one is no chess position). The network is not a sum of piece values, so the
//! contributions need not add up to the total; they show what the net thinks each piece is
//! doing where it stands.

use std::fmt::Write;

use crate::json::Json;
use crate::position::Position;
use crate::types::{Color, PieceType, Square, from_64, make_square, square_name, to_64};

/// Centipawns as pawns with a sign, e.g. `+1.25`.
fn pawns(centipawns: i32) -> String {
    format!("{:+.2}", centipawns as f64 / 100.0)
}

/// The network's evaluation of `pos` from white's point of view, in centipawns.
pub fn white_eval(pos: &Position) -> i32 {
    match pos.side_to_move() {
        Color::White => pos.network_eval(),
        Color::Black => -pos.network_eval(),
    }
}

/// What the piece on `sq` adds to the evaluation (white's view, centipawns): the evaluation
/// minus the evaluation with the piece lifted. `None` for kings and empty squares.
pub fn contribution(pos: &Position, sq: Square) -> Option<i32> {
    let piece = pos.piece_at(sq);
    if piece.is_none() || piece.kind() == PieceType::King {
        return None;
    }
    let net = pos.network();
    let mut without = pos.accumulator();
    net.sub(&mut without, piece, to_64(sq));
    let side = pos.side_to_move();
    let after = net.evaluate(&without, side, pos.piece_total() - 1);
    let after = if side == Color::White { after } else { -after };
    Some(white_eval(pos) - after)
}

/// `eval json`: the evaluation, both points of view, the net, and each piece's contribution.
pub fn network_json(pos: &Position) -> Json {
    let net = pos.network();
    let mut pieces = Vec::new();
    for index in 0..64 {
        let sq = from_64(index);
        let piece = pos.piece_at(sq);
        if piece.is_none() {
            continue;
        }
        pieces.push(Json::object([
            ("square", Json::from(square_name(sq))),
            ("piece", Json::from(piece.fen_char().to_string())),
            ("contribution_cp", Json::from(contribution(pos, sq))),
        ]));
    }
    Json::object([
        ("fen", Json::from(pos.to_fen())),
        ("eval_white_cp", Json::from(white_eval(pos))),
        ("eval_side_to_move_cp", Json::from(pos.network_eval())),
        ("net_checksum", Json::from(format!("{:016x}", net.checksum))),
        ("kernels", Json::from(net.kernel_name())),
        ("pieces", Json::Array(pieces)),
    ])
}

/// The board of contributions and the total, in the text `eval` prints.
pub fn describe_network(pos: &Position) -> String {
    let net = pos.network();
    let total = white_eval(pos);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Network contributions (white's view, pawns: evaluation minus evaluation without the piece)"
    );
    let border = format!("+{}", "-------+".repeat(8));
    for rank in (0..8).rev() {
        let _ = writeln!(text, "{border}");
        let mut letters = String::from("|");
        let mut values = String::from("|");
        for file in 0..8 {
            let sq = make_square(file, rank);
            let piece = pos.piece_at(sq);
            if piece.is_none() {
                letters.push_str("       |");
                values.push_str("       |");
                continue;
            }
            let _ = write!(letters, "   {}   |", piece.fen_char());
            let Some(value) = contribution(pos, sq) else {
                values.push_str("       |");
                continue;
            };
            let _ = write!(values, "{:^7}|", pawns(value));
        }
        let _ = writeln!(text, "{letters}");
        let _ = writeln!(text, "{values}");
    }
    let _ = writeln!(text, "{border}");
    let _ = writeln!(text);
    let _ = writeln!(
        text,
        "Network evaluation  {} (white's view; {} to move: {})",
        pawns(total),
        if pos.side_to_move() == Color::White {
            "white"
        } else {
            "black"
        },
        pawns(pos.network_eval())
    );
    let _ = writeln!(
        text,
        "Net checksum {:016x}, {} kernels",
        net.checksum,
        net.kernel_name()
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The same position with the colours exchanged and the board mirrored top to bottom.
    fn flip(fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let swap = |text: &str| -> String {
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
        let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = swap(fields[2]).chars().collect();
        castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        let castling: String = castling.into_iter().collect();
        let en_passant = match fields[3] {
            "-" => "-".to_string(),
            square => {
                let rank = 9 - square[1..].parse::<u8>().unwrap();
                format!("{}{rank}", &square[..1])
            }
        };
        format!("{} {side} {castling} {en_passant} 0 1", board.join("/"))
    }

    #[test]
    fn the_embedded_net_knows_material() {
        let start = Position::startpos();
        assert!(
            white_eval(&start).abs() < 80,
            "start {}",
            white_eval(&start)
        );
        // Queen odds for black, either side to move.
        for fen in [
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert!(white_eval(&pos) > 500, "{fen}: {}", white_eval(&pos));
        }
    }

    #[test]
    fn a_colour_flipped_position_evaluates_the_same() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/3q4/8/8/3P4/4K3 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let flipped = Position::from_fen(&flip(fen)).unwrap();
            assert_eq!(
                pos.network_eval(),
                flipped.network_eval(),
                "{fen} / {}",
                flip(fen)
            );
            assert_eq!(white_eval(&pos), -white_eval(&flipped));
        }
    }

    #[test]
    fn a_new_network_resums_every_stored_accumulator() {
        let mut pos = Position::startpos();
        for uci in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "b8d7",
        ] {
            let mv = pos.find_uci_move(uci, false).unwrap();
            pos.make_move(mv);
        }
        pos.make_null_move();
        let weights: Vec<i16> = (0..crate::nnue::INPUTS * crate::nnue::HIDDEN)
            .map(|i| (i % 31) as i16 - 15)
            .collect();
        let other = crate::nnue::file::serialize(
            &weights,
            &[3; crate::nnue::HIDDEN],
            &[5; crate::nnue::OUTPUT_BUCKETS * 2 * crate::nnue::HIDDEN],
            &[100; crate::nnue::OUTPUT_BUCKETS],
            400,
        );
        let before = pos.network_eval();
        pos.set_network(Arc::new(crate::nnue::file::parse(&other).unwrap()));
        assert_ne!(pos.network_eval(), before);
        pos.verify().unwrap();
        pos.unmake_null_move();
        while !pos.history().is_empty() {
            pos.unmake_move();
            pos.verify().unwrap();
        }
    }

    #[test]
    fn the_description_shows_every_piece_and_the_total() {
        let pos = Position::from_fen("4k3/8/8/3q4/8/8/3P4/4K3 w - - 0 1").unwrap();
        let text = describe_network(&pos);
        assert!(text.contains("   q   |"), "{text}");
        assert!(text.contains("   P   |"), "{text}");
        assert!(text.contains(&format!("Network evaluation  {}", pawns(white_eval(&pos)))));
        // A queen is worth a lot to its side: its contribution is strongly negative for white.
        let queen_line = text
            .lines()
            .skip_while(|line| !line.contains("   q   |"))
            .nth(1)
            .unwrap();
        let value: f64 = queen_line
            .split('|')
            .filter_map(|cell| cell.trim().parse().ok())
            .next()
            .unwrap();
        assert!(value < -3.0, "{queen_line}");
    }
}
