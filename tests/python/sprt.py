#!/usr/bin/env python3
"""One SPRT of a new Ox88 build against an old one through fastchess; resumable, restorable.

The settings are the README's (Testing): one thread, Hash 16, the UHO book, pentanomial
statistics, `-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`, a node limit (default 40000) or
`--tc`. Everything fastchess writes stays in `--dir` (its `config.json`, saved every 20 games
and on interrupt, and `log`), so the same command continues a stopped test.

    python3 tests/python/sprt.py --new target/release/engine --old /tmp/engine-base \\
        --dir /tmp/sprt-name [--nodes 40000 | --tc 8+0.08] [--elo0 0 --elo1 10] [--cut]

`--cut` stops a test that is going nowhere: at 1,500 games or more with LLR below -1.5, or
at 3,000 or more with LLR below 0.5 (reported as "cut", neither accepted nor rejected).

A test paused in an earlier session whose files are gone can be restored from the figures
fastchess printed (a session note keeps them): `--restore W-L-D --ptnml LL,LD,WL+DD,WD,WW`
with the same builds. fastchess plays a first pair, is interrupted, and its saved counts are
replaced by those given (that pair is discarded) before the test continues.

The last line printed is the result: `H1`, `H0`, `cut` or `stopped`, with games, W-L-D,
Elo, pentanomial and LLR as fastchess last reported them.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FASTCHESS = os.path.join(ROOT, "..", "shared", "tools", "bin", "fastchess")
BOOK = os.path.join(ROOT, "..", "shared", "data", "books", "UHO_4060_v4_sample20k.epd")


def parse_report(text):
    """The last result block fastchess printed, as a dict (empty when there is none yet)."""
    report = {}
    patterns = {
        "elo": r"(?m)^Elo: (-?[\d.]+) \+/- ([\d.]+|nan|inf)",
        "games": r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)",
        "ptnml": r"Ptnml\(0-2\): \[([\d, ]+)\]",
        "llr": r"LLR: (-?[\d.]+)",
    }
    for key, pattern in patterns.items():
        found = re.findall(pattern, text)
        if found:
            report[key] = found[-1]
    if "games" in report:
        games, wins, losses, draws = map(int, report["games"])
        report.update(games=games, wins=wins, losses=losses, draws=draws)
    if "ptnml" in report:
        report["ptnml"] = [int(value) for value in report["ptnml"].split(",")]
    if "llr" in report:
        report["llr"] = float(report["llr"])
    if "H1 was accepted" in text:
        report["verdict"] = "H1"
    elif "H0 was accepted" in text:
        report["verdict"] = "H0"
    return report


def should_cut(games, llr):
    """The cut rule: a test this far along and this far from H1 is stopped."""
    return (games >= 1500 and llr < -1.5) or (games >= 3000 and llr < 0.5)


def penta_counts(wins, losses, draws, ptnml):
    """fastchess's saved counts from W-L-D and the pentanomial [LL, LD, WL+DD, WD, WW].

    The middle cell mixes win-loss and draw-draw pairs; the win count tells them apart.
    Raises ValueError when the figures do not fit together.
    """
    ll, ld, middle, wd, ww = ptnml
    wl = wins - 2 * ww - wd
    dd = middle - wl
    counts = {"wins": wins, "losses": losses, "draws": draws, "penta_WW": ww, "penta_WD": wd,
              "penta_WL": wl, "penta_DD": dd, "penta_LD": ld, "penta_LL": ll}
    consistent = (min(counts.values()) >= 0
                  and losses == 2 * ll + ld + wl
                  and draws == wd + ld + 2 * dd
                  and wins + losses + draws == 2 * sum(ptnml))
    if not consistent:
        raise ValueError(f"W-L-D {wins}-{losses}-{draws} and pentanomial {ptnml} disagree")
    return counts


def restore_counts(config_path, counts):
    """Replaces the saved statistics of the one pairing in fastchess's config.json."""
    with open(config_path) as handle:
        config = json.load(handle)
    names = [engine["name"] for engine in config["engines"]]
    config["stats"] = {f"{names[0]} vs {names[1]}": counts}
    with open(config_path + ".tmp", "w") as handle:
        json.dump(config, handle, indent=1)
    os.replace(config_path + ".tmp", config_path)


def command(args):
    if os.path.exists(os.path.join(args.dir, "config.json")):
        return [args.fastchess, "-config", "file=config.json"]
    limit = [f"nodes={args.nodes}", "tc=inf"] if not args.tc else [f"tc={args.tc}"]
    return ([args.fastchess,
             "-engine", f"cmd={os.path.abspath(args.new)}", "name=new",
             "-engine", f"cmd={os.path.abspath(args.old)}", "name=old",
             "-each", "proto=uci", "option.Hash=16", "option.Threads=1"] + limit
            + ["-openings", f"file={os.path.abspath(args.book)}", "format=epd", "order=random",
               "-rounds", str(args.max_games // 2), "-games", "2", "-repeat",
               "-concurrency", str(args.concurrency), "-recover", "-report", "penta=true",
               "-ratinginterval", "20",
               "-sprt", f"elo0={args.elo0}", f"elo1={args.elo1}", "alpha=0.05", "beta=0.05"])


def run(args, stop_when, poll=2.0):
    """Runs fastchess in --dir until it ends or `stop_when(this run's log text)`, looking every
    `poll` seconds; returns the whole log's text (earlier runs of the test included)."""
    log_path = os.path.join(args.dir, "log")
    start = os.path.getsize(log_path) if os.path.exists(log_path) else 0
    with open(log_path, "a") as log:
        process = subprocess.Popen(command(args), cwd=args.dir, stdout=log,
                                   stderr=subprocess.STDOUT)
        last_games = -1
        while process.poll() is None:
            time.sleep(poll)
            with open(log_path) as handle:
                handle.seek(start)
                text = handle.read()
            report = parse_report(text)
            if report.get("games", -1) != last_games and "llr" in report:
                last_games = report["games"]
                print(f"{time.strftime('%H:%M:%S')} games {report['games']} "
                      f"elo {report['elo'][0]} +/- {report['elo'][1]} llr {report['llr']}",
                      flush=True)
            if stop_when(text):
                process.send_signal(signal.SIGINT)
                process.wait()
    with open(log_path) as handle:
        return handle.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", required=True, help="the build under test")
    parser.add_argument("--old", required=True, help="the build before it")
    parser.add_argument("--dir", required=True, help="fastchess's state and log (resumed)")
    parser.add_argument("--nodes", type=int, default=40000)
    parser.add_argument("--tc", default="", help="a time control instead of --nodes")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--max-games", type=int, default=6000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--cut", action="store_true", help="apply the cut rule")
    parser.add_argument("--restore", default="", help="W-L-D of a paused test")
    parser.add_argument("--ptnml", default="", help="its pentanomial LL,LD,WL+DD,WD,WW")
    parser.add_argument("--book", default=BOOK)
    parser.add_argument("--fastchess", default=FASTCHESS)
    args = parser.parse_args()

    for path in (args.new, args.old, args.fastchess, args.book):
        if not os.path.exists(path):
            print(f"sprt.py: no such file: {path}", file=sys.stderr)
            return 2
    os.makedirs(args.dir, exist_ok=True)
    config_path = os.path.join(args.dir, "config.json")
    if args.restore:
        if os.path.exists(config_path):
            print("sprt.py: --restore starts a test; this --dir already has one",
                  file=sys.stderr)
            return 2
        try:
            wins, losses, draws = map(int, args.restore.split("-"))
            ptnml = [int(value) for value in args.ptnml.split(",")]
            counts = penta_counts(wins, losses, draws, ptnml)
        except ValueError as error:
            print(f"sprt.py: --restore/--ptnml: {error}", file=sys.stderr)
            return 2
        run(args, lambda text: "Finished game" in text, poll=0.1)
        if not os.path.exists(config_path):
            print("sprt.py: fastchess saved no state to restore into", file=sys.stderr)
            return 1
        restore_counts(config_path, counts)
        print(f"restored {wins}-{losses}-{draws}, pentanomial {ptnml}", flush=True)

    def stop_when(text):
        report = parse_report(text)
        return args.cut and "llr" in report and should_cut(report["games"], report["llr"])

    # The last report in the log: this run's, or an earlier run's when nothing was left to
    # play (fastchess then reports nothing).
    report = parse_report(run(args, stop_when))
    if "games" not in report:
        print("stopped: no result yet")
        return 1
    if "verdict" in report:
        verdict = report["verdict"]
    else:
        verdict = "cut" if args.cut and should_cut(report["games"], report["llr"]) \
            else "stopped"
    print(f"{verdict}: {report['games']} games, "
          f"{report['wins']}-{report['losses']}-{report['draws']}, "
          f"{report['elo'][0]} +/- {report['elo'][1]} Elo, pentanomial {report['ptnml']}, "
          f"LLR {report['llr']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
