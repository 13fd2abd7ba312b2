#!/usr/bin/env python3
"""`engine random` checked by python-chess: every position valid, the rules of
`src/random_position.rs` kept, the same seed the same output.

    python3 tests/python/test_random.py [--engine PATH] [--count 100000] [--seed 2026]

Exit status 0 only when every check passes; the last line says what was checked.
"""

import argparse
import os
import subprocess
import sys

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = {chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}


def generate(engine, *args):
    result = subprocess.run([engine, "random", *args], capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def promoted(board, color):
    """Pieces beyond the start set; a second bishop on one square colour counts too."""
    extra = sum(max(0, len(board.pieces(kind, color)) - count) for kind, count in START.items()
                if kind != chess.BISHOP)
    bishops = board.pieces(chess.BISHOP, color)
    light = len(bishops & chess.BB_LIGHT_SQUARES)
    dark = len(bishops & chess.BB_DARK_SQUARES)
    return extra + max(0, light - 1) + max(0, dark - 1)


def check_position(fen, chess960=False):
    board = chess.Board(fen, chess960=chess960)
    problems = []
    if not board.is_valid():
        problems.append(f"not valid: {board.status()!r}")
    for color in chess.COLORS:
        pawns = len(board.pieces(chess.PAWN, color))
        if pawns > 8:
            problems.append("more than 8 pawns")
        if promoted(board, color) > 8 - pawns:
            problems.append("more promoted pieces than missing pawns")
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        problems.append("a pawn on the first or last rank")
    checkers = board.checkers()
    if len(checkers) > 2:
        problems.append("more than two checkers")
    if board.ep_square is not None:
        # The pawn that double-stepped stands in front of the square; the two behind are empty.
        mover = not board.turn
        landed = board.ep_square + (8 if mover == chess.WHITE else -8)
        origin = board.ep_square - (8 if mover == chess.WHITE else -8)
        if board.piece_at(landed) != chess.Piece(chess.PAWN, mover):
            problems.append("en passant square without the pawn that passed it")
        if board.piece_at(board.ep_square) or board.piece_at(origin):
            problems.append("en passant squares not empty")
    for square in chess.scan_forward(board.castling_rights):
        piece = board.piece_at(square)
        if piece is None or piece.piece_type != chess.ROOK:
            problems.append("castling right without its rook")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.environ.get(
        "OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine")))
    parser.add_argument("--count", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    failures = 0
    checked = 0

    def report(label, fen, problems):
        nonlocal failures
        if problems:
            failures += 1
            if failures <= 20:
                print(f"FAIL {label}: {fen}: {', '.join(problems)}")

    fens = generate(args.engine, "--count", str(args.count), "--seed", str(args.seed))
    if len(fens) != args.count:
        print(f"FAIL: {len(fens)} lines for --count {args.count}")
        failures += 1
    en_passant = castling = checks = 0
    for fen in fens:
        report("random", fen, check_position(fen))
        board = chess.Board(fen)
        en_passant += board.ep_square is not None
        castling += board.castling_rights != 0
        checks += board.is_check()
    checked += len(fens)
    if fens[:1000] != generate(args.engine, "--count", "1000", "--seed", str(args.seed)):
        print("FAIL: the same seed gave other positions")
        failures += 1
    if fens[:100] == generate(args.engine, "--count", "100", "--seed", str(args.seed + 1)):
        print("FAIL: another seed gave the same positions")
        failures += 1

    count = max(1, args.count // 20)
    for fen in generate(args.engine, "--count", str(count), "--chess960", "--seed", "3"):
        report("chess960", fen, check_position(fen, chess960=True))
        checked += 1
    for spec, wanted in [("KRPvKR", "KRPkr"), ("KQvKP2", "KQkpp"), ("KBNvK", "KBNk")]:
        for fen in generate(args.engine, "--count", str(count), "--pieces", spec, "--side", "black"):
            board = chess.Board(fen)
            pieces = "".join(sorted(p.symbol() for p in board.piece_map().values()))
            problems = check_position(fen)
            if pieces != "".join(sorted(wanted)):
                problems.append(f"pieces {pieces}, asked {spec}")
            if board.turn != chess.BLACK:
                problems.append("white to move under --side black")
            report(spec, fen, problems)
            checked += 1
    print(f"{checked} positions checked ({en_passant} with en passant, {castling} with castling "
          f"rights, {checks} in check of the {len(fens)} unconstrained), {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
