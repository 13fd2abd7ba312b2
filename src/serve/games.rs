//! The games `engine serve` holds: one `WebGame` per game, in a `GameStore` with a cap.
//!
//! A game is reached only through its id *and* a seat token, both 128 random bits from
//! `/dev/urandom` in hex: the id names the game, the seat says who is asking. Against Ox88
//! and at one board there is one seat (it plays the human's side, or both); a game in two
//! browsers has one seat per colour, and the invite link hands out the second. A seat may
//! move only on its own turn. Everything here is plain data and rules, free of I/O except
//! the token source.

use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::json::Json;
use crate::play::clock::TimeControl;
use crate::play::game::{Outcome, PlayGame};
use crate::play::pgn::{GameResult, PgnGame};
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::strength::{NAMED_LEVELS, Strength};
use crate::types::{Color, PieceType, square_name};

/// Most games held at once; past it the longest-idle game older than `IDLE_EVICTION` goes,
/// else a new game is refused.
pub const MAX_GAMES: usize = 200;
pub const IDLE_EVICTION: Duration = Duration::from_secs(3600);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against Ox88.
    Engine,
    /// Two people at one board.
    Local,
    /// Two people in two browsers.
    Remote,
    /// One board, any moves, live analysis.
    Analysis,
}

impl Mode {
    pub fn parse(text: &str) -> Result<Mode, String> {
        match text {
            "engine" => Ok(Mode::Engine),
            "local" => Ok(Mode::Local),
            "remote" => Ok(Mode::Remote),
            "analysis" => Ok(Mode::Analysis),
            other => Err(format!(
                "unknown mode '{}': use engine, local, remote or analysis",
                crate::uci::command::quote(other)
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Local => "local",
            Mode::Remote => "remote",
            Mode::Analysis => "analysis",
        }
    }
}

/// 128 random bits as 32 hex digits, from the system's random source.
pub fn token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut file| file.read_exact(&mut bytes))
        .map_err(|error| format!("no random source for game tokens: {error}"))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Which side a seat plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatSide {
    One(Color),
    Both,
}

impl SeatSide {
    fn plays(self, color: Color) -> bool {
        match self {
            SeatSide::One(side) => side == color,
            SeatSide::Both => true,
        }
    }
}

/// A refusal: the HTTP status and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

pub fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// One game in the browser.
pub struct WebGame {
    pub id: String,
    pub mode: Mode,
    /// The seat tokens and the side each plays.
    pub seats: Vec<(String, SeatSide)>,
    pub game: PlayGame,
    /// The start, for the PGN's move numbers.
    pub start: Position,
    pub start_fen: String,
    pub moves_uci: Vec<String>,
    /// Ox88's level (engine mode).
    pub strength: Option<Strength>,
    pub control: Option<TimeControl>,
    /// When the side to move's clock started running.
    pub turn_started: Instant,
    pub draw_offer: Option<Color>,
    /// The last thing said to the players (a declined draw, a refused undo).
    pub message: Option<String>,
    /// Remote games: whether the invite has been used.
    pub opponent_joined: bool,
    /// Ox88 is searching its reply (so a poll does not start a second search).
    pub thinking: bool,
    pub last_seen: Instant,
}

impl WebGame {
    /// A new game; `human` is the creator's colour (engine and remote modes).
    pub fn new(
        mode: Mode,
        start: Position,
        human: Color,
        strength: Option<Strength>,
        control: Option<TimeControl>,
    ) -> Result<WebGame, String> {
        let mut start = start;
        start.clear_history();
        let start_fen = start.to_fen();
        let setup = (start_fen != START_FEN).then(|| start_fen.clone());
        let creator = match mode {
            Mode::Engine | Mode::Remote => SeatSide::One(human),
            Mode::Local | Mode::Analysis => SeatSide::Both,
        };
        let mut seats = vec![(token()?, creator)];
        if mode == Mode::Remote {
            seats.push((token()?, SeatSide::One(human.flip())));
        }
        let now = Instant::now();
        let mut game = WebGame {
            id: token()?,
            mode,
            seats,
            game: PlayGame::new(&start, setup, human, control, 1),
            start,
            start_fen,
            moves_uci: Vec::new(),
            strength,
            control,
            turn_started: now,
            draw_offer: None,
            message: None,
            opponent_joined: false,
            thinking: false,
            last_seen: now,
        };
        game.game.outcome = game.game.board_outcome();
        Ok(game)
    }

    pub fn seat(&self, token: &str) -> Option<SeatSide> {
        self.seats
            .iter()
            .find(|(seat, _)| seat == token)
            .map(|(_, side)| *side)
    }

    pub fn turn(&self) -> Color {
        self.game.pos.side_to_move()
    }

    pub fn ply(&self) -> usize {
        self.moves_uci.len()
    }

    /// Ox88 is to move in a live engine game.
    pub fn engine_to_move(&self) -> bool {
        self.mode == Mode::Engine && !self.game.is_over() && self.turn() == self.game.engine_color()
    }

    /// Whether the side to move's clock runs: from the first move on (a game waits for its
    /// first move as long as it likes), and in two browsers only once both have come.
    pub fn clock_running(&self) -> bool {
        !self.game.is_over()
            && self.ply() > 0
            && (self.mode != Mode::Remote || self.opponent_joined)
    }

    /// Ends the game on time when the side to move's clock has run out by now.
    pub fn check_flag(&mut self) {
        if !self.clock_running() {
            return;
        }
        let Some(clock) = &self.game.clock else {
            return;
        };
        let side = self.turn();
        if self.turn_started.elapsed() >= clock.remaining(side) {
            let mut clock = clock.clone();
            clock.charge(side, self.turn_started.elapsed());
            self.game.clock = Some(clock);
            self.game.outcome = Some(self.game.time_forfeit(side));
        }
    }

    /// Plays `text` (UCI or SAN) for the side to move, charging its clock.
    pub fn play_text(&mut self, text: &str) -> Result<(), Refusal> {
        self.check_flag();
        if self.game.is_over() {
            return Err(refuse(409, "the game is over"));
        }
        let mv = self
            .game
            .pos
            .parse_move_text(text)
            .map_err(|error| refuse(400, format!("{error}")))?;
        let side = self.turn();
        let spent = if self.clock_running() {
            self.turn_started.elapsed()
        } else {
            Duration::ZERO
        };
        if let Some(clock) = &mut self.game.clock
            && !clock.charge(side, spent)
        {
            self.game.outcome = Some(self.game.time_forfeit(side));
            return Err(refuse(409, "your time ran out"));
        }
        self.moves_uci.push(mv.to_uci(self.game.pos.is_chess960()));
        self.game.play(mv);
        self.turn_started = Instant::now();
        self.draw_offer = None;
        self.message = None;
        self.game.outcome = self.game.board_outcome();
        Ok(())
    }

    /// Takes moves back: engine mode the human's last move and Ox88's reply, one ply at a
    /// board or in analysis; never in two browsers.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        match self.mode {
            Mode::Remote => Err(refuse(
                409,
                "moves cannot be taken back in a game between two browsers",
            )),
            Mode::Engine => {
                let plies = self.game.undo().map_err(|why| refuse(409, why))?;
                let kept = self.moves_uci.len().saturating_sub(plies);
                self.moves_uci.truncate(kept);
                self.turn_started = Instant::now();
                Ok(())
            }
            Mode::Local | Mode::Analysis => {
                if self.moves_uci.is_empty() {
                    return Err(refuse(409, "there is no move to take back"));
                }
                if self
                    .game
                    .outcome
                    .as_ref()
                    .is_some_and(|outcome| !outcome.by_board)
                {
                    return Err(refuse(409, "the game is over; it cannot be taken back"));
                }
                self.game.pos.unmake_move();
                self.game.sans.pop();
                self.moves_uci.pop();
                self.game.outcome = None;
                self.turn_started = Instant::now();
                Ok(())
            }
        }
    }

    pub fn resign(&mut self, side: Color) -> Result<(), Refusal> {
        if self.game.is_over() {
            return Err(refuse(409, "the game is over"));
        }
        self.game.outcome = Some(self.game.resignation(side));
        Ok(())
    }

    /// A draw offer by `side`; `engine_accepts` answers it in engine mode.
    pub fn offer_draw(&mut self, side: Color, engine_accepts: Option<bool>) -> Result<(), Refusal> {
        if self.game.is_over() {
            return Err(refuse(409, "the game is over"));
        }
        match self.mode {
            Mode::Engine => {
                if engine_accepts == Some(true) {
                    self.game.outcome = Some(PlayGame::draw_agreed());
                    self.message = Some("Ox88 accepts the draw.".to_string());
                } else {
                    self.message = Some("Ox88 declines the draw.".to_string());
                }
            }
            Mode::Local | Mode::Analysis => self.game.outcome = Some(PlayGame::draw_agreed()),
            Mode::Remote => match self.draw_offer {
                Some(offerer) if offerer != side => {
                    self.game.outcome = Some(PlayGame::draw_agreed());
                    self.draw_offer = None;
                }
                _ => {
                    self.draw_offer = Some(side);
                    self.message = Some(format!("{} offers a draw.", capitalised(side.name())));
                }
            },
        }
        Ok(())
    }

    pub fn pgn(&self) -> String {
        let result = self
            .game
            .outcome
            .as_ref()
            .map_or(GameResult::Unfinished, |outcome| outcome.result);
        let engine_name = |strength: Option<Strength>| {
            format!(
                "Ox88 {} ({})",
                env!("CARGO_PKG_VERSION"),
                strength.map_or_else(|| "full strength".to_string(), |s| s.describe())
            )
        };
        let (white, black) = match self.mode {
            Mode::Engine => match self.game.human {
                Color::White => ("Human".to_string(), engine_name(self.strength)),
                Color::Black => (engine_name(self.strength), "Human".to_string()),
            },
            _ => ("White".to_string(), "Black".to_string()),
        };
        let mut tags = vec![
            ("Event", format!("Ox88 web game ({})", self.mode.name())),
            ("Site", "engine serve".to_string()),
            ("Date", self.game.date.clone()),
            ("Round", "1".to_string()),
            ("White", white),
            ("Black", black),
            ("Result", result.as_pgn().to_string()),
        ];
        if self.start_fen != START_FEN {
            tags.push(("SetUp", "1".to_string()));
            tags.push(("FEN", self.start_fen.clone()));
        }
        if let Some(control) = self.control {
            tags.push(("TimeControl", control.pgn_tag()));
        }
        if let Some(outcome) = &self.game.outcome {
            tags.push(("Termination", termination(outcome).to_string()));
        }
        PgnGame {
            tags,
            sans: &self.game.sans,
            first_move_number: self.start.fullmove_number(),
            first_mover: self.start.side_to_move(),
            result,
        }
        .write()
    }

    /// The state document of the API, as the seat `seat` sees it.
    pub fn state(&mut self, seat: &str) -> Json {
        self.check_flag();
        let side = self.seat(seat);
        let turn = self.turn();
        let my_turn = side.is_some_and(|side| side.plays(turn))
            && !self.game.is_over()
            && !self.engine_to_move();
        let pos = self.game.pos.clone();
        let legal: Vec<Json> = if my_turn {
            let chess960 = pos.is_chess960();
            pos.legal_moves()
                .iter()
                .map(|&mv| {
                    let to = if mv.is_castle() {
                        mv.castle_king_target()
                    } else {
                        mv.to()
                    };
                    let promotion = mv.is_promotion().then(|| {
                        PieceType::letter(mv.promotion_piece())
                            .to_ascii_lowercase()
                            .to_string()
                    });
                    Json::object([
                        ("uci", Json::from(mv.to_uci(chess960))),
                        ("san", Json::from(pos.clone().san(mv))),
                        ("from", Json::from(square_name(mv.from()))),
                        ("to", Json::from(square_name(to))),
                        ("promotion", Json::from(promotion)),
                    ])
                })
                .collect()
        } else {
            Vec::new()
        };
        let last_move = pos.last_move().map(|mv| {
            let to = if mv.is_castle() {
                mv.castle_king_target()
            } else {
                mv.to()
            };
            Json::object([
                ("from", Json::from(square_name(mv.from()))),
                ("to", Json::from(square_name(to))),
            ])
        });
        let check = pos.in_check().then(|| square_name(pos.king_square(turn)));
        let clock = self.game.clock.as_ref().map(|clock| {
            let running = self.clock_running().then_some(turn);
            let remaining = |color: Color| {
                let mut left = clock.remaining(color);
                if running == Some(color) {
                    left = left.saturating_sub(self.turn_started.elapsed());
                }
                Json::from(left.as_millis() as u64)
            };
            Json::object([
                ("white_ms", remaining(Color::White)),
                ("black_ms", remaining(Color::Black)),
                (
                    "increment_ms",
                    Json::from(
                        self.control
                            .map_or(0, |control| control.increment.as_millis() as u64),
                    ),
                ),
                ("running", Json::from(running.map(Color::name))),
            ])
        });
        let you = match side {
            Some(SeatSide::One(color)) => Json::from(color.name()),
            Some(SeatSide::Both) => Json::from("both"),
            None => Json::Null,
        };
        let creator = self.seats.first().is_some_and(|(token, _)| token == seat);
        let invite = (self.mode == Mode::Remote && creator)
            .then(|| {
                self.seats
                    .get(1)
                    .map(|(token, _)| format!("/?game={}&seat={token}", self.id))
            })
            .flatten();
        let moves = self
            .moves_uci
            .iter()
            .zip(&self.game.sans)
            .map(|(uci, san)| {
                Json::object([
                    ("uci", Json::from(uci.as_str())),
                    ("san", Json::from(san.as_str())),
                ])
            });
        let result = self
            .game
            .outcome
            .as_ref()
            .map_or(GameResult::Unfinished, |outcome| outcome.result);
        Json::object([
            ("game", Json::from(self.id.as_str())),
            ("seat", Json::from(seat)),
            ("mode", Json::from(self.mode.name())),
            ("you", you),
            ("fen", Json::from(self.game.pos.to_fen())),
            ("start_fen", Json::from(self.start_fen.as_str())),
            ("turn", Json::from(turn.name())),
            ("ply", Json::from(self.ply())),
            ("moves", Json::array(moves)),
            ("legal", Json::Array(legal)),
            ("last_move", last_move.unwrap_or(Json::Null)),
            ("check", Json::from(check)),
            ("result", Json::from(result.as_pgn())),
            (
                "end",
                Json::from(
                    self.game
                        .outcome
                        .as_ref()
                        .map(|outcome| outcome.reason.clone()),
                ),
            ),
            (
                "level",
                self.strength.map_or(Json::Null, |strength| {
                    let name = NAMED_LEVELS
                        .iter()
                        .find(|(_, elo)| *elo == strength.elo())
                        .map_or_else(|| strength.elo().to_string(), |(name, _)| name.to_string());
                    Json::object([
                        ("name", Json::from(name)),
                        ("elo", Json::from(strength.elo())),
                    ])
                }),
            ),
            ("clock", clock.unwrap_or(Json::Null)),
            ("draw_offer", Json::from(self.draw_offer.map(Color::name))),
            ("message", Json::from(self.message.clone())),
            ("invite", Json::from(invite)),
            ("opponent_joined", Json::from(self.opponent_joined)),
            ("pgn", Json::from(self.pgn())),
        ])
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn termination(outcome: &Outcome) -> &'static str {
    if outcome.reason.contains("time") {
        "time forfeit"
    } else {
        "normal"
    }
}

/// All games, each behind its own lock so a search in one never blocks another.
#[derive(Default)]
pub struct GameStore {
    games: Mutex<HashMap<String, Arc<Mutex<WebGame>>>>,
}

impl GameStore {
    pub fn insert(&self, game: WebGame) -> Result<Arc<Mutex<WebGame>>, Refusal> {
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if games.len() >= MAX_GAMES {
            let idle = games
                .iter()
                .filter_map(|(id, game)| {
                    let seen = game.try_lock().ok()?.last_seen;
                    (seen.elapsed() >= IDLE_EVICTION).then(|| (seen, id.clone()))
                })
                .min();
            match idle {
                Some((_, id)) => {
                    games.remove(&id);
                }
                None => {
                    return Err(refuse(
                        503,
                        format!(
                            "the server holds its maximum of {MAX_GAMES} games; try again later"
                        ),
                    ));
                }
            }
        }
        let id = game.id.clone();
        let shared = Arc::new(Mutex::new(game));
        games.insert(id, Arc::clone(&shared));
        Ok(shared)
    }

    /// The game `id`, if `seat` is one of its seats (the same answer either way when not:
    /// a guessed id learns nothing).
    pub fn find(&self, id: &str, seat: &str) -> Result<Arc<Mutex<WebGame>>, Refusal> {
        let games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let unknown = || refuse(404, "no such game (or not your seat in it)");
        let game = games.get(id).ok_or_else(unknown)?;
        let mut locked = game
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        locked.seat(seat).ok_or_else(unknown)?;
        locked.last_seen = Instant::now();
        if locked.mode == Mode::Remote
            && !locked.opponent_joined
            && locked.seats.get(1).is_some_and(|(token, _)| token == seat)
        {
            // Both are here: the side to move's clock starts now.
            locked.opponent_joined = true;
            locked.turn_started = Instant::now();
        }
        drop(locked);
        Ok(Arc::clone(game))
    }

    pub fn len(&self) -> usize {
        self.games.lock().map_or(0, |games| games.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `GET /api/levels`.
pub fn levels_json() -> Json {
    Json::array(
        NAMED_LEVELS.iter().map(|(name, elo)| {
            Json::object([("name", Json::from(*name)), ("elo", Json::from(*elo))])
        }),
    )
}
