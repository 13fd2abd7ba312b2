//! The UCI protocol loop, and `UciSession`, the state of one conversation with a GUI.
//!
//! Two threads. The main thread (this module) reads stdin line by line, parses each line into
//! a `UciCommand` (`command.rs`), keeps the current position and options, and answers `uci`,
//! `isready`, `stop`, `ponderhit` and `quit` itself, so they are answered at once even in the
//! middle of a search. The engine thread (`engine_thread.rs`) owns the `Searcher` and runs
//! jobs sent over a channel. Each `go` gets its own `SearchSignals`; the main thread keeps the
//! latest to raise on `stop` / `ponderhit`. All output goes through `output.rs`.
//!
//! Bad input never changes state half-way and never ends the loop: it is reported in an
//! `info string` and the previous state stays, with one exception: a `position` command that
//! cannot be accepted (an unreadable or impossible FEN, an illegal move in its list, a
//! malformed command) leaves no position at all rather than the previous one, so the next
//! `go` answers `bestmove (none)` instead of a move of another position, and `go perft`, `d`,
//! `eval` and `analyze` say there is no position. A castling right or en passant square that the
//! position cannot have is dropped (with an `info string`) and the position accepted.

pub mod command;
pub mod debug_log;
pub mod engine_thread;
pub mod lag;
pub mod options;
pub mod output;
pub mod setup;

use std::io::BufRead;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use command::{GoCommand, ParseError, UciCommand, quote};
use engine_thread::{EngineThread, GoJob, Job};
use lag::{ClockSample, LagMeter};
use options::{EMBEDDED_NET, Effect, NO_LOG, NO_TABLES, Options, all_options};
use output::Output;

use crate::analysis::{Analysis, render};
use crate::board_view::Style;
use crate::nnue::{self, Network, default_network};
use crate::position::Position;
use crate::search::{Limits, MAX_PLY, SearchSignals, TablebaseUse};
use crate::syzygy::Tablebases;
use crate::time::{ClockReading, TimeLimit, TimeManager};
use crate::types::Color;

/// How long `quit` waits for a running search to print its `bestmove` before exiting anyway.
const QUIT_PATIENCE: Duration = Duration::from_millis(1500);
/// What `go`, `d` and `eval` say after a refused `position` command.
const NO_POSITION: &str = "no valid position is set (the last position command was refused); \
                           send a new position";
/// Deepest `go perft` accepted (deeper would run for hours).
const MAX_PERFT_DEPTH: u32 = 10;

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() -> ExitCode {
    let mut session = UciSession::new();
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let received = Instant::now();
        let line = String::from_utf8_lossy(&buffer);
        if session.handle(&line, received) == Flow::Quit {
            break;
        }
    }
    session.shut_down();
    ExitCode::SUCCESS
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The state of one UCI conversation: the current position, the options, the engine thread.
struct UciSession {
    output: Output,
    options: Options,
    /// `None` after a refused `position` command, until the next valid one.
    position: Option<Position>,
    debug: bool,
    engine: EngineThread,
    /// The latest search's signals, to raise on `stop` and `ponderhit`.
    active: Option<Arc<SearchSignals>>,
    /// The evaluation network (`EvalFile`), also held by the engine thread's searcher.
    network: Arc<Network>,
    /// The lag between the GUI's clock and ours, learned from the clocks of successive `go`s.
    lag: LagMeter,
    /// The last search on our clock, until the next `go` measures it: its clock, its
    /// signals (when its `bestmove` went out) and when it started.
    timed_move: Option<TimedMove>,
    /// The Move Overhead last used, to say when the lag meter raises it.
    overhead_in_use: i64,
    /// The endgame tables (`SyzygyPath`), handed to each search with the settings.
    tablebases: Option<Arc<Tablebases>>,
}

/// A search on our clock whose time the lag meter has not yet measured.
struct TimedMove {
    sample: ClockSample,
    signals: Arc<SearchSignals>,
    received: Instant,
    ponder: bool,
}

impl TimedMove {
    /// How long the move took on our clock: from `go` (or `ponderhit`) to `bestmove`.
    fn measured(&self) -> Option<Duration> {
        let sent = self.signals.bestmove_sent_at()?;
        let start = if self.ponder {
            self.signals.ponderhit_at()?
        } else {
            self.received
        };
        Some(sent.saturating_duration_since(start))
    }
}

impl UciSession {
    fn new() -> UciSession {
        let options = Options::default();
        let output = Output::default();
        let overhead = options.move_overhead_ms;
        UciSession {
            engine: EngineThread::spawn(options.hash_mb, output.clone()),
            output,
            options,
            position: Some(Position::startpos()),
            debug: false,
            active: None,
            network: default_network(),
            lag: LagMeter::new(),
            timed_move: None,
            overhead_in_use: overhead,
            tablebases: None,
        }
    }

    fn shut_down(mut self) {
        self.stop_search();
        self.engine.shut_down(QUIT_PATIENCE);
    }

    fn handle(&mut self, line: &str, received: Instant) -> Flow {
        self.output
            .received(line.trim_end_matches(['\n', '\r']), received);
        match line.parse::<UciCommand>() {
            Ok(command) => self.execute(command, received),
            Err(ParseError::Empty) => Flow::Continue,
            Err(ParseError::Position(message)) => {
                self.refuse_position(&message);
                Flow::Continue
            }
            Err(error) => {
                self.output.info_string(&error.to_string());
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: UciCommand, received: Instant) -> Flow {
        match command {
            UciCommand::Uci => self.identify(),
            UciCommand::IsReady => {
                if self.engine.is_busy() {
                    self.output.line("readyok");
                } else {
                    self.engine.send(Job::Ping);
                }
            }
            UciCommand::UciNewGame => {
                self.position = Some(Position::startpos());
                self.timed_move = None;
                self.lag.break_sequence();
                self.engine.send(Job::NewGame);
            }
            UciCommand::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            UciCommand::Go(go) => self.go(go, received),
            UciCommand::Stop => self.stop_search(),
            UciCommand::PonderHit => {
                if let Some(signals) = &self.active {
                    signals.ponderhit();
                }
            }
            UciCommand::Quit => return Flow::Quit,
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::Debug(on) => self.debug = on,
            UciCommand::Display { json } => {
                let Some(position) = &self.position else {
                    self.output.info_string(NO_POSITION);
                    return Flow::Continue;
                };
                if json {
                    self.output.line(&setup::display_json(position).to_string());
                } else {
                    for line in setup::display(position) {
                        self.output.line(&line);
                    }
                    let analysis = Analysis::of(position);
                    for line in render::details(&analysis, position, Style::Plain).lines() {
                        self.output.line(line);
                    }
                }
            }
            UciCommand::Eval { json } => {
                let Some(position) = &self.position else {
                    self.output.info_string(NO_POSITION);
                    return Flow::Continue;
                };
                let mut position = position.clone();
                position.set_network(self.network.clone());
                if json {
                    self.output
                        .line(&crate::eval::network_json(&position).to_string());
                } else {
                    for line in crate::eval::describe_network(&position).lines() {
                        self.output.line(line);
                    }
                }
            }
            UciCommand::Analyze { json } => {
                let Some(position) = &self.position else {
                    self.output.info_string(NO_POSITION);
                    return Flow::Continue;
                };
                let analysis = Analysis::of(position);
                if json {
                    self.output.line(&render::json(&analysis).to_string());
                } else {
                    let text = render::text(&analysis, position, Style::Plain);
                    for line in text.lines() {
                        self.output.line(line);
                    }
                }
            }
            UciCommand::Bench { depth } => self.engine.send(Job::Bench { depth }),
            UciCommand::Skipped { skipped, command } => {
                self.output
                    .info_string(&format!("ignoring unknown words '{skipped}'"));
                return self.execute(*command, received);
            }
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.output
            .line(&format!("id name Ox88 {}", env!("CARGO_PKG_VERSION")));
        self.output.line("id author the Ox88 authors");
        for (name, kind) in all_options() {
            self.output.line(&options::describe(name, kind));
        }
        self.output.line("uciok");
    }

    fn stop_search(&mut self) {
        if let Some(signals) = &self.active {
            signals.stop();
        }
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        match setup::setup(fen, moves, self.options.chess960) {
            Ok(result) => {
                for problem in &result.problems {
                    self.output.info_string(problem);
                }
                self.position = Some(result.position);
            }
            Err(error) => self.refuse_position(&error),
        }
    }

    /// A `position` command that cannot be accepted: no position until the next valid one.
    fn refuse_position(&mut self, reason: &str) {
        self.position = None;
        self.output.info_string(&format!(
            "position refused, no position is set until a valid one: {reason}"
        ));
    }

    /// `go` while no position is set: `go perft` just says so; a search says so and answers
    /// `bestmove (none)` through the search thread like any position without legal moves, so
    /// it comes after the `bestmove` of a search still running and, under `go infinite` or
    /// `go ponder`, only on `stop` or `ponderhit`.
    fn go_without_position(&mut self, go: &GoCommand, received: Instant) {
        self.output.info_string(NO_POSITION);
        if go.perft.is_some() {
            return;
        }
        if self.engine.is_busy() {
            self.stop_search();
        }
        let limits = Limits {
            infinite: go.infinite,
            ponder: go.ponder,
            start: received,
            ..Limits::new()
        };
        self.timed_move = None;
        self.lag.break_sequence();
        self.start_search(setup::no_legal_move_position(), limits);
    }

    /// Hands a search to the engine thread with fresh signals, kept for `stop` and
    /// `ponderhit`.
    fn start_search(&mut self, position: Position, limits: Limits) -> Arc<SearchSignals> {
        let signals = Arc::new(SearchSignals::new());
        self.active = Some(Arc::clone(&signals));
        self.engine.send(Job::Go(Box::new(GoJob {
            position,
            limits,
            signals: Arc::clone(&signals),
            strength: self.options.strength.strength(),
            show_wdl: self.options.show_wdl,
            tablebases: self.tablebases.as_ref().map(|tables| TablebaseUse {
                tables: Arc::clone(tables),
                probe_depth: self.options.syzygy.probe_depth,
                probe_limit: self.options.syzygy.probe_limit,
                fifty_move_rule: self.options.syzygy.fifty_move_rule,
            }),
        })));
        signals
    }

    /// `EvalFile`: the net is read here, at the edge; only a net that loaded reaches the
    /// search, so a bad file leaves the current one in place.
    fn load_network(&mut self, file: &str) {
        let loaded = if file == EMBEDDED_NET {
            Ok(default_network())
        } else {
            nnue::file::load(std::path::Path::new(file)).map(Arc::new)
        };
        match loaded {
            Ok(network) => {
                self.output.info_string(&format!(
                    "EvalFile {file} loaded (checksum {:016x}, {} kernels)",
                    network.checksum,
                    network.kernel_name()
                ));
                self.options.eval_file = file.to_string();
                self.network = network.clone();
                self.engine.send(Job::SetNetwork(network));
            }
            Err(error) => self.output.info_string(&format!(
                "EvalFile not loaded: {error}; still using {}",
                self.options.eval_file
            )),
        }
    }

    /// `SyzygyPath`: the directories are read here, at the edge (the tables themselves open
    /// on their first probe); a path that fails leaves the current tables in place.
    fn load_tablebases(&mut self, path: &str) {
        if path == NO_TABLES {
            self.tablebases = None;
            self.options.syzygy_path = NO_TABLES.to_string();
            return;
        }
        match Tablebases::open(path) {
            Ok(tables) => {
                for skipped in tables.skipped() {
                    self.output
                        .info_string(&format!("SyzygyPath skipped {skipped}"));
                }
                self.output.info_string(&format!(
                    "SyzygyPath {path}: {}, up to {} pieces",
                    tables.summary(),
                    tables.max_pieces()
                ));
                self.options.syzygy_path = path.to_string();
                self.tablebases = Some(Arc::new(tables));
            }
            Err(error) => self.output.info_string(&format!(
                "SyzygyPath not loaded: {error}; still using {}",
                self.options.syzygy_path
            )),
        }
    }

    /// `Debug Log File`: start logging to `path` (or stop, for `NO_LOG`); a file that cannot
    /// be created leaves the current log as it was.
    fn open_log(&mut self, path: &str) {
        if path == NO_LOG {
            self.output.log().close();
            return;
        }
        match self.output.log().open(path) {
            Ok(()) => self
                .output
                .info_string(&format!("Debug Log File {path} opened")),
            Err(error) => self
                .output
                .info_string(&format!("Debug Log File not opened: {error}")),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::ResizeHash(mb)) => self.engine.send(Job::ResizeHash(mb)),
            Ok(Effect::ClearHash) => self.engine.send(Job::ClearHash),
            Ok(Effect::SetThreads(threads)) => self.engine.send(Job::SetThreads(threads)),
            Ok(Effect::SetSearchParams(params)) => self.engine.send(Job::SetSearchParams(params)),
            Ok(Effect::LoadNetwork(file)) => self.load_network(&file),
            Ok(Effect::LoadTablebases(path)) => self.load_tablebases(&path),
            Ok(Effect::OpenLog(path)) => self.open_log(&path),
            Err(error) => self
                .output
                .info_string(&format!("setoption ignored: {error}")),
        }
        if name.split_whitespace().collect::<Vec<_>>() == ["UCI_Chess960"]
            && let Some(position) = &mut self.position
        {
            position.set_chess960(self.options.chess960 || position.is_chess960());
        }
    }

    fn go(&mut self, go: GoCommand, received: Instant) {
        let Some(position) = &self.position else {
            return self.go_without_position(&go, received);
        };
        let position = position.clone();
        for warning in &go.warnings {
            self.output.info_string(warning);
        }
        // A `go` while a search runs (the GUI forgot `stop`): end that one first; it still
        // prints its own `bestmove`, then this one starts.
        if self.engine.is_busy() {
            self.stop_search();
        }
        if let Some(depth) = go.perft {
            if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
                self.output.info_string(&format!(
                    "go perft needs a depth from 1 to {MAX_PERFT_DEPTH}"
                ));
                return;
            }
            self.engine.send(Job::Perft {
                position: Box::new(position),
                depth,
            });
            return;
        }
        let sample = self.measure_lag(&position, &go);
        let limits = self.limits(&position, &go, received);
        if self.debug {
            let time = TimeManager::new(limits.time, limits.start, None);
            self.output.info_string(&format!(
                "time budget: soft {:?} hard {:?}",
                time.soft_budget(),
                time.hard_budget()
            ));
        }
        let ponder = limits.ponder;
        let signals = self.start_search(position, limits);
        self.timed_move = sample.map(|sample| TimedMove {
            sample,
            signals,
            received,
            ponder,
        });
    }

    /// The lag meter's part of a `go`: measures the previous move of ours, compares the clock
    /// now with the one then, and sets the Move Overhead to use (saying so when it rises).
    /// Returns this `go`'s clock when it is a search on our clock, for the next `go`.
    fn measure_lag(&mut self, position: &Position, go: &GoCommand) -> Option<ClockSample> {
        if let Some(previous) = self.timed_move.take() {
            let measured = previous.measured();
            self.lag.moved(previous.sample, measured);
        }
        let side = position.side_to_move();
        let (remaining, increment) = go.clock(side);
        let timed = !go.infinite && go.movetime.is_none() && remaining.is_some();
        let sample = remaining.filter(|_| timed).map(|remaining_ms| ClockSample {
            side,
            game_ply: 2 * u32::from(position.fullmove_number().max(1) - 1)
                + u32::from(side == Color::Black),
            remaining_ms,
            increment_ms: increment.unwrap_or(0),
            moves_to_go: go.movestogo,
        });
        match sample {
            Some(sample) => self.lag.observe(sample),
            None => self.lag.break_sequence(),
        }
        let option = self.options.move_overhead_ms;
        let overhead = if self.options.adaptive_overhead {
            self.lag.overhead_ms(option)
        } else {
            option
        };
        if overhead > self.overhead_in_use && overhead > option {
            self.output.info_string(&format!(
                "Move Overhead raised to {overhead} ms: the GUI's clock charged that much \
                 more than Ox88 measured for a recent move (Adaptive Overhead)"
            ));
        }
        self.overhead_in_use = overhead;
        sample
    }

    /// Turns `go` arguments into search limits for `position` and the current options.
    fn limits(&self, position: &Position, go: &GoCommand, received: Instant) -> Limits {
        let side = position.side_to_move();
        let (remaining, increment) = go.clock(side);
        // A clock for the other side only (a GUI slip): assume ours reads the same rather
        // than searching without end.
        let (other, _) = go.clock(side.flip());
        let remaining = remaining.or_else(|| {
            if other.is_some() && go.movetime.is_none() && !go.infinite {
                self.output
                    .info_string("go: no clock for the side to move; using the other clock");
            }
            other
        });
        let overhead = self.overhead_in_use;
        let time = if go.infinite {
            TimeLimit::None
        } else if let Some(movetime) = go.movetime {
            TimeLimit::MoveTime {
                ms: movetime,
                overhead_ms: overhead,
            }
        } else if let Some(remaining) = remaining {
            TimeLimit::Clock(ClockReading {
                remaining_ms: remaining,
                increment_ms: increment.unwrap_or(0),
                moves_to_go: go.movestogo,
                overhead_ms: overhead,
            })
        } else {
            TimeLimit::None
        };
        let depth = go.depth.map(|depth| depth.clamp(1, MAX_PLY as i32 - 1));
        let mate = go.mate.filter(|&moves| {
            let valid = moves > 0;
            if !valid {
                self.output.info_string(&format!(
                    "go mate {moves}: needs a positive number, ignored"
                ));
            }
            valid
        });
        let chess960 = position.is_chess960();
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match position.find_uci_move(text, chess960) {
                Some(mv) => searchmoves.push(mv),
                None => self.output.info_string(&format!(
                    "searchmoves: '{}' is not a legal move here, ignored",
                    quote(text)
                )),
            }
        }
        // Nothing that ends a search on its own (a bare `go`, `go ponder` without a clock):
        // it runs, and its `bestmove` waits, until `stop`, as for `go infinite`.
        let unbounded =
            time == TimeLimit::None && depth.is_none() && go.nodes.is_none() && mate.is_none();
        Limits {
            depth,
            nodes: go.nodes,
            mate,
            searchmoves,
            multipv: self.options.multipv,
            time,
            start: received,
            infinite: go.infinite || unbounded,
            ponder: go.ponder,
        }
    }
}
