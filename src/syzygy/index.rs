//! Position → index: how a Syzygy table numbers its positions.
//!
//! A table is a flat array of values; the index of a position is built from groups of pieces.
//! The first group ("leading" group) absorbs the board's symmetries:
//! - without pawns it is the two kings, or two kings and one more unique piece, and the
//!   whole position is mirrored (files, ranks, then the a1-h8 diagonal) until the first piece
//!   lies in the a1-d1-d4 triangle: 462 king pairs, or 31 332 placements of three unique
//!   pieces;
//! - with pawns it is every pawn of one colour (the "leading" colour, which the file names).
//!   The leading pawn (the one nearest the a- or h-file, lowest rank first) picks one of four
//!   sub-tables by its file (a..d after mirroring files), so only the file mirror is used.
//!
//! Each later group (pieces of one kind and colour, or the other side's pawns) is a
//! combination: k pieces on the squares the earlier groups left free, numbered by the
//! combinatorial number system (sum of C(square, i)). The groups' order and their sizes come
//! from the table file ([`Layout`]); the index is the mixed-radix number with those sizes.
//!
//! Squares here are dense (a1 = 0 .. h8 = 63), as in the table format, not 0x88.
//! All maps are built once from their definitions, not copied as numbers.

use std::sync::LazyLock;

/// Most pieces a Syzygy table holds.
pub const MAX_PIECES: usize = 7;

/// Placements of two kings with the first in the a1-d1-d4 triangle (not adjacent, not both
/// off the diagonal's lower side when the first is on it).
pub const KING_PAIRS: u64 = 462;
/// Placements of three unique pieces with the first in the triangle.
pub const UNIQUE_TRIPLES: u64 = 31_332;

/// Rank minus file: zero on the a1-h8 diagonal, negative below it.
#[inline]
fn off_diagonal(square: usize) -> i32 {
    (square >> 3) as i32 - (square & 7) as i32
}

#[inline]
fn mirror_file(square: usize) -> usize {
    square ^ 7
}

#[inline]
fn mirror_rank(square: usize) -> usize {
    square ^ 56
}

#[inline]
fn mirror_diagonal(square: usize) -> usize {
    ((square >> 3) | (square << 3)) & 63
}

/// The encoding maps, built once.
struct Maps {
    /// C(n, k) for n < 64, k <= MAX_PIECES.
    binomial: [[u64; 64]; MAX_PIECES + 1],
    /// Squares below the a1-h8 diagonal numbered 0..28.
    below_diagonal: [u8; 64],
    /// The a1-d1-d4 triangle: b1..d3 below the diagonal 0..6, then a1, b2, c3, d4 6..10.
    triangle: [u8; 64],
    /// King pairs: [triangle index of the first king][square of the second], or u16::MAX.
    king_pairs: [[u16; 64]; 10],
    /// Pawn squares (a2..h7) numbered so that a higher number is nearer the a/h edge and,
    /// on one file, lower in rank: 47 for a2, 46 for h2, 45 for a3 ... 0 for e7.
    /// The leading pawn is the one with the highest number; the number is also how many
    /// squares the other pawns of the group may still use.
    pawn_rank: [u8; 64],
    /// Index of the leading pawn within its file's sub-table, per number of leading pawns.
    lead_pawn_index: [[u64; 64]; MAX_PIECES],
    /// Size of the leading-pawn group per number of leading pawns and file a..d.
    lead_pawn_size: [[u64; 4]; MAX_PIECES],
}

static MAPS: LazyLock<Maps> = LazyLock::new(build_maps);

fn build_maps() -> Maps {
    let mut binomial = [[0u64; 64]; MAX_PIECES + 1];
    binomial[0] = [1; 64];
    for k in 1..=MAX_PIECES {
        for n in 1..64 {
            binomial[k][n] = binomial[k - 1][n - 1] + binomial[k][n - 1];
        }
    }

    let mut below_diagonal = [0u8; 64];
    let mut code = 0;
    for (square, slot) in below_diagonal.iter_mut().enumerate() {
        if off_diagonal(square) < 0 {
            *slot = code;
            code += 1;
        }
    }

    let mut triangle = [0u8; 64];
    let mut triangle_squares = Vec::with_capacity(10);
    for square in 0..64 {
        if square & 7 <= 3 && square >> 3 <= 3 && off_diagonal(square) < 0 {
            triangle_squares.push(square);
        }
    }
    for square in 0..64 {
        if square & 7 <= 3 && off_diagonal(square) == 0 {
            triangle_squares.push(square);
        }
    }
    for (index, &square) in triangle_squares.iter().enumerate() {
        triangle[square] = index as u8;
    }

    let mut king_pairs = [[u16::MAX; 64]; 10];
    let mut both_on_diagonal = Vec::new();
    let mut code = 0u16;
    for (index, &first) in triangle_squares.iter().enumerate() {
        for (second, slot) in king_pairs[index].iter_mut().enumerate() {
            let file_gap = ((first & 7) as i32 - (second & 7) as i32).abs();
            let rank_gap = ((first >> 3) as i32 - (second >> 3) as i32).abs();
            if file_gap <= 1 && rank_gap <= 1 {
                continue;
            }
            if off_diagonal(first) == 0 && off_diagonal(second) > 0 {
                continue;
            }
            if off_diagonal(first) == 0 && off_diagonal(second) == 0 {
                both_on_diagonal.push((index, second));
            } else {
                *slot = code;
                code += 1;
            }
        }
    }
    for (index, second) in both_on_diagonal {
        king_pairs[index][second] = code;
        code += 1;
    }
    debug_assert_eq!(code as u64, KING_PAIRS);

    let mut pawn_rank = [0u8; 64];
    let mut available = 47u8;
    for file in 0..4 {
        for rank in 1..7 {
            let square = rank * 8 + file;
            pawn_rank[square] = available;
            pawn_rank[mirror_file(square)] = available - 1;
            available = available.saturating_sub(2);
        }
    }

    let mut lead_pawn_index = [[0u64; 64]; MAX_PIECES];
    let mut lead_pawn_size = [[0u64; 4]; MAX_PIECES];
    for count in 1..MAX_PIECES {
        for (file, size) in lead_pawn_size[count].iter_mut().enumerate() {
            let mut index = 0;
            for rank in 1..7 {
                let square = rank * 8 + file;
                lead_pawn_index[count][square] = index;
                index += binomial[count - 1][pawn_rank[square] as usize];
            }
            *size = index;
        }
    }

    Maps {
        binomial,
        below_diagonal,
        triangle,
        king_pairs,
        pawn_rank,
        lead_pawn_index,
        lead_pawn_size,
    }
}

/// C(n, k) for the group sizes a table may hold (0 outside the table's range).
pub fn binomial(n: usize, k: usize) -> u64 {
    if n < 64 && k <= MAX_PIECES {
        MAPS.binomial[k][n]
    } else {
        0
    }
}

/// How many ways the leading pawns (`count` of them) can stand with the leader on `file`
/// (0..4, a..d).
pub fn lead_pawn_group_size(count: usize, file: usize) -> u64 {
    if (1..MAX_PIECES).contains(&count) && file < 4 {
        MAPS.lead_pawn_size[count][file]
    } else {
        0
    }
}

/// The file (0..4 after mirroring) of the sub-table for these leading pawns, and the pawn
/// that leads: the one with the highest `pawn_rank`. `squares` must be pawn squares (a2..h7).
pub fn leading_pawn(squares: &[usize]) -> Option<(usize, usize)> {
    let maps = &*MAPS;
    let (position, &square) = squares
        .iter()
        .enumerate()
        .max_by_key(|&(position, &square)| (maps.pawn_rank[square], std::cmp::Reverse(position)))?;
    let file = square & 7;
    Some((position, file.min(7 - file)))
}

/// Group sizes and multipliers of one sub-table, as its file header defines them.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Pieces in each group, in table order; `groups` of them are used.
    pub group_len: [u8; MAX_PIECES],
    /// Multiplier of each group's number in the index.
    pub group_factor: [u64; MAX_PIECES],
    pub groups: usize,
    /// Number of positions (the product of all group sizes).
    pub size: u64,
}

/// What the encoder needs to know about a table besides its layout.
#[derive(Copy, Clone, Debug)]
pub struct Shape {
    pub has_pawns: bool,
    /// Without pawns: some piece other than a king is alone of its kind and colour, so the
    /// leading group is three unique pieces instead of the two kings.
    pub unique_pieces: bool,
    /// With pawns: both colours have pawns (the second group is the other side's pawns).
    pub pawns_both_sides: bool,
}

impl Layout {
    /// Builds the groups from a sub-table's piece codes (in table order) and the two order
    /// nibbles (`order[0]`: where the leading group sits among the radix digits, `order[1]`:
    /// where the other side's pawns sit, 0xF when there are none). `file` is the leading
    /// pawn's file (0 without pawns). None when the header is inconsistent.
    pub fn new(shape: Shape, pieces: &[u8], order: [u8; 2], file: usize) -> Option<Layout> {
        let mut layout = Layout::default();
        if pieces.is_empty() || pieces.len() > MAX_PIECES {
            return None;
        }
        let mut first_len: i32 = if shape.has_pawns {
            0
        } else if shape.unique_pieces {
            3
        } else {
            2
        };
        layout.group_len[0] = 1;
        let mut groups = 1;
        for i in 1..pieces.len() {
            first_len -= 1;
            if first_len > 0 || pieces[i] == pieces[i - 1] {
                layout.group_len[groups - 1] += 1;
            } else {
                layout.group_len[groups] = 1;
                groups += 1;
            }
        }
        layout.groups = groups;

        let two_pawn_groups = shape.has_pawns && shape.pawns_both_sides;
        if two_pawn_groups && groups < 2 {
            return None;
        }
        let lead_len = layout.group_len[0] as usize;
        let mut next = if two_pawn_groups { 2 } else { 1 };
        let mut free_squares = 64
            - lead_len
            - if two_pawn_groups {
                layout.group_len[1] as usize
            } else {
                0
            };
        let mut factor: u64 = 1;
        let mut k = 0u8;
        while next < groups || k == order[0] || k == order[1] {
            if k == order[0] {
                layout.group_factor[0] = factor;
                let size = if shape.has_pawns {
                    lead_pawn_group_size(lead_len, file)
                } else if shape.unique_pieces {
                    UNIQUE_TRIPLES
                } else {
                    KING_PAIRS
                };
                factor = factor.checked_mul(size)?;
            } else if k == order[1] {
                layout.group_factor[1] = factor;
                let size = binomial(48 - lead_len, layout.group_len[1] as usize);
                factor = factor.checked_mul(size)?;
            } else {
                layout.group_factor[next] = factor;
                let len = layout.group_len[next] as usize;
                factor = factor.checked_mul(binomial(free_squares, len))?;
                free_squares = free_squares.checked_sub(len)?;
                next += 1;
            }
            k += 1;
            if k > 16 {
                return None;
            }
        }
        if factor == 0 {
            return None;
        }
        layout.size = factor;
        Some(layout)
    }
}

/// The index of a position in one sub-table. `squares` are the pieces' dense squares in the
/// sub-table's piece order (colours already swapped and ranks mirrored when the table is read
/// from the other side). The leading pawns come first (any order). None when the squares
/// cannot occur in this table (a corrupt header, or a broken caller).
pub fn encode(shape: Shape, layout: &Layout, squares: &mut [usize]) -> Option<u64> {
    let maps = &*MAPS;
    let count = squares.len();
    let lead_len = layout.group_len[0] as usize;
    if count == 0 || lead_len > count {
        return None;
    }
    let mut index: u64;

    if shape.has_pawns {
        let (leader, _) = leading_pawn(&squares[..lead_len])?;
        squares.swap(0, leader);
    }
    if squares[0] & 7 > 3 {
        for square in squares.iter_mut() {
            *square = mirror_file(*square);
        }
    }

    if shape.has_pawns {
        if lead_len >= MAX_PIECES {
            return None;
        }
        index = maps.lead_pawn_index[lead_len][squares[0]];
        squares[1..lead_len].sort_by_key(|&square| maps.pawn_rank[square]);
        for (i, &square) in squares.iter().enumerate().take(lead_len).skip(1) {
            index += binomial(maps.pawn_rank[square] as usize, i);
        }
    } else {
        if squares[0] >> 3 > 3 {
            for square in squares.iter_mut() {
                *square = mirror_rank(*square);
            }
        }
        for i in 0..lead_len {
            match off_diagonal(squares[i]) {
                0 => continue,
                offset if offset > 0 => {
                    for square in squares[i..].iter_mut() {
                        *square = mirror_diagonal(*square);
                    }
                }
                _ => {}
            }
            break;
        }
        index = if shape.unique_pieces {
            if count < 3 {
                return None;
            }
            encode_unique_triple(maps, squares[0], squares[1], squares[2])?
        } else {
            if count < 2 {
                return None;
            }
            let pair = maps.king_pairs[maps.triangle[squares[0]] as usize][squares[1]];
            if pair == u16::MAX {
                return None;
            }
            pair as u64
        };
    }
    index = index.checked_mul(layout.group_factor[0])?;

    // The remaining groups: each a combination over the squares the earlier groups left.
    let mut start = lead_len;
    let mut pawn_group = shape.has_pawns && shape.pawns_both_sides;
    for group in 1..layout.groups {
        let len = layout.group_len[group] as usize;
        let end = start + len;
        if end > count {
            return None;
        }
        squares[start..end].sort_unstable();
        let mut number = 0u64;
        for i in 0..len {
            let square = squares[start + i];
            let taken = squares[..start]
                .iter()
                .filter(|&&other| other < square)
                .count();
            let free_rank =
                square
                    .checked_sub(taken)?
                    .checked_sub(if pawn_group { 8 } else { 0 })?;
            number += binomial(free_rank, i + 1);
        }
        pawn_group = false;
        index = index.checked_add(number.checked_mul(layout.group_factor[group])?)?;
        start = end;
    }
    (index < layout.size).then_some(index)
}

/// Three unique pieces, the first in the a1-d1-d4 triangle (mirrored there already).
fn encode_unique_triple(maps: &Maps, first: usize, second: usize, third: usize) -> Option<u64> {
    let adjust1 = (second > first) as u64;
    let adjust2 = (third > first) as u64 + (third > second) as u64;
    let (second_u, third_u) = (second as u64, third as u64);
    let rank = |square: usize| (square >> 3) as u64;
    let index = if off_diagonal(first) != 0 {
        (maps.triangle[first] as u64 * 63 + (second_u - adjust1)) * 62 + third_u - adjust2
    } else if off_diagonal(second) != 0 {
        (6 * 63 + rank(first) * 28 + maps.below_diagonal[second] as u64) * 62 + third_u - adjust2
    } else if off_diagonal(third) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + rank(first) * 7 * 28
            + (rank(second) - adjust1) * 28
            + maps.below_diagonal[third] as u64
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + rank(first) * 7 * 6
            + (rank(second) - adjust1) * 6
            + (rank(third) - adjust2)
    };
    Some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_have_the_sizes_the_format_defines() {
        let maps = &*MAPS;
        let pairs = maps
            .king_pairs
            .iter()
            .flatten()
            .filter(|&&code| code != u16::MAX)
            .count();
        assert_eq!(pairs as u64, KING_PAIRS);
        assert_eq!(maps.pawn_rank[8], 47); // a2
        assert_eq!(maps.pawn_rank[15], 46); // h2
        assert_eq!(maps.pawn_rank[52], 0); // e7
        assert_eq!(maps.triangle[1], 0); // b1
        assert_eq!(maps.triangle[0], 6); // a1
        assert_eq!(maps.triangle[27], 9); // d4
        assert_eq!(binomial(5, 2), 10);
        // One leading pawn: its 6 ranks on each of the 4 files.
        assert_eq!(
            (0..4)
                .map(|file| lead_pawn_group_size(1, file))
                .sum::<u64>(),
            24
        );
    }
}
