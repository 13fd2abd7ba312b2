//! Pawn structure and passed pawns, for one side.
//!
//! Everything is read from `Info`'s per-file extremes (`rearmost`, `frontmost`, in relative
//! ranks) and its pawn attack maps, so each pawn costs a handful of array reads:
//! - passed: no enemy pawn ahead on its own or a neighbouring file (and no own pawn ahead,
//!   so only the front pawn of a doubled pair counts), by rank; extra when its path is empty;
//!   king distances to the stop square weigh in the end game;
//! - unstoppable: a passer the enemy king cannot catch (rule of the square) once the enemy
//!   has no pieces left;
//! - isolated (no own pawn on a neighbouring file), doubled (own pawn ahead on the file),
//!   backward (neighbours all ahead, stop square attacked by an enemy pawn), connected
//!   (defended by a pawn or beside one), by rank.
//!
//! The pass is split in two for the pawn table (`pawn_table`): `structure` reads only pawns,
//! so its sum can be cached by pawn-king key, and it returns the files of the passed pawns;
//! `passers` scores what else about them depends on the rest of the board (a free path,
//! king distances, the rule of the square) and runs at every evaluation.

use super::params::Term;
use super::{Info, Sink};
use crate::geometry::distance;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square, make_square};
use crate::weights::*;

/// Pawn structure of one side: everything here depends on pawns alone. Returns the files of
/// its passed pawns (bit `f` for file `f`; only the front pawn of a file can be passed).
pub(crate) fn structure<T: Sink>(pos: &Position, info: &Info, color: Color, sink: &mut T) -> u8 {
    let us = color.index();
    let them = color.flip().index();
    let own_pawn = Piece::new(color, PieceType::Pawn);
    let forward = color.forward();
    let mut passed_files = 0u8;

    for &sq in pos.squares(color, PieceType::Pawn) {
        let file = (sq & 7) as usize + 1;
        let rank = color.relative_rank(sq) as i8;
        let stop = (sq as i32 + forward) as Square;

        let isolated = info.frontmost[us][file - 1] < 0 && info.frontmost[us][file + 1] < 0;
        let doubled = info.frontmost[us][file] > rank;
        let behind = sq as i32 - forward;
        let supported = [behind - 1, behind + 1]
            .iter()
            .any(|&from| crate::types::on_board(from) && pos.piece_at(from as Square) == own_pawn);
        let phalanx = [sq as i32 - 1, sq as i32 + 1].iter().any(|&beside| {
            crate::types::on_board(beside)
                && (beside as Square) >> 4 == sq >> 4
                && pos.piece_at(beside as Square) == own_pawn
        });

        if isolated {
            sink.add(color, Term::IsolatedPawn, 0, ISOLATED_PAWN, 1);
        }
        if doubled {
            sink.add(color, Term::DoubledPawn, 0, DOUBLED_PAWN, 1);
        }
        if supported || phalanx {
            let r = rank as usize;
            sink.add(color, Term::ConnectedPawn, r, CONNECTED_PAWN[r], 1);
        } else if !isolated
            && info.rearmost[us][file - 1] > rank
            && info.rearmost[us][file + 1] > rank
            && info.pawn_attacks[them][stop as usize]
        {
            sink.add(color, Term::BackwardPawn, 0, BACKWARD_PAWN, 1);
        }

        // An enemy pawn on relative rank `e` (its own view) stands on our rank `7 - e`.
        let passed = !doubled && (file - 1..=file + 1).all(|f| 7 - info.rearmost[them][f] <= rank);
        if !passed {
            continue;
        }
        let r = rank as usize;
        sink.add(color, Term::PassedPawn, r, PASSED_PAWN[r], 1);
        passed_files |= 1 << (sq & 7);
    }
    passed_files
}

/// The passed pawns of `color` on `files` (as `structure` returned them): bonuses that depend
/// on the pieces and kings around them.
pub(crate) fn passers<T: Sink>(pos: &Position, info: &Info, color: Color, files: u8, sink: &mut T) {
    let forward = color.forward();
    let own_king = pos.king_square(color);
    let enemy_king = pos.king_square(color.flip());
    let enemy_has_pieces = pos.has_non_pawn_material(color.flip());
    let mut remaining = files;
    while remaining != 0 {
        let file = remaining.trailing_zeros() as Square;
        remaining &= remaining - 1;
        let rank = info.frontmost[color.index()][file as usize + 1];
        let absolute_rank = if color == Color::White {
            rank
        } else {
            7 - rank
        };
        let sq = make_square(file, absolute_rank as Square);
        let stop = (sq as i32 + forward) as Square;
        let r = rank as usize;

        let promotion = make_square(file, if color == Color::White { 7 } else { 0 });
        let mut path_empty = true;
        let mut walk = stop as i32;
        loop {
            if !pos.piece_at(walk as Square).is_none() {
                path_empty = false;
                break;
            }
            if walk == promotion as i32 {
                break;
            }
            walk += forward;
        }
        if path_empty {
            sink.add(color, Term::PassedFreePath, r, PASSED_FREE_PATH[r], 1);
        }
        sink.add(
            color,
            Term::PassedOwnKingDistance,
            r,
            PASSED_OWN_KING_DISTANCE[r],
            distance(own_king, stop),
        );
        sink.add(
            color,
            Term::PassedEnemyKingDistance,
            r,
            PASSED_ENEMY_KING_DISTANCE[r],
            distance(enemy_king, stop),
        );

        // Rule of the square: the king catches the pawn if it reaches the promotion square
        // in no more moves than the pawn needs (one more when the king's side is to move).
        if !enemy_has_pieces && path_empty {
            let pawn_moves = if rank == 1 { 5 } else { 7 - rank as i32 };
            let king_tempo = i32::from(pos.side_to_move() != color);
            if distance(enemy_king, promotion) - king_tempo > pawn_moves {
                sink.add(color, Term::UnstoppablePasser, 0, UNSTOPPABLE_PASSER, 1);
            }
        }
    }
}
