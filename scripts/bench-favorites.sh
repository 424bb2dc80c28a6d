#!/usr/bin/env bash
# PUT /favorites/{photoID} throughput and tail latency: wrk, 2 threads, 16
# connections, each run a fresh user saving photos from the catalog (every new
# favorite is an fsynced commit: synchronous=FULL). Prints each run's p99 and the
# median over the runs.
#
# Usage: scripts/bench-favorites.sh [runs (3)] [duration (10s)]
set -euo pipefail
source "$(dirname "$0")/bench-server.sh"
RUNS=${1:-3}
DURATION=${2:-10s}

build_release
start_server test

# Enough distinct photo ids that nearly every PUT saves a new favorite: the
# photos of the 100 locations nearest to each point of a grid over Manhattan and
# Brooklyn.
for lat in 40.58 40.62 40.66 40.70 40.74 40.78 40.82 40.86; do
    for lon in -74.02 -73.98 -73.94 -73.90; do
        curl -sf "$BASE_URL/nearby?lat=$lat&lon=$lon&limit=100&photos=50" | jq -r '.locations[].photos[].photoID'
    done
done | sort -u >"$WORK_DIR/photo-ids"
echo "photo ids: $(wc -l <"$WORK_DIR/photo-ids")"

p99s=()
for run in $(seq 1 "$RUNS"); do
    token=$(register "bench$run" "favorites benchmark password")
    PHOTO_IDS="$WORK_DIR/photo-ids" TOKEN="$token" \
        wrk -t2 -c16 -d"$DURATION" --latency -s "$ROOT/scripts/bench-favorites.lua" "$BASE_URL" \
        | tee "$WORK_DIR/run$run.txt"
    p99=$(p99_ms "$WORK_DIR/run$run.txt")
    echo "run $run: p99 ${p99} ms"
    p99s+=("$p99")
done
echo "PUT /favorites p99 median of $RUNS runs: $(printf '%s\n' "${p99s[@]}" | median) ms"
