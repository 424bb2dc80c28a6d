#!/usr/bin/env bash
# GET /sync under load, with wrk: a phone that has nothing new (`since` its last
# answer, no `wait`), and a phone that takes a user's whole state (no `since`) of
# 200 favorites, 100 recents and 5 walks of 20 points each.
#
#     scripts/sync-bench.sh [seconds] [connections]   # defaults: 5 s, 16 connections
#
# Uses the release build (.build/release/past-nyc, or the one PAST_NYC_BIN names); the server
# runs on CPU 0 and wrk on CPU 1 where there are two. Prints wrk's req/s and
# latency percentiles (p50, p99) for each.
set -euo pipefail

SECONDS_=${1:-5}
CONNECTIONS=${2:-16}
source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"
SERVER_CPUS=$(pinnable 0) WRK_CPUS=$(pinnable 1)
export SERVER_CPUS
start_server test

token=$(curl -sf -X POST "$BASE_URL/users" -H 'Content-Type: application/json' \
    -d '{"username":"syncbench","password":"sync bench password"}' | jq -r .token)
auth=(-H "Authorization: Bearer $token")
photos=$(for lat in 40.70 40.71 40.72 40.73 40.74 40.75 40.76 40.77 40.78 40.79; do
    curl -sf "$BASE_URL/nearby?lat=$lat&lon=-73.99&limit=20&photos=5" | jq -r '.locations[].photos[].photoID'
done | sort -u | head -300)
(($(wc -l <<<"$photos") == 300)) || fail "fewer than 300 photos near the points asked"
head -200 <<<"$photos" | while read -r photo; do curl -sf -o /dev/null -X PUT "$BASE_URL/favorites/$photo" "${auth[@]}"; done
tail -100 <<<"$photos" | while read -r photo; do curl -sf -o /dev/null -X PUT "$BASE_URL/recents/$photo" "${auth[@]}"; done
for walk in 1 2 3 4 5; do
    walk_id=$(curl -sf -X POST "$BASE_URL/walks" "${auth[@]}" | jq -r .walkID)
    for step in $(seq 1 20); do
        curl -sf -o /dev/null -X POST "$BASE_URL/walks/$walk_id/points" "${auth[@]}" -H 'Content-Type: application/json' \
            -d "{\"latitude\": $(echo "40.70 + $walk * 0.01 + $step * 0.0004" | bc), \"longitude\": -73.99}"
    done
done

whole=$(curl -sf "$BASE_URL/sync?limit=1000" "${auth[@]}")
echo "whole state: $(jq '.changes | length' <<<"$whole") changes, $(wc -c <<<"$whole") bytes, more: $(jq .more <<<"$whole")"
echo "/sync?limit=1000" >"$WORK_DIR/whole.pool"
echo "/sync?since=$(jq -r .next <<<"$whole")" >"$WORK_DIR/quiet.pool"

for pool in quiet whole; do
    line=$( (on_cpus "$WRK_CPUS" env TOKEN="$token" wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_}s" --latency \
        -s scripts/bench/replay.lua "$BASE_URL" -- "$WORK_DIR/$pool.pool" 1) |
        awk '/Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 } END { print rps, p50, p99 }')
    read -r rps p50 p99 <<<"$line"
    echo "$pool: $rps req/s, p50 $p50, p99 $p99 ($CONNECTIONS connections)"
done
stop_server
