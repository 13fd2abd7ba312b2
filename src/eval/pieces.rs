//! Pieces of one side: mobility, attacks on the enemy king zone, bishop pair, rooks on open
//! files and pawn threats.
//!
//! One walk over each piece's moves on the 0x88 board gives both mobility and king attacks:
//! - mobility counts safe squares: empty or enemy-occupied, not attacked by an enemy pawn
//!   (a square a pawn guards is no real room for a piece);
//! - the king zone is the enemy king's square and its neighbours; every zone square a piece
//!   reaches (whatever stands there) adds `KING_ATTACK_WEIGHT[kind]`, and the number of pieces
//!   that reach the zone at all picks `KING_ATTACKERS[n]`, which makes the sum grow faster
//!   than linearly with the number of attackers, as king attacks do.

use super::params::Term;
use super::weights::*;
use super::{Info, Sink};
use crate::geometry::{
    BISHOP_DIRECTIONS, KING_OFFSETS, KNIGHT_OFFSETS, ROOK_DIRECTIONS, can_attack,
};
use crate::position::Position;
use crate::types::{Color, PieceType, Square, on_board};

/// Mobility and king-zone hits of one piece.
struct Reach {
    mobility: usize,
    zone_hits: i32,
}

#[inline(always)]
fn walk(
    pos: &Position,
    info: &Info,
    color: Color,
    from: Square,
    steps: &[i32],
    slider: bool,
    enemy_king: Square,
) -> Reach {
    let enemy_pawn_attacks = &info.pawn_attacks[color.flip().index()];
    let mut reach = Reach {
        mobility: 0,
        zone_hits: 0,
    };
    for &step in steps {
        let mut target = from as i32 + step;
        while on_board(target) {
            let sq = target as Square;
            if sq == enemy_king || can_attack(PieceType::King, enemy_king, sq) {
                reach.zone_hits += 1;
            }
            let piece = pos.piece_at(sq);
            if piece.is_none() {
                reach.mobility += usize::from(!enemy_pawn_attacks[sq as usize]);
            } else {
                if piece.color() != color {
                    reach.mobility += usize::from(!enemy_pawn_attacks[sq as usize]);
                }
                break;
            }
            if !slider {
                break;
            }
            target += step;
        }
    }
    reach
}

pub(crate) fn evaluate<T: Sink>(pos: &Position, info: &Info, color: Color, sink: &mut T) {
    let enemy_king = pos.king_square(color.flip());
    let mut attackers = 0;

    for &sq in pos.squares(color, PieceType::Knight) {
        let reach = walk(pos, info, color, sq, &KNIGHT_OFFSETS, false, enemy_king);
        sink.add(
            color,
            Term::KnightMobility,
            reach.mobility,
            KNIGHT_MOBILITY[reach.mobility],
            1,
        );
        if reach.zone_hits > 0 {
            attackers += 1;
            sink.add(
                color,
                Term::KingAttackWeight,
                0,
                KING_ATTACK_WEIGHT[0],
                reach.zone_hits,
            );
        }
    }
    for &sq in pos.squares(color, PieceType::Bishop) {
        let reach = walk(pos, info, color, sq, &BISHOP_DIRECTIONS, true, enemy_king);
        sink.add(
            color,
            Term::BishopMobility,
            reach.mobility,
            BISHOP_MOBILITY[reach.mobility],
            1,
        );
        if reach.zone_hits > 0 {
            attackers += 1;
            sink.add(
                color,
                Term::KingAttackWeight,
                1,
                KING_ATTACK_WEIGHT[1],
                reach.zone_hits,
            );
        }
    }
    for &sq in pos.squares(color, PieceType::Rook) {
        let reach = walk(pos, info, color, sq, &ROOK_DIRECTIONS, true, enemy_king);
        sink.add(
            color,
            Term::RookMobility,
            reach.mobility,
            ROOK_MOBILITY[reach.mobility],
            1,
        );
        if reach.zone_hits > 0 {
            attackers += 1;
            sink.add(
                color,
                Term::KingAttackWeight,
                2,
                KING_ATTACK_WEIGHT[2],
                reach.zone_hits,
            );
        }
        let file = sq & 7;
        if !info.file_has_pawns(color, file) {
            if info.file_has_pawns(color.flip(), file) {
                sink.add(color, Term::RookSemiOpenFile, 0, ROOK_SEMI_OPEN_FILE, 1);
            } else {
                sink.add(color, Term::RookOpenFile, 0, ROOK_OPEN_FILE, 1);
            }
        }
    }
    for &sq in pos.squares(color, PieceType::Queen) {
        let reach = walk(pos, info, color, sq, &KING_OFFSETS, true, enemy_king);
        sink.add(
            color,
            Term::QueenMobility,
            reach.mobility,
            QUEEN_MOBILITY[reach.mobility],
            1,
        );
        if reach.zone_hits > 0 {
            attackers += 1;
            sink.add(
                color,
                Term::KingAttackWeight,
                3,
                KING_ATTACK_WEIGHT[3],
                reach.zone_hits,
            );
        }
    }
    let attackers = attackers.min(KING_ATTACKERS.len() - 1);
    if attackers > 0 {
        sink.add(
            color,
            Term::KingAttackers,
            attackers,
            KING_ATTACKERS[attackers],
            1,
        );
    }

    if pos.count(color, PieceType::Bishop) >= 2 {
        sink.add(color, Term::BishopPair, 0, BISHOP_PAIR, 1);
    }

    let our_pawn_attacks = &info.pawn_attacks[color.index()];
    let mut threatened = 0;
    for kind in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        for &sq in pos.squares(color.flip(), kind) {
            threatened += i32::from(our_pawn_attacks[sq as usize]);
        }
    }
    if threatened > 0 {
        sink.add(color, Term::ThreatByPawn, 0, THREAT_BY_PAWN, threatened);
    }
}
