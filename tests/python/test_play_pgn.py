#!/usr/bin/env python3
"""`engine play` checked through python-chess (no pytest needed).

Run from the repository root after `cargo build --release`:

    python3 tests/python/test_play_pgn.py [--engine PATH] [--games N]

The engine defaults to $OX88_ENGINE, else target/release/engine. A driver plays the human's
side over the pipes: it waits for each prompt, checks that every move Ox88 announces is legal
SAN for the board python-chess keeps, answers with a random legal move (as SAN or as
coordinates), and at the end saves the game with `save FILE`. The file must then read back in
python-chess to the very same moves, tags and final position. The last line is
`N passed, M failed`; the exit status is 0 only when nothing failed.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import traceback

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine"))
GAMES = 3
MAX_PLIES = 60
ENGINE_MOVE = re.compile(r"Ox88 plays \d+\.(?:\.\.)? (\S+)")


class PlaySession:
    """`engine play` as a child process, read up to each prompt."""

    def __init__(self, args):
        self.process = subprocess.Popen(
            [ENGINE, "play", "--no-color", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.transcript = ""

    def read_to_prompt(self):
        """Text up to the next prompt (`...: ` or `> `), or to the end of output."""
        chunk = bytearray()
        while True:
            byte = self.process.stdout.read(1)
            if not byte:
                break
            chunk += byte
            if chunk.endswith(b"): ") or chunk.endswith(b"\n> ") or chunk.endswith(b"knight: "):
                break
        text = chunk.decode()
        self.transcript += text
        return text

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def close(self):
        self.process.stdin.close()
        rest = self.process.stdout.read().decode()
        self.transcript += rest
        code = self.process.wait(timeout=20)
        self.process.stderr.close()
        self.process.stdout.close()
        return code


def engine_moves_in(text, board):
    """Plays every move Ox88 announced in `text` on `board` (it must be legal SAN there)."""
    for san in ENGINE_MOVE.findall(text):
        move = board.parse_san(san)
        assert board.san(move) == san, f"Ox88 wrote {san}, python-chess writes {board.san(move)}"
        board.push(move)


def ox88_result(board):
    """The result Ox88 announces: python-chess's outcome, with threefold repetition and the
    fifty-move rule claimed at once (as Ox88 does), else None while the game goes on."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result()
    if board.is_repetition(3) or board.halfmove_clock >= 100:
        return "1/2-1/2"
    return None


def play_one_game(seed, color, fen=None):
    rng = random.Random(seed)
    board = chess.Board(fen) if fen else chess.Board()
    args = ["--level", "easy", "--seed", str(seed), "--color", color]
    if fen:
        args += ["--fen", fen]
    session = PlaySession(args)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "game.pgn")
        text = session.read_to_prompt()
        while True:
            engine_moves_in(text, board)
            if ox88_result(board) or text.endswith("\n> ") or len(board.move_stack) >= MAX_PLIES:
                break
            move = rng.choice(list(board.legal_moves))
            typed = move.uci() if rng.random() < 0.3 else board.san(move)
            board.push(move)
            session.send(typed)
            text = session.read_to_prompt()
            assert "You play" in text, f"{typed!r} refused: {text}"
        session.send(f"save {path}")
        session.read_to_prompt()
        code = session.close()
        assert code == 0, f"exit {code}\n{session.transcript[-2000:]}"
        with open(path) as handle:
            game = chess.pgn.read_game(handle)
        assert game is not None and not game.errors, game.errors if game else "no game"
        assert list(game.mainline_moves()) == board.move_stack, "moves differ"
        end = game.end().board()
        assert end.fen() == board.fen(), (end.fen(), board.fen())
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            assert tag in game.headers, tag
        human = "White" if color == "white" else "Black"
        assert game.headers[human] == "Human", game.headers
        if fen:
            assert game.headers["SetUp"] == "1" and game.headers["FEN"] == fen, game.headers
        assert game.headers["Result"] == (ox88_result(board) or "*"), game.headers


def test_random_games_read_back():
    for index in range(GAMES):
        play_one_game(seed=100 + index, color="white" if index % 2 == 0 else "black")


def test_game_from_a_position_reads_back():
    play_one_game(seed=5, color="black", fen="r3k2r/pP6/8/8/8/8/Pp6/R3K2R w KQkq - 0 1")


def test_mate_saved_with_pgn_option():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mate.pgn")
        fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
        completed = subprocess.run(
            [ENGINE, "play", "--no-color", "--color", "black", "--level", "easy",
             "--fen", fen, "--pgn", path],
            input="Qh4#\n", capture_output=True, text=True, timeout=30,
        )
        assert completed.returncode == 0, completed.stderr
        with open(path) as handle:
            game = chess.pgn.read_game(handle)
        assert game.headers["Result"] == "0-1", game.headers
        assert game.end().board().is_checkmate()
        assert [move.uci() for move in game.mainline_moves()] == ["d8h4"]


def main():
    global ENGINE, GAMES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("--games", type=int, default=GAMES)
    options = parser.parse_args()
    ENGINE, GAMES = options.engine, options.games
    tests = [value for name, value in globals().items() if name.startswith("test_")]
    passed = failed = 0
    for test in tests:
        try:
            test()
            passed += 1
            print(f"ok      {test.__name__}")
        except Exception:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print(f"FAILED  {test.__name__}")
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
