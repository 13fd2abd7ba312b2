//! Search behaviour: mates, draws, limits, MultiPV, searchmoves, exchange evaluation, and the
//! transposition table round trip. Every limit here is a depth or node count, never a time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ox88::moves::Move;
use ox88::position::Position;
use ox88::search::see::see;
use ox88::search::{Bound, Limits, MATE, Report, Score, SearchResult, SearchSignals, Searcher};
use ox88::tt::TranspositionTable;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is valid")
}

fn uci(pos: &Position, text: &str) -> Move {
    pos.parse_move_text(text).expect("test move is legal")
}

fn search(pos: &Position, limits: &Limits) -> SearchResult {
    let mut searcher = Searcher::new(16);
    searcher.search(pos, limits, &SearchSignals::new(), &mut |_| {})
}

fn best_uci(pos: &Position, result: &SearchResult) -> String {
    result
        .best
        .expect("a legal move exists")
        .to_uci(pos.is_chess960())
}

#[test]
fn finds_mate_in_one() {
    let pos = position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let result = search(&pos, &Limits::depth(4));
    assert_eq!(best_uci(&pos, &result), "d1d8");
    assert_eq!(result.score, Score::Mate(1));
}

#[test]
fn finds_mate_in_two() {
    let pos = position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let result = search(&pos, &Limits::depth(6));
    assert_eq!(best_uci(&pos, &result), "d5f6");
    assert_eq!(result.score, Score::Mate(2));
}

#[test]
fn finds_mate_in_two_for_black() {
    let pos = position("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1");
    let result = search(&pos, &Limits::depth(6));
    assert_eq!(best_uci(&pos, &result), "g2g1");
    assert_eq!(result.score, Score::Mate(2));
}

#[test]
fn finds_mate_in_three() {
    let pos = position("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    let result = search(&pos, &Limits::depth(8));
    assert_eq!(best_uci(&pos, &result), "f6a6");
    assert_eq!(result.score, Score::Mate(3));
}

#[test]
fn reports_being_mated() {
    // White to move is mated in one whatever it does (the rook check on the back rank).
    let pos = position("6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1");
    let result = search(&pos, &Limits::depth(3));
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::Mate(0));
    let pos = position("3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1");
    let result = search(&pos, &Limits::depth(5));
    assert_eq!(result.score, Score::Mate(1));
    let mut after = pos.clone();
    after.make_move(result.best.expect("black has moves"));
    let reply = search(&after, &Limits::depth(5));
    assert_eq!(reply.score, Score::Mate(0));
}

#[test]
fn mate_limit_stops_at_the_mate() {
    let pos = position("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    let limits = Limits {
        mate: Some(3),
        ..Limits::new()
    };
    let result = search(&pos, &limits);
    assert_eq!(result.score, Score::Mate(3));
    assert!(
        result.progress.depth <= 7,
        "stopped at depth {}",
        result.progress.depth
    );
}

#[test]
fn mates_instead_of_stalemating() {
    // Many queen moves stalemate here; only a few mate.
    let pos = position("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1");
    let result = search(&pos, &Limits::depth(5));
    assert_eq!(result.score, Score::Mate(1));
    let mut after = pos.clone();
    after.make_move(result.best.expect("white has moves"));
    assert!(after.is_checkmate());
}

#[test]
fn king_and_queen_win_without_stalemate() {
    let pos = position("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1");
    let mut game = pos.clone();
    for _ in 0..20 {
        if game.legal_moves().is_empty() {
            break;
        }
        let result = search(&game, &Limits::depth(8));
        game.make_move(result.best.expect("moves exist"));
        assert!(!game.is_stalemate(), "stalemated at {}", game.to_fen());
    }
    assert!(
        game.is_checkmate(),
        "no mate within 10 moves: {}",
        game.to_fen()
    );
}

#[test]
fn sees_a_repetition_draw() {
    // Black is a queen down; moving the knight back to h8 repeats the position a third time.
    let mut pos = position("k6n/8/8/8/8/8/8/K3Q3 w - - 0 1");
    for text in ["e1e2", "h8g6", "e2e1", "g6h8", "e1e2", "h8g6", "e2e1"] {
        let mv = uci(&pos, text);
        pos.make_move(mv);
    }
    let result = search(&pos, &Limits::depth(6));
    assert_eq!(best_uci(&pos, &result), "g6h8");
    assert_eq!(result.score, Score::Centipawns(0));
}

#[test]
fn fifty_move_rule_is_a_draw_unless_it_mates() {
    // A queen up, but the 100th half-move without capture or pawn move draws
    // unless it is mate.
    let pos = position("k7/8/8/8/8/8/8/KQ6 w - - 99 80");
    let result = search(&pos, &Limits::depth(4));
    assert_eq!(result.score, Score::Centipawns(0));
    let pos = position("k7/2Q5/1K6/8/8/8/8/8 w - - 99 80");
    let result = search(&pos, &Limits::depth(4));
    assert_eq!(result.score, Score::Mate(1));
}

#[test]
fn insufficient_material_is_a_draw() {
    let pos = position("8/8/4k3/8/8/3BK3/8/8 w - - 0 1");
    let result = search(&pos, &Limits::depth(6));
    assert_eq!(result.score, Score::Centipawns(0));
}

#[test]
fn respects_searchmoves() {
    let pos = Position::startpos();
    let a3 = uci(&pos, "a2a3");
    let h3 = uci(&pos, "h2h3");
    let limits = Limits {
        searchmoves: vec![a3, h3],
        ..Limits::depth(5)
    };
    let result = search(&pos, &limits);
    let best = result.best.expect("searchmoves are legal");
    assert!(best == a3 || best == h3);
    assert!(
        result
            .lines
            .iter()
            .all(|line| line.moves[0] == a3 || line.moves[0] == h3)
    );
}

#[test]
fn respects_depth_limit() {
    let pos = Position::startpos();
    let mut depths = Vec::new();
    let mut searcher = Searcher::new(16);
    let signals = SearchSignals::new();
    let result = searcher.search(&pos, &Limits::depth(5), &signals, &mut |report| {
        if let Report::Iteration { progress, .. } = report {
            depths.push(progress.depth);
        }
    });
    assert_eq!(result.progress.depth, 5);
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
}

#[test]
fn respects_node_limit() {
    let pos = Position::startpos();
    for limit in [1, 100, 5000, 20000] {
        let result = search(&pos, &Limits::nodes(limit));
        assert!(result.best.is_some(), "no move with {limit} nodes");
        assert!(
            result.progress.nodes <= limit,
            "{} nodes searched for a limit of {limit}",
            result.progress.nodes
        );
    }
}

#[test]
fn raised_stop_still_gives_a_legal_move() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(16);
    let signals = SearchSignals::new();
    signals.stop();
    let result = searcher.search(&pos, &Limits::infinite(), &signals, &mut |_| {});
    let best = result.best.expect("legal moves exist");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10");
    let limits = Limits {
        multipv: 4,
        ..Limits::depth(6)
    };
    let result = search(&pos, &limits);
    assert_eq!(result.lines.len(), 4);
    for (index, line) in result.lines.iter().enumerate() {
        assert_eq!(line.multipv, index + 1);
        assert!(!line.moves.is_empty());
    }
    for pair in result.lines.windows(2) {
        assert!(pair[0].value >= pair[1].value, "lines out of order");
    }
    let mut firsts: Vec<Move> = result.lines.iter().map(|line| line.moves[0]).collect();
    firsts.sort_by_key(|mv| mv.0);
    firsts.dedup();
    assert_eq!(firsts.len(), 4);
    assert_eq!(result.best, Some(result.lines[0].moves[0]));
}

#[test]
fn multipv_wider_than_the_move_list() {
    let pos = position("k7/8/8/8/8/8/8/K7 w - - 0 1");
    let limits = Limits {
        multipv: 10,
        ..Limits::depth(3)
    };
    let result = search(&pos, &limits);
    assert_eq!(result.lines.len(), 3);
}

#[test]
fn pv_is_legal_and_ponder_is_its_second_move() {
    let pos = position("r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16");
    let result = search(&pos, &Limits::depth(7));
    let line = &result.lines[0];
    let mut walk = pos.clone();
    for &mv in &line.moves {
        assert!(walk.is_legal(mv), "illegal PV move {mv:?}");
        walk.make_move(mv);
    }
    assert!(line.moves.len() >= 2, "a depth-7 PV has a reply");
    assert_eq!(result.ponder, Some(line.moves[1]));
}

#[test]
fn two_threads_find_the_same_mate() {
    let pos = position("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    let mut searcher = Searcher::new(16);
    searcher.set_threads(2);
    let signals = SearchSignals::new();
    let result = searcher.search(&pos, &Limits::depth(8), &signals, &mut |_| {});
    assert_eq!(result.score, Score::Mate(3));
    assert_eq!(best_uci(&pos, &result), "f6a6");
}

#[test]
fn exchange_evaluation_on_known_positions() {
    let pos = position("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
    assert_eq!(see(&pos, uci(&pos, "e1e5")), 100);
    let pos = position("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    assert_eq!(see(&pos, uci(&pos, "d3e5")), 100 - 320);
    // A queen taking a pawn defended by a pawn loses the queen for a pawn.
    let pos = position("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1");
    assert_eq!(see(&pos, uci(&pos, "e1e5")), 100 - 950);
    // Quiet moves onto an attacked square lose the piece.
    let pos = position("4k3/8/3p4/8/8/8/8/2N1K3 w - - 0 1");
    assert_eq!(see(&pos, uci(&pos, "c1b3")), 0);
    let pos = position("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1");
    assert_eq!(see(&pos, uci(&pos, "b1c3")), -320);
}

#[test]
fn table_round_trip_with_mate_adjustment() {
    let table = TranspositionTable::new(1);
    let key = 0xDEAD_BEEF_0123_4567;
    // Found at ply 3: mate in 5 plies from the root = mate in 2 plies from this node.
    table.store(key, 3, Move(1234), MATE - 5, 17, 9, Bound::Exact, false);
    let hit = table.probe(key, 3).expect("just stored");
    assert_eq!(
        (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
        (Move(1234), MATE - 5, 17, 9, Bound::Exact)
    );
    // Reached at ply 7 by another path: the same mate is 2 plies from the node, 9 from the root.
    assert_eq!(table.probe(key, 7).expect("stored").score, MATE - 9);
    table.store(
        key ^ 0xFF,
        1,
        Move(99),
        -(MATE - 4),
        0,
        3,
        Bound::Upper,
        true,
    );
    assert_eq!(
        table.probe(key ^ 0xFF, 5).expect("stored").score,
        -(MATE - 8)
    );
}

#[test]
fn hashfull_counts_the_sampled_entries_of_the_current_search() {
    // 1 MB is 16384 buckets of 4 entries: a key's bucket is its top 14 bits, and hashfull
    // samples the first 1000 entries, which are the first 250 buckets.
    let mut table = TranspositionTable::new(1);
    assert_eq!(table.hashfull(), 0, "a new table is empty");
    let store = |table: &TranspositionTable, bucket: u64, slot: u64| {
        table.store(
            (bucket << 50) | slot,
            0,
            Move(1234),
            10,
            10,
            5,
            Bound::Exact,
            slot.is_multiple_of(2),
        );
    };
    for bucket in 0..125 {
        store(&table, bucket, 1);
        store(&table, bucket, 2);
    }
    for bucket in 1000..1100 {
        store(&table, bucket, 1);
    }
    assert_eq!(
        table.hashfull(),
        250,
        "250 of the 1000 sampled entries are used"
    );
    table.new_search();
    assert_eq!(
        table.hashfull(),
        0,
        "entries of an older search do not count"
    );
    store(&table, 0, 1);
    assert_eq!(table.hashfull(), 1);
    table.clear();
    assert_eq!(table.hashfull(), 0, "clear empties the table");

    let mut searcher = Searcher::new(1);
    let signals = SearchSignals::new();
    searcher.search(
        &Position::startpos(),
        &Limits::depth(8),
        &signals,
        &mut |_| {},
    );
    let after_search = searcher.hashfull();
    assert!(
        (1..1000).contains(&after_search),
        "a depth-8 search fills part of a 1 MB table: {after_search}"
    );
    searcher.clear();
    assert_eq!(searcher.hashfull(), 0, "Searcher::clear empties the table");
}

#[test]
fn infinite_search_waits_for_stop_even_after_finding_mate() {
    let pos = position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let signals = Arc::new(SearchSignals::new());
    let raised = Arc::new(AtomicBool::new(false));
    let handle = std::thread::spawn({
        let signals = Arc::clone(&signals);
        let raised = Arc::clone(&raised);
        move || {
            let mut searcher = Searcher::new(1);
            let result = searcher.search(&pos, &Limits::infinite(), &signals, &mut |_| {});
            (result, raised.load(Ordering::SeqCst))
        }
    });
    // Long enough for the search to run out of depth; the assertion does not depend on it.
    std::thread::sleep(std::time::Duration::from_millis(100));
    raised.store(true, Ordering::SeqCst);
    signals.stop();
    let (result, returned_after_stop) = handle.join().expect("search thread");
    assert!(
        returned_after_stop,
        "an infinite search returned before stop"
    );
    assert_eq!(result.score, Score::Mate(1));
}

#[test]
fn a_ponder_search_returns_only_after_ponderhit() {
    let pos = Position::startpos();
    let signals = Arc::new(SearchSignals::new());
    let (done_sender, done) = crossbeam_channel::bounded(1);
    let handle = std::thread::spawn({
        let signals = Arc::clone(&signals);
        move || {
            let limits = Limits {
                ponder: true,
                ..Limits::depth(2)
            };
            let mut searcher = Searcher::new(1);
            let result = searcher.search(&pos, &limits, &signals, &mut |report| {
                if let Report::Iteration { progress, .. } = report
                    && progress.depth == 2
                {
                    let _ = done_sender.send(());
                }
            });
            (result, Instant::now())
        }
    });
    // The search has finished its last depth; it must still hold its result back.
    done.recv().expect("the search reports depth 2");
    std::thread::sleep(std::time::Duration::from_millis(50));
    let hit = Instant::now();
    signals.ponderhit();
    let (result, returned) = handle.join().expect("search thread");
    assert!(returned >= hit, "a ponder search returned before ponderhit");
    assert_eq!(result.progress.depth, 2);
    assert!(!signals.is_stopped());
}

#[test]
fn a_position_without_moves_has_no_best_move() {
    let mated = position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let result = search(&mated, &Limits::depth(3));
    assert_eq!((result.best, result.score), (None, Score::Mate(0)));
    let stalemate = position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let result = search(&stalemate, &Limits::depth(3));
    assert_eq!((result.best, result.score), (None, Score::Centipawns(0)));
}

#[test]
fn the_result_carries_what_the_final_info_line_needs() {
    let pos = Position::startpos();
    // A 1 MB table: a depth-6 search fills enough of it for `hashfull` to see.
    let mut searcher = Searcher::new(1);
    let mut last = None;
    let result = searcher.search(
        &pos,
        &Limits::depth(6),
        &SearchSignals::new(),
        &mut |report| {
            if let Report::Iteration { progress, .. } = report {
                last = Some(*progress);
            }
        },
    );
    let last = last.expect("iterations were reported");
    let end = result.progress;
    assert_eq!((end.depth, end.seldepth), (last.depth, last.seldepth));
    assert!(end.seldepth >= 6);
    assert_eq!(end.nodes, last.nodes);
    assert!(
        end.hashfull > 0 && end.hashfull >= last.hashfull,
        "hashfull {} after the search, {} at its last report",
        end.hashfull,
        last.hashfull
    );
}

#[test]
fn search_parameters_reach_the_search() {
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10");
    let nodes = |params: ox88::search::SearchParams| {
        let mut searcher = Searcher::new(16);
        searcher.set_params(params);
        let result = searcher.search(&pos, &Limits::depth(7), &SearchSignals::new(), &mut |_| {});
        result.progress.nodes
    };
    let default = ox88::search::SearchParams::DEFAULT;
    let mut changed = default;
    changed.lmr_divisor = 150;
    changed.rfp_margin = 40;
    if cfg!(feature = "spsa") {
        assert_ne!(nodes(default), nodes(changed));
    } else {
        // The normal build searches with the defaults whatever is set.
        assert_eq!(nodes(default), nodes(changed));
    }
}
