#!/usr/bin/env python3
"""`analyze` against python-chess on random positions: the control map equals
`Board.attackers()` square by square (count and cheapest attacker, both sides), and the
pinned pieces, hanging pieces, king reach, checkers, mate/stalemate, legal moves and
material agree with python-chess's view of the same board.

    python3 tests/python/test_analyze.py [--engine PATH] [--count 10000] [--seed 77]

Positions come from `engine random`; each is analysed by one UCI session (`position fen`,
`analyze json`). Exit status 0 only when every position agrees.
"""

import argparse
import json
import os
import subprocess
import sys

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
         chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king"}
POINTS = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 0}


def expected(board):
    """What the analysis must say, computed with python-chess."""
    control = []
    for square in chess.SQUARES:
        entry = {"square": chess.square_name(square)}
        for color, name in [(chess.WHITE, "white"), (chess.BLACK, "black")]:
            attackers = board.attackers(color, square)
            entry[name] = len(attackers)
            kinds = [board.piece_type_at(sq) for sq in attackers]
            entry[f"lowest_{name}"] = NAMES[min(kinds)] if kinds else None
        control.append(entry)
    pieces = {}
    for square, piece in board.piece_map().items():
        enemy = board.attackers(not piece.color, square)
        friends = board.attackers(piece.color, square)
        # A king takes only undefended pieces: it is never the cheaper attacker.
        cheapest = min((POINTS[board.piece_type_at(sq)] for sq in enemy
                        if board.piece_type_at(sq) != chess.KING), default=99)
        hanging = (piece.piece_type != chess.KING and len(enemy) > 0
                   and (len(friends) == 0 or cheapest < POINTS[piece.piece_type]))
        pinned = piece.piece_type != chess.KING and board.is_pinned(piece.color, square)
        pieces[chess.square_name(square)] = (len(enemy), len(friends), hanging, pinned)
    reach = {}
    for color, name in [(chess.WHITE, "white"), (chess.BLACK, "black")]:
        king = board.king(color)
        lifted = board.copy(stack=False)
        lifted.remove_piece_at(king)
        squares = []
        for target in sorted(chess.SquareSet(chess.BB_KING_ATTACKS[king])):
            occupant = board.piece_at(target)
            if occupant and occupant.color == color:
                continue
            if lifted.is_attacked_by(not color, target):
                continue
            squares.append(chess.square_name(target))
        reach[name] = squares
    return control, pieces, reach


def compare(fen, doc):
    board = chess.Board(fen)
    problems = []
    control, pieces, reach = expected(board)
    for mine, theirs in zip(doc["control"], control):
        if mine != theirs:
            problems.append(f"control {theirs['square']}: {mine} vs python-chess {theirs}")
    for piece in doc["pieces"]:
        want = pieces.get(piece["square"])
        got = (piece["attackers"], piece["defenders"], piece["hanging"],
               piece["pinned_by"] is not None)
        if got != want:
            problems.append(f"piece {piece['square']}: {got} vs {want}")
    if len(doc["pieces"]) != len(pieces):
        problems.append("piece count")
    if doc["king_reach"] != reach:
        problems.append(f"king reach {doc['king_reach']} vs {reach}")
    state = doc["state"]
    checkers = sorted(chess.square_name(sq) for sq in board.checkers())
    if sorted(state["checkers"]) != checkers:
        problems.append(f"checkers {state['checkers']} vs {checkers}")
    if state["legal_moves"] != board.legal_moves.count():
        problems.append(f"legal moves {state['legal_moves']} vs {board.legal_moves.count()}")
    if state["checkmate"] != board.is_checkmate() or state["stalemate"] != board.is_stalemate():
        problems.append("mate or stalemate")
    for color, name in [(chess.WHITE, "white"), (chess.BLACK, "black")]:
        points = sum(POINTS[kind] * len(board.pieces(kind, color)) for kind in POINTS)
        if doc["material"][name]["points"] != points:
            problems.append(f"{name} points")
    moves = sorted(san for piece in doc["pieces"] for san in piece["moves"])
    if moves != sorted(board.san(move) for move in board.legal_moves):
        problems.append("SAN move lists differ")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.environ.get(
        "OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine")))
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args()
    fens = subprocess.run([args.engine, "random", "--count", str(args.count), "--seed",
                           str(args.seed)], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    # Known corner cases first: pins, x-ray-free counting, en passant, mate.
    fens = [
        chess.STARTING_FEN,
        "4k3/8/2n5/1B5r/5N2/8/8/4K3 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "4k3/8/8/8/8/8/q7/r3K3 w - - 0 1",
    ] + fens
    session = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    failures = 0
    for fen in fens:
        session.stdin.write(f"position fen {fen}\nanalyze json\n")
        session.stdin.flush()
        line = session.stdout.readline()
        while line.startswith("info string"):
            line = session.stdout.readline()
        problems = compare(fen, json.loads(line))
        if problems:
            failures += 1
            if failures <= 10:
                print(f"FAIL {fen}: " + "; ".join(problems[:3]))
    session.stdin.write("quit\n")
    session.stdin.close()
    session.wait(timeout=10)
    print(f"{len(fens)} positions analysed, control map and pieces compared with "
          f"python-chess: {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
