#!/usr/bin/env bash
# The offline snapshot (`GET /catalog/snapshot`) on loopback, with curl: its size,
# its gzip size and download times (whole, gzip, the second half as a resumed
# range), and what it costs a start: the time from launch to `/healthz` 200 on
# later starts (the catalog already built) and the server's own "catalog generation
# ready" figure (everything served from the catalog, the snapshot's body, its tag and
# its gzip copy from the stored blocks among it).
#
#     scripts/snapshot-bench.sh [runs]     # runs: downloads and restarts, default 5
#
# Uses the release build (.build/release/past-nyc, or the one PAST_NYC_BIN names). Figures are
# medians of `runs`; the downloads go to /dev/null.
set -euo pipefail

RUNS=${1:-5}
source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"

# The first start builds the catalog (and stores the snapshot's gzip blocks).
DATA_DIR="$WORK_DIR/data"
first_started=$(date +%s.%N)
start_server test
first_seconds=$(echo "$(date +%s.%N) - $first_started" | bc)
url="$BASE_URL/catalog/snapshot"

curl_median() { # curl_median <curl options...>: median of time_total in seconds, and the size.
    local times=() size=0
    for _ in $(seq 1 "$RUNS"); do
        read -r size time < <(curl -s -o /dev/null -w '%{size_download} %{time_total}\n' "$@")
        times+=("$time")
    done
    echo "$size $(printf '%s\n' "${times[@]}" | median)"
}

read -r identity_bytes identity_seconds < <(curl_median "$url")
read -r gzip_bytes gzip_seconds < <(curl_median -H 'Accept-Encoding: gzip' "$url")
etag=$(curl -s -D - -o /dev/null "$url" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
half=$((identity_bytes / 2))
read -r range_bytes range_seconds < <(curl_median -H "Range: bytes=$half-" -H "If-Range: $etag" "$url")
stop_server

# Later starts: launch to /healthz 200, and the server's own figure for the generation.
start_times=()
snapshot_ms=()
for run in $(seq 1 "$RUNS"); do
    log="$WORK_DIR/restart-$run.log"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    started=$(date +%s.%N)
    "$BIN" serve --host 127.0.0.1 --port "$port" --data-dir "$DATA_DIR" --source-dir "$ROOT/Data" \
        --openapi "$ROOT/openapi.yaml" --web-dir "$ROOT/Web" --password-cost test --log-level info 2>"$log" &
    SERVER_PID=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; do
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.01
    done
    start_times+=("$(echo "$(date +%s.%N) - $started" | bc)")
    snapshot_ms+=("$(grep -oE 'catalog generation ready.*' "$log" | grep -oE 'duration_ms=[0-9]+' | cut -d= -f2)")
    grep -q 'snapshot_blocks_compressed=0' "$log" || { echo "restart $run compressed the snapshot again" >&2; exit 1; }
    stop_server
done

printf 'snapshot: %d bytes, gzip %d bytes (%.1f%%)\n' "$identity_bytes" "$gzip_bytes" \
    "$(echo "100 * $gzip_bytes / $identity_bytes" | bc -l)"
printf 'download on loopback (median of %d): whole %.3f s, gzip %.3f s, second half as a range (%d bytes) %.3f s\n' \
    "$RUNS" "$identity_seconds" "$gzip_seconds" "$range_bytes" "$range_seconds"
printf 'first start (catalog build, snapshot stored): listening after %.1f s\n' "$first_seconds"
printf 'later starts (median of %d): launch to /healthz 200 in %.3f s, of which the catalog generation %s ms\n' \
    "$RUNS" "$(printf '%s\n' "${start_times[@]}" | median)" "$(printf '%s\n' "${snapshot_ms[@]}" | median)"
