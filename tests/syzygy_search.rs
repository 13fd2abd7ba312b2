//! The search with Syzygy tables: root filtering by DTZ, WDL probes in the tree, `tbhits`.
//! Uses the 3-piece tables copied in `tests/data/syzygy`.

use std::path::Path;
use std::sync::Arc;

use ox88::position::Position;
use ox88::search::{Limits, SearchSignals, Searcher, TablebaseUse};
use ox88::syzygy::{Tablebases, Wdl};

fn tables(probe_limit: usize) -> TablebaseUse {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    TablebaseUse {
        tables: Arc::new(Tablebases::open(&path.display().to_string()).expect("copied tables")),
        probe_depth: 1,
        probe_limit,
        fifty_move_rule: true,
    }
}

fn search(use_tables: Option<TablebaseUse>, fen: &str, depth: i32) -> ox88::search::SearchResult {
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(use_tables);
    let pos = Position::from_fen(fen).expect("valid FEN");
    searcher.search(
        &pos,
        &Limits::depth(depth),
        &SearchSignals::new(),
        &mut |_| {},
    )
}

#[test]
fn a_root_in_the_tables_plays_a_move_that_keeps_the_win() {
    let fen = "8/8/8/8/3k4/8/8/R3K3 w - - 0 1";
    let use_tables = tables(7);
    let result = search(Some(use_tables.clone()), fen, 6);
    let best = result.best.expect("a move");
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    let root_moves = pos.legal_moves().len() as u64;
    pos.make_move(best);
    assert_eq!(use_tables.tables.probe_wdl(&mut pos), Some(Wdl::Loss));
    // The root's DTZ ranking probed every move; the tree then had nothing left to ask.
    assert_eq!(result.progress.tbhits, Some(root_moves));
}

#[test]
fn the_tree_probes_positions_after_captures() {
    // KQvKR with the rook hanging: 4 pieces, the 3-piece tables answer after the capture.
    let fen = "4k3/8/8/8/8/8/3r4/4KQ2 w - - 0 1";
    let result = search(Some(tables(7)), fen, 6);
    assert_eq!(
        result.best.map(|mv| mv.to_uci(false)),
        Some("e1d2".to_string())
    );
    assert!(
        result.progress.tbhits.is_some_and(|hits| hits > 0),
        "{:?}",
        result.progress.tbhits
    );
}

#[test]
fn without_tables_or_with_probe_limit_zero_there_are_no_tbhits() {
    let fen = "4k3/8/8/8/8/8/3r4/4KQ2 w - - 0 1";
    assert_eq!(search(None, fen, 4).progress.tbhits, None);
    assert_eq!(search(Some(tables(0)), fen, 4).progress.tbhits, None);
}

#[test]
fn a_won_ending_is_converted_before_the_fifty_move_rule() {
    // KRvK, both sides played by the search with the tables: the root filter keeps only the
    // fastest winning moves, so the mate comes without circles.
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(tables(7)));
    let mut game = Position::from_fen("8/8/8/8/3k4/8/8/R3K3 w - - 0 1").expect("valid FEN");
    for _ in 0..100 {
        if game.has_no_legal_move() {
            break;
        }
        let result = searcher.search(&game, &Limits::depth(4), &SearchSignals::new(), &mut |_| {});
        game.make_move(result.best.expect("a legal move"));
    }
    assert!(game.is_checkmate(), "not mated: {}", game.to_fen());
    assert!(game.halfmove_clock() < 100);
}
