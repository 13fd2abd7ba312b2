//! `PlayGame`, one terminal game: the position with its history, the moves in SAN, who the
//! human is, the clocks, and how the game ended. The session loop drives it; everything here
//! is free of I/O.

use crate::play::clock::{Clock, TimeControl};
use crate::play::explain::color_name;
use crate::play::pgn::{GameResult, PgnGame, numbered_lines};
use crate::position::Position;
use crate::types::{Color, PieceType};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: GameResult,
    /// A sentence for the player, e.g. "Checkmate: Black wins."
    pub reason: String,
    /// Ended by the position itself (mate, stalemate, draw rules): `undo` may reopen it.
    /// Resignation, agreement and time forfeit are final.
    pub by_board: bool,
}

/// The state of one terminal game (not `datagen::SelfPlayGame`, a finished self-play record).
pub struct PlayGame {
    /// The position the game started from (for move numbers and the FEN tag).
    start: Position,
    /// `Some` when the game started from a position other than the standard one.
    pub setup_fen: Option<String>,
    /// The current position; its history is the game's moves.
    pub pos: Position,
    pub sans: Vec<String>,
    pub human: Color,
    pub clock: Option<Clock>,
    pub outcome: Option<Outcome>,
    pub round: u32,
    pub date: String,
    /// Written to the `--pgn` file already.
    pub saved: bool,
}

impl PlayGame {
    pub fn new(
        start: &Position,
        setup_fen: Option<String>,
        human: Color,
        time: Option<TimeControl>,
        round: u32,
    ) -> PlayGame {
        let mut start = start.clone();
        start.clear_history();
        PlayGame {
            pos: start.clone(),
            start,
            setup_fen,
            sans: Vec::new(),
            human,
            clock: time.map(Clock::new),
            outcome: None,
            round,
            date: crate::play::pgn::today(),
            saved: false,
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn engine_color(&self) -> Color {
        self.human.flip()
    }

    /// Plays a legal move, records its SAN and returns it with its move number, e.g.
    /// `12... Kf8`.
    pub fn play(&mut self, mv: crate::moves::Move) -> String {
        let san = self.pos.san(mv);
        let numbered = self.numbered_next(&san);
        self.pos.make_move(mv);
        self.sans.push(san);
        numbered
    }

    /// `san` with the number of the move about to be played, e.g. `1. e4` or `1... e5`.
    fn numbered_next(&self, san: &str) -> String {
        let number = self.pos.fullmove_number();
        match self.pos.side_to_move() {
            Color::White => format!("{number}. {san}"),
            Color::Black => format!("{number}... {san}"),
        }
    }

    /// Mate, stalemate or a draw rule in the current position (draws are claimed at once).
    pub fn board_outcome(&self) -> Option<Outcome> {
        let pos = &self.pos;
        let (result, reason) = if pos.is_checkmate() {
            let winner = pos.side_to_move().flip();
            (
                GameResult::win_for(winner),
                format!("Checkmate: {} wins.", color_name(winner)),
            )
        } else if pos.is_stalemate() {
            (
                GameResult::Draw,
                format!(
                    "Stalemate: {} has no legal move and is not in check. The game is drawn.",
                    color_name(pos.side_to_move())
                ),
            )
        } else if pos.is_insufficient_material() {
            (
                GameResult::Draw,
                "Draw by insufficient material: neither side can mate.".to_string(),
            )
        } else if pos.is_fifty_move_draw() {
            (
                GameResult::Draw,
                "Draw by the fifty-move rule: fifty moves each without a capture or a pawn move."
                    .to_string(),
            )
        } else if pos.is_threefold() {
            (
                GameResult::Draw,
                "Draw by threefold repetition.".to_string(),
            )
        } else {
            return None;
        };
        Some(Outcome {
            result,
            reason,
            by_board: true,
        })
    }

    /// `flagged` ran out of time: a loss, unless the other side cannot possibly mate.
    pub fn time_forfeit(&self, flagged: Color) -> Outcome {
        let winner = flagged.flip();
        let (result, reason) = if self.can_mate(winner) {
            (
                GameResult::win_for(winner),
                format!(
                    "{} loses on time: {} wins.",
                    color_name(flagged),
                    color_name(winner)
                ),
            )
        } else {
            (
                GameResult::Draw,
                format!(
                    "{}'s flag fell, but {} has no mating material: the game is drawn.",
                    color_name(flagged),
                    color_name(winner)
                ),
            )
        };
        Outcome {
            result,
            reason,
            by_board: false,
        }
    }

    /// Could `color` mate by any series of legal moves? Only a lone king, or a lone minor
    /// piece against a lone king, cannot.
    fn can_mate(&self, color: Color) -> bool {
        let count = |side: Color, kind: PieceType| self.pos.count(side, kind);
        let pieces = |side: Color| -> i32 {
            [
                PieceType::Pawn,
                PieceType::Knight,
                PieceType::Bishop,
                PieceType::Rook,
                PieceType::Queen,
            ]
            .iter()
            .map(|&kind| count(side, kind))
            .sum()
        };
        let own = pieces(color);
        let minors = count(color, PieceType::Knight) + count(color, PieceType::Bishop);
        !(own == 0 || (own == 1 && minors == 1 && pieces(color.flip()) == 0))
    }

    pub fn resignation(&self, loser: Color) -> Outcome {
        let winner = loser.flip();
        Outcome {
            result: GameResult::win_for(winner),
            reason: format!(
                "{} resigns: {} wins.",
                color_name(loser),
                color_name(winner)
            ),
            by_board: false,
        }
    }

    pub fn draw_agreed() -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason: "Draw agreed.".to_string(),
            by_board: false,
        }
    }

    /// Who made the `ply`-th move of the game (0-based).
    fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.start.side_to_move()
        } else {
            self.start.side_to_move().flip()
        }
    }

    /// Takes back moves until the human's last move is undone (so usually two plies: the
    /// engine's reply and the human's move). Returns how many plies went, or why none did.
    pub fn undo(&mut self) -> Result<usize, String> {
        if self
            .outcome
            .as_ref()
            .is_some_and(|outcome| !outcome.by_board)
        {
            return Err("The game is over; it cannot be taken back.".to_string());
        }
        let human_moved = (0..self.sans.len()).any(|ply| self.mover(ply) == self.human);
        if !human_moved {
            return Err("There is no move of yours to take back.".to_string());
        }
        let mut plies = 0;
        loop {
            self.pos.unmake_move();
            self.sans.pop();
            plies += 1;
            if self.mover(self.sans.len()) == self.human {
                break;
            }
        }
        self.outcome = None;
        self.saved = false;
        Ok(plies)
    }

    /// The numbered move list, one full move a line.
    pub fn move_lines(&self) -> Vec<String> {
        numbered_lines(
            self.start.fullmove_number(),
            self.start.side_to_move(),
            &self.sans,
        )
    }

    /// The game as PGN text; `engine_name` describes Ox88 and its level.
    pub fn pgn(&self, engine_name: &str, time: Option<TimeControl>) -> String {
        let result = self
            .outcome
            .as_ref()
            .map_or(GameResult::Unfinished, |outcome| outcome.result);
        let (white, black) = match self.human {
            Color::White => ("Human".to_string(), engine_name.to_string()),
            Color::Black => (engine_name.to_string(), "Human".to_string()),
        };
        let mut tags = vec![
            ("Event", "Ox88 terminal game".to_string()),
            ("Site", "engine play".to_string()),
            ("Date", self.date.clone()),
            ("Round", self.round.to_string()),
            ("White", white),
            ("Black", black),
            ("Result", result.as_pgn().to_string()),
        ];
        if let Some(fen) = &self.setup_fen {
            tags.push(("SetUp", "1".to_string()));
            tags.push(("FEN", fen.clone()));
        }
        if let Some(control) = time {
            tags.push(("TimeControl", control.pgn_tag()));
        }
        if let Some(outcome) = &self.outcome {
            tags.push(("Termination", termination(outcome).to_string()));
        }
        PgnGame {
            tags,
            sans: &self.sans,
            first_move_number: self.start.fullmove_number(),
            first_mover: self.start.side_to_move(),
            result,
        }
        .write()
    }
}

/// The PGN `Termination` tag value.
fn termination(outcome: &Outcome) -> &'static str {
    if outcome.reason.contains("time") || outcome.reason.contains("flag") {
        "time forfeit"
    } else {
        "normal"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_uci(game: &mut PlayGame, moves: &[&str]) {
        for uci in moves {
            let mv = game
                .pos
                .legal_moves()
                .into_iter()
                .find(|mv| mv.to_uci(false) == *uci)
                .expect("legal");
            game.play(mv);
        }
    }

    #[test]
    fn fools_mate_ends_the_game() {
        let mut game = PlayGame::new(&Position::startpos(), None, Color::Black, None, 1);
        play_uci(&mut game, &["f2f3", "e7e5", "g2g4"]);
        assert_eq!(game.board_outcome(), None);
        let mate = game
            .pos
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_uci(false) == "d8h4")
            .expect("legal");
        assert_eq!(game.play(mate), "2... Qh4#");
        game.outcome = game.board_outcome();
        let outcome = game.outcome.clone().expect("mate");
        assert_eq!(outcome.result, GameResult::BlackWins);
        assert_eq!(outcome.reason, "Checkmate: Black wins.");
        assert!(game.pgn("Ox88", None).contains("1. f3 e5 2. g4 Qh4# 0-1"));
        assert_eq!(game.undo(), Ok(1));
        assert_eq!(game.outcome, None);
    }

    #[test]
    fn undo_takes_back_a_full_move() {
        let mut game = PlayGame::new(&Position::startpos(), None, Color::White, None, 1);
        assert!(game.undo().is_err());
        play_uci(&mut game, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(game.undo(), Ok(2));
        assert_eq!(game.sans, vec!["e4", "e5"]);
        let mut as_black = PlayGame::new(&Position::startpos(), None, Color::Black, None, 1);
        play_uci(&mut as_black, &["e2e4"]);
        assert!(as_black.undo().is_err());
        play_uci(&mut as_black, &["e7e5", "g1f3"]);
        assert_eq!(as_black.undo(), Ok(2));
        assert_eq!(as_black.sans, vec!["e4"]);
    }

    #[test]
    fn pgn_from_a_setup_position() {
        let fen = "6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 3 30";
        let start = Position::from_fen(fen).expect("valid");
        let mut game = PlayGame::new(&start, Some(fen.to_string()), Color::White, None, 2);
        play_uci(&mut game, &["a7a6", "d1d8"]);
        game.outcome = game.board_outcome();
        let pgn = game.pgn("Ox88 (easy)", TimeControl::parse("5+3").ok());
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 3 30\"]"));
        assert!(pgn.contains("[TimeControl \"300+3\"]"));
        assert!(pgn.contains("[Black \"Ox88 (easy)\"]"));
        assert!(pgn.contains("[Round \"2\"]"));
        assert!(pgn.ends_with("30... a6 31. Rd8# 1-0\n"), "{pgn}");
        assert_eq!(game.move_lines(), vec!["30... a6", "31. Rd8#"]);
    }

    #[test]
    fn time_forfeit_needs_mating_material() {
        let bare = Position::from_fen("8/8/4k3/8/8/8/8/4K2N w - - 0 1").expect("valid");
        let game = PlayGame::new(&bare, None, Color::Black, None, 1);
        assert_eq!(game.time_forfeit(Color::Black).result, GameResult::Draw);
        assert_eq!(game.time_forfeit(Color::White).result, GameResult::Draw);
        let rook = Position::from_fen("8/8/4k3/8/8/8/8/4K2R w - - 0 1").expect("valid");
        let game = PlayGame::new(&rook, None, Color::Black, None, 1);
        assert_eq!(
            game.time_forfeit(Color::Black).result,
            GameResult::WhiteWins
        );
    }
}
