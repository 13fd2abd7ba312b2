//! Every position of every perft suite in `perft/`.
//!
//! `cargo test --release` checks each position at every depth whose count is at most
//! `QUICK_LIMIT` nodes (a few seconds for all 1,093 positions). The full depths — billions of
//! nodes, many minutes — run with `cargo test --release -- --ignored` and `./bench.sh perft`.

use ox88::perft::{PerftCase, parse_epd_line, perft};
use ox88::position::Position;

const QUICK_LIMIT: u64 = 1_000_000;
const SUITES: [&str; 3] = [
    "perftsuite.epd",
    "perft_cpw_extra.epd",
    "chess960_fischer.epd",
];

fn load(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {path}: {error}"));
    text.lines()
        .filter_map(|line| parse_epd_line(line).unwrap_or_else(|error| panic!("{name}: {error}")))
        .collect()
}

/// Runs the cases, checking each depth up to `limit` nodes; returns nodes counted.
fn check_suite(name: &str, limit: u64) -> u64 {
    let cases = load(name);
    assert!(!cases.is_empty(), "{name} is empty");
    let mut total = 0;
    for case in cases {
        let mut pos =
            Position::from_fen(&case.fen).unwrap_or_else(|error| panic!("{}: {error}", case.fen));
        pos.set_chess960(name.contains("960"));
        for &(depth, expected) in &case.counts {
            if expected > limit {
                continue;
            }
            let nodes = perft(&mut pos, depth);
            assert_eq!(nodes, expected, "{name}: {} at depth {depth}", case.fen);
            total += nodes;
        }
        // The FEN survives the whole tree walk (unmake restores everything) and round-trips.
        let written: Vec<String> = pos.to_fen().split(' ').take(4).map(String::from).collect();
        let read: Vec<String> = case.fen.split(' ').take(4).map(String::from).collect();
        assert_eq!(written, read, "{name}: FEN round trip");
    }
    total
}

#[test]
fn standard_suite_quick() {
    assert!(check_suite(SUITES[0], QUICK_LIMIT) > 0);
}

#[test]
fn cpw_extra_quick() {
    assert!(check_suite(SUITES[1], QUICK_LIMIT) > 0);
}

#[test]
fn chess960_suite_quick() {
    assert!(check_suite(SUITES[2], QUICK_LIMIT) > 0);
}

#[test]
#[ignore = "full depth: billions of nodes; run with --ignored or ./bench.sh perft"]
fn every_suite_full_depth() {
    for suite in SUITES {
        let start = std::time::Instant::now();
        let nodes = check_suite(suite, u64::MAX);
        eprintln!(
            "{suite}: {nodes} nodes in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
}
