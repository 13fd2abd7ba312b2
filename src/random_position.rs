//! `engine random`: random legal positions that look as if a game could have reached them.
//!
//! A position is drawn whole and kept only if it passes every rule; otherwise it is drawn
//! again. The rules: one king each, kings apart, the side not to move not in check, no pawn
//! on the first or last rank, at most 8 pawns a side and no more promoted pieces than missing
//! pawns (a second queen, a third rook, knight or bishop, a second bishop on the squares of
//! one colour each count as promoted), the side to move in check by at most two pieces and a
//! double check only from a slider and a piece off its line, castling rights only for a king
//! and rook on their start squares, an en passant square only behind a pawn that has just
//! double-stepped from an empty square, past an empty one, in a position whose own previous
//! move was legal. Every position is finally parsed by `Position::from_fen`, the strict parser.
//!
//! Material is random unless `--pieces` fixes it: each side's pieces (2 knights, 2 bishops,
//! 2 rooks, a queen, 8 pawns) are present each with one chance drawn per position, so sparse
//! endings and crowded middlegames both come up; now and then a pawn has promoted.
//! `--balanced CP` keeps positions whose quick search (`BALANCE_NODES` nodes) is within CP of
//! level, the openings that datagen (`engine datagen --book`) and matches want.
//!
//! Uses: datagen openings (`engine random --balanced 150 --format epd > book.epd`), and the
//! tests: `tests/random_positions.rs` fuzzes make/unmake and perft against from-scratch
//! recomputation on them; `tests/python/test_random.py` and `test_analyze.py` check them and
//! the control map against python-chess.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use crate::geometry::{distance, step_between};
use crate::json::Json;
use crate::position::Position;
use crate::random::Rng;
use crate::search::{Limits, Score, SearchSignals, Searcher};
use crate::types::{Color, PieceType, Square, make_square, square_name};

/// Node budget of the quick search behind `--balanced`.
pub const BALANCE_NODES: u64 = 4000;
/// Draws per kept position before a request is called impossible (e.g. `--balanced 0`
/// with lopsided fixed material).
const MAX_ATTEMPTS: u32 = 100_000;

/// The kinds other than the king, in `PieceType` order.
const KINDS: [PieceType; 5] = [
    PieceType::Pawn,
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];
/// How many of each kind a side starts with.
const START_COUNTS: [u8; 5] = [8, 2, 2, 2, 1];

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideChoice {
    White,
    Black,
    Any,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Fen,
    Epd,
}

#[derive(clap::Args, Debug)]
pub struct RandomArgs {
    /// How many positions.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed: the same seed and options give the same positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fixed material, white then black: `KRPvKR`, counts `KP3vK`, ranges `KRP0-2vKR`.
    #[arg(long)]
    pub pieces: Option<String>,
    /// Keep positions whose quick search score is within this many centipawns of level.
    #[arg(long)]
    pub balanced: Option<i32>,
    /// Side to move.
    #[arg(long, value_enum, default_value_t = SideChoice::Any)]
    pub side: SideChoice,
    /// Chess960 castling: any king between two rooks on its back rank may have rights
    /// (Shredder-FEN letters).
    #[arg(long)]
    pub chess960: bool,
    /// Output lines as FEN (6 fields) or EPD (4 fields).
    #[arg(long, value_enum, default_value_t = OutputFormat::Fen)]
    pub format: OutputFormat,
    /// One JSON document: the settings and the positions.
    #[arg(long)]
    pub json: bool,
}

/// Inclusive bounds on the count of one kind of one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CountRange {
    pub min: u8,
    pub max: u8,
}

/// Material fixed by `--pieces`: for each side (`Color::index()`), a range per kind in
/// `KINDS` order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    pub ranges: [[CountRange; 5]; 2],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for PieceSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PieceSpec, SpecError> {
        let bad = |why: &str| SpecError(format!("bad --pieces '{text}': {why}"));
        let sides: Vec<&str> = text.split(['v', 'V']).collect();
        let [white, black] = sides.as_slice() else {
            return Err(bad(
                "write white's pieces, 'v', black's pieces (e.g. KRPvKR)",
            ));
        };
        let mut ranges = [[CountRange { min: 0, max: 0 }; 5]; 2];
        for (side, part) in [white, black].into_iter().enumerate() {
            let mut kings = 0;
            let mut chars = part.chars().peekable();
            while let Some(letter) = chars.next() {
                let kind = PieceType::from_letter(letter)
                    .ok_or_else(|| bad(&format!("'{letter}' is not a piece letter")))?;
                let mut number = String::new();
                while let Some(&next) = chars.peek() {
                    if next.is_ascii_digit() || next == '-' {
                        number.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                if kind == PieceType::King {
                    if !number.is_empty() {
                        return Err(bad("a side has exactly one king"));
                    }
                    kings += 1;
                    continue;
                }
                let parse = |digits: &str| {
                    digits
                        .parse::<u8>()
                        .ok()
                        .filter(|&count| count <= 10)
                        .ok_or_else(|| bad(&format!("'{number}' is not a count from 0 to 10")))
                };
                let (min, max) = match number.split_once('-') {
                    None if number.is_empty() => (1, 1),
                    None => {
                        let count = parse(&number)?;
                        (count, count)
                    }
                    Some((low, high)) => (parse(low)?, parse(high)?),
                };
                if min > max {
                    return Err(bad(&format!("range {min}-{max} is empty")));
                }
                let slot = &mut ranges[side][kind as usize - 1];
                slot.min = slot.min.saturating_add(min);
                slot.max = slot.max.saturating_add(max);
            }
            if kings != 1 {
                return Err(bad("each side needs exactly one K"));
            }
            let pawns = ranges[side][0];
            if pawns.min > 8 {
                return Err(bad("a side has at most 8 pawns"));
            }
            // The least material of the ranges must be reachable by promotions.
            let least_promoted: u8 = (1..5)
                .map(|index| ranges[side][index].min.saturating_sub(START_COUNTS[index]))
                .sum();
            if least_promoted > 8 - pawns.min {
                return Err(bad(
                    "more promoted pieces than missing pawns (e.g. three queens need two missing pawns)",
                ));
            }
        }
        Ok(PieceSpec { ranges })
    }
}

/// Pieces beyond the start set, which must have come from promoted pawns.
fn promoted(counts: &[u8; 5]) -> u8 {
    (1..5)
        .map(|index| counts[index].saturating_sub(START_COUNTS[index]))
        .sum()
}

/// The generator: options checked, a random stream, and a searcher when `--balanced`.
pub struct Generator {
    rng: Rng,
    spec: Option<PieceSpec>,
    side: SideChoice,
    chess960: bool,
    balanced: Option<(i32, Searcher)>,
}

impl Generator {
    pub fn new(
        seed: u64,
        spec: Option<PieceSpec>,
        side: SideChoice,
        chess960: bool,
        balanced: Option<i32>,
    ) -> Generator {
        Generator {
            rng: Rng::new(seed),
            spec,
            side,
            chess960,
            balanced: balanced.map(|margin| {
                let mut searcher = Searcher::new(1);
                searcher.set_threads(1);
                (margin, searcher)
            }),
        }
    }

    /// The next position, or an error when `MAX_ATTEMPTS` draws in a row all failed.
    pub fn next_position(&mut self) -> Result<Position, String> {
        for _ in 0..MAX_ATTEMPTS {
            let Some(pos) = self.draw() else { continue };
            if let Some((margin, searcher)) = &mut self.balanced {
                searcher.clear();
                let result = searcher.search(
                    &pos,
                    &Limits::nodes(BALANCE_NODES),
                    &SearchSignals::new(),
                    &mut |_| {},
                );
                let level = matches!(result.score, Score::Centipawns(cp) if cp.abs() <= *margin);
                if !level || result.best.is_none() {
                    continue;
                }
            }
            return Ok(pos);
        }
        Err(format!(
            "no position met the constraints in {MAX_ATTEMPTS} tries; loosen --pieces or --balanced"
        ))
    }

    fn counts(&mut self) -> [[u8; 5]; 2] {
        let mut counts = [[0u8; 5]; 2];
        match &self.spec {
            Some(spec) => {
                for (side, side_counts) in counts.iter_mut().enumerate() {
                    for (index, count) in side_counts.iter_mut().enumerate() {
                        let range = spec.ranges[side][index];
                        *count =
                            range.min + self.rng.below(u64::from(range.max - range.min) + 1) as u8;
                    }
                }
            }
            None => {
                let presence = 0.05 + 0.95 * self.rng.unit();
                for side_counts in &mut counts {
                    for (index, count) in side_counts.iter_mut().enumerate() {
                        *count = (0..START_COUNTS[index])
                            .filter(|_| self.rng.unit() < presence)
                            .count() as u8;
                    }
                    if side_counts[0] < 8 && self.rng.below(16) == 0 {
                        // A promoted pawn, most often a queen.
                        side_counts[0] = side_counts[0].min(7);
                        let kind = [4, 4, 4, 3, 2, 1][self.rng.index(6)];
                        side_counts[kind] += 1;
                    }
                }
            }
        }
        counts
    }

    /// One draw: a board that may or may not pass the rules.
    fn draw(&mut self) -> Option<Position> {
        let counts = self.counts();
        if counts
            .iter()
            .any(|side| side[0] > 8 || promoted(side) > 8 - side[0])
        {
            return None;
        }
        let mut board: [Option<(Color, PieceType)>; 64] = [None; 64];
        let free = |board: &[Option<(Color, PieceType)>; 64], rng: &mut Rng, pawn: bool| loop {
            let index = rng.index(64);
            let rank = index / 8;
            if board[index].is_none() && (!pawn || (1..7).contains(&rank)) {
                return index;
            }
        };
        let white_king = self.rng.index(64);
        board[white_king] = Some((Color::White, PieceType::King));
        let black_king = free(&board, &mut self.rng, false);
        if distance(dense_to_square(white_king), dense_to_square(black_king)) < 2 {
            return None;
        }
        board[black_king] = Some((Color::Black, PieceType::King));
        let total: usize = counts.iter().flatten().map(|&count| count as usize).sum();
        if total > 62 - 14 {
            return None;
        }
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for (index, &kind) in KINDS.iter().enumerate() {
                for _ in 0..counts[side][index] {
                    let at = free(&board, &mut self.rng, kind == PieceType::Pawn);
                    board[at] = Some((color, kind));
                }
            }
        }
        // A second bishop on squares of one colour is a promoted one too.
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut by_shade = [0u8; 2];
            for (index, entry) in board.iter().enumerate() {
                if *entry == Some((color, PieceType::Bishop)) {
                    by_shade[(index / 8 + index % 8) % 2] += 1;
                }
            }
            let extra = by_shade[0].saturating_sub(1) + by_shade[1].saturating_sub(1);
            let bishops_over_start = counts[side][2].saturating_sub(2);
            let promoted_now = promoted(&counts[side]) - bishops_over_start + extra;
            if promoted_now > 8 - counts[side][0] {
                return None;
            }
        }
        let side = match self.side {
            SideChoice::White => Color::White,
            SideChoice::Black => Color::Black,
            SideChoice::Any => {
                if self.rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
        };
        let castling = self.castling(&board);
        let en_passant = self.en_passant(&board, side);
        let fen = fen_of(&board, side, &castling, en_passant);
        let mut pos = Position::from_fen(&fen).ok()?;
        pos.set_chess960(self.chess960);
        if !possible_checks(&pos) {
            return None;
        }
        if let Some(square) = en_passant
            && !previous_move_legal(&board, side, square)
        {
            return None;
        }
        Some(pos)
    }

    /// Castling letters: each right whose king and rook stand where they must, kept at
    /// random (half the time).
    fn castling(&mut self, board: &[Option<(Color, PieceType)>; 64]) -> String {
        let mut rights = String::new();
        for color in [Color::White, Color::Black] {
            let back = if color == Color::White { 0 } else { 56 };
            let Some(king_file) =
                (0..8).find(|&file| board[back + file] == Some((color, PieceType::King)))
            else {
                continue;
            };
            let rook_at = |file: usize| board[back + file] == Some((color, PieceType::Rook));
            // King side first, as FEN writes them.
            let candidates: Vec<(usize, char)> = if self.chess960 {
                let mut found = Vec::new();
                if (1..7).contains(&king_file) {
                    if let Some(file) = (king_file + 1..8).rev().find(|&file| rook_at(file)) {
                        found.push((file, (b'a' + file as u8) as char));
                    }
                    if let Some(file) = (0..king_file).find(|&file| rook_at(file)) {
                        found.push((file, (b'a' + file as u8) as char));
                    }
                }
                found
            } else if king_file == 4 {
                [(7, 'k'), (0, 'q')]
                    .into_iter()
                    .filter(|&(file, _)| rook_at(file))
                    .collect()
            } else {
                Vec::new()
            };
            for (_, letter) in candidates {
                if self.rng.below(2) == 0 {
                    rights.push(if color == Color::White {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    });
                }
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        rights
    }

    /// An en passant square a quarter of the time when the side not to move has a pawn that
    /// could just have double-stepped (square passed and square left both empty) and the
    /// side to move has a pawn beside it to take it.
    fn en_passant(
        &mut self,
        board: &[Option<(Color, PieceType)>; 64],
        side: Color,
    ) -> Option<usize> {
        if self.rng.below(4) != 0 {
            return None;
        }
        let mover = side.flip();
        let (landed_rank, passed_rank, origin_rank) = match mover {
            Color::White => (3, 2, 1),
            Color::Black => (4, 5, 6),
        };
        let candidates: Vec<usize> = (0..8)
            .filter(|&file| {
                board[landed_rank * 8 + file] == Some((mover, PieceType::Pawn))
                    && board[passed_rank * 8 + file].is_none()
                    && board[origin_rank * 8 + file].is_none()
                    && [file.wrapping_sub(1), file + 1].iter().any(|&beside| {
                        beside < 8
                            && board[landed_rank * 8 + beside] == Some((side, PieceType::Pawn))
                    })
            })
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let file = candidates[self.rng.index(candidates.len())];
        Some(passed_rank * 8 + file)
    }
}

fn dense_to_square(index: usize) -> Square {
    make_square((index % 8) as u8, (index / 8) as u8)
}

fn fen_of(
    board: &[Option<(Color, PieceType)>; 64],
    side: Color,
    castling: &str,
    en_passant: Option<usize>,
) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some((color, kind)) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = kind.letter();
                    fen.push(if color == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if side == Color::White { 'w' } else { 'b' };
    let en_passant =
        en_passant.map_or("-".to_string(), |index| square_name(dense_to_square(index)));
    format!("{fen} {side} {castling} {en_passant} 0 1")
}

/// At most two checkers, and two only when one is a slider and they do not stand on one
/// line through the king (a discovered check plus the piece that moved).
fn possible_checks(pos: &Position) -> bool {
    let checkers = pos.checkers();
    match checkers.as_slice() {
        [] | [_] => true,
        [first, second] => {
            let king = pos.king_square(pos.side_to_move());
            let slider = |sq: Square| {
                matches!(
                    pos.piece_at(sq).kind(),
                    PieceType::Bishop | PieceType::Rook | PieceType::Queen
                )
            };
            let first_line = step_between(king, *first);
            let second_line = step_between(king, *second);
            let one_line = first_line != 0 && second_line != 0 && first_line == -second_line;
            (slider(*first) || slider(*second)) && !one_line
        }
        _ => false,
    }
}

/// The position before the double step behind `en_passant` (the pawn back on its origin,
/// the other side to move) must itself be legal: the side then not to move not in check.
fn previous_move_legal(
    board: &[Option<(Color, PieceType)>; 64],
    side: Color,
    en_passant: usize,
) -> bool {
    let mover = side.flip();
    let (landed, origin) = match mover {
        Color::White => (en_passant + 8, en_passant - 8),
        Color::Black => (en_passant - 8, en_passant + 8),
    };
    let mut before = *board;
    before[origin] = before[landed].take();
    Position::from_fen(&fen_of(&before, mover, "-", None)).is_ok()
}

/// The text of one position in the chosen format.
pub fn line(pos: &Position, format: OutputFormat) -> String {
    let fen = pos.to_fen();
    match format {
        OutputFormat::Fen => fen,
        OutputFormat::Epd => fen.split_whitespace().take(4).collect::<Vec<_>>().join(" "),
    }
}

pub fn run(args: &RandomArgs) -> ExitCode {
    let spec = match args
        .pieces
        .as_deref()
        .map(str::parse::<PieceSpec>)
        .transpose()
    {
        Ok(spec) => spec,
        Err(error) => {
            eprintln!("engine: {error}");
            return ExitCode::from(2);
        }
    };
    if let Some(margin) = args.balanced
        && margin < 0
    {
        eprintln!("engine: --balanced needs a margin of 0 or more centipawns, not {margin}");
        return ExitCode::from(2);
    }
    let mut generator = Generator::new(args.seed, spec, args.side, args.chess960, args.balanced);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut positions = Vec::new();
    for _ in 0..args.count {
        let pos = match generator.next_position() {
            Ok(pos) => pos,
            Err(error) => {
                let _ = out.flush();
                eprintln!("engine: {error}");
                return ExitCode::from(2);
            }
        };
        let text = line(&pos, args.format);
        if args.json {
            positions.push(Json::from(text));
        } else if writeln!(out, "{text}").is_err() {
            // The reader went away (e.g. `| head`): nothing more to say.
            return ExitCode::SUCCESS;
        }
    }
    if args.json {
        let doc = Json::object([
            ("seed", Json::from(args.seed)),
            ("count", Json::from(args.count)),
            ("pieces", Json::from(args.pieces.as_deref())),
            ("balanced", Json::from(args.balanced)),
            ("chess960", Json::from(args.chess960)),
            ("positions", Json::Array(positions)),
        ]);
        let _ = writeln!(out, "{doc}");
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_specs() {
        let spec: PieceSpec = "KRPvKR".parse().expect("valid");
        assert_eq!(spec.ranges[0][0], CountRange { min: 1, max: 1 });
        assert_eq!(spec.ranges[0][3], CountRange { min: 1, max: 1 });
        assert_eq!(spec.ranges[1][0], CountRange { min: 0, max: 0 });
        let spec: PieceSpec = "KP0-3NNvkq".parse().expect("valid");
        assert_eq!(spec.ranges[0][0], CountRange { min: 0, max: 3 });
        assert_eq!(spec.ranges[0][1], CountRange { min: 2, max: 2 });
        assert_eq!(spec.ranges[1][4], CountRange { min: 1, max: 1 });
        for bad in [
            "KRvR", "KRK", "KXvK", "KP9vK", "KQ3P7vK", "KP3-1vK", "KvKvK", "K2vK",
        ] {
            assert!(bad.parse::<PieceSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_follow_the_rules_and_the_seed() {
        let draw_all = |seed| {
            let mut generator = Generator::new(seed, None, SideChoice::Any, false, None);
            (0..300)
                .map(|_| generator.next_position().expect("a position").to_fen())
                .collect::<Vec<_>>()
        };
        let first = draw_all(7);
        assert_eq!(first, draw_all(7));
        assert_ne!(first, draw_all(8));
        for fen in &first {
            let pos = Position::from_fen(fen).expect("strict parse");
            assert!(possible_checks(&pos), "{fen}");
            for color in [Color::White, Color::Black] {
                assert!(pos.count(color, PieceType::Pawn) <= 8, "{fen}");
            }
        }
    }

    #[test]
    fn fixed_material_and_side() {
        let spec: PieceSpec = "KRPvKR".parse().expect("valid");
        let mut generator = Generator::new(3, Some(spec), SideChoice::Black, false, None);
        for _ in 0..100 {
            let pos = generator.next_position().expect("a position");
            assert_eq!(pos.side_to_move(), Color::Black);
            assert_eq!(pos.count(Color::White, PieceType::Rook), 1);
            assert_eq!(pos.count(Color::White, PieceType::Pawn), 1);
            assert_eq!(pos.count(Color::Black, PieceType::Rook), 1);
            assert_eq!(pos.count(Color::Black, PieceType::Pawn), 0);
            assert_eq!(pos.count(Color::Black, PieceType::Queen), 0);
        }
    }

    #[test]
    fn impossible_double_checks_are_refused() {
        // Rooks on a1 and h1 both check the king on e1: no last move makes that.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/r3K2r w - - 0 1").expect("parses");
        assert!(!possible_checks(&pos));
        // Knight and bishop: a discovered check.
        let pos = Position::from_fen("4k3/8/8/1b6/8/3n4/8/4K3 w - - 0 1").expect("parses");
        assert!(possible_checks(&pos));
        // Two knights: impossible.
        let pos = Position::from_fen("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1").expect("parses");
        assert!(!possible_checks(&pos));
    }
}
