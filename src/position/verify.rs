//! From-scratch recomputation of the incremental state, for tests and debugging: the Zobrist
//! keys and the network's accumulators are rebuilt from the board and
//! compared with what make/unmake maintained.
//!
//! Debug builds run `verify` after every `make_move`, `unmake_move`, `make_null_move` and
//! `unmake_null_move` (`debug_verify`), so any test or search run in a debug build (`cargo test
//! --lib`, as CI runs it) checks every position it reaches. Release builds compile the call to
//! nothing: it costs the search a recomputation of two keys and an accumulator per move.

use super::Position;
use crate::moves::Move;
use crate::types::{Color, NO_SQUARE, Piece, PieceType, Square, file_of, make_square, on_board};
use crate::zobrist::{KEYS, piece_key};

impl Position {
    /// Every piece on the board with its square, read from the board itself (not the lists).
    fn occupied_squares(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..8)
            .flat_map(|rank| (0..8).map(move |file| make_square(file, rank)))
            .map(|sq| (sq, self.board[sq as usize]))
            .filter(|(_, piece)| !piece.is_none())
    }

    /// Recomputes the Zobrist key from the board and state.
    pub fn compute_key(&self) -> u64 {
        let mut key = self
            .occupied_squares()
            .fold(0, |key, (sq, piece)| key ^ piece_key(piece, sq));
        if self.side == Color::Black {
            key ^= KEYS.black_to_move;
        }
        key ^= KEYS.castling[self.castling as usize];
        if self.en_passant != NO_SQUARE {
            key ^= KEYS.en_passant_file[file_of(self.en_passant) as usize];
        }
        key
    }

    /// Recomputes the pawn-king key from the board.
    pub fn compute_pawn_king_key(&self) -> u64 {
        self.occupied_squares()
            .filter(|(_, piece)| matches!(piece.kind(), PieceType::Pawn | PieceType::King))
            .fold(0, |key, (sq, piece)| key ^ piece_key(piece, sq))
    }

    /// Debug builds: panics, naming the operation and the move, when `verify` fails. Release
    /// builds: nothing.
    #[inline(always)]
    pub(super) fn debug_verify(&self, after: &str, mv: Move) {
        #[cfg(debug_assertions)]
        if let Err(error) = self.verify() {
            panic!(
                "after {after} {}: {error} (position now {})",
                mv.to_uci(self.chess960),
                self.to_fen()
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = (after, mv);
    }

    /// Checks every invariant in the module doc; returns a description of the first broken one.
    pub fn verify(&self) -> Result<(), String> {
        if self.key != self.compute_key() {
            return Err(format!(
                "key {:016x} != recomputed {:016x}",
                self.key,
                self.compute_key()
            ));
        }
        if self.pawn_king_key != self.compute_pawn_king_key() {
            return Err(format!(
                "pawn-king key {:016x} != recomputed {:016x}",
                self.pawn_king_key,
                self.compute_pawn_king_key()
            ));
        }
        if self.acc_top != self.history.len() || self.accumulators.len() <= self.acc_top {
            return Err(format!(
                "accumulator slot {} of {} for {} plies of history",
                self.acc_top,
                self.accumulators.len(),
                self.history.len()
            ));
        }
        if !self.accumulators[0].computed {
            return Err("the first accumulator slot is not up to date".to_string());
        }
        if self.accumulator() != self.computed_accumulator() {
            return Err("network accumulator != recomputed from the board".to_string());
        }
        let mut listed = 0;
        for piece in 1..16 {
            for slot in 0..self.counts[piece] as usize {
                let sq = self.lists[piece][slot];
                if self.board[sq as usize].index() != piece
                    || self.index[sq as usize] as usize != slot
                {
                    return Err(format!(
                        "piece list {piece} slot {slot} disagrees with the board"
                    ));
                }
                listed += 1;
            }
        }
        let on_board = (0..128u8)
            .filter(|&sq| on_board(sq as i32) && !self.board[sq as usize].is_none())
            .count();
        if listed != on_board {
            return Err(format!("{listed} pieces listed, {on_board} on the board"));
        }
        for color in [Color::White, Color::Black] {
            if self.count(color, PieceType::King) != 1 {
                return Err(format!(
                    "{color:?} has {} kings",
                    self.count(color, PieceType::King)
                ));
            }
        }
        Ok(())
    }
}

/// Every position of the perft suites (the same files as the perft tests), for tests.
#[cfg(test)]
pub(crate) fn suite_positions() -> Vec<Position> {
    [
        include_str!("../../perft/perftsuite.epd"),
        include_str!("../../perft/perft_cpw_extra.epd"),
        include_str!("../../perft/chess960_fischer.epd"),
    ]
    .iter()
    .flat_map(|text| text.lines())
    .filter_map(|line| line.split(';').next())
    .filter(|fen| !fen.trim().is_empty() && !fen.starts_with('#'))
    .map(|fen| Position::from_fen(fen.trim()).expect("the perft suites hold valid FEN"))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::suite_positions;
    use crate::moves::MoveList;
    use crate::position::Position;

    /// Walks the whole tree to `depth` with real make/unmake (perft bulk-counts the last ply,
    /// so it never makes the leaf moves) and a null move at every node not in check. In a debug
    /// build each make and unmake verifies itself; here each unmake must also restore the
    /// position exactly.
    fn walk(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let before = pos.clone();
        if !pos.in_check() {
            pos.make_null_move();
            pos.unmake_null_move();
            assert_eq!(*pos, before, "null move not undone");
        }
        let moves: MoveList = pos.legal_moves();
        let mut nodes = 0;
        for &mv in &moves {
            pos.make_move(mv);
            nodes += walk(pos, depth - 1);
            pos.unmake_move();
            assert_eq!(*pos, before, "{} not undone", mv.to_uci(pos.is_chess960()));
        }
        nodes
    }

    /// `in_check_after`, the search's check test from the move alone, against the full scan,
    /// for every move two plies deep from every suite position (Chess960 castling, en
    /// passant, promotions and discovered checks included).
    #[test]
    fn the_check_test_from_the_move_agrees_with_the_full_scan() {
        fn walk(pos: &mut Position, depth: u32, checks: &mut u64) {
            for mv in pos.legal_moves() {
                pos.make_move(mv);
                let expected = pos.in_check();
                assert_eq!(
                    pos.in_check_after(mv),
                    expected,
                    "{} leading to {}",
                    mv.to_uci(pos.is_chess960()),
                    pos.to_fen()
                );
                *checks += expected as u64;
                if depth > 1 {
                    walk(pos, depth - 1, checks);
                }
                pos.unmake_move();
            }
        }
        let mut checks = 0;
        for mut pos in suite_positions() {
            walk(&mut pos, 2, &mut checks);
        }
        assert!(checks > 1_000, "only {checks} checks seen");
    }

    #[test]
    fn make_and_unmake_keep_the_incremental_state_through_the_perft_suites() {
        let mut total = 0;
        for mut pos in suite_positions() {
            pos.verify().expect("consistent from FEN");
            total += walk(&mut pos, 2);
        }
        assert!(total > 500_000, "walked only {total} leaves");
    }

    #[test]
    fn random_games_keep_the_incremental_state() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (index, mut pos) in suite_positions().into_iter().enumerate().step_by(8) {
            let mut played = 0;
            while played < 300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() && next() % 8 == 0 {
                    pos.make_null_move();
                } else {
                    pos.make_move(moves[(next() % moves.len() as u64) as usize]);
                }
                played += 1;
                pos.verify()
                    .unwrap_or_else(|error| panic!("game {index}, ply {played}: {error}"));
                // The lazy sums: brought up to date at random plies, so that later ones start
                // from a slot some plies back.
                if next() % 3 == 0 {
                    let scratch = pos.network().evaluate(
                        &pos.computed_accumulator(),
                        pos.side,
                        pos.piece_total(),
                    );
                    assert_eq!(
                        pos.evaluate_network(),
                        scratch,
                        "game {index}, ply {played}"
                    );
                }
            }
            while let Some(undo) = pos.history().last().copied() {
                if undo.mv.is_null() {
                    pos.unmake_null_move();
                } else {
                    pos.unmake_move();
                }
                pos.verify()
                    .unwrap_or_else(|error| panic!("game {index}, taking back: {error}"));
                if next() % 5 == 0 {
                    let scratch = pos.network().evaluate(
                        &pos.computed_accumulator(),
                        pos.side,
                        pos.piece_total(),
                    );
                    assert_eq!(pos.evaluate_network(), scratch, "game {index}, taking back");
                }
            }
            assert_eq!(pos, suite_positions()[index], "game {index} not taken back");
        }
    }

    /// The debug check is wired in: a corrupted sum is reported by the next make_move itself.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "after make_move e2e4: network accumulator")]
    fn a_debug_build_catches_a_drifted_sum_at_the_move() {
        let mut pos = Position::startpos();
        pos.accumulators[pos.acc_top].acc.0[0][0] += 1;
        let e4 = pos
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_uci(false) == "e2e4")
            .expect("e2e4 is legal");
        pos.make_move(e4);
    }
}
