#!/usr/bin/env python3
"""Checks of tests/python/sprt.py: its reading of fastchess's reports, the cut rule, the
restoring of a paused test's counts, and (with --engine) a short real run through fastchess
that restores counts, plays on to the game limit, and resumes from its saved state."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402

REPORT = """--------------------------------------------------
Results of new vs old (40000 nodes, 1t, 16MB, UHO_4060_v4_sample20k.epd):
Elo: 11.76 +/- 8.89, nElo: 15.20 +/- 11.48
LOS: 99.53 %, DrawRatio: 37.77 %, PairsRatio: 1.14
Games: 3516, Wins: 1268, Losses: 1149, Draws: 1099, Points: 1817.5 (51.69 %)
Ptnml(0-2): [146, 365, 664, 390, 193], WL/DD Ratio: 2.86
LLR: 2.97 (100.8%) (-2.94, 2.94) [0.00, 10.00]
--------------------------------------------------
SPRT ([0.00, 10.00]) completed - H1 was accepted
"""


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok: {what}")


def unit_checks():
    report = sprt.parse_report("Started game 1\n" + REPORT)
    check(report["games"] == 3516 and report["wins"] == 1268 and report["losses"] == 1149
          and report["draws"] == 1099, "games and W-L-D read from the last block")
    check(report["ptnml"] == [146, 365, 664, 390, 193], "pentanomial read")
    check(report["llr"] == 2.97 and report["elo"] == ("11.76", "8.89"), "LLR and Elo read")
    check(report["verdict"] == "H1", "verdict read")
    earlier = REPORT.replace("3516", "20").replace("2.97", "0.10").split("SPRT")[0]
    check(sprt.parse_report(earlier + REPORT.replace("3516", "3520"))["games"] == 3520,
          "the last block wins")
    check("verdict" not in sprt.parse_report(earlier), "no verdict before the end")
    check(sprt.parse_report("Started game 1 of 6000\n") == {}, "nothing to read yet")

    check(not sprt.should_cut(1499, -2.0), "no cut before 1,500 games")
    check(sprt.should_cut(1500, -1.6), "cut at 1,500 games below -1.5")
    check(not sprt.should_cut(2999, 0.0), "no cut at 2,999 games above -1.5")
    check(sprt.should_cut(3000, 0.4) and not sprt.should_cut(3000, 0.6),
          "cut at 3,000 games below 0.5 only")

    counts = sprt.penta_counts(1243, 1138, 1079, [146, 360, 656, 379, 189])
    check((counts["penta_WL"], counts["penta_DD"]) == (486, 170),
          "win-loss and draw-draw pairs told apart")
    for bad in ((1243, 1138, 1080, [146, 360, 656, 379, 189]),
                (10, 0, 0, [0, 0, 0, 0, 4])):
        try:
            sprt.penta_counts(*bad)
        except ValueError:
            check(True, f"figures that disagree are refused: {bad}")
        else:
            raise AssertionError(f"accepted {bad}")

    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "config.json")
        config = {"engines": [{"name": "new"}, {"name": "old"}],
                  "stats": {"new vs old": {"wins": 1}}, "rounds": 3000}
        json.dump(config, open(path, "w"))
        sprt.restore_counts(path, counts)
        saved = json.load(open(path))
        check(saved["stats"] == {"new vs old": counts} and saved["rounds"] == 3000,
              "restored counts replace the saved ones, the rest is kept")


def run_checks(engine):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sprt.py")
    with tempfile.TemporaryDirectory() as scratch:
        base = [sys.executable, script, "--new", engine, "--old", engine, "--dir", scratch,
                "--nodes", "1500", "--max-games", "10"]
        first = subprocess.run(base + ["--restore", "3-1-2", "--ptnml", "0,0,1,2,0"],
                               capture_output=True, text=True, timeout=300)
        print(first.stdout[-600:], first.stderr[-600:])
        check(first.returncode == 0, "a restored test runs")
        check("restored 3-1-2" in first.stdout, "it says what it restored")
        result = sprt.parse_report(open(os.path.join(scratch, "log")).read())
        check(result["games"] == 10, "the restored games count towards the limit")
        check(result["wins"] >= 3 and result["losses"] >= 1 and result["draws"] >= 2,
              "the restored counts are kept under the new games")
        check(first.stdout.strip().splitlines()[-1].startswith("stopped: 10 games"),
              "the last line is the result")
        again = subprocess.run(base, capture_output=True, text=True, timeout=300)
        check(again.returncode == 0 and "stopped: 10 games" in again.stdout,
              "the same command resumes from the saved state (nothing left to play)")
        refused = subprocess.run(base + ["--restore", "3-1-2", "--ptnml", "0,0,1,2,0"],
                                 capture_output=True, text=True, timeout=60)
        check(refused.returncode == 2, "no restoring into a test that exists")
    with tempfile.TemporaryDirectory() as scratch:
        bad = subprocess.run([sys.executable, script, "--new", engine, "--old", engine,
                              "--dir", scratch, "--restore", "3-1-2", "--ptnml", "0,0,0,0,0"],
                             capture_output=True, text=True, timeout=60)
        check(bad.returncode == 2 and "disagree" in bad.stderr,
              "figures that disagree stop the script before any game")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", help="an Ox88 build for a short real run")
    args = parser.parse_args()
    unit_checks()
    if args.engine:
        run_checks(args.engine)
    print("all sprt.py checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
