#!/usr/bin/env bash
# Byte-identical check: starts two builds of the server on the same catalog data and
# sends both the same few thousand seeded catalog requests (scripts/compare-responses.py:
# /nearby, /region, /photos, /clusters, /search with paging, bad parameters, HEAD,
# If-None-Match and gzip), comparing status, Content-Type, ETag, Content-Encoding,
# Vary, Content-Length and body. Exits 1 on any difference.
#
# Usage: scripts/compare-responses.sh OLD_BINARY NEW_BINARY
#   e.g. cp .build/release/past-nyc /tmp/past-nyc-before && (change, rebuild) &&
#        scripts/compare-responses.sh /tmp/past-nyc-before .build/release/past-nyc
# Environment: COUNT (3000 catalog requests), SEED (1), OLD_PORT (18090), NEW_PORT (18091).
set -euo pipefail

cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
COUNT=${COUNT:-3000}
SEED=${SEED:-1}
OLD_PORT=${OLD_PORT:-18090}
NEW_PORT=${NEW_PORT:-18091}

WORK=$(mktemp -d /tmp/compare-responses.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start <binary> <port> <name>: the server on its own data directory, until /healthz answers.
start() {
    mkdir -p "$WORK/$3"
    "$1" serve --host 127.0.0.1 --port "$2" --data-dir "$WORK/$3" --password-cost test --log-level warning \
        >"$WORK/$3.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 1200); do
        curl -sf -o /dev/null "http://127.0.0.1:$2/healthz" && return 0
        kill -0 "${PIDS[-1]}" 2>/dev/null || { echo "compare-responses: $1 exited:" >&2; cat "$WORK/$3.log" >&2; exit 1; }
        sleep 0.05
    done
    echo "compare-responses: $1 did not answer /healthz within 60 s" >&2
    exit 1
}
start "$1" "$OLD_PORT" old
start "$2" "$NEW_PORT" new
python3 scripts/compare-responses.py --old "$OLD_PORT" --new "$NEW_PORT" --data Data/oldnyc-locations.jsonl.gz \
    --count "$COUNT" --seed "$SEED"
