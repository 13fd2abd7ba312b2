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
use super::{Info, Sink};
use crate::geometry::{BISHOP_DIRECTIONS, KING_OFFSETS, KNIGHT_OFFSETS, ROOK_DIRECTIONS};
use crate::position::Position;
use crate::tapered::S;
use crate::types::{Color, PieceType, Square, on_board};
use crate::weights::*;

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
    zone: &[bool; 128],
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
            reach.zone_hits += i32::from(zone[sq as usize]);
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

/// How one kind of piece moves and which weights score its activity.
struct PieceActivity {
    kind: PieceType,
    directions: &'static [i32],
    slides: bool,
    mobility_term: Term,
    mobility: &'static [S],
    /// Index into `KING_ATTACK_WEIGHT`.
    attack_index: usize,
}

const ACTIVITY: [PieceActivity; 4] = [
    PieceActivity {
        kind: PieceType::Knight,
        directions: &KNIGHT_OFFSETS,
        slides: false,
        mobility_term: Term::KnightMobility,
        mobility: &KNIGHT_MOBILITY,
        attack_index: 0,
    },
    PieceActivity {
        kind: PieceType::Bishop,
        directions: &BISHOP_DIRECTIONS,
        slides: true,
        mobility_term: Term::BishopMobility,
        mobility: &BISHOP_MOBILITY,
        attack_index: 1,
    },
    PieceActivity {
        kind: PieceType::Rook,
        directions: &ROOK_DIRECTIONS,
        slides: true,
        mobility_term: Term::RookMobility,
        mobility: &ROOK_MOBILITY,
        attack_index: 2,
    },
    PieceActivity {
        kind: PieceType::Queen,
        directions: &KING_OFFSETS,
        slides: true,
        mobility_term: Term::QueenMobility,
        mobility: &QUEEN_MOBILITY,
        attack_index: 3,
    },
];

pub(crate) fn evaluate<T: Sink>(pos: &Position, info: &Info, color: Color, sink: &mut T) {
    // The enemy king zone as a lookup table: one load per square walked, no branch.
    let enemy_king = pos.king_square(color.flip());
    let mut zone = [false; 128];
    zone[enemy_king as usize] = true;
    for step in KING_OFFSETS {
        let sq = enemy_king as i32 + step;
        if on_board(sq) {
            zone[sq as usize] = true;
        }
    }
    let mut attackers = 0;

    for activity in &ACTIVITY {
        for &sq in pos.squares(color, activity.kind) {
            let reach = walk(
                pos,
                info,
                color,
                sq,
                activity.directions,
                activity.slides,
                &zone,
            );
            sink.add(
                color,
                activity.mobility_term,
                reach.mobility,
                activity.mobility[reach.mobility],
                1,
            );
            if reach.zone_hits > 0 {
                attackers += 1;
                sink.add(
                    color,
                    Term::KingAttackWeight,
                    activity.attack_index,
                    KING_ATTACK_WEIGHT[activity.attack_index],
                    reach.zone_hits,
                );
            }
            if activity.kind == PieceType::Rook {
                let file = sq & 7;
                if !info.file_has_pawns(color, file) {
                    if info.file_has_pawns(color.flip(), file) {
                        sink.add(color, Term::RookSemiOpenFile, 0, ROOK_SEMI_OPEN_FILE, 1);
                    } else {
                        sink.add(color, Term::RookOpenFile, 0, ROOK_OPEN_FILE, 1);
                    }
                }
            }
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
