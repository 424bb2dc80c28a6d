#!/usr/bin/env bash
# Two builds of the server on one scenario of scripts/bench.sh, in alternating rounds,
# so that a noisy neighbour slows both alike: each round runs bench.sh once (RUNS=1)
# with the first build, then once with the second; the report gives each round's
# req/s, p50 and p99 per build, then their medians and the second's over the first's.
#
#   scripts/bench-compare.sh BEFORE AFTER [SCENARIO]      (default: favorites-ids)
#
# BEFORE and AFTER are past-nyc executables (say, one built from main and one from a
# branch). Environment: ROUNDS (5), and bench.sh's own (DURATION, SERVER_CPUS,
# WRK_CPUS, SEED, …); each bench.sh run starts its server afresh (START_RUNS=1).
set -euo pipefail

cd "$(dirname "$0")/.."
source scripts/lib.sh

(($# >= 2)) || fail "usage: scripts/bench-compare.sh BEFORE AFTER [SCENARIO]"
BUILDS=("$(realpath "$1")" "$(realpath "$2")")
SCENARIO=${3:-favorites-ids}
ROUNDS=${ROUNDS:-5}
for build in "${BUILDS[@]}"; do [[ -x "$build" ]] || fail "no executable $build"; done

# run_once <build>: "req/s p50 p99" of one bench.sh run of the scenario.
run_once() {
    BIN=$1 RUNS=1 START_RUNS=1 scripts/bench.sh "$SCENARIO" 2>&1 |
        awk '/^scenario \(median/ { table = 1; next }
             table && /\|/ { split($0, parts, "|"); n = split(parts[1], f, " "); print f[n - 4], f[n - 3], f[n - 2]; exit }'
}

declare -a rps p50 p99
echo "scenario $SCENARIO, $ROUNDS rounds; before: ${BUILDS[0]}; after: ${BUILDS[1]}"
for ((round = 1; round <= ROUNDS; round++)); do
    line="round $round:"
    for index in 0 1; do
        read -r r a b <<<"$(run_once "${BUILDS[index]}")"
        [[ -n "$b" ]] || fail "bench.sh gave no result for ${BUILDS[index]}"
        rps[index]+="$r "; p50[index]+="$a "; p99[index]+="$b "
        line+=" $([[ $index == 0 ]] && echo before || echo after) ${r}/s p50 ${a} ms p99 ${b} ms;"
    done
    echo "$line"
done

printf '\n%-8s %8s %8s %8s\n' "median" "req/s" "p50 ms" "p99 ms"
for index in 0 1; do
    printf '%-8s %8s %8s %8s\n' "$([[ $index == 0 ]] && echo before || echo after)" \
        "$(tr ' ' '\n' <<<"${rps[index]}" | grep . | median)" "$(tr ' ' '\n' <<<"${p50[index]}" | grep . | median)" \
        "$(tr ' ' '\n' <<<"${p99[index]}" | grep . | median)"
done
awk -v b="$(tr ' ' '\n' <<<"${p99[0]}" | grep . | median)" -v a="$(tr ' ' '\n' <<<"${p99[1]}" | grep . | median)" \
    -v rb="$(tr ' ' '\n' <<<"${rps[0]}" | grep . | median)" -v ra="$(tr ' ' '\n' <<<"${rps[1]}" | grep . | median)" \
    'BEGIN { printf "after/before: req/s %.2f, p99 %.2f\n", ra / rb, a / b }'
