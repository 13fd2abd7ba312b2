//! `engine analyze`, UCI `analyze` and `engine play`'s `analyze`/`threats`: what a person
//! wants to know about a position at a glance, computed once into an `Analysis` that
//! `render` draws as text or writes as JSON.
//!
//! "Attacks" are counted as python-chess's `Board::attackers()` counts them, so the client
//! test can compare square by square: a piece attacks a square its kind reaches with nothing
//! in between, whatever stands on the square itself, pinned or not, with no x-rays (a rook
//! behind a rook does not count) and no en passant. A piece is *hanging* when the other side
//! attacks it and either nothing of its own side defends it or its cheapest attacker other
//! than the king is worth less than it (kings never hang). A piece is *pinned* when moving it off the line would
//! expose its own king to an enemy slider (python-chess's `is_pinned`). A king *reaches* the
//! squares next to it that hold no piece of its own and that the other side does not attack
//! once the king has stepped off its square (castling is not a step and is not listed).
//! Legal moves exist only for the side to move, so only its pieces list moves.

pub mod render;

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::board_view::Style;
use crate::geometry::{KING_OFFSETS, can_attack};
use crate::moves::Move;
use crate::position::Position;
use crate::position::attacks::between;
use crate::types::{
    Color, NO_SQUARE, Piece, PieceType, Square, from_64, make_square, on_board, to_64,
};

/// The usual points of a piece (pawn 1, knight and bishop 3, rook 5, queen 9; king 0).
pub fn points(kind: PieceType) -> i32 {
    match kind {
        PieceType::Pawn => 1,
        PieceType::Knight | PieceType::Bishop => 3,
        PieceType::Rook => 5,
        PieceType::Queen => 9,
        PieceType::King | PieceType::None => 0,
    }
}

/// Who attacks one square: how many pieces of each side, and each side's cheapest.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareControl {
    /// Indexed by `Color::index()`.
    pub attackers: [u8; 2],
    pub lowest: [Option<PieceType>; 2],
}

impl SquareControl {
    /// The side with more attackers, if either.
    pub fn holder(&self) -> Option<Color> {
        match self.attackers[0].cmp(&self.attackers[1]) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// One piece on the board and what threatens it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceReport {
    pub square: Square,
    pub piece: Piece,
    /// Enemy pieces attacking its square.
    pub attackers: u8,
    /// Its own side's pieces attacking (defending) its square.
    pub defenders: u8,
    pub hanging: bool,
    /// The enemy slider that pins it to its king.
    pub pinned_by: Option<Square>,
    /// Its legal moves in SAN, sorted (empty for the side not to move).
    pub moves: Vec<String>,
}

/// Material of one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// Pieces of each kind, indexed by `PieceType as usize - 1` (pawn .. king).
    pub counts: [u8; 6],
    pub points: i32,
}

/// The whole picture of one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub fen: String,
    pub side_to_move: Color,
    /// Indexed by `Color::index()`.
    pub material: [Material; 2],
    /// Indexed by the dense square index (a1 = 0 .. h8 = 63).
    pub control: [SquareControl; 64],
    /// Every piece, in square order a1, b1 .. h8.
    pub pieces: Vec<PieceReport>,
    /// The pieces giving check to the side to move.
    pub checkers: Vec<Square>,
    pub legal_moves: usize,
    pub checkmate: bool,
    pub stalemate: bool,
    pub insufficient_material: bool,
    pub fifty_move_rule: bool,
    /// The squares each king can step to, indexed by `Color::index()`.
    pub king_reach: [Vec<Square>; 2],
}

impl Analysis {
    pub fn of(pos: &Position) -> Analysis {
        let mut control = [SquareControl::default(); 64];
        for (index, entry) in control.iter_mut().enumerate() {
            *entry = square_control(pos, from_64(index));
        }
        let mut material = [Material::default(); 2];
        let moves = moves_by_square(pos);
        let mut pieces = Vec::new();
        for (index, square_control) in control.iter().enumerate() {
            let square = from_64(index);
            let piece = pos.piece_at(square);
            if piece.is_none() {
                continue;
            }
            let side = piece.color();
            let kind = piece.kind();
            material[side.index()].counts[kind as usize - 1] += 1;
            material[side.index()].points += points(kind);
            let attackers = square_control.attackers[side.flip().index()];
            let defenders = square_control.attackers[side.index()];
            // A king takes only what nothing defends: as an attacker it is never the cheaper.
            let cheaper_attacker = square_control.lowest[side.flip().index()]
                .is_some_and(|lowest| lowest != PieceType::King && points(lowest) < points(kind));
            let hanging =
                kind != PieceType::King && attackers > 0 && (defenders == 0 || cheaper_attacker);
            pieces.push(PieceReport {
                square,
                piece,
                attackers,
                defenders,
                hanging,
                pinned_by: pinner(pos, square),
                moves: {
                    let mut own: Vec<String> = moves
                        .iter()
                        .filter(|(from, _)| *from == square)
                        .map(|(_, san)| san.clone())
                        .collect();
                    own.sort_unstable();
                    own
                },
            });
        }
        let legal_moves = moves.len();
        let checkers = pos.checkers();
        Analysis {
            fen: pos.to_fen(),
            side_to_move: pos.side_to_move(),
            material,
            control,
            pieces,
            legal_moves,
            checkmate: legal_moves == 0 && !checkers.is_empty(),
            stalemate: legal_moves == 0 && checkers.is_empty(),
            checkers,
            insufficient_material: pos.is_insufficient_material(),
            fifty_move_rule: pos.halfmove_clock() >= 100,
            king_reach: [king_reach(pos, Color::White), king_reach(pos, Color::Black)],
        }
    }

    pub fn control_at(&self, square: Square) -> &SquareControl {
        &self.control[to_64(square)]
    }

    /// White's points minus black's.
    pub fn balance(&self) -> i32 {
        self.material[0].points - self.material[1].points
    }
}

/// Attackers of `square` by both sides on the board as it stands.
fn square_control(pos: &Position, square: Square) -> SquareControl {
    let mut control = SquareControl::default();
    for side in [Color::White, Color::Black] {
        let empty = |sq: Square| pos.piece_at(sq).is_none();
        // The scan visits the cheapest attackers first, so the first visit is the lowest.
        pos.scan_attackers(square, side, empty, |_, kind| {
            let entry = &mut control.attackers[side.index()];
            if *entry == 0 {
                control.lowest[side.index()] = Some(kind);
            }
            *entry += 1;
            false
        });
    }
    control
}

/// The enemy slider pinning the piece on `square` to its own king, if any: a bishop, rook
/// or queen on a line through the piece and the king with nothing else between them.
fn pinner(pos: &Position, square: Square) -> Option<Square> {
    let piece = pos.piece_at(square);
    let side = piece.color();
    let king = pos.king_square(side);
    if piece.kind() == PieceType::King {
        return None;
    }
    for kind in [PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
        for &slider in pos.squares(side.flip(), kind) {
            if !can_attack(kind, slider, king) || !can_attack(kind, slider, square) {
                continue;
            }
            let mut blockers = between(slider, king).filter(|&sq| !pos.piece_at(sq).is_none());
            if blockers.next() == Some(square) && blockers.next().is_none() {
                return Some(slider);
            }
        }
    }
    None
}

/// The side to move's legal moves as (from-square, SAN), in generation order.
fn moves_by_square(pos: &Position) -> Vec<(Square, String)> {
    let mut scratch = pos.clone();
    let list = pos.legal_moves();
    list.iter()
        .map(|&mv: &Move| (mv.from(), scratch.san(mv)))
        .collect()
}

/// The squares next to `side`'s king that it could step to (see the module doc).
fn king_reach(pos: &Position, side: Color) -> Vec<Square> {
    let king = pos.king_square(side);
    let mut reach: Vec<Square> = KING_OFFSETS
        .iter()
        .map(|&offset| king as i32 + offset)
        .filter(|&target| on_board(target))
        .map(|target| target as Square)
        .filter(|&target| {
            let occupant = pos.piece_at(target);
            (occupant.is_none() || occupant.color() != side)
                && !pos.attacked_without(target, side.flip(), king, NO_SQUARE)
        })
        .collect();
    reach.sort_unstable_by_key(|&sq| to_64(sq));
    reach
}

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Position to analyse (default: the start position). Shredder-FEN castling accepted.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from it first, in SAN or UCI, separated by spaces (e.g. "e4 e5 Nf3").
    #[arg(long)]
    pub moves: Option<String>,
    /// One JSON document instead of the text.
    #[arg(long)]
    pub json: bool,
    /// Plain ASCII, no colour, even on a terminal.
    #[arg(long)]
    pub no_color: bool,
}

/// The position `--fen` and `--moves` describe, or why there is none.
fn position_of(args: &AnalyzeArgs) -> Result<Position, String> {
    let fen = args
        .fen
        .as_deref()
        .unwrap_or(crate::position::fen::START_FEN);
    let mut pos = Position::from_fen(fen.trim()).map_err(|error| format!("bad --fen: {error}"))?;
    for text in args.moves.as_deref().unwrap_or("").split_whitespace() {
        let mv = pos
            .parse_move_text(text)
            .map_err(|error| format!("bad --moves: {error}"))?;
        pos.make_move(mv);
    }
    Ok(pos)
}

pub fn run(args: &AnalyzeArgs) -> ExitCode {
    let pos = match position_of(args) {
        Ok(pos) => pos,
        Err(reason) => {
            eprintln!("engine: {reason}");
            return ExitCode::from(2);
        }
    };
    let analysis = Analysis::of(&pos);
    if args.json {
        println!("{}", render::json(&analysis));
    } else {
        let colour = !args.no_color
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
        let style = if colour { Style::Colour } else { Style::Plain };
        print!("{}", render::text(&analysis, &pos, style));
    }
    ExitCode::SUCCESS
}

/// All 64 squares in the order boards are read: a8 .. h8, a7 .. h1.
pub fn reading_order() -> impl Iterator<Item = Square> {
    (0..8u8)
        .rev()
        .flat_map(|rank| (0..8u8).map(move |file| make_square(file, rank)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_square;

    fn sq(name: &str) -> Square {
        parse_square(name).expect("test square")
    }

    #[test]
    fn start_position_control() {
        let analysis = Analysis::of(&Position::startpos());
        // f3: pawns e2 and g2, knight g1.
        let f3 = analysis.control_at(sq("f3"));
        assert_eq!(f3.attackers, [3, 0]);
        assert_eq!(f3.lowest, [Some(PieceType::Pawn), None]);
        // e1: the queen beside it; the king is not its own square's attacker.
        let e1 = analysis.control_at(sq("e1"));
        assert_eq!(e1.attackers, [1, 0]);
        assert_eq!(analysis.material[0].points, 39);
        assert_eq!(analysis.balance(), 0);
        assert_eq!(analysis.legal_moves, 20);
        assert!(analysis.pieces.iter().all(|piece| !piece.hanging));
        let knight = analysis
            .pieces
            .iter()
            .find(|piece| piece.square == sq("g1"))
            .expect("a knight on g1");
        assert_eq!(knight.moves, vec!["Nf3".to_string(), "Nh3".to_string()]);
        assert!(analysis.king_reach[0].is_empty());
    }

    #[test]
    fn hanging_pinned_and_checks() {
        // The knight on c6 is pinned by the bishop on b5; the rook on h5 hangs to the
        // knight on f4, and the bishop on b5 to the rook (neither is defended).
        let pos = Position::from_fen("4k3/8/2n5/1B5r/5N2/8/8/4K3 b - - 0 1").expect("valid");
        let analysis = Analysis::of(&pos);
        let knight = analysis
            .pieces
            .iter()
            .find(|piece| piece.square == sq("c6"))
            .expect("knight");
        assert_eq!(knight.pinned_by, Some(sq("b5")));
        let rook = analysis
            .pieces
            .iter()
            .find(|piece| piece.square == sq("h5"))
            .expect("rook");
        assert!(rook.hanging);
        assert_eq!((rook.attackers, rook.defenders), (1, 0));
        let bishop = analysis
            .pieces
            .iter()
            .find(|piece| piece.square == sq("b5"))
            .expect("bishop");
        assert!(bishop.hanging);
        let king = analysis
            .pieces
            .iter()
            .find(|piece| piece.square == sq("e1"))
            .expect("king");
        assert!(!king.hanging && king.pinned_by.is_none());
        assert!(analysis.checkers.is_empty());
        // The knight shields d7 from the bishop.
        assert_eq!(
            analysis.king_reach[1],
            vec![sq("d7"), sq("e7"), sq("f7"), sq("d8"), sq("f8")]
        );

        let mate =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .expect("fool's mate");
        let analysis = Analysis::of(&mate);
        assert!(analysis.checkmate && !analysis.stalemate);
        assert_eq!(analysis.checkers, vec![sq("h4")]);
        assert!(analysis.king_reach[0].is_empty());
    }

    #[test]
    fn king_reach_looks_through_the_king() {
        // The rook on a1 attacks along the rank; the king on d1 cannot step to c1 or e1.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/r2K4 w - - 0 1").expect("valid");
        let reach = &Analysis::of(&pos).king_reach[0];
        assert_eq!(
            reach,
            &vec![sq("c2"), sq("d2"), sq("e2")],
            "c1 and e1 are on the rook's rank"
        );
    }
}
