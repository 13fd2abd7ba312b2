#!/usr/bin/env python3
"""Client-side UCI tests for Ox88 through python-chess (no pytest needed).

Run from the repository root after `cargo build --release`:

    python3 tests/python/run.py [--engine PATH] [--quick]

The engine defaults to $OX88_ENGINE, else target/release/engine. Every test is a plain
function with asserts; the last line is `N passed, M failed` and the exit status is 0 only
when nothing failed. Self-play games check every move for legality and every move's wall time
(measured here, pipes included) against the clock or movetime that was given.
"""

import argparse
import os
import sys
import time
import traceback

import chess
import chess.engine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine"))
QUICK = False
# A move-time search may overrun its nominal time by this much: pipe latency and scheduling
# on a loaded machine (the same 100 ms margin as match.py). The engine aims at movetime - 25 ms.
MOVETIME_SLACK = 0.1
MAX_PLIES = 200


def open_engine():
    return chess.engine.SimpleEngine.popen_uci([ENGINE], timeout=20)


def test_handshake_and_options():
    with open_engine() as engine:
        assert engine.id["name"].startswith("Ox88 "), engine.id
        assert "author" in engine.id
        expected = {
            "Hash": ("spin", 16, 1, 65536),
            "Threads": ("spin", 1, 1, 256),
            "MultiPV": ("spin", 1, 1, 256),
            "Move Overhead": ("spin", 30, 0, 5000),
            "UCI_Elo": ("spin", 2430, 600, 2430),
            "Skill Level": ("spin", 20, 0, 20),
            "Ponder": ("check", False, None, None),
            "UCI_Chess960": ("check", False, None, None),
            "UCI_ShowWDL": ("check", False, None, None),
            "UCI_LimitStrength": ("check", False, None, None),
            "Clear Hash": ("button", None, None, None),
        }
        for name, (kind, default, low, high) in expected.items():
            option = engine.options[name]
            assert option.type == kind, (name, option)
            if kind != "button":
                assert option.default == default, (name, option)
            assert (option.min, option.max) == (low, high), (name, option)
        engine.configure({"Hash": 32, "Threads": 1, "Move Overhead": 50, "UCI_ShowWDL": True})
        engine.ping()
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
        assert "score" in info and "wdl" in info, info
        wdl = info["wdl"].white()
        assert wdl.wins + wdl.draws + wdl.losses == 1000, wdl


def test_multipv_three_distinct_lines():
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with open_engine() as engine:
        infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        assert len(infos) == 3, infos
        first_moves = [info["pv"][0] for info in infos]
        assert len(set(first_moves)) == 3, first_moves
        for info in infos:
            assert info["pv"][0] in board.legal_moves, info
            assert "score" in info, info
        # Best first: the scores do not increase down the list.
        scores = [info["score"].relative.score(mate_score=100000) for info in infos]
        assert scores == sorted(scores, reverse=True), scores


def test_analysis_stops_on_request():
    with open_engine() as engine:
        with engine.analysis(chess.Board()) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 2:
                    break
        # The engine is still responsive afterwards.
        result = engine.play(chess.Board(), chess.engine.Limit(depth=2))
        assert result.move in chess.Board().legal_moves


def test_ponder_and_ponderhit():
    board = chess.Board()
    with open_engine() as engine:
        hits = 0
        for _ in range(6):
            if board.is_game_over():
                break
            limit = chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05,
                                       black_inc=0.05)
            started = time.monotonic()
            result = engine.play(board, limit, ponder=True)
            elapsed = time.monotonic() - started
            assert result.move in board.legal_moves, (board.fen(), result.move)
            assert elapsed < 5, elapsed
            board.push(result.move)
            if result.ponder is not None and not board.is_game_over():
                assert result.ponder in board.legal_moves, (board.fen(), result.ponder)
                board.push(result.ponder)  # the predicted reply: next play sends ponderhit
                hits += 1
            elif not board.is_game_over():
                board.push(next(iter(board.legal_moves)))
        assert hits >= 1, "the engine never proposed a ponder move"


def test_go_infinite_waits_for_stop_even_when_mated_soon():
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")  # mate in one
    with open_engine() as engine:
        with engine.analysis(board) as analysis:
            time.sleep(0.5)
            # Drain the info lines; then the next step must block: no bestmove has come,
            # although the mate was found at once.
            while not analysis.would_block():
                analysis.get()
            time.sleep(0.2)
            assert analysis.would_block(), "the search ended before stop"
            analysis.stop()
            best = analysis.wait()
            assert best.move == chess.Move.from_uci("a1a8"), best
            score = analysis.info.get("score")
            assert score is not None and score.white() == chess.engine.Mate(1), analysis.info


def play_game(limit_for, tag):
    """Ox88 against itself; `limit_for(board, clocks)` gives each move's limit and budget."""
    board = chess.Board()
    clocks = {chess.WHITE: None, chess.BLACK: None}
    worst = float("inf")
    with open_engine() as white, open_engine() as black:
        engines = {chess.WHITE: white, chess.BLACK: black}
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            side = board.turn
            limit, budget, increment = limit_for(board, clocks)
            started = time.monotonic()
            result = engines[side].play(board, limit)
            elapsed = time.monotonic() - started
            assert result.move is not None, (tag, board.fen())
            assert result.move in board.legal_moves, (tag, board.fen(), result.move)
            left = budget - elapsed
            worst = min(worst, left)
            assert left >= 0, f"{tag}: move {board.ply()} took {elapsed:.3f} s of {budget:.3f}"
            if clocks[side] is not None:
                clocks[side] = left + increment
            board.push(result.move)
    return board, worst


def test_self_play_at_50ms_per_move():
    def limit_for(board, clocks):
        return chess.engine.Limit(time=0.05), 0.05 + MOVETIME_SLACK, 0.0

    for game in range(1 if QUICK else 2):
        board, worst = play_game(limit_for, f"movetime game {game}")
        print(f"    movetime 50 ms game {game}: {board.ply()} plies, {board.result(claim_draw=True)}"
              f", least slack {worst * 1000:.1f} ms")


def test_self_play_at_one_second_plus_10ms():
    def limit_for(board, clocks):
        for color in clocks:
            if clocks[color] is None:
                clocks[color] = 1.0
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                   black_clock=clocks[chess.BLACK],
                                   white_inc=0.01, black_inc=0.01)
        return limit, clocks[board.turn], 0.01

    for game in range(1 if QUICK else 2):
        board, worst = play_game(limit_for, f"1+0.01 game {game}")
        print(f"    1+0.01 game {game}: {board.ply()} plies, {board.result(claim_draw=True)}, "
              f"least clock left {worst * 1000:.1f} ms")


def test_forty_moves_in_ten_seconds():
    if QUICK:
        return
    board = chess.Board()
    clock = 10.0
    with open_engine() as engine:
        for move_number in range(40):
            if board.is_game_over(claim_draw=True):
                break
            moves_to_go = 40 - move_number
            limit = chess.engine.Limit(white_clock=clock, black_clock=clock,
                                       remaining_moves=moves_to_go)
            started = time.monotonic()
            result = engine.play(board, limit)
            clock -= time.monotonic() - started
            assert clock > 0, f"flagged at move {move_number}"
            assert result.move in board.legal_moves
            board.push(result.move)
            if not board.is_game_over(claim_draw=True):
                board.push(next(iter(board.legal_moves)))
        print(f"    40/10s: {clock * 1000:.0f} ms left after {move_number + 1} moves")


TESTS = [
    test_handshake_and_options,
    test_multipv_three_distinct_lines,
    test_analysis_stops_on_request,
    test_ponder_and_ponderhit,
    test_go_infinite_waits_for_stop_even_when_mated_soon,
    test_self_play_at_50ms_per_move,
    test_self_play_at_one_second_plus_10ms,
    test_forty_moves_in_ten_seconds,
]


def main():
    global ENGINE, QUICK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=ENGINE, help="engine binary (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="one game per time control")
    parser.add_argument("-k", default="", help="run only tests whose name contains this")
    args = parser.parse_args()
    ENGINE, QUICK = args.engine, args.quick
    if not os.path.exists(ENGINE):
        print(f"engine not found: {ENGINE} (build with cargo build --release)")
        return 2
    passed = failed = 0
    for test in TESTS:
        if args.k not in test.__name__:
            continue
        started = time.monotonic()
        try:
            test()
        except Exception:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print(f"FAIL {test.__name__} ({time.monotonic() - started:.1f} s)")
            traceback.print_exc(limit=3)
        else:
            passed += 1
            print(f"ok   {test.__name__} ({time.monotonic() - started:.1f} s)")
        sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
