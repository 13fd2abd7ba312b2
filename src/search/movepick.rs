//! The staged move picker: hands out a node's moves best-first, generating lazily.
//!
//! Stages, in order:
//! 1. the transposition-table move (vetted with `is_legal`; a cutoff here generates nothing);
//! 2. noisy moves (captures, promotions) by MVV-LVA plus capture history, those that lose
//!    material by static exchange set aside for later;
//! 3. the two killers and the counter move (quiet, vetted with `is_legal`);
//! 4. the other quiet moves by history (skipped when the search prunes quiets);
//! 5. the losing captures set aside in stage 2.
//!
//! In quiescence (not in check) only stages 1–2 run and no capture is set aside: the caller
//! prunes by exchange value itself. In check, the full sequence yields every evasion.
//! Selection is a partial selection sort: most nodes cut off after a move or two.

use crate::position::movegen::{Context, GenType};
use arrayvec::ArrayVec;

use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::Position;
use crate::types::PieceType;

use super::history::History;
use super::see::{see_ge, see_value};
use crate::position::attacks::ThreatMap;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    FirstKiller,
    SecondKiller,
    Counter,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// What a capture takes (`None` for quiet moves and non-capturing promotions).
#[inline(always)]
pub fn captured_kind(pos: &Position, mv: Move) -> PieceType {
    if mv.is_en_passant() {
        PieceType::Pawn
    } else if mv.is_capture() {
        pos.piece_at(mv.to()).kind()
    } else {
        PieceType::None
    }
}

/// What a quiet move gains in ordering by taking a piece out of the reach of a less valuable
/// attacker (and loses by putting it there), by the kind of piece moved.
const ESCAPE_BONUS: [i32; 7] = [0, 0, 12_000, 12_000, 16_000, 24_000, 0];

#[inline(always)]
fn escape_bonus(kind: PieceType, mv: Move, threats: &ThreatMap) -> i32 {
    let lesser = threats.by_lesser(kind);
    if lesser == 0 {
        return 0;
    }
    let bonus = ESCAPE_BONUS[kind as usize];
    if lesser >> mv.to_dense() & 1 == 1 {
        -bonus
    } else if lesser >> mv.from_dense() & 1 == 1 {
        bonus
    } else {
        0
    }
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    contexts: [Option<usize>; 2],
    threats: ThreatMap,
    quiescence: bool,
    skip_quiets: bool,
    list: MoveList,
    /// `scores[i]` orders `list[i]` (filled when a stage generates; not zeroed per node).
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    bad: MoveList,
    bad_next: usize,
    /// The node's checks and pins, found once at the first stage that needs them.
    move_context: Option<Context>,
}

impl MovePicker {
    /// The picker of an alpha-beta node.
    pub fn new(
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        contexts: [Option<usize>; 2],
        threats: ThreatMap,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            contexts,
            threats,
            quiescence: false,
            skip_quiets: false,
            list: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            move_context: None,
        }
    }

    /// The picker of a quiescence node: noisy moves only unless `in_check` (`threats` orders
    /// the quiet evasions then).
    pub fn quiescence(
        tt_move: Move,
        in_check: bool,
        contexts: [Option<usize>; 2],
        threats: ThreatMap,
    ) -> MovePicker {
        let mut picker = MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL, contexts, threats);
        picker.quiescence = !in_check;
        if picker.quiescence && !tt_move.is_noisy() {
            picker.tt_move = Move::NULL;
        }
        picker
    }

    /// From now on, yield no more quiet moves (late-move and futility pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// True while the picker is still in the killer/counter stages (for reductions).
    pub fn is_refutation(&self, mv: Move) -> bool {
        mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    fn pick_best(&mut self) -> Option<Move> {
        if self.next >= self.list.len() {
            return None;
        }
        // The first of the highest scores (ties keep generation order).
        let mut best = self.next;
        let mut best_score = self.scores[best];
        for (index, &score) in self.scores[..self.list.len()]
            .iter()
            .enumerate()
            .skip(self.next + 1)
        {
            if score > best_score {
                best = index;
                best_score = score;
            }
        }
        self.list.swap(self.next, best);
        self.scores.swap(self.next, best);
        let mv = self.list[self.next];
        self.next += 1;
        Some(mv)
    }

    fn is_special(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if !self.tt_move.is_null()
                        && pos.is_legal_in(
                            self.move_context.get_or_insert_with(|| pos.move_context()),
                            self.tt_move,
                        )
                    {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenerateNoisy => {
                    let context = self.move_context.get_or_insert_with(|| pos.move_context());
                    pos.generate_in(context, GenType::Noisy, &mut self.list);
                    for &mv in &self.list {
                        let piece = pos.piece_at(mv.from());
                        let captured = captured_kind(pos, mv);
                        let mut score = see_value(captured) * 16 - piece.kind() as i32;
                        if mv.is_promotion() {
                            score += see_value(mv.promotion_piece()) * 16;
                        }
                        score += history.capture_score(piece, mv, captured) / 16;
                        self.scores.push(score);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some(mv) if mv == self.tt_move => {}
                    Some(mv) => {
                        if self.quiescence {
                            return Some(mv);
                        }
                        let underpromotion =
                            mv.is_promotion() && mv.promotion_piece() != PieceType::Queen;
                        if underpromotion || !see_ge(pos, mv, 0) {
                            self.bad.push(mv);
                        } else {
                            return Some(mv);
                        }
                    }
                    None => {
                        self.stage = if self.quiescence {
                            Stage::Done
                        } else {
                            Stage::FirstKiller
                        };
                    }
                },
                Stage::FirstKiller | Stage::SecondKiller | Stage::Counter => {
                    let mv = match self.stage {
                        Stage::FirstKiller => self.killers[0],
                        Stage::SecondKiller => self.killers[1],
                        _ => self.counter,
                    };
                    let duplicate = match self.stage {
                        Stage::FirstKiller => false,
                        Stage::SecondKiller => mv == self.killers[0],
                        _ => mv == self.killers[0] || mv == self.killers[1],
                    };
                    self.stage = match self.stage {
                        Stage::FirstKiller => Stage::SecondKiller,
                        Stage::SecondKiller => Stage::Counter,
                        _ => Stage::GenerateQuiet,
                    };
                    if !self.skip_quiets
                        && !mv.is_null()
                        && !duplicate
                        && mv != self.tt_move
                        && !mv.is_noisy()
                        && pos.is_legal_in(
                            self.move_context.get_or_insert_with(|| pos.move_context()),
                            mv,
                        )
                    {
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    self.list.clear();
                    self.scores.clear();
                    let context = self.move_context.get_or_insert_with(|| pos.move_context());
                    pos.generate_in(context, GenType::Quiet, &mut self.list);
                    let color = pos.side_to_move();
                    for &mv in &self.list {
                        let piece = pos.piece_at(mv.from());
                        let score =
                            history.quiet_score(color, mv, piece, self.contexts, self.threats);
                        self.scores
                            .push(score + escape_bonus(piece.kind(), mv, &self.threats));
                    }
                    self.next = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    match self.pick_best() {
                        Some(mv) if self.is_special(mv) => {}
                        Some(mv) => return Some(mv),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_next < self.bad.len() {
                        let mv = self.bad[self.bad_next];
                        self.bad_next += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}
