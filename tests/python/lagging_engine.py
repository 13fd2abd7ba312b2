#!/usr/bin/env python3
"""A UCI engine behind a slow pipe: relays a GUI's lines to the engine and the engine's lines
back, holding every `bestmove` for a while first, so the GUI's clock charges each move that
much more than the engine itself measures (the lag of a loaded machine or a slow GUI).

Used to check `Adaptive Overhead` in games (not part of CI):

    fastchess -engine cmd=tests/python/lagging_engine.py args="--lag-ms 40 target/release/engine" \
        name=adaptive ... -each tc=1+0.1 ...

`--every N` lags only every N-th move (spikes rather than a steady lag).
"""

import argparse
import subprocess
import sys
import threading
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lag-ms", type=int, required=True, help="delay before each bestmove")
    parser.add_argument("--every", type=int, default=1, help="lag only every N-th bestmove")
    parser.add_argument("engine", nargs="+", help="the engine command and its arguments")
    args = parser.parse_args()
    if args.lag_ms < 0 or args.every < 1:
        print("--lag-ms must be >= 0 and --every >= 1", file=sys.stderr)
        return 2
    engine = subprocess.Popen(
        args.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def relay_output() -> None:
        moves = 0
        assert engine.stdout is not None
        for line in engine.stdout:
            if line.startswith("bestmove"):
                moves += 1
                if moves % args.every == 0:
                    time.sleep(args.lag_ms / 1000)
            sys.stdout.write(line)
            sys.stdout.flush()

    output = threading.Thread(target=relay_output, daemon=True)
    output.start()
    assert engine.stdin is not None
    for line in sys.stdin:
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.strip() == "quit":
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()
    output.join(timeout=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
