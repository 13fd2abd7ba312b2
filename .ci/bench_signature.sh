#!/usr/bin/env bash
# The bench signature, checked as Stockfish's CI checks it: the node count that `engine bench`
# prints (last line `<nodes> nodes <nps> nps`) must equal the last `Bench: N` line in the commit
# messages and `EXPECTED_BENCH_NODES` in src/bench.rs. Any of the three disagreeing fails.
#
# Usage: .ci/bench_signature.sh [ENGINE [MESSAGES_FILE]]
#   ENGINE         the engine binary (default: target/release/engine, built by the caller)
#   MESSAGES_FILE  read commit messages from this file instead of `git log --format=%B`
#                  (newest first, as git log prints them), to try the check on a made-up history
set -euo pipefail
cd "$(dirname "$0")/.."

engine="${1:-target/release/engine}"
messages_file="${2:-}"

fail() {
    echo "bench signature: FAIL: $*" >&2
    exit 1
}

# 1. The number in the code.
constant_line=$(grep -E '^pub const EXPECTED_BENCH_NODES: u64 = [0-9_]+;' src/bench.rs || true)
[[ -n "$constant_line" ]] || fail "no 'pub const EXPECTED_BENCH_NODES: u64 = N;' line in src/bench.rs"
code_nodes=$(sed -E 's/.*= ([0-9_]+);.*/\1/; s/_//g' <<<"$constant_line")

# 2. The number in the commit messages: the newest `Bench: N` line.
if [[ -n "$messages_file" ]]; then
    messages=$(cat "$messages_file")
    source_name="$messages_file"
else
    messages=$(git log --format=%B)
    source_name="git log"
fi
commit_line=$(grep -m1 -E '^Bench: ' <<<"$messages" || true)
if [[ -z "$commit_line" ]]; then
    if [[ -z "$messages_file" && "$(git rev-parse --is-shallow-repository)" == true ]]; then
        fail "no 'Bench: N' line in the $(git rev-list --count HEAD) commit(s) of this shallow" \
            "clone; clone with more history (git fetch --unshallow) or add a Bench: line" \
            "to the newest commit message"
    fi
    fail "no 'Bench: N' line in any commit message ($source_name)"
fi
commit_nodes=$(sed -E 's/^Bench: *([0-9]+).*/\1/' <<<"$commit_line")
[[ "$commit_nodes" =~ ^[0-9]+$ ]] || fail "cannot read a node count from '$commit_line' ($source_name)"

# 3. The number the engine prints.
[[ -x "$engine" ]] || fail "no engine binary at $engine (build it first)"
last_line=$("$engine" bench | tail -n 1)
[[ "$last_line" =~ ^([0-9]+)\ nodes\ [0-9]+\ nps$ ]] ||
    fail "the last line of '$engine bench' is not '<nodes> nodes <nps> nps': '$last_line'"
bench_nodes="${BASH_REMATCH[1]}"

echo "bench signature: engine bench $bench_nodes, EXPECTED_BENCH_NODES $code_nodes," \
    "last commit Bench: $commit_nodes"
if [[ "$bench_nodes" != "$commit_nodes" || "$bench_nodes" != "$code_nodes" ]]; then
    fail "engine bench prints $bench_nodes nodes, the last 'Bench:' commit line says" \
        "$commit_nodes and EXPECTED_BENCH_NODES in src/bench.rs is $code_nodes; a change" \
        "that changes the node count sets the constant and writes 'Bench: <new count>'" \
        "in its commit message"
fi
echo "bench signature: OK ($bench_nodes)"
