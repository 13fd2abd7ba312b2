//! Words for the player: why a typed move was refused and what could be played instead,
//! and the `moves` listing.
//!
//! A refusal names the piece and square the player seems to mean (read from the text: a
//! leading piece letter, the last square named, or the origin of a coordinate move) and lists
//! the legal moves of that piece, or of the pieces that could go to that square.

use crate::moves::Move;
use crate::position::Position;
use crate::san::SanError;
use crate::types::{Color, PieceType, Square, parse_square, square_name};

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// SAN of each move in alphabetical order, joined by commas.
fn san_list(pos: &mut Position, moves: &[Move]) -> String {
    let mut sans: Vec<String> = moves.iter().map(|&mv| pos.san(mv)).collect();
    sans.sort();
    sans.join(", ")
}

/// The `moves` command without a square: every legal move, grouped by piece kind.
pub fn all_moves(pos: &mut Position) -> String {
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    if legal.is_empty() {
        return "There are no legal moves.".to_string();
    }
    let mut text = format!("{} legal moves:", legal.len());
    for kind in PieceType::ALL {
        let of_kind: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| pos.piece_at(mv.from()).kind() == kind)
            .collect();
        if !of_kind.is_empty() {
            text.push_str(&format!(
                "\n  {:<7} {}",
                format!("{}:", kind.name()),
                san_list(pos, &of_kind)
            ));
        }
    }
    text
}

/// The `moves SQUARE` command: the legal moves of the piece standing there.
pub fn moves_from(pos: &mut Position, square: Square) -> String {
    let piece = pos.piece_at(square);
    let name = square_name(square);
    if piece.is_none() {
        return format!("There is no piece on {name}.");
    }
    let owner = color_name(piece.color());
    let kind = piece.kind().name();
    if piece.color() != pos.side_to_move() {
        return format!("The {kind} on {name} is {owner}'s; it is not its turn to move.");
    }
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|mv| mv.from() == square)
        .collect();
    if moves.is_empty() {
        let reason = if pos.in_check() {
            " (you are in check)"
        } else {
            ""
        };
        return format!("The {kind} on {name} has no legal move{reason}.");
    }
    format!("The {kind} on {name} can play: {}", san_list(pos, &moves))
}

/// Why `text` was not played, and what could be.
pub fn rejection(pos: &mut Position, text: &str, error: &SanError) -> String {
    let text = text.trim();
    match error {
        SanError::Unreadable(_) => format!(
            "'{text}' is neither a move nor a command. Type 'help' for the commands, \
             'moves' for the legal moves."
        ),
        SanError::Ambiguous(moves) => {
            let mut options: Vec<String> = moves.iter().map(|&mv| pos.san(mv)).collect();
            options.sort();
            format!(
                "'{text}' is ambiguous: it could be {}. Type one of them.",
                options.join(" or ")
            )
        }
        SanError::PromotionNeeded(_) => {
            format!("'{text}' promotes a pawn: add the piece, e.g. {text}=Q or {text}=N.")
        }
        SanError::Illegal(_) => {
            let check = if pos.in_check() {
                "You are in check, so only a move that answers the check is legal. "
            } else {
                ""
            };
            format!(
                "'{text}' is not a legal move. {check}{}",
                illegal_detail(pos, text)
            )
        }
    }
}

/// The promotions a coordinate move without its piece letter (`e7e8`) may mean; empty when
/// `text` is not such a move.
pub fn coordinate_promotions(pos: &Position, text: &str) -> Vec<Move> {
    let compact: String = text
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    if compact.len() != 4 {
        return Vec::new();
    }
    let (Some(from), Some(to)) = (parse_square(&compact[..2]), parse_square(&compact[2..])) else {
        return Vec::new();
    };
    pos.legal_moves()
        .into_iter()
        .filter(|mv| mv.is_promotion() && mv.from() == from && mv.to() == to)
        .collect()
}

/// The squares named in `text`, in order (`e2e4` gives e2 then e4).
fn squares_in(text: &str) -> Vec<Square> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(1))
        .filter_map(|index| {
            let pair = std::str::from_utf8(&bytes[index..index + 2]).ok()?;
            let first = pair.as_bytes()[0];
            first
                .is_ascii_lowercase()
                .then(|| parse_square(pair))
                .flatten()
        })
        .collect()
}

fn illegal_detail(pos: &mut Position, text: &str) -> String {
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    let lowered = text.to_ascii_lowercase();
    if lowered.starts_with("o-o") || lowered.starts_with("0-0") || lowered.starts_with("oo") {
        let king_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| pos.piece_at(mv.from()).kind() == PieceType::King)
            .collect();
        let reason = if pos.in_check() {
            "you cannot castle out of check"
        } else {
            "the king or that rook has moved, or a square between or crossed is occupied or \
             attacked"
        };
        return format!(
            "Castling is not possible now: {reason}. King moves: {}.",
            list_or_none(pos, &king_moves)
        );
    }
    let squares = squares_in(&lowered);
    let me = pos.side_to_move();

    // A coordinate move: speak about the piece on its origin square.
    let compact: String = lowered
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    if squares.len() >= 2 && compact.len() <= 5 && parse_square(&compact[..2]).is_some() {
        return moves_from(pos, squares[0]);
    }

    let Some(&target) = squares.last() else {
        return "Type 'moves' for the legal moves.".to_string();
    };
    let kind = piece_meant(text);
    let word = kind.name();
    if pos.count(me, kind) == 0 {
        return format!(
            "You have no {word}. Moves to {}: {}.",
            square_name(target),
            list_or_none(pos, &moves_to(&legal, target))
        );
    }
    let of_kind: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| pos.piece_at(mv.from()).kind() == kind)
        .collect();
    let there: Vec<Move> = of_kind
        .iter()
        .copied()
        .filter(|mv| landing(*mv) == target)
        .collect();
    if !there.is_empty() {
        // The destination is reachable, but not by the piece the text singled out.
        return format!(
            "That {word} cannot go to {}; this can: {}.",
            square_name(target),
            san_list(pos, &there)
        );
    }
    let owner = if pos.count(me, kind) == 1 {
        format!("Your {word}")
    } else {
        format!("Your {word}s")
    };
    let mut detail = format!(
        "No {word} of yours can go to {}. {owner} can play: {}.",
        square_name(target),
        list_or_none(pos, &of_kind)
    );
    let others = moves_to(&legal, target);
    if !others.is_empty() {
        detail.push_str(&format!(
            " Moves to {}: {}.",
            square_name(target),
            san_list(pos, &others)
        ));
    }
    detail
}

/// The square a move lands on as the player sees it (the king's square for castling).
fn landing(mv: Move) -> Square {
    if mv.is_castle() {
        mv.castle_king_target()
    } else {
        mv.to()
    }
}

fn moves_to(legal: &[Move], target: Square) -> Vec<Move> {
    legal
        .iter()
        .copied()
        .filter(|&mv| landing(mv) == target)
        .collect()
}

fn list_or_none(pos: &mut Position, moves: &[Move]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        san_list(pos, moves)
    }
}

/// The piece kind a SAN-like text names: a leading piece letter (any case but `b`, which is
/// a bishop only when no `x` follows and a bare square does), else a pawn.
fn piece_meant(text: &str) -> PieceType {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return PieceType::Pawn;
    };
    match first {
        'N' | 'n' => PieceType::Knight,
        'B' => PieceType::Bishop,
        'R' | 'r' => PieceType::Rook,
        'Q' | 'q' => PieceType::Queen,
        'K' | 'k' => PieceType::King,
        'b' => {
            let rest: String = chars.filter(|c| c.is_ascii_alphanumeric()).collect();
            if !text.contains(['x', 'X']) && rest.len() == 2 {
                PieceType::Bishop
            } else {
                PieceType::Pawn
            }
        }
        _ => PieceType::Pawn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explain(fen: &str, text: &str) -> String {
        let mut pos = Position::from_fen(fen).expect("test FEN");
        let error = pos.parse_move_text(text).expect_err("refused");
        rejection(&mut pos, text, &error)
    }

    const START: &str = crate::position::fen::START_FEN;

    #[test]
    fn explains_illegal_moves() {
        let text = explain(START, "Nf4");
        assert!(text.contains("No knight of yours can go to f4"), "{text}");
        assert!(text.contains("Na3, Nc3, Nf3, Nh3"), "{text}");
        let text = explain(START, "e2e5");
        assert_eq!(
            text,
            "'e2e5' is not a legal move. The pawn on e2 can play: e3, e4"
        );
        let text = explain(START, "Qh5");
        assert!(text.contains("Your queen can play: none"), "{text}");
        let text = explain(START, "O-O");
        assert!(text.starts_with("'O-O' is not a legal move. Castling is not possible"));
        let text = explain(START, "hello");
        assert!(text.contains("neither a move nor a command"), "{text}");
        let text = explain(START, "e3e4");
        assert!(text.contains("There is no piece on e3"), "{text}");
    }

    #[test]
    fn explains_check_and_ambiguity() {
        let checked = "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1";
        let text = explain(checked, "Ra5");
        assert!(text.contains("You are in check"), "{text}");
        let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        let text = explain(knights, "Nd2");
        assert_eq!(
            text,
            "'Nd2' is ambiguous: it could be Nbd2 or Nfd2. Type one of them."
        );
    }

    #[test]
    fn reads_coordinate_promotions() {
        let pos = Position::from_fen("8/4P1k1/8/8/8/8/P7/K7 w - - 0 1").expect("test FEN");
        assert_eq!(coordinate_promotions(&pos, "e7e8").len(), 4);
        assert_eq!(coordinate_promotions(&pos, "E7-E8").len(), 4);
        assert!(coordinate_promotions(&pos, "a2a3").is_empty());
        assert!(coordinate_promotions(&pos, "e8").is_empty());
    }

    #[test]
    fn lists_moves() {
        let mut pos = Position::startpos();
        assert_eq!(
            moves_from(&mut pos, 0x06),
            "The knight on g1 can play: Nf3, Nh3"
        );
        assert_eq!(
            moves_from(&mut pos, 0x00),
            "The rook on a1 has no legal move."
        );
        assert!(moves_from(&mut pos, 0x64).contains("Black's"));
        let all = all_moves(&mut pos);
        assert!(all.starts_with("20 legal moves:"), "{all}");
    }
}
