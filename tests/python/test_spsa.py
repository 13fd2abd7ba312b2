#!/usr/bin/env python3
"""The SPSA tuner (tests/python/spsa.py) driven with a fake match runner, no games played.

The fake stands where fastchess would: it records the command line it was given and prints a
fixed result, 5 wins, 2 losses and 1 draw for the first engine (`plus`). Checked:

- the parameters and ranges are the ones of src/search/params.rs, and every perturbation sent
  is an integer inside the range, `plus` and `minus` on either side of the value;
- with `plus` winning, every value moves towards its `plus` side, by the step the schedule
  gives (a_k / c_k * (wins - losses)), and the state counts iterations and games;
- a resumed run keeps the conditions it started with (the node limit of the state file, not
  the one on the new command line) and continues the iteration count;
- `--apply` rewrites just the tuned defaults of a params.rs copy, and refuses a file without
  the table.

    python3 tests/python/test_spsa.py
"""

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spsa  # noqa: E402

FAKE = """#!/usr/bin/env python3
import json, sys
with open({log!r}, "a") as out:
    out.write(json.dumps(sys.argv[1:]) + "\\n")
print("Games: 8, Wins: 5, Losses: 2, Draws: 1, Points: 5.5 (68.75 %)")
"""


def engine_options(argv, name):
    """The option.X=V values of the engine called `name` on a fastchess command line."""
    start = argv.index(f"name={name}") + 1
    values = {}
    for word in argv[start:]:
        if word.startswith("-"):
            break
        key, value = word[len("option."):].split("=")
        values[key] = int(value)
    return values


def run_tuner(directory, state, fake, nodes, iterations_on_command_line, extra=()):
    command = [sys.executable, os.path.join(HERE, "spsa.py"), "--engine", "/bin/true",
               "--state", state, "--fastchess", fake, "--nodes", str(nodes),
               "--iterations", str(iterations_on_command_line), "--pairs", "4",
               "--params", "rfp_margin,lmr_divisor,nmp_base", *extra]
    return subprocess.run(command, capture_output=True, text=True, cwd=directory)


def main():
    failures = []
    table = spsa.read_table()
    if len(table) < 30 or table.get("rfp_margin", (0, 0, 0))[1:] != (20, 200):
        failures.append(f"params.rs table read wrong: {len(table)} entries, "
                        f"rfp_margin {table.get('rfp_margin')}")
    with tempfile.TemporaryDirectory() as directory:
        log = os.path.join(directory, "calls.jsonl")
        fake = os.path.join(directory, "fastchess")
        with open(fake, "w") as out:
            out.write(FAKE.format(log=log))
        os.chmod(fake, 0o755)
        state_path = os.path.join(directory, "state.json")

        # One iteration of a three-iteration run, checked step by step.
        first = run_tuner(directory, state_path, fake, 20000, 3)
        if first.returncode != 0:
            print(first.stdout, first.stderr)
            return 1
        state = json.load(open(state_path))
        calls = [json.loads(line) for line in open(log)]
        if len(calls) != 3 or state["iteration"] != 3 or state["games"] != 24:
            failures.append(f"3 iterations expected: {len(calls)} calls, "
                            f"iteration {state['iteration']}, games {state['games']}")
        if state.get("settings", {}).get("nodes") != 20000:
            failures.append(f"settings not kept: {state.get('settings')}")
        # Replay the run by hand: each call's plus/minus give delta and the value before.
        replay = spsa.new_state(table, ["rfp_margin", "lmr_divisor", "nmp_base"], 3)
        for k, argv in enumerate(calls):
            if "nodes=20000" not in argv:
                failures.append(f"call {k}: no nodes=20000 in {argv}")
            plus, minus = engine_options(argv, "plus"), engine_options(argv, "minus")
            if set(plus) != {"rfp_margin", "lmr_divisor", "nmp_base"}:
                failures.append(f"call {k}: options sent {sorted(plus)}")
                break
            for name, spec in replay["params"].items():
                low, high = spec["min"], spec["max"]
                if not (low <= plus[name] <= high and low <= minus[name] <= high):
                    failures.append(f"call {k}: {name} {plus[name]}/{minus[name]} out of range")
                if plus[name] == minus[name]:
                    failures.append(f"call {k}: {name} not perturbed ({plus[name]})")
                delta = 1 if plus[name] > minus[name] else -1
                c_k, a_k = spsa.schedule(replay, spec)
                if spsa.sent(spec, spec["value"] + c_k * delta) != plus[name]:
                    failures.append(f"call {k}: {name} plus {plus[name]} is not value + c_k")
                spec["value"] += a_k / c_k * (5 - 2) * delta
            replay["iteration"] += 1
        for name, spec in replay["params"].items():
            tuned = state["params"][name]["value"]
            if abs(tuned - spec["value"]) > 1e-9:
                failures.append(f"{name}: {tuned} after the run, {spec['value']} by hand")

        # Resumed with another node limit and more iterations on the command line: the state's
        # conditions win, and a finished run plays nothing more.
        second = run_tuner(directory, state_path, fake, 5000, 10)
        calls_after = [json.loads(line) for line in open(log)]
        if second.returncode != 0 or len(calls_after) != 3:
            failures.append(f"a finished run played again: {len(calls_after)} calls")
        state["iterations"] = 4
        json.dump(state, open(state_path, "w"))
        third = run_tuner(directory, state_path, fake, 5000, 10)
        calls_after = [json.loads(line) for line in open(log)]
        if third.returncode != 0 or len(calls_after) != 4:
            failures.append(f"resume: {len(calls_after)} calls, rc {third.returncode}")
        elif "nodes=20000" not in calls_after[-1]:
            failures.append(f"resume used {[w for w in calls_after[-1] if 'nodes' in w]}")
        if json.load(open(state_path))["iteration"] != 4:
            failures.append("resume did not count its iteration")
        shown = re.findall(r"^\s+(\w+): (-?\d+), (-?\d+), (-?\d+);", third.stdout, re.M)
        if [name for name, *_ in shown] != ["rfp_margin", "lmr_divisor", "nmp_base"]:
            failures.append(f"--show lines not in params.rs form: {third.stdout[-400:]}")

        # --set-r-end changes the learning rate of a resumed run from its iteration on, and
        # the next step is the schedule's with the new rate (ten times the old one here).
        state = json.load(open(state_path))
        state["iterations"] = 5
        json.dump(state, open(state_path, "w"))
        before = {name: spec["value"] for name, spec in state["params"].items()}
        fourth = run_tuner(directory, state_path, fake, 5000, 10, ["--set-r-end", "0.02"])
        after = json.load(open(state_path))
        if fourth.returncode != 0 or after.get("history") != [{"iteration": 4, "r_end": 0.02}]:
            failures.append(f"--set-r-end not recorded: {after.get('history')}, "
                            f"rc {fourth.returncode}")
        argv = [json.loads(line) for line in open(log)][-1]
        plus, minus = engine_options(argv, "plus"), engine_options(argv, "minus")
        for name, spec in after["params"].items():
            if spec["r_end"] != 0.02:
                failures.append(f"{name}: r_end {spec['r_end']} after --set-r-end 0.02")
            delta = 1 if plus[name] > minus[name] else -1
            state["params"][name]["r_end"] = 0.02
            state["iteration"] = 4
            c_k, a_k = spsa.schedule(state, state["params"][name])
            expected = before[name] + a_k / c_k * (5 - 2) * delta
            if abs(spec["value"] - expected) > 1e-9:
                failures.append(f"{name}: {spec['value']} after --set-r-end, {expected} by hand")
        bad = run_tuner(directory, state_path, fake, 5000, 10, ["--set-r-end", "7"])
        if bad.returncode != 2 or "--set-r-end" not in bad.stderr:
            failures.append(f"--set-r-end 7 accepted: rc {bad.returncode}")

        # --apply writes the rounded values as the defaults of a copy of params.rs: the three
        # tuned lines change (ranges kept), every other line stays as it was.
        copy = os.path.join(directory, "params.rs")
        original = open(spsa.PARAMS_RS).read()
        open(copy, "w").write(original)
        state = json.load(open(state_path))
        for name, value in (("rfp_margin", 91.6), ("lmr_divisor", 240.4), ("nmp_base", 3.0)):
            state["params"][name]["value"] = value
        json.dump(state, open(state_path, "w"))
        applied = run_tuner(directory, state_path, fake, 5000, 10, ["--apply", copy])
        new_table = spsa.read_table(copy)
        expected = dict(table, rfp_margin=(92, 20, 200),
                        lmr_divisor=(240, *table["lmr_divisor"][1:]),
                        nmp_base=(3, *table["nmp_base"][1:]))
        if applied.returncode != 0 or new_table != expected:
            failures.append(f"--apply: rc {applied.returncode}, table "
                            f"{ {k: v for k, v in new_table.items() if v != table[k]} }")
        changed = [(old, new) for old, new in zip(original.split("\n"),
                                                  open(copy).read().split("\n")) if old != new]
        if len(changed) != sum(expected[k] != table[k] for k in table):
            failures.append(f"--apply changed other lines: {changed}")
        missing = run_tuner(directory, state_path, fake, 5000, 10,
                            ["--apply", os.path.join(directory, "calls.jsonl")])
        if missing.returncode != 2:
            failures.append(f"--apply to a file without the table: rc {missing.returncode}")

    for failure in failures:
        print("FAIL", failure)
    print("spsa tuner:", "ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
