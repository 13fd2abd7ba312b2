#!/usr/bin/env python3
"""`engine tb --batch` checked against python-chess's Syzygy prober (no pytest needed).

Run from the repository root after `cargo build --release`:

    python3 tests/python/test_syzygy.py [--engine PATH] [--count N] [--seed S] [--tables DIR]

The engine defaults to $OX88_ENGINE, else target/release/engine. The tables default to
../shared/data/syzygy (all 3- and 4-piece tables) when it exists, else to the 3-piece copies
in tests/data/syzygy. The test draws N random legal positions over the tables found: random
material, random squares, either side to move, and a share of positions reached by a double
pawn push beside an enemy pawn, so that an en passant capture is on. python-chess
(`chess.syzygy.open_tablebase`, `probe_wdl`, `probe_dtz`) and one `engine tb --batch` run
probe the same positions; every WDL and DTZ must agree, and the engine's best move must keep
the position's WDL. The last line is `N passed, M failed`; the exit status is 0 only when
nothing failed.
"""

import argparse
import os
import random
import subprocess
import sys
import time

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine"))
SHARED_TABLES = os.path.join(ROOT, "..", "shared", "data", "syzygy")
LOCAL_TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
PIECE_LETTERS = {"P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK,
                 "Q": chess.QUEEN, "K": chess.KING}
# Share of positions made by a double push next to an enemy pawn (en passant on).
EN_PASSANT_SHARE = 0.1


def table_names(directory):
    """Materials with both a WDL and a DTZ file, e.g. 'KRPvK'."""
    files = set(os.listdir(directory))
    return sorted(name[:-5] for name in files
                  if name.endswith(".rtbw") and name[:-5] + ".rtbz" in files)


def random_position(rng, name):
    """A random legal position of this material (either colour stronger), or None."""
    strong, weak = name.split("v")
    colours = [chess.WHITE, chess.BLACK]
    rng.shuffle(colours)
    board = chess.Board(None)
    for letters, colour in ((strong, colours[0]), (weak, colours[1])):
        for letter in letters:
            piece_type = PIECE_LETTERS[letter]
            free = [square for square in chess.SQUARES if board.piece_at(square) is None
                    and not (piece_type == chess.PAWN and chess.square_rank(square) in (0, 7))]
            board.set_piece_at(rng.choice(free), chess.Piece(piece_type, colour))
    board.turn = rng.choice(colours)
    return board if board.is_valid() else None


def en_passant_position(rng, names):
    """A position right after a double push beside an enemy pawn, or None."""
    candidates = [name for name in names if name.count("P") >= 2
                  and "P" in name.split("v")[0] and "P" in name.split("v")[1]]
    if not candidates:
        return None
    name = rng.choice(candidates)
    mover = rng.choice([chess.WHITE, chess.BLACK])
    board = chess.Board(None)
    file = rng.randrange(8)
    side_file = file + rng.choice([-1, 1])
    if not 0 <= side_file < 8:
        return None
    start_rank, capture_rank = (1, 3) if mover == chess.WHITE else (6, 4)
    board.set_piece_at(chess.square(file, start_rank), chess.Piece(chess.PAWN, mover))
    board.set_piece_at(chess.square(side_file, capture_rank), chess.Piece(chess.PAWN, not mover))
    # The rest of the material (beyond one pawn each), in random places.
    strong, weak = name.split("v")
    colours = [mover, not mover] if rng.random() < 0.5 else [not mover, mover]
    placed_pawn = {chess.WHITE: False, chess.BLACK: False}
    for letters, colour in ((strong, colours[0]), (weak, colours[1])):
        for letter in letters:
            piece_type = PIECE_LETTERS[letter]
            if piece_type == chess.PAWN and not placed_pawn[colour]:
                placed_pawn[colour] = True
                continue
            free = [square for square in chess.SQUARES if board.piece_at(square) is None
                    and not (piece_type == chess.PAWN and chess.square_rank(square) in (0, 7))]
            board.set_piece_at(rng.choice(free), chess.Piece(piece_type, colour))
    if not all(placed_pawn.values()):
        return None
    board.turn = mover
    if not board.is_valid():
        return None
    push = chess.Move(chess.square(file, start_rank),
                      chess.square(file, start_rank + (2 if mover == chess.WHITE else -2)))
    if push not in board.legal_moves:
        return None
    board.push(push)
    board = chess.Board(board.fen())  # A fresh board: no move stack, the FEN's ep square.
    return board if board.is_valid() else None


def positions(rng, names, count):
    boards = []
    en_passant = 0
    while len(boards) < count:
        if rng.random() < EN_PASSANT_SHARE:
            board = en_passant_position(rng, names)
            if board is not None and board.has_legal_en_passant():
                en_passant += 1
        else:
            board = random_position(rng, rng.choice(names))
        if board is not None:
            boards.append(board)
    return boards, en_passant


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=ENGINE, help="engine binary (default: %(default)s)")
    parser.add_argument("--count", type=int, default=3000, help="positions (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    parser.add_argument("--tables", default=None, help="Syzygy directory (default: shared, else local)")
    args = parser.parse_args()

    directory = args.tables or (SHARED_TABLES if os.path.isdir(SHARED_TABLES) else LOCAL_TABLES)
    names = table_names(directory)
    if not names:
        print(f"no tables in {directory}")
        return 1
    rng = random.Random(args.seed)
    boards, en_passant = positions(rng, names, args.count)
    print(f"{len(boards)} positions over {len(names)} tables in {directory} "
          f"({en_passant} with en passant on)")

    start = time.time()
    engine = subprocess.run([args.engine, "tb", "--path", directory, "--batch"],
                            input="".join(board.fen() + "\n" for board in boards),
                            capture_output=True, text=True, check=False)
    engine_seconds = time.time() - start
    lines = engine.stdout.splitlines()
    if engine.returncode != 0 or len(lines) != len(boards):
        print(f"engine exited {engine.returncode} with {len(lines)} lines for {len(boards)} "
              f"positions: {engine.stderr.strip()}")
        print("0 passed, 1 failed")
        return 1

    start = time.time()
    counts = {"wdl": 0, "dtz": 0, "best": 0, "error": 0}
    shown = 0
    failed_positions = 0
    with chess.syzygy.open_tablebase(directory) as tablebase:
        for board, line in zip(boards, lines):
            wdl = tablebase.probe_wdl(board)
            dtz = tablebase.probe_dtz(board)
            words = line.split()
            problems = []
            if words[0] == "error":
                counts["error"] += 1
                problems.append("error")
            else:
                answer = dict(zip(words[0::2], words[1::2]))
                if answer.get("wdl") != str(wdl):
                    counts["wdl"] += 1
                    problems.append(f"wdl {wdl}")
                if answer.get("dtz") != str(dtz):
                    counts["dtz"] += 1
                    problems.append(f"dtz {dtz}")
                best = answer.get("best")
                if best == "(none)":
                    if any(board.legal_moves):
                        counts["best"] += 1
                        problems.append("a legal move exists")
                else:
                    move = chess.Move.from_uci(best)
                    if move not in board.legal_moves:
                        counts["best"] += 1
                        problems.append("best move is illegal")
                    else:
                        board.push(move)
                        after = -tablebase.probe_wdl(board)
                        board.pop()
                        if after != wdl:
                            counts["best"] += 1
                            problems.append(f"best move reaches wdl {after}")
            failed_positions += bool(problems)
            if problems and shown < 20:
                shown += 1
                print(f"{board.fen()}: engine '{line}', python-chess wdl {wdl} dtz {dtz}: "
                      + ", ".join(problems))
    python_seconds = time.time() - start

    print(f"disagreements: {counts['wdl']} wdl, {counts['dtz']} dtz, {counts['best']} best move, "
          f"{counts['error']} engine errors")
    print(f"engine {engine_seconds:.1f} s ({len(boards) / max(engine_seconds, 1e-9):.0f} "
          f"positions/s, WDL + DTZ + best move), python-chess {python_seconds:.1f} s")
    print(f"{len(boards) - failed_positions} passed, {failed_positions} failed")
    return 0 if failed_positions == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
