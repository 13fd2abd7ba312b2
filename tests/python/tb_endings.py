#!/usr/bin/env python3
"""Does Ox88 convert won tablebase endings and hold drawn ones against Stockfish? (Not CI:
a measurement of issue 14's bar, minutes of games.)

    python3 tests/python/tb_endings.py [--engine PATH] [--opponent PATH] [--tables DIR]
        [--won 50] [--drawn 50] [--tc 10+0.1] [--seed 1] [--no-tables] [--save EPD]

Draws random positions of chosen endings (KQvK, KRvK, KBNvK, KPvK, KQvKR, KPvKP, ... for the
won set; the weaker side's KvKP, KBvKR, KNvKR, KBvKP, ... for the drawn set) that the tables
call a win for the side to move (won set) or a draw (drawn set), skipping ones that are over
at once (mate in one, a capture of the last enemy piece). Ox88 plays the side to move, the
opponent (Stockfish, both with the same tables unless `--no-tables`, which takes them from
Ox88 only) the other, at the given clock, until mate, a draw by the rules, or a loss on time.
Prints one line a game and `won W/N, held H/M, time losses T`; exit 0 only when every won
position was won and every drawn one held.
"""

import argparse
import os
import random
import sys
import time

import chess
import chess.engine
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine"))
TABLES = os.path.join(ROOT, "..", "shared", "data", "syzygy")
OPPONENT = "/usr/games/stockfish"
# Ox88's material first (it moves first), the opponent's second.
WON = ["KQvK", "KRvK", "KBNvK", "KPvK", "KBBvK", "KQvKR", "KQvKN", "KQvKB", "KPvKP", "KRvKP",
       "KQvKP", "KPPvK"]
DRAWN = ["KvKP", "KBvKR", "KNvKR", "KBvKP", "KNvKP", "KRvKR", "KPvKP", "KvKPP", "KRvKQ",
         "KBvKQ"]
LETTERS = {"P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK,
           "Q": chess.QUEEN, "K": chess.KING}


def random_board(rng, ending, mover):
    """A random legal position of `ending` with `mover`'s side (the first) to move."""
    ours, theirs = ending.split("v")
    board = chess.Board(None)
    for letters, colour in ((ours, mover), (theirs, not mover)):
        for letter in letters:
            kind = LETTERS[letter]
            free = [square for square in chess.SQUARES if board.piece_at(square) is None
                    and not (kind == chess.PAWN and chess.square_rank(square) in (0, 7))]
            board.set_piece_at(rng.choice(free), chess.Piece(kind, colour))
    board.turn = mover
    return board if board.is_valid() else None


def over_at_once(board):
    """Mate in one, or a move that takes the last enemy piece: no test of conversion."""
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        bare = all(piece.piece_type == chess.KING for piece in board.piece_map().values()
                   if piece.color == board.turn)
        board.pop()
        if mate or (board.is_capture(move) and bare):
            return True
    return False


def positions(rng, tables, endings, want_wdl, count):
    """`count` boards, endings in turn, whose WDL for the side to move is `want_wdl`."""
    found = []
    attempts = 0
    while len(found) < count and attempts < 200 * count:
        attempts += 1
        ending = endings[len(found) % len(endings)]
        board = random_board(rng, ending, rng.choice([chess.WHITE, chess.BLACK]))
        if board is None or board.is_game_over() or over_at_once(board):
            continue
        wdl = tables.get_wdl(board)
        if wdl == want_wdl:
            found.append(board)
    return found


def play(ox88, opponent, board, base, increment, game):
    """One game from `board`, Ox88 to move first; the result from Ox88's side: 1, 0.5 or 0,
    and whether someone lost on time. `game` names the game (a new name: `ucinewgame`)."""
    ours = board.turn
    clocks = {chess.WHITE: base, chess.BLACK: base}
    board = board.copy()
    while not board.is_game_over(claim_draw=True):
        engine = ox88 if board.turn == ours else opponent
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                   black_clock=clocks[chess.BLACK],
                                   white_inc=increment, black_inc=increment)
        start = time.monotonic()
        result = engine.play(board, limit, game=game)
        spent = time.monotonic() - start
        clocks[board.turn] -= spent
        if clocks[board.turn] < 0:
            return (0.0 if board.turn == ours else 1.0), True
        clocks[board.turn] += increment
        if result.move is None or result.move not in board.legal_moves:
            return (0.0 if board.turn == ours else 1.0), False
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome.winner is None:
        return 0.5, False
    return (1.0 if outcome.winner == ours else 0.0), False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("--opponent", default=OPPONENT)
    parser.add_argument("--tables", default=TABLES)
    parser.add_argument("--won", type=int, default=50)
    parser.add_argument("--drawn", type=int, default=50)
    parser.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-tables", action="store_true", help="Ox88 plays without tables")
    parser.add_argument("--save", help="write the positions to this EPD file")
    args = parser.parse_args()
    try:
        base, increment = (float(part) for part in args.tc.split("+"))
    except ValueError:
        print(f"--tc wants base+increment in seconds, not {args.tc!r}", file=sys.stderr)
        return 2
    tables_dir = os.path.abspath(args.tables)
    if not os.path.isdir(tables_dir):
        print(f"no tables at {tables_dir}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(tables_dir) as tables:
        won = positions(rng, tables, WON, 2, args.won)
        drawn = positions(rng, tables, DRAWN, 0, args.drawn)
    if args.save:
        with open(args.save, "w") as out:
            for board in won:
                out.write(f"{board.epd()} c0 \"won\";\n")
            for board in drawn:
                out.write(f"{board.epd()} c0 \"drawn\";\n")

    ox88 = chess.engine.SimpleEngine.popen_uci(args.engine)
    opponent = chess.engine.SimpleEngine.popen_uci(args.opponent)
    ox88.configure({"Hash": 16} | ({} if args.no_tables else {"SyzygyPath": tables_dir}))
    opponent.configure({"Hash": 16, "Threads": 1, "SyzygyPath": tables_dir})
    wins = holds = time_losses = 0
    try:
        for label, boards, target in (("won", won, 1.0), ("drawn", drawn, 0.5)):
            for number, board in enumerate(boards, 1):
                score, flagged = play(ox88, opponent, board, base, increment, (label, number))
                time_losses += flagged
                good = score >= target
                if label == "won":
                    wins += good
                else:
                    holds += good
                mark = "ok" if good else "FAILED"
                note = " (time loss)" if flagged else ""
                print(f"{label} {number:3} {board.fen():<40} {score}{note} {mark}", flush=True)
    finally:
        ox88.quit()
        opponent.quit()
    print(f"won {wins}/{len(won)}, held {holds}/{len(drawn)}, time losses {time_losses}")
    return 0 if wins == len(won) and holds == len(drawn) else 1


if __name__ == "__main__":
    sys.exit(main())
