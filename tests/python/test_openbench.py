#!/usr/bin/env python3
"""Ox88 built and benched the way an OpenBench client does it: `make EXE=<name>
[EVALFILE=<net>]` in the repository root, then `./<name> bench`, the bench and nps read from
the output by OpenBench's patterns (the last lines first), the bench twice to see that it is
deterministic, and compared with `EXPECTED_BENCH_NODES` in src/bench.rs (without EVALFILE).

    python3 tests/python/test_openbench.py [--evalfile NET]

With `--evalfile` the embedded net is replaced (a different bench is expected then), and the
build is rebuilt for the normal net afterwards, so target/release/engine is the default again.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_bench(output):
    """OpenBench's reading: scan lines from the end, take the first nodes and nps found."""
    nps = bench = None
    for line in output.strip().split("\n")[::-1]:
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
        found_nps = re.search(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)", line, re.I)
        found_bench = re.search(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)", line, re.I)
        nps = nps or (found_nps and found_nps.group())
        bench = bench or (found_bench and found_bench.group())
    as_int = lambda text: int(re.search(r"\d+", text).group()) if text else None
    return as_int(bench), as_int(nps)


def build_and_bench(exe, evalfile=None):
    command = ["make", f"EXE={exe}"] + ([f"EVALFILE={evalfile}"] if evalfile else [])
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    results = []
    for _ in range(2):
        out = subprocess.run([exe, "bench"], capture_output=True, text=True, check=True).stdout
        results.append(parse_bench(out))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evalfile", help="a net file to embed (as OpenBench's EVALFILE)")
    args = parser.parse_args()
    expected = int(re.search(r"EXPECTED_BENCH_NODES: u64 = (\d+);",
                             open(os.path.join(ROOT, "src", "bench.rs")).read()).group(1))
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        exe = os.path.join(directory, "ox88-openbench")
        runs = build_and_bench(exe)
        benches = {bench for bench, _ in runs}
        if benches != {expected}:
            failures.append(f"bench {sorted(benches)} read as OpenBench reads it, expected {expected}")
        if any(nps is None or nps <= 0 for _, nps in runs):
            failures.append(f"no nps in the bench output: {runs}")
        print(f"make EXE=...: bench {runs[0][0]}, nps {runs[0][1]} (twice: {runs})")
        if args.evalfile:
            other = build_and_bench(exe, os.path.abspath(args.evalfile))
            print(f"make EXE=... EVALFILE={args.evalfile}: bench {other[0][0]}, nps {other[0][1]}")
            if len({bench for bench, _ in other}) != 1 or other[0][0] == expected:
                failures.append(f"EVALFILE build: benches {other}, expected one value "
                                f"other than {expected}")
            subprocess.run(["make", f"EXE={exe}"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    for failure in failures:
        print("FAIL " + failure)
    print(f"openbench build and bench: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
