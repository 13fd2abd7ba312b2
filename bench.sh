#!/usr/bin/env bash
# Benchmarks (figures, not tests). Builds a release binary tuned for this CPU and compares it with
# reference engines run on the same machine in the same run.
#
#   ./bench.sh              search bench: signature (node count) and nps, vs `ethereal-chess bench`
#                           and `stockfish bench`
#   ./bench.sh perft-speed  startpos perft 6 and Kiwipete perft 5, vs Stockfish's `go perft`
#   ./bench.sh perft        perft-speed, then every perft suite in perft/ at full depth (long)
#   ./bench.sh syzygy       the prober against python-chess on 100,000 random 3-4 piece positions
#                           (../shared/data/syzygy; CI checks 3,000)
#
# Reference engines: `apt-get install stockfish ethereal-chess` (found in /usr/games).
set -euo pipefail
cd "$(dirname "$0")"

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/native"
export RUSTFLAGS="-C target-cpu=native"
cargo build --release --quiet
ENGINE="$CARGO_TARGET_DIR/release/engine"
STOCKFISH="$(command -v stockfish || echo /usr/games/stockfish)"
ETHEREAL="$(command -v ethereal-chess || echo /usr/games/ethereal-chess)"

now_ms() { date +%s%3N; }

# Best of `runs` wall times in ms of a command; the machine is shared, so the minimum is the
# least disturbed run.
best_ms() {
    local runs=3 best="" start end elapsed
    for _ in $(seq "$runs"); do
        start=$(now_ms); "$@" >/dev/null; end=$(now_ms)
        elapsed=$((end - start))
        if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
    done
    echo "$best"
}

stockfish_run() { printf '%s' "$1" | "$STOCKFISH" | grep -q "${2:-.}"; }

# Stockfish's `go perft` wall time minus its start-up time (both best of 3).
stockfish_perft_ms() {
    local fen="$1" depth="$2" base total
    base=$(best_ms stockfish_run $'quit\n')
    total=$(best_ms stockfish_run "$(printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$depth")" "Nodes searched")
    echo $((total - base))
}

ox88_perft_ms() {
    best_ms "$ENGINE" perft "$2" --fen "$1"
}

perft_speed() {
    local start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    local kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    printf '%-22s %10s %12s %7s\n' "perft" "Ox88 ms" "Stockfish ms" "ratio"
    for case in "startpos 6|$start_fen|6" "kiwipete 5|$kiwipete|5"; do
        IFS='|' read -r name fen depth <<<"$case"
        local ours theirs="n/a" ratio="n/a"
        ours=$(ox88_perft_ms "$fen" "$depth")
        if [ -x "$STOCKFISH" ]; then
            theirs=$(stockfish_perft_ms "$fen" "$depth")
            ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
        fi
        printf '%-22s %10s %12s %7s\n' "$name" "$ours" "$theirs" "$ratio"
    done
    echo "(best of 3 runs each; ratio = Ox88 time / Stockfish time; bar <= 1.5)"
}

search_bench() {
    local ours ours_nps theirs_nps
    ours=$("$ENGINE" bench | tail -n 1)
    echo "Ox88 bench: $ours"
    ours_nps=$(awk '{ print $3 }' <<<"$ours")
    if [ -x "$ETHEREAL" ]; then
        theirs_nps=$("$ETHEREAL" bench 2>/dev/null | awk '/^NPS/ { print $3 }')
        echo "Ethereal bench: $theirs_nps nps"
        awk -v a="$ours_nps" -v b="$theirs_nps" 'BEGIN { printf "nps ratio Ox88/Ethereal: %.2f (bar >= 1.0)\n", a / b }'
    fi
    # Stockfish evaluates with a network too; its bench prints its figures on stderr.
    if [ -x "$STOCKFISH" ]; then
        theirs_nps=$("$STOCKFISH" bench 2>&1 >/dev/null | awk '/^Nodes\/second/ { print $3 }')
        echo "Stockfish bench: $theirs_nps nps"
        awk -v a="$ours_nps" -v b="$theirs_nps" 'BEGIN { printf "nps ratio Ox88/Stockfish: %.2f (goal >= 1.5)\n", a / b }'
    fi
}

case "${1:-search}" in
    search) search_bench ;;
    perft-speed) perft_speed ;;
    perft)
        perft_speed
        echo "Full-depth perft suites (cargo test --release -- --ignored):"
        cargo test --release --quiet --test perft_suites -- --ignored --nocapture
        ;;
    syzygy) python3 tests/python/test_syzygy.py --engine "$ENGINE" --count 100000 --seed 2026 ;;
    *) echo "usage: $0 [search|perft-speed|perft|syzygy]" >&2; exit 2 ;;
esac
