//! `engine bench`: fixed positions, fixed depth, one thread; the node count is the signature.
//!
//! Every position is searched from a cleared 16 MB table and cleared histories, with a depth
//! limit only, so nothing depends on the clock: the total node count is the same on every run,
//! in debug and release builds, and changes only when the search or evaluation changes. That
//! makes it the fingerprint of a version ("bench 1234567") and the nps a speed measure.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::json::Json;
use crate::position::Position;
use crate::search::{Limits, Score, SearchSignals, Searcher};

/// Depth of `engine bench` without `--depth`, chosen so that the whole set stays quick enough
/// to run before each commit (release build).
pub const DEFAULT_DEPTH: i32 = 13;

/// The total node count of `engine bench` at the default depth: the signature of this version.
/// CI (`.ci/bench_signature.sh`) checks that `engine bench` prints it and that the last
/// `Bench: N` line in the commit messages agrees, so a change of search or evaluation cannot slip
/// in unannounced; `engine selftest` will compare a quick bench with it too. Change it, and write
/// the new `Bench:` line, in the commit that changes the node count.
pub const EXPECTED_BENCH_NODES: u64 = 3119942;

/// Table size for each bench search.
const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames, endgames, checks, promotions and three Chess960 start-like
/// positions (Shredder-FEN castling).
pub const POSITIONS: [&str; 42] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    // In check, and promotion races.
    "rnbqk1nr/pppp1ppp/8/4p3/1b1PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "3r2k1/pp3ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    // Chess960 (Shredder-FEN castling).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
];

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: i32,
    /// One JSON document (every position's line, the total, nps) instead of the text.
    #[arg(long)]
    pub json: bool,
}

fn score_json(score: Score) -> Json {
    match score {
        Score::Centipawns(value) => Json::object([("cp", Json::from(value))]),
        Score::Mate(moves) => Json::object([("mate", Json::from(moves))]),
    }
}

/// The search of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub fen: &'static str,
    pub best: String,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every bench position to `depth` with one thread and a cleared table each time.
/// Returns the total node count and one line per position.
pub fn run_positions(depth: i32) -> (u64, Vec<BenchLine>) {
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    searcher.set_threads(1);
    let signals = SearchSignals::new();
    let mut total = 0;
    let mut lines = Vec::with_capacity(POSITIONS.len());
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench positions are valid FEN");
        searcher.clear();
        let start = Instant::now();
        let result = searcher.search(&pos, &Limits::depth(depth), &signals, &mut |_| {});
        total += result.progress.nodes;
        lines.push(BenchLine {
            fen,
            best: result
                .best
                .map_or_else(|| "0000".to_string(), |mv| mv.to_uci(pos.is_chess960())),
            score: result.score,
            nodes: result.progress.nodes,
            time: start.elapsed(),
        });
    }
    (total, lines)
}

pub fn run(args: &BenchArgs) -> ExitCode {
    if !(1..=crate::search::MAX_PLY as i32).contains(&args.depth) {
        eprintln!("engine: bench depth {} is out of range", args.depth);
        return ExitCode::from(2);
    }
    let (total, lines) = run_positions(args.depth);
    // Search time only: clearing the table between positions is not searching.
    let elapsed: Duration = lines.iter().map(|line| line.time).sum();
    for (index, line) in lines.iter().enumerate().filter(|_| !args.json) {
        let score = match line.score {
            Score::Centipawns(value) => format!("cp {value}"),
            Score::Mate(moves) => format!("mate {moves}"),
        };
        println!(
            "{:2} {:>10} nodes {:>6} ms  best {:<6} {:<10} {}",
            index + 1,
            line.nodes,
            line.time.as_millis(),
            line.best,
            score,
            line.fen
        );
    }
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    if args.json {
        let positions = lines.iter().enumerate().map(|(index, line)| {
            Json::object([
                ("index", Json::from(index + 1)),
                ("fen", Json::from(line.fen)),
                ("nodes", Json::from(line.nodes)),
                ("time_ms", Json::from(line.time.as_millis() as u64)),
                ("best", Json::from(line.best.as_str())),
                ("score", score_json(line.score)),
            ])
        });
        let doc = Json::object([
            ("depth", Json::from(args.depth)),
            ("positions", Json::array(positions)),
            ("nodes", Json::from(total)),
            ("time_ms", Json::from(elapsed.as_millis() as u64)),
            ("nps", Json::from(nps)),
            ("expected_nodes", Json::from(EXPECTED_BENCH_NODES)),
        ]);
        println!("{doc}");
        return ExitCode::SUCCESS;
    }
    println!("{total} nodes {nps} nps");
    ExitCode::SUCCESS
}
