//! `engine datagen`: self-play games that label positions with their game's result, the
//! training data of `engine tune`.
//!
//! Each game starts from a random line of an opening book (EPD, one position per line; only
//! the first four FEN fields are read) or the start position, plus a few random legal plies
//! for variety. Then both sides play `Searcher` moves at a fixed node count. A game ends on
//! mate, stalemate, threefold repetition, the fifty-move rule, insufficient material, or by
//! adjudication: a score of at least `WIN_SCORE` for the same side over `WIN_PLIES` plies
//! wins; after `DRAW_AFTER` plies a score within `DRAW_SCORE` for `DRAW_PLIES` plies draws;
//! `MAX_PLIES` plies draw. A finished game is a `SelfPlayGame`.
//!
//! Labelled are the quiet positions of each game: from ply `SKIP_PLIES` on, side to move
//! not in check, and the move the search chose is not a capture or promotion (so the static
//! evaluation is a fair stand-in for the search's score there). Output, one position a line:
//! the FEN, the game's result from white's point of view (1.0 win, 0.5 draw, 0.0 loss) and
//! the search's score of the position in centipawns, white's point of view (mates clamped
//! to +-3000), which `engine tune --score-weight` can blend into the target:
//!
//! ```text
//!   rnbqkb1r/pp2pppp/2p2n2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4 [0.5] 23
//! ```
//! Game `i` uses its own random stream derived from `--seed` and `i`, and the search is
//! bounded by nodes on one thread with a cleared table, so the same seed gives the same
//! games whatever the thread count (only the order of the games in the file can differ).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::search::{Limits, MATE_BOUND, Score, SearchSignals, Searcher};
use crate::types::Color;

const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 4;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 10;
const DRAW_AFTER: usize = 80;
const MAX_PLIES: usize = 400;
const SKIP_PLIES: usize = 8;
/// More game threads than any machine has cores is a typing error, not a request.
const MAX_THREADS: usize = 1024;

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Where to write the labelled positions (appended to).
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
    /// Transposition table size per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// SplitMix64: small, fast, and good enough to pick openings.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// One finished game: its labelled positions (FEN and the search's score, white's point of
/// view) and result (white's point of view).
pub struct SelfPlayGame {
    pub positions: Vec<(String, i32)>,
    pub result: f64,
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

/// Score from white's point of view; mates count as a large score.
fn white_score(score: Score, side: Color) -> i32 {
    let value = match score {
        Score::Centipawns(value) => value,
        Score::Mate(moves) if moves > 0 => MATE_BOUND,
        Score::Mate(_) => -MATE_BOUND,
    };
    match side {
        Color::White => value,
        Color::Black => -value,
    }
}

/// The start of a game: a book line plus random plies that leave a legal move to play.
fn opening(book: &[String], random_plies: usize, random: &mut Random) -> Position {
    loop {
        let fen = if book.is_empty() {
            START_FEN
        } else {
            &book[random.below(book.len())]
        };
        let mut pos = Position::from_fen(fen).expect("book lines were checked when loaded");
        let mut alive = true;
        for _ in 0..random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                alive = false;
                break;
            }
            pos.make_move(moves[random.below(moves.len())]);
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
    let mut random = Random(args.seed.wrapping_mul(0x1000_0000_01B3) ^ index);
    let mut pos = opening(book, args.random_plies, &mut random);
    searcher.clear();
    let signals = SearchSignals::new();
    let limits = Limits::nodes(args.nodes);
    let mut candidates = Vec::new();
    let mut win_streak = (0usize, 0i32);
    let mut draw_streak = 0usize;
    let mut result = 0.5;
    let mut plies = 0;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.in_check() {
                result = if pos.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
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
                result = if sign > 0 { 1.0 } else { 0.0 };
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

        if plies >= SKIP_PLIES && !pos.in_check() && !best.is_noisy() {
            candidates.push((pos.to_fen(), score.clamp(-WIN_SCORE * 3, WIN_SCORE * 3)));
        }
        pos.make_move(best);
        plies += 1;
    }
    SelfPlayGame {
        positions: candidates,
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
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = play_game(&mut searcher, book, args, index);
                    let mut text = String::new();
                    for (fen, score) in &game.positions {
                        text.push_str(&format!("{fen} [{:.1}] {score}\n", game.result));
                    }
                    {
                        let mut file = output.lock().expect("no writer panics");
                        if let Err(error) = file.write_all(text.as_bytes()) {
                            eprintln!("engine: cannot write {}: {error}", args.output.display());
                            failed.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    let mut tally = tallies.lock().expect("no counter panics");
                    tally.0 += 1;
                    tally.1[(game.result * 2.0) as usize] += 1;
                    tally.2 += game.positions.len() as u64;
                    if tally.0 % 10 == 0 || tally.0 == args.games {
                        eprintln!(
                            "games {} (white wins {}, draws {}, black wins {}) positions {} in {:.0} s",
                            tally.0,
                            tally.1[2],
                            tally.1[1],
                            tally.1[0],
                            tally.2,
                            start.elapsed().as_secs_f64()
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
