#!/usr/bin/env python3
"""SPSA tuning of Ox88's search parameters through fastchess games; resumable.

The parameters and their ranges are read from the table in src/search/params.rs; the engine
must be an `spsa` build (`cargo build --release --features spsa`), which has each of them as
a UCI spin option. Each iteration k perturbs every tuned parameter by +c_k or -c_k at random
(delta = +-1), plays `--pairs` game pairs between the two perturbed engines (one opening per
pair, colours swapped), and moves every parameter by R_k * c_k * (wins - losses) * delta with
R_k = a_k / c_k^2. The schedule is fishtest's, c_k = c / (k+1)^0.101 and
a_k = a / (A+k+1)^0.602 with A a tenth of the iterations, c and a chosen so the last
iteration perturbs by c_end (a twentieth of the range, at most a tenth of the default) and
learns at r_end (0.002). Values are kept as floats and rounded (and clamped to the range) only
when sent to the engine.

    cargo build --release --features spsa && cp target/release/engine /tmp/engine-spsa
    python3 tests/python/spsa.py --engine /tmp/engine-spsa --state spsa.json \\
        --iterations 2000 --pairs 4 --nodes 20000 [--params rfp_margin,lmr_base]

The state file (JSON) holds the values, the iteration, the games played and the game
conditions (nodes or tc, pairs); a stopped run continues from it with the same command, in the
conditions it started with. The current run's state is kept in the repository
(tests/spsa-state.json) so that it survives the machine. A progress line per iteration shows
the score and the parameters that moved most (by their step in units of their perturbation);
`--show` prints the current values as params.rs lines, and `--apply PATH` writes them as the
defaults of the table in the params.rs at PATH (ranges, docs and other lines untouched), the
build to SPRT against the untuned one. `--set-r-end R` changes a resumed run's
learning rate from its current iteration on (the change is kept in the state's history): a
run whose values hardly move for its budget of games can be given a larger step without
starting again.
The tuned values are then SPRT-tested against the defaults (README: Testing).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARAMS_RS = os.path.join(ROOT, "src", "search", "params.rs")
FASTCHESS = os.path.join(ROOT, "..", "shared", "tools", "bin", "fastchess")
BOOK = os.path.join(ROOT, "..", "shared", "data", "books", "UHO_4060_v4_sample20k.epd")
# Fishtest's defaults: a_k = a / (A + k + 1)^alpha, c_k = c / (k + 1)^gamma.
ALPHA, GAMMA = 0.602, 0.101


# A line of the search_params! table, `name: default, min, max;` (indent, name, default, and
# the rest with min and max); read_table and apply both go by it, so they agree on what a
# table line is (a struct literal elsewhere in the file, `name: 5,`, is not one).
TABLE_LINE = re.compile(r"^(\s+)([a-z_0-9]+):\s*(-?\d+),(\s*(-?\d+),\s*(-?\d+);.*)$")


def read_table(path=PARAMS_RS):
    """name -> (default, min, max) from the search_params! table."""
    table = {}
    for line in open(path):
        match = TABLE_LINE.match(line.rstrip("\n"))
        if match:
            _, name, default, _, low, high = match.groups()
            table[name] = (int(default), int(low), int(high))
    return table


def new_state(table, names, iterations):
    state = {"iteration": 0, "games": 0, "iterations": iterations, "params": {}}
    for name in names:
        default, low, high = table[name]
        # Perturbation at the end of the run: a twentieth of the range, but at most a tenth
        # of the default (the wide ranges would otherwise start at +-40 % of a margin), at
        # least 1; the learning rate at the end: 0.002 (fishtest's customary r_end).
        c_end = max(1.0, min((high - low) / 20.0, abs(default) / 10.0))
        state["params"][name] = {"value": float(default), "min": low, "max": high,
                                 "c_end": c_end, "r_end": 0.002}
    return state


def schedule(state, spec):
    """c_k and a_k for this iteration (fishtest's form, scaled so c_N = c_end, r_N = r_end)."""
    big_n = state["iterations"]
    big_a = 0.1 * big_n
    k = state["iteration"]
    c = spec["c_end"] * big_n ** GAMMA
    a = spec["r_end"] * spec["c_end"] ** 2 * (big_a + big_n) ** ALPHA
    return c / (k + 1) ** GAMMA, a / (big_a + k + 1) ** ALPHA


def sent(spec, value):
    return int(round(min(spec["max"], max(spec["min"], value))))


def play(args, plus, minus):
    """Plays `--pairs` pairs; returns (wins, losses, draws) of `plus`."""
    def engine(name, values):
        options = [f"option.{key}={value}" for key, value in values.items()]
        return ["-engine", f"cmd={args.engine}", f"name={name}"] + options
    limit = [f"nodes={args.nodes}", "tc=inf"] if args.nodes else [f"tc={args.tc}"]
    command = ([args.fastchess] + engine("plus", plus) + engine("minus", minus)
               + ["-each", "proto=uci", "option.Hash=16", "option.Threads=1"] + limit
               + ["-openings", f"file={args.book}", "format=epd", "order=random",
                  f"-srand", str(random.randrange(1 << 30)),
                  "-rounds", str(args.pairs), "-games", "2", "-repeat",
                  "-concurrency", str(args.concurrency), "-recover"])
    # fastchess leaves a config.json where it runs: keep it out of the repository.
    with tempfile.TemporaryDirectory() as scratch:
        output = subprocess.run(command, capture_output=True, text=True, cwd=scratch).stdout
    found = re.findall(r"Games: \d+, Wins: (\d+), Losses: (\d+), Draws: (\d+)", output)
    if not found:
        raise RuntimeError("no result from fastchess:\n" + output[-2000:])
    wins, losses, draws = map(int, found[-1])
    return wins, losses, draws


def show(state):
    for name, spec in state["params"].items():
        print(f"    {name}: {sent(spec, spec['value'])}, {spec['min']}, {spec['max']};"
              f"  // {spec['value']:.2f}")


def apply(state, path):
    """Rewrites the defaults of the tuned parameters in the params.rs at `path`; returns how
    many lines changed."""
    lines = open(path).read().split("\n")
    changed = 0
    for index, line in enumerate(lines):
        match = TABLE_LINE.match(line)
        if match and match.group(2) in state["params"]:
            indent, name, old, rest, _, _ = match.groups()
            new = sent(state["params"][name], state["params"][name]["value"])
            if new != int(old):
                lines[index] = f"{indent}{name}: {new},{rest}"
                changed += 1
    with open(path + ".tmp", "w") as out:
        out.write("\n".join(lines))
    os.replace(path + ".tmp", path)
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="an spsa build of Ox88")
    parser.add_argument("--state", required=True, help="JSON state file (created, resumed)")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    parser.add_argument("--nodes", type=int, default=0, help="node limit per move (0: --tc)")
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--params", default="all", help="comma-separated names, or all")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--book", default=BOOK)
    parser.add_argument("--fastchess", default=FASTCHESS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the values and stop")
    parser.add_argument("--apply", metavar="PATH",
                        help="write the values as the defaults of the params.rs at PATH, stop")
    parser.add_argument("--set-r-end", type=float, default=None,
                        help="change the run's end learning rate from this iteration on "
                             "(recorded in the state's history)")
    args = parser.parse_args()

    table = read_table()
    if os.path.exists(args.state):
        state = json.load(open(args.state))
    else:
        names = list(table) if args.params == "all" else args.params.split(",")
        unknown = [name for name in names if name not in table]
        if unknown:
            print(f"unknown parameters: {', '.join(unknown)}", file=sys.stderr)
            return 2
        state = new_state(table, names, args.iterations)
        state["settings"] = {"nodes": args.nodes, "tc": args.tc, "pairs": args.pairs}
    # A resumed run keeps the conditions it started with (the state file is the run).
    for key, value in state.get("settings", {}).items():
        if getattr(args, key) != value:
            print(f"{key} {value} (from {args.state})", file=sys.stderr)
            setattr(args, key, value)
    if args.show:
        show(state)
        return 0
    if args.apply:
        missing = [name for name in state["params"] if name not in read_table(args.apply)]
        if missing:
            print(f"{args.apply} lacks {', '.join(missing)}", file=sys.stderr)
            return 2
        print(f"{apply(state, args.apply)} defaults changed in {args.apply}")
        return 0
    if args.set_r_end is not None:
        if not 0 < args.set_r_end < 1:
            print(f"--set-r-end must be in (0, 1), not {args.set_r_end}", file=sys.stderr)
            return 2
        for spec in state["params"].values():
            spec["r_end"] = args.set_r_end
        state.setdefault("history", []).append(
            {"iteration": state["iteration"], "r_end": args.set_r_end})
        print(f"r_end {args.set_r_end} from iteration {state['iteration']}", file=sys.stderr)
    random.seed(args.seed * 1_000_003 + state["iteration"])
    while state["iteration"] < state["iterations"]:
        started = time.time()
        deltas, plus, minus, steps = {}, {}, {}, {}
        for name, spec in state["params"].items():
            c_k, a_k = schedule(state, spec)
            delta = random.choice((-1, 1))
            deltas[name], steps[name] = delta, (c_k, a_k)
            plus[name] = sent(spec, spec["value"] + c_k * delta)
            minus[name] = sent(spec, spec["value"] - c_k * delta)
        wins, losses, draws = play(args, plus, minus)
        result = wins - losses
        moved = []
        for name, spec in state["params"].items():
            c_k, a_k = steps[name]
            change = a_k / c_k ** 2 * c_k * result * deltas[name]
            spec["value"] = min(spec["max"], max(spec["min"], spec["value"] + change))
            # Ranked by the step in units of the parameter's perturbation, so a divisor in
            # the thousands does not always lead the list.
            moved.append((abs(change) / spec["c_end"], name, spec["value"]))
        state["iteration"] += 1
        state["games"] += wins + losses + draws
        with open(args.state + ".tmp", "w") as out:
            json.dump(state, out, indent=1)
        os.replace(args.state + ".tmp", args.state)
        top = ", ".join(f"{name} {value:.1f}" for _, name, value in sorted(moved)[-3:])
        print(f"iteration {state['iteration']}/{state['iterations']} games {state['games']} "
              f"plus {wins}-{losses}-{draws} ({time.time() - started:.0f} s) moved: {top}",
              flush=True)
    show(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
