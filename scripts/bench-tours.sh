#!/usr/bin/env bash
# GET /tours from random points of Manhattan with the default budget (60 minutes,
# 8 stops, 5 photos a stop): req/s, p50 and p99 of wrk, the server's CPU time per
# request, and how many photos the planned tours collect against the greedy tours
# the API promises to match (`past-nyc tour-gain` on the same points).
#
# The points: random Manhattan locations of the catalog (from /region), each moved
# by up to ~100 m, drawn by awk from SEED. wrk builds its request pool from them
# once per thread (scripts/bench-tours.lua). Prints each run and the medians.
#
# Usage: scripts/bench-tours.sh [runs (3)] [duration (10s)]
# Environment: CONNECTIONS (16), POINTS (1000), SEED (1), SKIP_BUILD (unset).
set -euo pipefail
source "$(dirname "$0")/bench-server.sh"
RUNS=${1:-3}
DURATION=${2:-10s}
CONNECTIONS=${CONNECTIONS:-16}
POINTS=${POINTS:-1000}
SEED=${SEED:-1}

[[ -n "${SKIP_BUILD:-}" ]] || build_release
start_server test

curl -sf "$BASE_URL/region?south=40.68&west=-74.05&north=40.88&east=-73.90&borough=manhattan&limit=5000" \
    | jq -r '.locations[] | "\(.latitude) \(.longitude)"' >"$WORK_DIR/manhattan"
awk -v seed="$SEED" -v count="$POINTS" '
    { latitude[NR] = $1; longitude[NR] = $2 }
    END {
        srand(seed)
        for (i = 0; i < count; i++) {
            pick = int(rand() * NR) + 1
            printf "%.6f %.6f\n", latitude[pick] + (rand() - 0.5) * 0.0018, longitude[pick] + (rand() - 0.5) * 0.0024
        }
    }' "$WORK_DIR/manhattan" >"$WORK_DIR/points"
echo "points: $POINTS random points near $(wc -l <"$WORK_DIR/manhattan") Manhattan locations (seed $SEED)"

echo "--- planned against greedy (past-nyc tour-gain, one thread, server idle)"
"$BIN" tour-gain --data-dir "$WORK_DIR/data" --source-dir "$ROOT/Data" "$WORK_DIR/points"

# cpu_seconds <pid>: user plus system CPU seconds the process has used.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

echo "--- wrk -t1 -c$CONNECTIONS, $DURATION x $RUNS"
POINTS_FILE="$WORK_DIR/points" SEED="$SEED" wrk -t1 -c"$CONNECTIONS" -d2s -s "$ROOT/scripts/bench-tours.lua" "$BASE_URL" >/dev/null
rates=(); p50s=(); p99s=(); cpus=()
for run in $(seq 1 "$RUNS"); do
    before=$(cpu_seconds "$SERVER_PID")
    POINTS_FILE="$WORK_DIR/points" SEED="$((SEED + run))" \
        wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$ROOT/scripts/bench-tours.lua" "$BASE_URL" \
        >"$WORK_DIR/run$run.txt"
    after=$(cpu_seconds "$SERVER_PID")
    rate=$(awk '$1 == "Requests/sec:" { print $2 }' "$WORK_DIR/run$run.txt")
    requests=$(awk '/requests in/ { print $1 }' "$WORK_DIR/run$run.txt")
    p50=$(awk '$1 == "50%" { print $2 }' "$WORK_DIR/run$run.txt")
    p99=$(p99_ms "$WORK_DIR/run$run.txt")
    cpu=$(awk -v a="$before" -v b="$after" -v n="$requests" 'BEGIN { printf "%.0f", (b - a) / n * 1e6 }')
    echo "run $run: $rate req/s, p50 $p50, p99 ${p99} ms, server CPU ${cpu} µs/request; $(grep '^status' "$WORK_DIR/run$run.txt" | tr '\n' ' ')"
    rates+=("$rate"); p99s+=("$p99"); cpus+=("$cpu")
done
echo "GET /tours median of $RUNS runs: $(printf '%s\n' "${rates[@]}" | median) req/s, p99 $(printf '%s\n' "${p99s[@]}" | median) ms, server CPU $(printf '%s\n' "${cpus[@]}" | median) µs/request"
