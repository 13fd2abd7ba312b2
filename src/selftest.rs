//! `engine selftest`: the checks a person runs after building Ox88 on a new machine.
//!
//! Each check prints one line, `ok` or `FAIL`, with what it compared; the exit status is 0
//! only when every check passed (1 otherwise). The checks: perft on a few suite positions
//! (standard and Chess960), the bench signature against `bench::EXPECTED_BENCH_NODES`, the
//! embedded network's checksum against `EXPECTED_NET_CHECKSUM`, two short searches that must
//! find their mates, and a UCI conversation with a fresh `engine` process (this binary)
//! that must end in a legal `bestmove`.
//!
//! So that a test can see a check fail, `--break CHECK` (hidden) or the environment variable
//! `OX88_SELFTEST_BREAK=CHECK` makes that check expect a wrong value.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::bench;
use crate::nnue::default_network;
use crate::perft::perft;
use crate::position::Position;
use crate::search::{Limits, Score, SearchSignals, Searcher};

/// Checksum of the embedded network (`src/nnue/ox88.nnue`); change it with the net.
pub const EXPECTED_NET_CHECKSUM: u64 = 0xef78_7a52_4d67_4984;

/// How long the UCI conversation may take before it counts as hung.
const UCI_PATIENCE: Duration = Duration::from_secs(60);

/// The check names, as `--break` takes them.
pub const CHECKS: [&str; 5] = ["perft", "bench", "network", "search", "uci"];

/// (FEN, depth, nodes): the start position, Kiwipete, CPW position 3 and a Chess960 start.
const PERFT_CASES: [(&str, u32, u64); 4] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
        197_281,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        97_862,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        4,
        326_672,
    ),
];

/// (FEN, best move, mate in moves).
const MATES: [(&str, &str, i32); 2] = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "d5f6",
        2,
    ),
];

#[derive(clap::Args, Debug)]
pub struct SelftestArgs {
    /// Make one check expect a wrong value (for testing the self-test).
    #[arg(long = "break", hide = true)]
    pub broken: Option<String>,
}

/// One check's verdict and what it compared.
struct Verdict {
    passed: bool,
    detail: String,
}

fn verdict(passed: bool, detail: String) -> Verdict {
    Verdict { passed, detail }
}

fn check_perft(broken: bool) -> Verdict {
    let mut total = 0;
    for (fen, depth, expected) in PERFT_CASES {
        let expected = expected + u64::from(broken);
        let Ok(mut pos) = Position::from_fen(fen) else {
            return verdict(false, format!("cannot parse {fen}"));
        };
        let nodes = perft(&mut pos, depth);
        if nodes != expected {
            return verdict(
                false,
                format!("{fen} depth {depth}: {nodes} nodes, expected {expected}"),
            );
        }
        total += nodes;
    }
    verdict(
        true,
        format!("{} positions, {total} nodes as expected", PERFT_CASES.len()),
    )
}

fn check_bench(broken: bool) -> Verdict {
    let expected = bench::EXPECTED_BENCH_NODES + u64::from(broken);
    let start = Instant::now();
    let (nodes, _) = bench::run_positions(bench::DEFAULT_DEPTH);
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let detail = format!(
        "{nodes} nodes (expected {expected}), {} nps",
        (nodes as f64 / seconds) as u64
    );
    verdict(nodes == expected, detail)
}

fn check_network(broken: bool) -> Verdict {
    let expected = EXPECTED_NET_CHECKSUM ^ u64::from(broken);
    let net = default_network();
    verdict(
        net.checksum == expected,
        format!(
            "embedded net checksum {:016x} (expected {expected:016x}), {} kernels",
            net.checksum,
            net.kernel_name()
        ),
    )
}

fn check_search(broken: bool) -> Verdict {
    let mut searcher = Searcher::new(16);
    searcher.set_threads(1);
    for (fen, best, moves) in MATES {
        let moves = moves + i32::from(broken);
        let Ok(pos) = Position::from_fen(fen) else {
            return verdict(false, format!("cannot parse {fen}"));
        };
        searcher.clear();
        let result = searcher.search(&pos, &Limits::depth(8), &SearchSignals::new(), &mut |_| {});
        let found = result.best.map(|mv| mv.to_uci(false));
        if found.as_deref() != Some(best) || result.score != Score::Mate(moves) {
            return verdict(
                false,
                format!(
                    "{fen}: {} with {:?}, expected {best} with mate in {moves}",
                    found.unwrap_or_else(|| "no move".to_string()),
                    result.score
                ),
            );
        }
    }
    verdict(true, format!("{} mates found at depth 8", MATES.len()))
}

/// Talks UCI to a fresh `engine` process: `uci`, `isready`, a position and `go depth 6`.
fn check_uci(broken: bool) -> Verdict {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(error) => return verdict(false, format!("cannot find this program: {error}")),
    };
    let mut child = match Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => return verdict(false, format!("cannot start {}: {error}", exe.display())),
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return verdict(false, "no pipes to the engine".to_string());
    };
    let (sender, receiver) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let script = "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 6\n";
    if stdin.write_all(script.as_bytes()).is_err() {
        let _ = child.kill();
        return verdict(false, "the engine closed its input".to_string());
    }
    let deadline = Instant::now() + UCI_PATIENCE;
    let mut seen_uciok = false;
    let mut seen_readyok = false;
    let mut bestmove = None;
    while bestmove.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        match receiver.recv_timeout(left) {
            Ok(line) if line == "uciok" => seen_uciok = true,
            Ok(line) if line == "readyok" => seen_readyok = true,
            Ok(line) if line.starts_with("bestmove ") => bestmove = Some(line),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    let Some(line) = bestmove else {
        return verdict(false, "no bestmove within a minute".to_string());
    };
    let text = line.split_whitespace().nth(1).unwrap_or("");
    let mut pos = Position::startpos();
    for uci in ["e2e4", "e7e5"] {
        if let Some(mv) = pos.find_uci_move(uci, false) {
            pos.make_move(mv);
        }
    }
    let legal = pos.find_uci_move(text, false).is_some() && !broken;
    verdict(
        seen_uciok && seen_readyok && legal,
        format!(
            "uciok {}, readyok {}, '{line}' {}",
            if seen_uciok { "seen" } else { "missing" },
            if seen_readyok { "seen" } else { "missing" },
            if legal { "legal" } else { "not accepted" }
        ),
    )
}

pub fn run(args: &SelftestArgs) -> ExitCode {
    let broken = args
        .broken
        .clone()
        .or_else(|| std::env::var("OX88_SELFTEST_BREAK").ok())
        .filter(|name| !name.is_empty());
    if let Some(name) = &broken
        && !CHECKS.contains(&name.as_str())
    {
        eprintln!(
            "engine: no check named '{name}' to break (checks: {})",
            CHECKS.join(", ")
        );
        return ExitCode::from(2);
    }
    let is_broken = |name: &str| broken.as_deref() == Some(name);
    let mut failed = 0;
    for name in CHECKS {
        let result = match name {
            "perft" => check_perft(is_broken(name)),
            "bench" => check_bench(is_broken(name)),
            "network" => check_network(is_broken(name)),
            "search" => check_search(is_broken(name)),
            _ => check_uci(is_broken(name)),
        };
        if !result.passed {
            failed += 1;
        }
        println!(
            "{} {name:<8} {}",
            if result.passed { "ok  " } else { "FAIL" },
            result.detail
        );
    }
    if failed == 0 {
        println!("selftest passed: {} checks", CHECKS.len());
        ExitCode::SUCCESS
    } else {
        println!("selftest FAILED: {failed} of {} checks", CHECKS.len());
        ExitCode::from(1)
    }
}
