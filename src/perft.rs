//! Perft: counts the leaf nodes of the legal move tree, the standard test of a move generator.
//!
//! Because generation is fully legal, the last ply is bulk-counted (the generator counts the
//! moves instead of storing them) rather than made and unmade. No hash table is used, so the figure measures generation
//! and make/unmake alone.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::position::movegen::GenType;

pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal_moves(),
        _ => {}
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let mut nodes = 0;
    for &mv in &list {
        pos.make_move(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Node counts below each root move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let list = pos.legal_moves();
    list.iter()
        .map(|&mv| {
            pos.make_move(mv);
            let nodes = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (mv, nodes)
        })
        .collect()
}

/// One line of a perft suite: `FEN ;D1 20 ;D2 400 ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Parses a perft EPD line; blank lines and `#` comments give `Ok(None)`.
pub fn parse_epd_line(line: &str) -> Result<Option<PerftCase>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or_default().trim().to_string();
    let mut counts = Vec::new();
    for part in parts {
        let mut fields = part.split_whitespace();
        let (Some(label), Some(value)) = (fields.next(), fields.next()) else {
            return Err(format!("malformed perft field '{part}'"));
        };
        let depth = label
            .strip_prefix('D')
            .and_then(|digits| digits.parse().ok())
            .ok_or_else(|| format!("malformed depth label '{label}'"))?;
        let nodes = value
            .parse()
            .map_err(|_| format!("malformed node count '{value}'"))?;
        counts.push((depth, nodes));
    }
    Ok(Some(PerftCase { fen, counts }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 20);
        assert_eq!(perft(&mut pos, 2), 400);
        assert_eq!(perft(&mut pos, 3), 8902);
        assert_eq!(divide(&mut pos, 2).iter().map(|(_, n)| n).sum::<u64>(), 400);
    }

    #[test]
    fn epd_lines() {
        let case = parse_epd_line("8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9")
            .expect("valid")
            .expect("a case");
        assert_eq!(case.fen, "8/8/8/8/8/8/8/K6k w - -");
        assert_eq!(case.counts, vec![(1, 3), (2, 9)]);
        assert_eq!(parse_epd_line("# comment"), Ok(None));
        assert!(parse_epd_line("8/8 w - - ;D1 x").is_err());
    }
}
