//! The `engine` binary: the UCI loop by default, plus the subcommands of `CliCommand`: `perft`,
//! `bench`, `play`, `datagen`, `train`, `tb`, `random`, `analyze`,
//! `selftest`, `replay` and `serve`.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use ox88::json::Json;
use ox88::perft::{divide, perft};
use ox88::position::Position;
use ox88::position::fen::START_FEN;

/// The `engine` command line.
#[derive(Parser)]
#[command(
    name = "engine",
    version,
    about = "Ox88, a UCI chess engine. Without a subcommand it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<CliCommand>,
}

/// The subcommands of the `engine` command line (none: speak UCI).
#[derive(Subcommand)]
enum CliCommand {
    /// Count the leaf nodes of the legal move tree (the last ply is bulk-counted, no hash table).
    Perft {
        /// Depth in plies (0..=12).
        depth: u32,
        /// Position to start from (default: the start position). Shredder-FEN castling accepted.
        #[arg(long)]
        fen: Option<String>,
        /// Print the node count below each root move.
        #[arg(long)]
        divide: bool,
        /// Write castling moves king-takes-rook (Chess960 style) in --divide output.
        #[arg(long)]
        chess960: bool,
        /// One JSON document (nodes, time, nps, and the divide when asked) instead of the text.
        #[arg(long)]
        json: bool,
    },
    /// Search fixed positions to a fixed depth; prints `<nodes> nodes <nps> nps` last.
    Bench(ox88::bench::BenchArgs),
    /// Play a game against Ox88 in the terminal.
    Play(ox88::play::PlayArgs),
    /// Generate labelled positions by self-play (training data for `train`).
    Datagen(ox88::datagen::DatagenArgs),
    /// Train the evaluation network on datagen's positions.
    Train(ox88::train::TrainArgs),
    /// Probe Syzygy endgame tables: WDL, DTZ and the best move of a FEN, or a batch on stdin.
    Tb(ox88::tb::TbArgs),
    /// Random legal positions (FEN or EPD, one a line), reproducible by seed.
    Random(ox88::random_position::RandomArgs),
    /// Who attacks each square, hanging and pinned pieces, moves, material of a position.
    Analyze(ox88::analysis::AnalyzeArgs),
    /// Check this build: perft, the bench signature, the net, a search, a UCI conversation.
    Selftest(ox88::selftest::SelftestArgs),
    /// Play a Debug Log File's input back into a fresh engine and show where the output differs.
    Replay(ox88::replay::ReplayArgs),
    /// Play and analyse in a browser: a local web board (http://127.0.0.1:8088/).
    Serve(ox88::serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        None => ox88::uci::run(),
        Some(CliCommand::Bench(args)) => ox88::bench::run(&args),
        Some(CliCommand::Play(args)) => ox88::play::run(&args),
        Some(CliCommand::Datagen(args)) => ox88::datagen::run(&args),
        Some(CliCommand::Train(args)) => ox88::train::run(&args),
        Some(CliCommand::Tb(args)) => ox88::tb::run(&args),
        Some(CliCommand::Random(args)) => ox88::random_position::run(&args),
        Some(CliCommand::Analyze(args)) => ox88::analysis::run(&args),
        Some(CliCommand::Selftest(args)) => ox88::selftest::run(&args),
        Some(CliCommand::Replay(args)) => ox88::replay::run(&args),
        Some(CliCommand::Serve(args)) => ox88::serve::run(&args),
        Some(CliCommand::Perft {
            depth,
            fen,
            divide,
            chess960,
            json,
        }) => run_perft(depth, fen.as_deref(), divide, chess960, json),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("engine: {message}");
    ExitCode::from(2)
}

fn run_perft(
    depth: u32,
    fen: Option<&str>,
    show_divide: bool,
    chess960: bool,
    json: bool,
) -> ExitCode {
    if depth > 12 {
        return fail(&format!("perft depth {depth} is out of range (0..=12)"));
    }
    let mut pos = match Position::from_fen(fen.unwrap_or(START_FEN)) {
        Ok(pos) => pos,
        Err(error) => return fail(&error.to_string()),
    };
    pos.set_chess960(chess960 || pos.is_chess960());
    let start = Instant::now();
    let counts = (show_divide && depth > 0).then(|| divide(&mut pos, depth));
    let nodes = match &counts {
        Some(counts) => counts.iter().map(|(_, count)| count).sum(),
        None => perft(&mut pos, depth),
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = (nodes as f64 / seconds.max(1e-9)) as u64;
    let time_ms = (seconds * 1000.0).round() as u64;
    let chess960 = pos.is_chess960();
    if json {
        let mut pairs = vec![
            ("fen", Json::from(pos.to_fen())),
            ("depth", Json::from(depth)),
            ("nodes", Json::from(nodes)),
            ("time_ms", Json::from(time_ms)),
            ("nps", Json::from(nps)),
        ];
        if let Some(counts) = &counts {
            let moves = counts.iter().map(|(mv, count)| {
                Json::object([
                    ("move", Json::from(mv.to_uci(chess960))),
                    ("nodes", Json::from(*count)),
                ])
            });
            pairs.push(("divide", Json::array(moves)));
        }
        println!("{}", Json::object(pairs));
        return ExitCode::SUCCESS;
    }
    if let Some(counts) = &counts {
        for (mv, count) in counts {
            println!("{}: {count}", mv.to_uci(chess960));
        }
        println!();
    }
    println!("nodes {nodes} time {time_ms} ms nps {nps}");
    ExitCode::SUCCESS
}
