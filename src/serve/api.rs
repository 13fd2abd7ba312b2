//! The routes of `engine serve`: the embedded page and the JSON API over the `GameStore`.
//!
//! Every handler turns a `Request` into a `Response` or a `Refusal` (an error status and a
//! sentence); nothing here panics on what a client sends. Ox88 searches outside the game's
//! lock (a clone of the position), so polling a game does not wait for its search, and at most
//! `MAX_SEARCHES` searches (plus `MAX_ANALYSES` analysis streams) run at once, each with its
//! own small table.

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::games::{GameStore, Mode, Refusal, SeatSide, WebGame, levels_json, refuse};
use super::http::{Request, Response, write_event_stream_head};
use crate::analysis::{Analysis, render};
use crate::json::{self, Json};
use crate::play::clock::TimeControl;
use crate::play::engine::{EnginePlayer, accepts_draw, default_budget};
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::random::Rng;
use crate::search::{Limits, Report, Score, SearchSignals, Searcher};
use crate::strength::Strength;
use crate::types::Color;

/// Searches for games (Ox88's moves, hints, draw offers) running at once; more wait their
/// turn up to `SEARCH_PATIENCE`. Analysis streams have their own, smaller pool and are
/// refused at once when it is full (a stream holds its place for up to `ANALYSIS_TIME`).
/// Each search has its own table of `SEARCH_HASH_MB`.
pub const MAX_SEARCHES: usize = 4;
pub const MAX_ANALYSES: usize = 2;
const SEARCH_PATIENCE: Duration = Duration::from_secs(20);
const SEARCH_HASH_MB: usize = 16;
/// Thinking time of a hint or a draw decision.
const HINT_BUDGET: Duration = Duration::from_millis(500);
/// How long one analysis stream searches (the page opens a new one for a new position).
const ANALYSIS_TIME: Duration = Duration::from_secs(30);
const MAX_MULTIPV: usize = 5;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// A counting semaphore: at most `limit` holders at once.
struct Slots {
    taken: Mutex<usize>,
    freed: Condvar,
    limit: usize,
}

/// A place in `Slots`, given back when dropped.
struct Permit<'a>(&'a Slots);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut taken = self.0.taken.lock().unwrap_or_else(PoisonError::into_inner);
        *taken -= 1;
        self.0.freed.notify_one();
    }
}

impl Slots {
    fn new(limit: usize) -> Slots {
        Slots {
            taken: Mutex::new(0),
            freed: Condvar::new(),
            limit,
        }
    }

    /// A place, waiting at most `patience` for one.
    fn acquire(&self, patience: Duration) -> Option<Permit<'_>> {
        let deadline = Instant::now() + patience;
        let mut taken = self.taken.lock().unwrap_or_else(PoisonError::into_inner);
        while *taken >= self.limit {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            taken = self
                .freed
                .wait_timeout(taken, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *taken += 1;
        Some(Permit(self))
    }
}

/// What every connection shares.
pub struct Server {
    pub store: GameStore,
    searches: Slots,
    analyses: Slots,
}

impl Default for Server {
    fn default() -> Server {
        Server {
            store: GameStore::default(),
            searches: Slots::new(MAX_SEARCHES),
            analyses: Slots::new(MAX_ANALYSES),
        }
    }
}

impl Server {
    fn search_permit(&self) -> Result<Permit<'_>, Refusal> {
        self.searches.acquire(SEARCH_PATIENCE).ok_or_else(|| {
            refuse(
                503,
                format!("Ox88 is busy thinking for {MAX_SEARCHES} games; try again in a moment"),
            )
        })
    }

    fn analysis_permit(&self) -> Result<Permit<'_>, Refusal> {
        self.analyses.acquire(Duration::ZERO).ok_or_else(|| {
            refuse(
                503,
                format!("{MAX_ANALYSES} analyses are running already; try again when one ends"),
            )
        })
    }
}

fn locked(game: &Mutex<WebGame>) -> std::sync::MutexGuard<'_, WebGame> {
    game.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The JSON object of a POST body.
fn body_json(request: &Request) -> Result<Json, Refusal> {
    let text =
        std::str::from_utf8(&request.body).map_err(|_| refuse(400, "the body is not UTF-8"))?;
    let doc = json::parse(text).map_err(|error| refuse(400, format!("malformed JSON: {error}")))?;
    if !matches!(doc, Json::Object(_)) {
        return Err(refuse(400, "the body must be a JSON object"));
    }
    Ok(doc)
}

fn string_field<'a>(doc: &'a Json, key: &str) -> Result<Option<&'a str>, Refusal> {
    match doc.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Str(text)) => Ok(Some(text)),
        Some(_) => Err(refuse(400, format!("'{key}' must be a string"))),
    }
}

fn required<'a>(doc: &'a Json, key: &str) -> Result<&'a str, Refusal> {
    string_field(doc, key)?.ok_or_else(|| refuse(400, format!("'{key}' is missing")))
}

/// The game and seat a request names (query for GET, body for POST).
fn game_of(
    server: &Server,
    game: &str,
    seat: &str,
) -> Result<(Arc<Mutex<WebGame>>, String), Refusal> {
    Ok((server.store.find(game, seat)?, seat.to_string()))
}

fn game_from_body(server: &Server, doc: &Json) -> Result<(Arc<Mutex<WebGame>>, String), Refusal> {
    game_of(server, required(doc, "game")?, required(doc, "seat")?)
}

fn game_from_query(
    server: &Server,
    request: &Request,
) -> Result<(Arc<Mutex<WebGame>>, String), Refusal> {
    let game = request
        .query_value("game")
        .ok_or_else(|| refuse(400, "'game' is missing"))?;
    let seat = request
        .query_value("seat")
        .ok_or_else(|| refuse(400, "'seat' is missing"))?;
    game_of(server, game, seat)
}

fn state_response(game: &Mutex<WebGame>, seat: &str) -> Response {
    Response::json(200, &locked(game).state(seat))
}

/// The side the seat plays, refusing a seat that may not act for the side to move.
fn acting_side(game: &WebGame, seat: &str) -> Result<Color, Refusal> {
    let turn = game.turn();
    match game.seat(seat) {
        Some(SeatSide::Both) => Ok(turn),
        Some(SeatSide::One(side)) => Ok(side),
        None => Err(refuse(404, "no such game (or not your seat in it)")),
    }
}

/// Plays Ox88's move if it is to move (engine mode) and not already thinking, outside the
/// game's lock. A reply the server was too busy for is made at the next poll.
fn engine_reply(server: &Server, game: &Mutex<WebGame>) -> Result<(), Refusal> {
    let (pos, strength, budget, ply) = {
        let mut game = locked(game);
        game.check_flag();
        if !game.engine_to_move() || game.thinking {
            return Ok(());
        }
        game.thinking = true;
        let strength = game.strength.unwrap_or_else(Strength::full);
        let budget = match &game.game.clock {
            Some(clock) => clock.engine_budget(game.game.engine_color()),
            None => default_budget(strength),
        };
        (game.game.pos.clone(), strength, budget, game.ply())
    };
    let searched = server.search_permit().map(|permit| {
        let mut player = EnginePlayer::new(strength, Rng::from_time());
        let best = player.choose_move(&pos, budget);
        drop(permit);
        best
    });
    let mut game = locked(game);
    game.thinking = false;
    let best = searched?;
    if game.ply() != ply || !game.engine_to_move() {
        return Ok(()); // Taken back or ended meanwhile: the move is for another position.
    }
    if let Some(mv) = best {
        let text = mv.to_uci(pos.is_chess960());
        // A refusal here can only be Ox88's own flag falling; the game records that outcome,
        // and the person's request that led here did succeed.
        let _ = game.play_text(&text);
    }
    Ok(())
}

/// A full-strength assessment of the game's position (hints, draw offers).
fn assess(server: &Server, pos: &Position) -> Result<(Option<crate::moves::Move>, Score), Refusal> {
    let _permit = server.search_permit()?;
    let mut player = EnginePlayer::new(Strength::full(), Rng::from_time());
    let assessment = player.assess(pos, HINT_BUDGET);
    Ok((assessment.best, assessment.score))
}

fn new_game(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let mode = Mode::parse(string_field(&doc, "mode")?.unwrap_or("engine"))
        .map_err(|why| refuse(400, why))?;
    let fen = string_field(&doc, "fen")?
        .map(str::trim)
        .filter(|fen| !fen.is_empty());
    let start = Position::from_fen(fen.unwrap_or(START_FEN))
        .map_err(|error| refuse(400, format!("bad FEN: {error}")))?;
    let human = match string_field(&doc, "color")?.unwrap_or("white") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if Rng::from_time().below(2) == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(refuse(
                400,
                format!(
                    "unknown colour '{}': use white, black or random",
                    crate::uci::command::quote(other)
                ),
            ));
        }
    };
    let strength = match mode {
        Mode::Engine => Some(
            Strength::from_level_name(string_field(&doc, "level")?.unwrap_or("normal"))
                .map_err(|why| refuse(400, why))?,
        ),
        _ => None,
    };
    let control = match string_field(&doc, "time")?
        .map(str::trim)
        .filter(|text| !text.is_empty())
    {
        Some(_) if mode == Mode::Analysis => None,
        Some(text) => Some(TimeControl::parse(text).map_err(|why| refuse(400, why))?),
        None => None,
    };
    let game =
        WebGame::new(mode, start, human, strength, control).map_err(|why| refuse(500, why))?;
    let seat = game.seats[0].0.clone();
    let shared = server.store.insert(game)?;
    engine_reply(server, &shared)?;
    Ok(state_response(&shared, &seat))
}

fn play_move(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let (shared, seat) = game_from_body(server, &doc)?;
    let text = required(&doc, "move")?;
    {
        let mut game = locked(&shared);
        let side = acting_side(&game, &seat)?;
        game.check_flag();
        if game.game.is_over() {
            return Err(refuse(409, "the game is over"));
        }
        if side != game.turn() || game.engine_to_move() {
            return Err(refuse(403, "it is not your turn"));
        }
        game.play_text(text)?;
    }
    engine_reply(server, &shared)?;
    Ok(state_response(&shared, &seat))
}

fn undo(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let (shared, seat) = game_from_body(server, &doc)?;
    locked(&shared).undo()?;
    Ok(state_response(&shared, &seat))
}

fn hint(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let (shared, _) = game_from_body(server, &doc)?;
    let pos = {
        let game = locked(&shared);
        if game.game.is_over() {
            return Err(refuse(409, "the game is over"));
        }
        game.game.pos.clone()
    };
    let (best, _) = assess(server, &pos)?;
    let best = best.ok_or_else(|| refuse(409, "there is no legal move"))?;
    let san = pos.clone().san(best);
    Ok(Response::json(
        200,
        &Json::object([
            ("move", Json::from(best.to_uci(pos.is_chess960()))),
            ("san", Json::from(san)),
        ]),
    ))
}

fn resign(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let (shared, seat) = game_from_body(server, &doc)?;
    {
        let mut game = locked(&shared);
        let side = acting_side(&game, &seat)?;
        game.resign(side)?;
    }
    Ok(state_response(&shared, &seat))
}

fn draw(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let doc = body_json(request)?;
    let (shared, seat) = game_from_body(server, &doc)?;
    let (side, engine_question) = {
        let game = locked(&shared);
        let side = acting_side(&game, &seat)?;
        let question = (game.mode == Mode::Engine && !game.game.is_over()).then(|| {
            (
                game.game.pos.clone(),
                game.turn() == game.game.engine_color(),
                game.ply(),
            )
        });
        (side, question)
    };
    let engine_accepts = match engine_question {
        Some((pos, engine_to_move, plies)) => {
            let (_, score) = assess(server, &pos)?;
            Some(accepts_draw(score, engine_to_move, plies))
        }
        None => None,
    };
    locked(&shared).offer_draw(side, engine_accepts)?;
    Ok(state_response(&shared, &seat))
}

fn pgn(server: &Server, request: &Request) -> Result<Response, Refusal> {
    let (shared, _) = game_from_query(server, request)?;
    let game = locked(&shared);
    let prefix: String = game.id.chars().take(8).collect();
    Ok(
        Response::new(200, "application/x-chess-pgn; charset=utf-8", game.pgn()).with_header(
            "Content-Disposition",
            format!("attachment; filename=\"ox88-{prefix}.pgn\""),
        ),
    )
}

fn analyze(request: &Request) -> Result<Response, Refusal> {
    let fen = request
        .query_value("fen")
        .ok_or_else(|| refuse(400, "'fen' is missing"))?;
    let pos =
        Position::from_fen(fen.trim()).map_err(|error| refuse(400, format!("bad FEN: {error}")))?;
    Ok(Response::json(200, &render::json(&Analysis::of(&pos))))
}

fn score_json(score: Score) -> Json {
    match score {
        Score::Centipawns(cp) => Json::object([("cp", Json::from(cp))]),
        Score::Mate(moves) => Json::object([("mate", Json::from(moves))]),
    }
}

/// `GET /api/analysis`: a stream of the game position's MultiPV lines until the search ends,
/// the position changes or the page goes away.
fn analysis_stream(
    server: &Server,
    request: &Request,
    stream: &mut TcpStream,
) -> Result<(), Refusal> {
    let (shared, _) = game_from_query(server, request)?;
    let multipv = request
        .query_value("multipv")
        .map(|text| {
            text.parse::<usize>()
                .map_err(|_| refuse(400, "'multipv' must be a number"))
        })
        .transpose()?
        .unwrap_or(3)
        .clamp(1, MAX_MULTIPV);
    let (pos, ply) = {
        let game = locked(&shared);
        (game.game.pos.clone(), game.ply())
    };
    let permit = server.analysis_permit()?;
    write_event_stream_head(&mut *stream).map_err(|_| refuse(500, "the connection closed"))?;
    let signals = SearchSignals::new();
    let fen = pos.to_fen();
    let chess960 = pos.is_chess960();
    let mut searcher = Searcher::new(SEARCH_HASH_MB);
    searcher.set_threads(1);
    let mut limits = Limits::movetime(ANALYSIS_TIME);
    limits.multipv = multipv;
    limits.start = Instant::now();
    let mut writer = stream
        .try_clone()
        .map_err(|_| refuse(500, "the connection closed"))?;
    let mut report = |report: &Report| {
        let Report::Iteration { progress, lines } = report else {
            return;
        };
        if locked(&shared).ply() != ply {
            signals.stop();
            return;
        }
        let lines = lines.iter().map(|line| {
            let mut walk = pos.clone();
            let mut sans = Vec::new();
            for &mv in &line.moves {
                sans.push(Json::from(walk.san(mv)));
                walk.make_move(mv);
            }
            let (win, draw, loss) = crate::uci::output::wdl(line.score);
            Json::object([
                ("multipv", Json::from(line.multipv)),
                ("score", score_json(line.score)),
                (
                    "wdl",
                    Json::array([Json::from(win), Json::from(draw), Json::from(loss)]),
                ),
                (
                    "pv",
                    Json::array(line.moves.iter().map(|mv| Json::from(mv.to_uci(chess960)))),
                ),
                ("pv_san", Json::Array(sans)),
            ])
        });
        let doc = Json::object([
            ("fen", Json::from(fen.as_str())),
            ("depth", Json::from(progress.depth)),
            ("nodes", Json::from(progress.nodes)),
            ("lines", Json::array(lines)),
        ]);
        if write!(writer, "data: {doc}\n\n")
            .and_then(|()| writer.flush())
            .is_err()
        {
            signals.stop();
        }
    };
    searcher.search(&pos, &limits, &signals, &mut report);
    drop(permit);
    let _ = stream.write_all(b"event: done\ndata: {}\n\n");
    let _ = stream.flush();
    Ok(())
}

fn static_file(path: &str) -> Option<Response> {
    let (content_type, body) = match path {
        "/" | "/index.html" => ("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "/style.css" => ("text/css; charset=utf-8", STYLE_CSS),
        _ => return None,
    };
    Some(Response::new(200, content_type, body))
}

/// Answers one request; `None` when the handler wrote its own response (an event stream).
pub fn route(server: &Server, request: &Request, stream: &mut TcpStream) -> Option<Response> {
    let result = match (request.method.as_str(), request.path.as_str()) {
        ("GET" | "HEAD", path) if static_file(path).is_some() => {
            return static_file(path);
        }
        ("GET", "/api/levels") => Ok(Response::json(200, &levels_json())),
        ("GET", "/api/state") => game_from_query(server, request).and_then(|(shared, seat)| {
            // A reply that could not be searched before (the server was busy) is made now.
            engine_reply(server, &shared)?;
            Ok(state_response(&shared, &seat))
        }),
        ("GET", "/api/pgn") => pgn(server, request),
        ("GET", "/api/analyze") => analyze(request),
        ("GET", "/api/analysis") => match analysis_stream(server, request, stream) {
            Ok(()) => return None,
            Err(refusal) => Err(refusal),
        },
        ("POST", "/api/game") => new_game(server, request),
        ("POST", "/api/move") => play_move(server, request),
        ("POST", "/api/undo") => undo(server, request),
        ("POST", "/api/hint") => hint(server, request),
        ("POST", "/api/resign") => resign(server, request),
        ("POST", "/api/draw") => draw(server, request),
        (_, path)
            if path.starts_with("/api/")
                && [
                    "/api/levels",
                    "/api/state",
                    "/api/pgn",
                    "/api/analyze",
                    "/api/analysis",
                    "/api/game",
                    "/api/move",
                    "/api/undo",
                    "/api/hint",
                    "/api/resign",
                    "/api/draw",
                ]
                .contains(&path) =>
        {
            Err(refuse(
                405,
                format!("{} is not allowed on {path}", request.method),
            ))
        }
        (_, path) => Err(refuse(
            404,
            format!("nothing at '{}'", crate::uci::command::quote(path)),
        )),
    };
    Some(result.unwrap_or_else(|refusal| Response::error(refusal.status, &refusal.message)))
}
