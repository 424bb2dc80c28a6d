#!/usr/bin/env bash
# POST /walks/{walkID}/points throughput and tail latency: wrk, 2 threads, 16
# connections, one user with 64 walks for each kind of point:
#   accepted: each a new point of its walk (150 m from any other of the walk), so
#     each is a durable write (point, entry, counters; synchronous=FULL), the
#     writes of concurrent requests sharing one commit (group commit);
#   rejected: nearer than 100 m to the walk's last point, so nothing is written.
# Prints each run's requests/s, p99 and statuses, and the medians over the runs.
#
# Usage: scripts/bench-walks.sh [runs (3)] [duration (10s)]
# Environment: SKIP_BUILD=1 uses the release binary as it is.
set -euo pipefail
source "$(dirname "$0")/bench-server.sh"
RUNS=${1:-3}
DURATION=${2:-10s}
THREADS=2
WALKS=64

[[ "${SKIP_BUILD:-0}" == 1 ]] || build_release
start_server test
token=$(register walker "walks benchmark password")

# start_walks <file> [first point]: starts $WALKS walks, one ID a line in <file>.
start_walks() {
    for _ in $(seq 1 "$WALKS"); do
        local walk
        walk=$(curl -sf -X POST "$BASE_URL/walks" -H "Authorization: Bearer $token" | jq -r .walkID)
        echo "$walk"
        if [[ -n "${2:-}" ]]; then
            curl -sf -o /dev/null -X POST "$BASE_URL/walks/$walk/points" -H "Authorization: Bearer $token" \
                -H 'Content-Type: application/json' -d "$2"
        fi
    done >"$1"
}
start_walks "$WORK_DIR/accept-walks"
# The rejected points' reference: each of these walks' first point.
start_walks "$WORK_DIR/reject-walks" '{"latitude":40.70,"longitude":-74.00}'

# bench <mode> <run>: one wrk run; prints its lines and leaves them in $WORK_DIR.
bench() {
    MODE=$1 RUN=$2 THREADS=$THREADS WALK_IDS="$WORK_DIR/$1-walks" TOKEN="$token" \
        wrk -t"$THREADS" -c16 -d"$DURATION" --latency -s "$ROOT/scripts/bench-walks.lua" "$BASE_URL" \
        | tee "$WORK_DIR/$1-$2.txt"
}
rate() { awk '$1 == "Requests/sec:" { print $2 }' "$1"; }

for mode in accept reject; do
    rates=()
    p99s=()
    for run in $(seq 1 "$RUNS"); do
        bench "$mode" "$run"
        rates+=("$(rate "$WORK_DIR/$mode-$run.txt")")
        p99s+=("$(p99_ms "$WORK_DIR/$mode-$run.txt")")
        echo "$mode run $run: ${rates[-1]} req/s, p99 ${p99s[-1]} ms"
    done
    echo "$mode: median $(printf '%s\n' "${rates[@]}" | median) req/s, p99 median $(printf '%s\n' "${p99s[@]}" | median) ms over $RUNS runs"
done
