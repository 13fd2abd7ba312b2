//! The registry of evaluation weights: every table of `src/weights.rs`, in order, as one flat
//! parameter vector.
//!
//! The evaluation is linear in its weights (before tapering and end-game scaling): each term
//! reports "weight `index` of table `term` counts `count` times for `color`". A `Term` names a
//! table; `offset(term) + index` is that weight's place in the flat vector the tuner works on,
//! and `render` turns such a vector back into the text of `weights.rs`. Adding a table means:
//! a constant in `weights.rs`, a `Term` variant and a `TABLES` row here, in the same order.

use std::fmt::Write;

use crate::tapered::S;
use crate::weights::*;

/// How a table is declared in `weights.rs`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `pub const NAME: S`
    Scalar,
    /// `pub const NAME: [S; n]`
    Array,
    /// `pub const NAME: [[S; 64]; 6]`, one board per piece kind, rank 8 first.
    PieceSquare,
}

/// One table of weights.
pub struct Table {
    pub name: &'static str,
    /// The doc comment written above the constant.
    pub doc: &'static str,
    pub shape: Shape,
    pub values: &'static [S],
}

/// The tables, in the order of `TABLES` (and of `weights.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    PieceSquare,
    KnightMobility,
    BishopMobility,
    RookMobility,
    QueenMobility,
    PassedPawn,
    PassedFreePath,
    PassedOwnKingDistance,
    PassedEnemyKingDistance,
    UnstoppablePasser,
    IsolatedPawn,
    DoubledPawn,
    BackwardPawn,
    ConnectedPawn,
    KingAttackWeight,
    KingAttackers,
    PawnShield,
    PawnStorm,
    BishopPair,
    RookOpenFile,
    RookSemiOpenFile,
    ThreatByPawn,
    Tempo,
}

pub const TERM_COUNT: usize = 24;

const fn table(name: &'static str, doc: &'static str, shape: Shape, values: &'static [S]) -> Table {
    Table {
        name,
        doc,
        shape,
        values,
    }
}

pub static TABLES: [Table; TERM_COUNT] = [
    table(
        "MATERIAL",
        "Piece values: pawn, knight, bishop, rook, queen, king.",
        Shape::Array,
        &MATERIAL,
    ),
    table(
        "PIECE_SQUARE",
        "Piece-square bonuses from white's side, written rank 8 first (as a board is read).",
        Shape::PieceSquare,
        PIECE_SQUARE.as_flattened(),
    ),
    table(
        "KNIGHT_MOBILITY",
        "Knight: bonus by the number of safe squares it reaches (not own pieces, not attacked by enemy pawns).",
        Shape::Array,
        &KNIGHT_MOBILITY,
    ),
    table(
        "BISHOP_MOBILITY",
        "Bishop: bonus by the number of safe squares it reaches.",
        Shape::Array,
        &BISHOP_MOBILITY,
    ),
    table(
        "ROOK_MOBILITY",
        "Rook: bonus by the number of safe squares it reaches.",
        Shape::Array,
        &ROOK_MOBILITY,
    ),
    table(
        "QUEEN_MOBILITY",
        "Queen: bonus by the number of safe squares it reaches.",
        Shape::Array,
        &QUEEN_MOBILITY,
    ),
    table(
        "PASSED_PAWN",
        "Passed pawn by relative rank (rank 1 first).",
        Shape::Array,
        &PASSED_PAWN,
    ),
    table(
        "PASSED_FREE_PATH",
        "Passed pawn whose path to promotion is empty, by relative rank.",
        Shape::Array,
        &PASSED_FREE_PATH,
    ),
    table(
        "PASSED_OWN_KING_DISTANCE",
        "Passed pawn: per step of king distance from its own king to the stop square, by rank.",
        Shape::Array,
        &PASSED_OWN_KING_DISTANCE,
    ),
    table(
        "PASSED_ENEMY_KING_DISTANCE",
        "Passed pawn: per step of king distance from the enemy king to the stop square, by rank.",
        Shape::Array,
        &PASSED_ENEMY_KING_DISTANCE,
    ),
    table(
        "UNSTOPPABLE_PASSER",
        "A passer the enemy king cannot catch (rule of the square) when the enemy has only pawns.",
        Shape::Scalar,
        std::slice::from_ref(&UNSTOPPABLE_PASSER),
    ),
    table(
        "ISOLATED_PAWN",
        "Pawn with no own pawn on either neighbouring file.",
        Shape::Scalar,
        std::slice::from_ref(&ISOLATED_PAWN),
    ),
    table(
        "DOUBLED_PAWN",
        "Pawn with an own pawn ahead of it on the same file.",
        Shape::Scalar,
        std::slice::from_ref(&DOUBLED_PAWN),
    ),
    table(
        "BACKWARD_PAWN",
        "Pawn behind its neighbours whose stop square an enemy pawn attacks.",
        Shape::Scalar,
        std::slice::from_ref(&BACKWARD_PAWN),
    ),
    table(
        "CONNECTED_PAWN",
        "Pawn defended by a pawn or standing beside one, by relative rank.",
        Shape::Array,
        &CONNECTED_PAWN,
    ),
    table(
        "KING_ATTACK_WEIGHT",
        "Per king-zone square attacked, by attacker kind: knight, bishop, rook, queen.",
        Shape::Array,
        &KING_ATTACK_WEIGHT,
    ),
    table(
        "KING_ATTACKERS",
        "By the number of pieces attacking the enemy king zone (7 or more in the last slot).",
        Shape::Array,
        &KING_ATTACKERS,
    ),
    table(
        "PAWN_SHIELD",
        "Per file next to the king: nearest own pawn ahead 1, 2, 3+ ranks away, or none.",
        Shape::Array,
        &PAWN_SHIELD,
    ),
    table(
        "PAWN_STORM",
        "Per file next to the king: nearest enemy pawn ahead 1, 2, 3 ranks away, or further/none.",
        Shape::Array,
        &PAWN_STORM,
    ),
    table(
        "BISHOP_PAIR",
        "Two or more bishops.",
        Shape::Scalar,
        std::slice::from_ref(&BISHOP_PAIR),
    ),
    table(
        "ROOK_OPEN_FILE",
        "Rook on a file without pawns.",
        Shape::Scalar,
        std::slice::from_ref(&ROOK_OPEN_FILE),
    ),
    table(
        "ROOK_SEMI_OPEN_FILE",
        "Rook on a file with enemy pawns only.",
        Shape::Scalar,
        std::slice::from_ref(&ROOK_SEMI_OPEN_FILE),
    ),
    table(
        "THREAT_BY_PAWN",
        "Enemy knight, bishop, rook or queen attacked by one of our pawns.",
        Shape::Scalar,
        std::slice::from_ref(&THREAT_BY_PAWN),
    ),
    table(
        "TEMPO",
        "Side to move.",
        Shape::Scalar,
        std::slice::from_ref(&TEMPO),
    ),
];

const fn build_offsets() -> [usize; TERM_COUNT + 1] {
    let mut offsets = [0; TERM_COUNT + 1];
    let mut term = 0;
    while term < TERM_COUNT {
        offsets[term + 1] = offsets[term] + TABLES[term].values.len();
        term += 1;
    }
    offsets
}

static OFFSETS: [usize; TERM_COUNT + 1] = build_offsets();

/// The number of weights in all tables together.
pub const PARAMETER_COUNT: usize = build_offsets()[TERM_COUNT];

/// Where the first weight of `term` sits in the flat vector.
#[inline(always)]
pub fn offset(term: Term) -> usize {
    OFFSETS[term as usize]
}

/// The table a `Term` names.
pub fn table_of(term: Term) -> &'static Table {
    &TABLES[term as usize]
}

/// Human name of a term ("PASSED_PAWN" -> "Passed pawn").
pub fn display_name(term: Term) -> String {
    let name = table_of(term).name.replace('_', " ").to_lowercase();
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The current weights as one flat vector of (mg, eg) pairs.
pub fn current() -> Vec<[f64; 2]> {
    TABLES
        .iter()
        .flat_map(|table| table.values.iter())
        .map(|value| [value.mg() as f64, value.eg() as f64])
        .collect()
}

fn pair(value: [f64; 2]) -> String {
    format!(
        "S::new({}, {})",
        value[0].round() as i32,
        value[1].round() as i32
    )
}

fn write_rows(text: &mut String, values: &[[f64; 2]], indent: &str) {
    for row in values.chunks(8) {
        let cells: Vec<String> = row.iter().map(|&value| pair(value) + ",").collect();
        let _ = writeln!(text, "{indent}{}", cells.join(" "));
    }
}

/// The text of `weights.rs` for a flat vector of weights (rounded to whole centipawns).
/// `origin` is one line saying where the values come from.
pub fn render(values: &[[f64; 2]], origin: &str) -> String {
    assert_eq!(values.len(), PARAMETER_COUNT, "one value per parameter");
    let mut text = String::new();
    text.push_str(
        "//! Evaluation weights: every tuned number of the evaluation, in one generated file.\n\
         //!\n\
         //! Written by `engine tune` (Texel's method on self-play positions from `engine datagen`);\n\
         //! regenerate rather than edit by hand. Each `S` is a (middle game, end game) pair in\n\
         //! centipawns, white's point of view; `eval::params` lists these tables in order for the tuner.\n",
    );
    let _ = writeln!(text, "//! Origin of these values: {origin}.");
    text.push_str("\nuse crate::tapered::S;\n");
    const KINDS: [&str; 6] = ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];
    let mut start = 0;
    for table in &TABLES {
        let slice = &values[start..start + table.values.len()];
        start += table.values.len();
        let _ = writeln!(text, "\n/// {}", table.doc);
        match table.shape {
            Shape::Scalar => {
                let _ = writeln!(text, "pub const {}: S = {};", table.name, pair(slice[0]));
            }
            Shape::Array => {
                let _ = writeln!(text, "#[rustfmt::skip]");
                let _ = writeln!(text, "pub const {}: [S; {}] = [", table.name, slice.len());
                write_rows(&mut text, slice, "    ");
                text.push_str("];\n");
            }
            Shape::PieceSquare => {
                let _ = writeln!(text, "#[rustfmt::skip]");
                let _ = writeln!(text, "pub const {}: [[S; 64]; 6] = [", table.name);
                for (kind, board) in KINDS.iter().zip(slice.chunks(64)) {
                    let _ = writeln!(text, "    // {kind}");
                    text.push_str("    [\n");
                    write_rows(&mut text, board, "        ");
                    text.push_str("    ],\n");
                }
                text.push_str("];\n");
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_reproduces_the_weights_file() {
        let text = render(&current(), "x");
        let file = include_str!("../weights.rs");
        // Everything but the origin line is generated, so it must match exactly.
        let strip = |text: &str| -> String {
            text.lines()
                .filter(|line| !line.starts_with("//! Origin"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(strip(&text), strip(file));
    }

    #[test]
    fn offsets_cover_every_table() {
        assert_eq!(offset(Term::Material), 0);
        assert_eq!(offset(Term::PieceSquare), 6);
        assert_eq!(offset(Term::KnightMobility), 6 + 384);
        assert_eq!(offset(Term::Tempo), PARAMETER_COUNT - 1);
        assert_eq!(table_of(Term::Tempo).name, "TEMPO");
        assert_eq!(display_name(Term::PassedPawn), "Passed pawn");
    }
}
