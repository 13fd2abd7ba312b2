#!/usr/bin/env python3
"""Every `--json` output read back with Python's `json`, holding the same numbers as the
text output of the same command: `perft`, `bench`, `analyze`, `random`, and the UCI
`d json`, `eval json` and `analyze json`.

    python3 tests/python/test_json.py [--engine PATH]
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FAILURES = []


def run(engine, *args, stdin=None):
    return subprocess.run([engine, *args], capture_output=True, text=True, check=True,
                          input=stdin).stdout


def expect(label, got, want):
    if got != want:
        FAILURES.append(f"{label}: json {got!r}, text {want!r}")


def check_perft(engine):
    doc = json.loads(run(engine, "perft", "3", "--fen", KIWIPETE, "--divide", "--json"))
    text = run(engine, "perft", "3", "--fen", KIWIPETE, "--divide")
    divide = dict(line.split(": ") for line in text.splitlines() if ": " in line)
    expect("perft nodes", doc["nodes"], int(re.search(r"nodes (\d+)", text).group(1)))
    expect("perft divide", {d["move"]: d["nodes"] for d in doc["divide"]},
           {move: int(count) for move, count in divide.items()})
    expect("perft fen", doc["fen"], KIWIPETE)


def check_bench(engine):
    doc = json.loads(run(engine, "bench", "--depth", "6", "--json"))
    lines = run(engine, "bench", "--depth", "6").splitlines()
    expect("bench total", doc["nodes"], int(lines[-1].split()[0]))
    expect("bench lines", len(doc["positions"]), len(lines) - 1)
    for position, line in zip(doc["positions"], lines):
        words = line.split()
        expect("bench nodes", position["nodes"], int(words[1]))
        expect("bench best", position["best"], words[6])
        score = words[7:9]
        expect("bench score", position["score"], {score[0]: int(score[1])})
        expect("bench fen", position["fen"], " ".join(words[9:]))


def check_analyze(engine):
    fen = "4k3/8/2n5/1B5r/5N2/8/8/4K3 b - - 0 1"
    doc = json.loads(run(engine, "analyze", "--fen", fen, "--json"))
    text = run(engine, "analyze", "--fen", fen)
    state = re.search(r"State\s+black to move, (\d+) legal moves", text)
    expect("analyze legal moves", doc["state"]["legal_moves"], int(state.group(1)))
    material = re.search(r"white (\d+) .*black (\d+) .*balance ([+-]\d+)", text)
    expect("analyze material", [doc["material"]["white"]["points"],
                                doc["material"]["black"]["points"],
                                doc["material"]["balance"]], [int(g) for g in material.groups()])
    rows = [line for line in text.splitlines() if re.match(r"^ \d  .*\d$", line) and "/" in line]
    cells = {}
    for row in rows:
        rank = row.split()[0]
        for file, cell in zip("abcdefgh", row.split()[1:9]):
            white, black = cell.split("/")
            cells[file + rank] = (int(re.match(r"\d+", white).group()),
                                  int(re.match(r"\d+", black).group()))
    expect("analyze control", {c["square"]: (c["white"], c["black"]) for c in doc["control"]},
           cells)
    hanging = sorted(p["square"] for p in doc["pieces"] if p["hanging"])
    line = next(l for l in text.splitlines() if l.startswith("Hanging"))
    expect("analyze hanging", hanging, sorted(re.findall(r"[KQRBN]?([a-h][1-8]) \(", line)))


def check_random(engine):
    doc = json.loads(run(engine, "random", "--count", "200", "--seed", "9", "--json"))
    text = run(engine, "random", "--count", "200", "--seed", "9").splitlines()
    expect("random positions", doc["positions"], text)
    expect("random count", doc["count"], 200)


def check_uci(engine):
    script = ("position fen " + KIWIPETE + "\nd\nd json\neval\neval json\nanalyze\n"
              "analyze json\nquit\n")
    lines = run(engine, stdin=script).splitlines()
    docs = [json.loads(line) for line in lines if line.startswith("{")]
    expect("uci json documents", len(docs), 3)
    display, evaluation, analysis = docs
    expect("d fen", display["fen"], next(l[5:] for l in lines if l.startswith("Fen: ")))
    expect("d key", display["key"], next(l[5:] for l in lines if l.startswith("Key: ")))
    total = next(l for l in lines if l.startswith("Network evaluation"))
    expect("eval total", "%+.2f" % (evaluation["eval_white_cp"] / 100),
           total.split()[2])
    state = next(l for l in lines if l.startswith("State"))
    expect("analyze moves", analysis["state"]["legal_moves"],
           int(re.search(r"(\d+) legal moves", state).group(1)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.environ.get(
        "OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine")))
    args = parser.parse_args()
    checks = [check_perft, check_bench, check_analyze, check_random, check_uci]
    for check in checks:
        check(args.engine)
    for failure in FAILURES:
        print("FAIL " + failure)
    print(f"{len(checks)} json outputs compared with their text: {len(FAILURES)} differences")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
