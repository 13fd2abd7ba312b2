//! `engine datagen`: self-play games that label positions with the search's score, the move
//! played and the game's result: the training data of the evaluation network.
//!
//! Each game starts from a random line of an opening book (EPD, one position per line; only
//! the first four FEN fields are read) or the start position, plus a few random legal plies
//! for variety. Then both sides play `Searcher` moves at a fixed node count. A game ends on
//! mate, stalemate, threefold repetition, the fifty-move rule, insufficient material, or by
//! adjudication: a score of at least `WIN_SCORE` for the same side over `WIN_PLIES` plies
//! wins; after `DRAW_AFTER` plies a score within `DRAW_SCORE` for `DRAW_PLIES` plies draws;
//! `MAX_PLIES` plies draw. A finished game is a `SelfPlayGame`.
//!
//! Every searched position of a game is written as one 32-byte record (`format`): the
//! board, the search's score (white's point of view), the move it played, the game's result
//! and the ply. Nothing is filtered here; the trainer chooses what to keep.
//!
//! Game `i` uses its own random stream derived from `--seed` and `i`, and the search is
//! bounded by nodes on one thread with a cleared table, so the same seed gives the same
//! games whatever the thread count (only the order of the games in the file can differ).
//! Output is appended, so a stopped run resumes with the same seed and `--first-game` set to
//! its own first game plus the finished count of its last progress line plus `--threads`:
//! games are started in index order, so that skips the few in flight at the stop and repeats
//! none (or resume with another seed).

pub mod format;

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::moves::Move;
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::random::Rng;
use crate::search::{Limits, MATE_BOUND, Score, SearchSignals, Searcher};
use crate::types::Color;
use format::Record;

const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 4;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 10;
const DRAW_AFTER: usize = 80;
const MAX_PLIES: usize = 400;
/// More game threads than any machine has cores is a typing error, not a request.
const MAX_THREADS: usize = 1024;

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Where to write the labelled positions (32-byte records, appended to).
    #[arg(long)]
    pub output: std::path::PathBuf,
    /// Number of games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once (each game searches on one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Opening book: EPD or FEN lines (default: the start position).
    #[arg(long)]
    pub book: Option<std::path::PathBuf>,
    /// Random legal plies played after the book position.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Seed of the random choices (book line, random plies).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Index of the first game (to resume a run: games are numbered from it).
    #[arg(long, default_value_t = 0)]
    pub first_game: u64,
    /// Transposition table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// One finished game: every searched position as a record, and the result for white (0
/// loss, 1 draw, 2 win).
pub struct SelfPlayGame {
    pub records: Vec<Record>,
    pub result: u8,
    pub plies: usize,
}

/// The opening positions of a book file (first four FEN fields of each line that parses).
pub fn load_book(path: &std::path::Path) -> Result<Vec<String>, String> {
    let file =
        File::open(path).map_err(|error| format!("cannot open {}: {error}", path.display()))?;
    let mut lines = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.len() == 4 {
            let fen = fields.join(" ");
            if Position::from_fen(&fen).is_ok() {
                lines.push(fen);
            }
        }
    }
    if lines.is_empty() {
        return Err(format!("no positions in {}", path.display()));
    }
    Ok(lines)
}

/// Score from white's point of view; mates count as `MATE_BOUND` or more.
fn white_score(score: Score, side: Color) -> i32 {
    let value = match score {
        Score::Centipawns(value) => value,
        Score::Mate(moves) if moves > 0 => MATE_BOUND + 100 - moves.min(100),
        Score::Mate(moves) => -MATE_BOUND - 100 + moves.abs().min(100),
    };
    match side {
        Color::White => value,
        Color::Black => -value,
    }
}

/// The start of a game: a book line plus random plies that leave a legal move to play.
fn opening(book: &[String], random_plies: usize, random: &mut Rng) -> Position {
    loop {
        let fen = if book.is_empty() {
            START_FEN
        } else {
            &book[random.index(book.len())]
        };
        let mut pos = Position::from_fen(fen).expect("book lines were checked when loaded");
        let mut alive = true;
        for _ in 0..random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                alive = false;
                break;
            }
            pos.make_move(moves[random.index(moves.len())]);
        }
        if alive && !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

/// Plays game number `index` to the end.
pub fn play_game(
    searcher: &mut Searcher,
    book: &[String],
    args: &DatagenArgs,
    index: u64,
) -> SelfPlayGame {
    let mut random = Rng::new(args.seed.wrapping_mul(0x1000_0000_01B3) ^ index);
    let mut pos = opening(book, args.random_plies, &mut random);
    searcher.clear();
    let signals = SearchSignals::new();
    let limits = Limits::nodes(args.nodes);
    let mut played: Vec<(Position, i32, Move)> = Vec::new();
    let mut win_streak = (0usize, 0i32);
    let mut draw_streak = 0usize;
    let mut result = 1;
    let mut plies = 0;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.in_check() {
                result = if pos.side_to_move() == Color::White {
                    0
                } else {
                    2
                };
            }
            break;
        }
        if pos.is_threefold() || pos.is_fifty_move_draw() || pos.is_insufficient_material() {
            break;
        }
        if plies >= MAX_PLIES {
            break;
        }
        let search = searcher.search(&pos, &limits, &signals, &mut |_| {});
        let best = search
            .best
            .expect("a position with legal moves has a best move");
        let score = white_score(search.score, pos.side_to_move());

        if score.abs() >= WIN_SCORE {
            let sign = score.signum();
            win_streak = if win_streak.1 == sign {
                (win_streak.0 + 1, sign)
            } else {
                (1, sign)
            };
            if win_streak.0 >= WIN_PLIES {
                result = if sign > 0 { 2 } else { 0 };
                break;
            }
        } else {
            win_streak = (0, 0);
        }
        if plies >= DRAW_AFTER && score.abs() <= DRAW_SCORE {
            draw_streak += 1;
            if draw_streak >= DRAW_PLIES {
                break;
            }
        } else {
            draw_streak = 0;
        }

        let mut board = pos.clone();
        board.clear_history();
        played.push((board, score, best));
        pos.make_move(best);
        plies += 1;
    }
    let records = played
        .iter()
        .enumerate()
        .map(|(ply, (board, score, mv))| Record::pack(board, *score, *mv, result, ply))
        .collect();
    SelfPlayGame {
        records,
        result,
        plies,
    }
}

pub fn run(args: &DatagenArgs) -> ExitCode {
    let book = match &args.book {
        Some(path) => match load_book(path) {
            Ok(book) => book,
            Err(message) => {
                eprintln!("engine: {message}");
                return ExitCode::from(2);
            }
        },
        None => Vec::new(),
    };
    if args.threads > MAX_THREADS {
        eprintln!(
            "engine: datagen --threads {} is out of range (1..={MAX_THREADS})",
            args.threads
        );
        return ExitCode::from(2);
    }
    let threads = args.threads.max(1);
    // Every game's table is allocated here, before any game starts or the output is opened, so
    // that a `--hash` the machine cannot give is a message and exit code 2, not a panic in a
    // game thread.
    let mut searchers = Vec::new();
    for _ in 0..threads {
        let mut searcher = Searcher::new(1);
        if searcher.resize_hash(args.hash).is_err() {
            eprintln!(
                "engine: cannot allocate {} MB for the hash table (--hash {}, one table for each of {threads} game thread(s))",
                args.hash, args.hash
            );
            return ExitCode::from(2);
        }
        searchers.push(searcher);
    }
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.output)
    {
        Ok(file) => file,
        Err(error) => {
            eprintln!("engine: cannot open {}: {error}", args.output.display());
            return ExitCode::from(2);
        }
    };
    let output = Mutex::new(file);
    let next_game = AtomicU64::new(0);
    let tallies = Mutex::new((0u64, [0u64; 3], 0u64));
    let start = Instant::now();
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for mut searcher in searchers {
            let (book, next_game, failed, output, tallies) =
                (&book, &next_game, &failed, &output, &tallies);
            scope.spawn(move || {
                loop {
                    let number = next_game.fetch_add(1, Ordering::Relaxed);
                    if number >= args.games || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = play_game(&mut searcher, book, args, args.first_game + number);
                    let bytes: Vec<u8> = game.records.iter().flat_map(|r| r.0).collect();
                    {
                        let mut file = output.lock().expect("no writer panics");
                        if let Err(error) = file.write_all(&bytes) {
                            eprintln!("engine: cannot write {}: {error}", args.output.display());
                            failed.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    let mut tally = tallies.lock().expect("no counter panics");
                    tally.0 += 1;
                    tally.1[game.result as usize] += 1;
                    tally.2 += game.records.len() as u64;
                    if tally.0 % 10 == 0 || tally.0 == args.games {
                        let seconds = start.elapsed().as_secs_f64();
                        eprintln!(
                            "games {} (white wins {}, draws {}, black wins {}) positions {} in {:.0} s, {:.0} positions/hour",
                            tally.0,
                            tally.1[2],
                            tally.1[1],
                            tally.1[0],
                            tally.2,
                            seconds,
                            tally.2 as f64 * 3600.0 / seconds.max(1e-9)
                        );
                    }
                }
            });
        }
    });
    if failed.load(Ordering::Relaxed) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
