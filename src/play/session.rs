//! `PlaySession`, the game loop of `engine play`: whose turn it is, the prompts, the player's
//! commands, the engine's replies, the clocks, and the end of each game (announced, shown as
//! PGN, saved).
//!
//! Everything the player sees is printed here; the same text goes out whether or not stdin
//! and stdout are terminals, only the board style differs. End of input ends the session
//! cleanly, like `quit`.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::analysis::{Analysis, render};
use crate::board_view::{self, Style};
use crate::moves::Move;
use crate::play::commands::{PlayCommand, help};
use crate::play::engine::{EnginePlayer, default_budget};
use crate::play::explain::{self, color_name};
use crate::play::game::PlayGame;
use crate::play::input::{Input, Keyboard};
use crate::play::{ColorChoice, Settings};
use crate::random::Rng;
use crate::san::SanError;
use crate::search::Score;
use crate::types::{Color, PieceType};

/// Thinking time for `hint` and for judging a draw offer (less when the clock is short).
const ANALYSIS_BUDGET: Duration = Duration::from_millis(500);

/// What the loop does after a command.
enum Flow {
    Continue { show_board: bool },
    Quit,
}

/// The terminal games of one `engine play` run, one after another.
pub struct PlaySession {
    settings: Settings,
    keyboard: Keyboard,
    engine: EnginePlayer,
    /// For the `random` colour choice.
    colour_rng: Rng,
    game: PlayGame,
    /// The player asked to see the board from the other side.
    flipped: bool,
    /// When the side to move began thinking (the human's clock runs from here).
    turn_started: Instant,
    /// The `--pgn` file has been written in this session (later games are appended).
    pgn_file_started: bool,
}

impl PlaySession {
    pub fn new(settings: Settings) -> PlaySession {
        let seed = settings.seed;
        let engine_rng = seed.map_or_else(Rng::from_time, Rng::new);
        let mut colour_rng = seed.map_or_else(Rng::from_time, |seed| Rng::new(!seed));
        let human = draw_colour(settings.color, &mut colour_rng);
        let game = PlayGame::new(
            &settings.start,
            settings.setup_fen.clone(),
            human,
            settings.time,
            1,
        );
        PlaySession {
            engine: EnginePlayer::new(settings.strength, engine_rng),
            keyboard: Keyboard::spawn(),
            colour_rng,
            game,
            flipped: false,
            turn_started: Instant::now(),
            pgn_file_started: false,
            settings,
        }
    }

    pub fn run(mut self) -> ExitCode {
        let mut show_board = self.start_game();
        loop {
            if !self.game.is_over() && self.game.pos.side_to_move() != self.game.human {
                self.engine_turn();
                // A finished game was drawn with its announcement.
                show_board = !self.game.is_over();
                continue;
            }
            if show_board {
                self.show_board();
                show_board = false;
            }
            self.prompt(&self.turn_prompt());
            match self.keyboard.read(self.human_deadline()) {
                Input::End => {
                    self.say("");
                    self.leave();
                    return ExitCode::SUCCESS;
                }
                Input::Timeout => {
                    self.say("");
                    self.human_flag_fell();
                }
                Input::Line(line) => match self.handle(&line) {
                    Flow::Continue { show_board: show } => show_board = show,
                    Flow::Quit => {
                        self.leave();
                        return ExitCode::SUCCESS;
                    }
                },
            }
        }
    }

    // ---- Output ---------------------------------------------------------------------------

    fn say(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn prompt(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{text}");
        let _ = out.flush();
    }

    fn turn_prompt(&self) -> String {
        if self.game.is_over() {
            "> ".to_string()
        } else {
            format!("Your move ({}): ", color_name(self.game.human))
        }
    }

    fn engine_name(&self) -> String {
        format!("Ox88 ({})", self.engine.strength.describe())
    }

    /// Announces the game; a start position that is already over ends it at once. True when
    /// the board still has to be drawn.
    fn start_game(&mut self) -> bool {
        self.announce_game();
        self.turn_started = Instant::now();
        if self.game.board_outcome().is_some() {
            self.check_board_end();
            return false;
        }
        true
    }

    fn announce_game(&self) {
        let mut text = format!(
            "Game {}: you play {}, Ox88 plays {} at level {}.",
            self.game.round,
            color_name(self.game.human),
            color_name(self.game.engine_color()),
            self.engine.strength.describe()
        );
        if let Some(control) = self.settings.time {
            text.push_str(&format!(" Time control {}.", control.pgn_tag()));
        }
        text.push_str(" Type 'help' for the commands.");
        self.say(&text);
    }

    fn style(&self) -> Style {
        if self.settings.colour {
            Style::Colour
        } else {
            Style::Plain
        }
    }

    fn show_board(&self) {
        let bottom = if self.flipped {
            self.game.human.flip()
        } else {
            self.game.human
        };
        let style = self.style();
        let mut text = board_view::draw(&self.game.pos, bottom, style, &self.game.move_lines());
        if let Some(clock) = &self.game.clock {
            text.push_str(&format!("Clock: {}\n", clock.describe()));
        }
        self.prompt(&text);
    }

    // ---- Turns ----------------------------------------------------------------------------

    /// Time left before the human's flag falls, when a clock runs for them now.
    fn human_deadline(&self) -> Option<Duration> {
        if self.game.is_over() {
            return None;
        }
        let clock = self.game.clock.as_ref()?;
        Some(
            clock
                .remaining(self.game.human)
                .saturating_sub(self.turn_started.elapsed()),
        )
    }

    fn engine_turn(&mut self) {
        let color = self.game.engine_color();
        let budget = match &self.game.clock {
            Some(clock) => clock.engine_budget(color),
            None => default_budget(self.engine.strength),
        };
        let started = Instant::now();
        let Some(mv) = self.engine.choose_move(&self.game.pos, budget) else {
            // No legal move (a --fen position that is already over): mate or stalemate.
            self.check_board_end();
            return;
        };
        if let Some(clock) = &mut self.game.clock
            && !clock.charge(color, started.elapsed())
        {
            let outcome = self.game.time_forfeit(color);
            self.finish(outcome);
            return;
        }
        let numbered = self.game.play(mv);
        self.say(&format!("Ox88 plays {numbered}"));
        self.turn_started = Instant::now();
        self.check_board_end();
    }

    fn human_move(&mut self, mv: Move) -> Flow {
        let spent = self.turn_started.elapsed();
        let human = self.game.human;
        if let Some(clock) = &mut self.game.clock
            && !clock.charge(human, spent)
        {
            self.human_flag_fell();
            return Flow::Continue { show_board: false };
        }
        let numbered = self.game.play(mv);
        self.say(&format!("You play {numbered}"));
        self.turn_started = Instant::now();
        self.check_board_end();
        Flow::Continue { show_board: false }
    }

    fn human_flag_fell(&mut self) {
        if let Some(clock) = &mut self.game.clock {
            clock.charge(self.game.human, Duration::MAX);
        }
        let outcome = self.game.time_forfeit(self.game.human);
        self.finish(outcome);
    }

    /// After a move: when the position ends the game, the final board, then the result.
    fn check_board_end(&mut self) {
        if let Some(outcome) = self.game.board_outcome() {
            self.show_board();
            self.finish(outcome);
        }
    }

    /// Announces the end, shows the PGN and writes it to `--pgn`.
    fn finish(&mut self, outcome: crate::play::game::Outcome) {
        self.game.outcome = Some(outcome.clone());
        self.say(&format!(
            "Game over. {} Result: {}",
            outcome.reason,
            outcome.result.as_pgn()
        ));
        self.say("");
        self.say(&self.pgn_text());
        self.save_to_pgn_option();
        self.say("Type 'new' for another game, 'save FILE' to save this one, or 'quit'.");
    }

    fn pgn_text(&self) -> String {
        self.game.pgn(&self.engine_name(), self.settings.time)
    }

    /// Writes the game to the `--pgn` file, once: the first game of the session replaces
    /// the file, later ones are appended.
    fn save_to_pgn_option(&mut self) {
        let Some(path) = self.settings.pgn_path.clone() else {
            return;
        };
        if self.game.saved {
            return;
        }
        let text = self.pgn_text();
        let result = if self.pgn_file_started {
            OpenOptions::new()
                .append(true)
                .create(true)
                .open(&path)
                .and_then(|mut file| write!(file, "\n{text}"))
        } else {
            std::fs::write(&path, &text)
        };
        match result {
            Ok(()) => {
                self.pgn_file_started = true;
                self.game.saved = true;
                self.say(&format!("Game saved to {}.", path.display()));
            }
            Err(error) => self.say(&format!("Could not write {}: {error}", path.display())),
        }
    }

    /// At `quit` or end of input: an unfinished game with moves is still saved to `--pgn`.
    fn leave(&mut self) {
        if !self.game.is_over() && !self.game.sans.is_empty() {
            self.save_to_pgn_option();
        }
        self.say("Goodbye.");
    }

    // ---- Commands -------------------------------------------------------------------------

    fn handle(&mut self, line: &str) -> Flow {
        let command = match PlayCommand::parse(line) {
            Ok(command) => command,
            Err(reason) => {
                self.say(&reason);
                return Flow::Continue { show_board: false };
            }
        };
        let quiet = Flow::Continue { show_board: false };
        let game_on = !self.game.is_over();
        let over_message = "The game is over. Type 'new' for another game, or 'quit'.";
        match command {
            PlayCommand::Nothing => quiet,
            PlayCommand::Help => {
                self.say(&help());
                quiet
            }
            PlayCommand::Moves(square) => {
                let text = match square {
                    _ if !game_on => over_message.to_string(),
                    Some(square) => explain::moves_from(&mut self.game.pos, square),
                    None => explain::all_moves(&mut self.game.pos),
                };
                self.say(&text);
                quiet
            }
            PlayCommand::Hint if !game_on => {
                self.say(over_message);
                quiet
            }
            PlayCommand::Hint => {
                self.hint();
                quiet
            }
            PlayCommand::Undo => {
                match self.game.undo() {
                    Ok(plies) => {
                        let what = if plies == 1 { "move" } else { "moves" };
                        self.say(&format!("Took back {plies} {what}."));
                        return Flow::Continue { show_board: true };
                    }
                    Err(reason) => self.say(&reason),
                }
                quiet
            }
            PlayCommand::Flip => {
                self.flipped = !self.flipped;
                Flow::Continue { show_board: true }
            }
            PlayCommand::Level(strength) => {
                self.engine.strength = strength;
                self.say(&format!("Ox88 now plays at level {}.", strength.describe()));
                quiet
            }
            PlayCommand::Fen => {
                self.say(&self.game.pos.to_fen());
                quiet
            }
            PlayCommand::Analyze => {
                let analysis = Analysis::of(&self.game.pos);
                let text = render::text(&analysis, &self.game.pos, self.style());
                self.say(&text);
                quiet
            }
            PlayCommand::Threats => {
                let analysis = Analysis::of(&self.game.pos);
                let mut text = render::control_map(&analysis, self.style());
                text.push_str(&render::hanging_line(&analysis));
                self.say(&text);
                quiet
            }
            PlayCommand::Pgn => {
                self.say(&self.pgn_text());
                quiet
            }
            PlayCommand::Save(path) => {
                self.save_to(&path);
                quiet
            }
            PlayCommand::Resign | PlayCommand::Draw if !game_on => {
                self.say(over_message);
                quiet
            }
            PlayCommand::Resign => {
                let outcome = self.game.resignation(self.game.human);
                self.finish(outcome);
                quiet
            }
            PlayCommand::Draw => {
                self.draw_offer();
                quiet
            }
            PlayCommand::New => {
                self.new_game();
                Flow::Continue {
                    show_board: self.start_game(),
                }
            }
            PlayCommand::Quit => Flow::Quit,
            PlayCommand::Move(_) if !game_on => {
                self.say(over_message);
                quiet
            }
            PlayCommand::Move(text) => self.typed_move(&text),
        }
    }

    fn typed_move(&mut self, text: &str) -> Flow {
        match self.game.pos.parse_move_text(text) {
            Ok(mv) => self.human_move(mv),
            Err(SanError::PromotionNeeded(choices)) => self.ask_promotion(&choices),
            Err(error) => {
                let choices = explain::coordinate_promotions(&self.game.pos, text);
                if !choices.is_empty() {
                    return self.ask_promotion(&choices);
                }
                let text = explain::rejection(&mut self.game.pos, text, &error);
                self.say(&text);
                Flow::Continue { show_board: false }
            }
        }
    }

    /// Asks which piece a pawn becomes, reading the next line (the clock keeps running).
    fn ask_promotion(&mut self, choices: &[Move]) -> Flow {
        loop {
            self.prompt("Promote to which piece? q = queen, r = rook, b = bishop, n = knight: ");
            match self.keyboard.read(self.human_deadline()) {
                Input::End => {
                    self.say("");
                    return Flow::Quit;
                }
                Input::Timeout => {
                    self.say("");
                    self.human_flag_fell();
                    return Flow::Continue { show_board: false };
                }
                Input::Line(line) => {
                    let answer = line.trim().to_ascii_lowercase();
                    let kind = match answer.as_str() {
                        "q" | "queen" => Some(PieceType::Queen),
                        "r" | "rook" => Some(PieceType::Rook),
                        "b" | "bishop" => Some(PieceType::Bishop),
                        "n" | "knight" | "kn" => Some(PieceType::Knight),
                        _ => None,
                    };
                    let chosen = kind.and_then(|kind| {
                        choices
                            .iter()
                            .copied()
                            .find(|mv| mv.promotion_piece() == kind)
                    });
                    match chosen {
                        Some(mv) => return self.human_move(mv),
                        None => self.say("Please answer q, r, b or n."),
                    }
                }
            }
        }
    }

    fn analysis_budget(&self) -> Duration {
        match &self.game.clock {
            Some(clock) => ANALYSIS_BUDGET.min(clock.remaining(self.game.human) / 20),
            None => ANALYSIS_BUDGET,
        }
    }

    fn hint(&mut self) {
        let budget = self.analysis_budget();
        let assessment = self.engine.assess(&self.game.pos, budget);
        let Some(best) = assessment.best else {
            self.say("There is no legal move.");
            return;
        };
        let san = self.game.pos.san(best);
        self.say(&format!(
            "Hint: {san} ({})",
            describe_score(assessment.score)
        ));
    }

    /// The engine takes the draw by `engine::accepts_draw`.
    fn draw_offer(&mut self) {
        let budget = self.analysis_budget();
        // The human is to move: the score is the human's view, the engine's is its negation.
        let assessment = self.engine.assess(&self.game.pos, budget);
        let accepts =
            crate::play::engine::accepts_draw(assessment.score, false, self.game.sans.len());
        if accepts {
            self.say("Ox88 accepts the draw offer.");
            self.finish(PlayGame::draw_agreed());
        } else {
            self.say("Ox88 declines the draw offer; play on.");
        }
    }

    fn save_to(&self, path: &Path) {
        match std::fs::write(path, self.pgn_text()) {
            Ok(()) => self.say(&format!("Game saved to {}.", path.display())),
            Err(error) => self.say(&format!("Could not write {}: {error}", path.display())),
        }
    }

    fn new_game(&mut self) {
        if !self.game.is_over() && !self.game.sans.is_empty() {
            self.save_to_pgn_option();
        }
        let human = draw_colour(self.settings.color, &mut self.colour_rng);
        self.game = PlayGame::new(
            &self.settings.start,
            self.settings.setup_fen.clone(),
            human,
            self.settings.time,
            self.game.round + 1,
        );
        self.engine.new_game();
    }
}

fn draw_colour(choice: ColorChoice, rng: &mut Rng) -> Color {
    match choice {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random if rng.below(2) == 0 => Color::White,
        ColorChoice::Random => Color::Black,
    }
}

/// A score for the player to move, in words: `+0.35`, `mate in 2`, `mated in 3`.
fn describe_score(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{:+.2} for you", f64::from(cp) / 100.0),
        Score::Mate(moves) if moves > 0 => format!("mate in {moves}"),
        Score::Mate(moves) => format!("you get mated in {}", -moves),
    }
}
