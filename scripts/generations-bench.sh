#!/usr/bin/env bash
# What a new generation of the catalog costs: accepted corrections rebuilt and swapped
# in, the server's memory meanwhile, its start with corrections, and the catalog reads
# while generations keep coming.
#
# Usage: swift build -c release --product past-nyc && scripts/generations-bench.sh
#
# 1. Rebuild and swap. A release server (scripts/run-server.sh, on SERVER_CPUS) with the
#    catalog built; after a warm-up of catalog reads, RUNS times: 1 correction accepted
#    (a row added to catalog_corrections in its accounts.sqlite, as a moderator's
#    decision adds one: scripts/bench/accept-corrections.py), then RUNS times 1,000 at
#    once. For each: the time from the commit to the first answer of the new generation
#    (GET /catalog/changes names it, asked every 10 ms; the watcher looks every second,
#    so this includes up to 1 s of noticing), and the build alone (the server's
#    "catalog generation ready" duration_ms), medians; the server's resident memory
#    before (steady) and its peak during the swap (VmHWM, reset through
#    /proc/PID/clear_refs before each), and their ratio (goal: < 2).
# 2. Start. The same data directory restarted (every correction so far) against a start
#    without corrections, until /healthz answers: medians of RUNS.
# 3. Reads during swaps. scripts/bench.sh on SCENARIOS (catalog reads, each against
#    nginx serving the same bytes), as it is and with a correction accepted every
#    SWAP_EVERY seconds meanwhile (its SWAP_EVERY); per scenario, the server/nginx
#    ratio with swaps over the ratio without (goal: ≥ 0.9).
#
# Environment: RUNS (5), SERVER_CPUS ("0"), SCENARIOS ("nearby-core region-core photos
#   search"), SWAP_EVERY (10), BENCH_RUNS (3: bench.sh's RUNS), DURATION (10s:
#   bench.sh's), READS (1: part 3; 0 skips it), BIN (.build/release/past-nyc).
set -euo pipefail

cd "$(dirname "$0")/.."
PAST_NYC_BIN=${BIN:-${PAST_NYC_BIN:-.build/release/past-nyc}}
source scripts/run-server.sh

RUNS=${RUNS:-5}
SERVER_CPUS=$(pinnable "${SERVER_CPUS:-0}")
SCENARIOS=${SCENARIOS:-"nearby-core region-core photos search"}
SWAP_EVERY=${SWAP_EVERY:-10}
BENCH_RUNS=${BENCH_RUNS:-3}
DURATION=${DURATION:-10s}
READS=${READS:-1}
SEED=1

# The catalog, built once and copied into every data directory.
CATALOG_BUILT="$WORK_DIR/catalog.sqlite"
"$PAST_NYC_BIN" import --data-dir "$WORK_DIR/import" --source-dir "$ROOT/Data" >/dev/null 2>&1
cp "$WORK_DIR/import/catalog.sqlite" "$CATALOG_BUILT"

kib() { awk -v field="$1:" '$1 == field { print $2 }' "/proc/$SERVER_PID/status"; }

# The generation /catalog/changes names now (its sequence).
generation() { curl -sf "$BASE_URL/catalog/changes" | grep -oE '"generation":"[0-9]+' | grep -oE '[0-9]+$'; }

# swap <count>: accepts <count> corrections, waits for their generation, prints
# "<ms until served> <build ms> <steady KiB> <peak KiB>".
swap() {
    local steady started sequence lines
    steady=$(kib VmRSS)
    echo 5 >"/proc/$SERVER_PID/clear_refs"  # VmHWM starts again from VmRSS
    lines=$(grep -c 'catalog generation ready' "$SERVER_LOG" || true)
    started=$(now_ms)
    SEED=$((SEED + 1))
    sequence=$(python3 scripts/bench/accept-corrections.py "$DATA_DIR" "$1" "$SEED")
    until [[ "$(generation)" == "$sequence" ]]; do sleep 0.01; done
    local served=$(( $(now_ms) - started ))
    until (( $(grep -c 'catalog generation ready' "$SERVER_LOG") > lines )); do sleep 0.01; done
    local build
    build=$(grep 'catalog generation ready' "$SERVER_LOG" | tail -n 1 | grep -oE 'duration_ms=[0-9]+' | cut -d= -f2)
    echo "$served $build $steady $(kib VmHWM)"
}

warm_up() {
    local url
    for url in "/nearby?lat=40.7306&lon=-73.9866&limit=10" "/region?south=40.70&west=-74.02&north=40.75&east=-73.97" \
        "/clusters?south=40.49&west=-74.26&north=40.92&east=-73.69&zoom=12" "/search?q=broadway" "/catalog/snapshot"; do
        wrk -t 1 -c 4 -d 2s -H 'Accept-Encoding: gzip' "$BASE_URL$url" >/dev/null
    done
}

DATA_DIR="$WORK_DIR/data"
CATALOG=$CATALOG_BUILT DATA_DIR=$DATA_DIR start_server test
warm_up
echo "Rebuild and swap (release, server on CPUs ${SERVER_CPUS:-any}, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-24s %12s %10s %12s %12s %6s\n' "corrections at once" "served ms" "build ms" "steady MiB" "peak MiB" "peak/steady"
for count in 1 1000; do
    results=()
    for ((run = 1; run <= RUNS; run++)); do
        results+=("$(swap "$count")")
        # The watcher gives the swapped-out generation's memory back at its next look.
        sleep 2
    done
    column() { printf '%s\n' "${results[@]}" | awk -v f="$1" '{ print $f }' | median; }
    printf '%-24s %12s %10s %12.0f %12.0f %6.2f\n' "$count (median of $RUNS)" "$(column 1)" "$(column 2)" \
        "$(echo "$(column 3) / 1024" | bc -l)" "$(echo "$(column 4) / 1024" | bc -l)" \
        "$(printf '%s\n' "${results[@]}" | awk '{ print $4 / $3 }' | median)"
done
total=$(generation)
stop_server

# start_time <data dir>: milliseconds from launch until /healthz answers 200.
start_time() {
    local started
    started=$(now_ms)
    DATA_DIR=$1 launch_server test
    wait_listening
    wait_healthy "$BASE_URL" 300 "$SERVER_PID"
    echo $(( $(now_ms) - started ))
    stop_server
}
mkdir -p "$WORK_DIR/plain"
cp "$CATALOG_BUILT" "$WORK_DIR/plain/catalog.sqlite"
plain=(); corrected=()
for ((run = 1; run <= RUNS; run++)); do
    plain+=("$(start_time "$WORK_DIR/plain")")
    corrected+=("$(start_time "$DATA_DIR")")
done
echo
echo "Start until /healthz (median of $RUNS): no corrections $(printf '%s\n' "${plain[@]}" | median) ms," \
    "generation $total ($(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM catalog_corrections").fetchone()[0])' "$DATA_DIR/accounts.sqlite") corrections)" \
    "$(printf '%s\n' "${corrected[@]}" | median) ms"

[[ "$READS" == 1 ]] || exit 0
echo
echo "Catalog reads against nginx, without and with a swap every $SWAP_EVERY s (scripts/bench.sh)"
# shellcheck disable=SC2086 # the scenarios are words
RUNS=$BENCH_RUNS DURATION=$DURATION START_RUNS=1 scripts/bench.sh $SCENARIOS | tee "$WORK_DIR/without"
# shellcheck disable=SC2086
SWAP_EVERY=$SWAP_EVERY RUNS=$BENCH_RUNS DURATION=$DURATION START_RUNS=1 scripts/bench.sh $SCENARIOS | tee "$WORK_DIR/with"
# ratio <file> <scenario>: the median of the scenario's server/nginx ratios in the
# rounds of a bench.sh report ("round N: <scenario> <req/s>/s <ratio>[!] …").
ratio() {
    awk -v name="$2" '$1 == "round" { for (i = 3; i <= NF; i++) if ($i == name) { sub(/!$/, "", $(i + 2)); print $(i + 2) } }' "$1" |
        median
}
echo
printf '%-16s %14s %14s %10s\n' scenario "ratio without" "ratio with" "with/without (goal ≥ 0.9)"
for name in $SCENARIOS; do
    without=$(ratio "$WORK_DIR/without" "$name"); with=$(ratio "$WORK_DIR/with" "$name")
    printf '%-16s %14s %14s %10s\n' "$name" "$without" "$with" \
        "$(awk -v a="$with" -v b="$without" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
done
