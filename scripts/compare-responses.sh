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
# Environment: COUNT (3000 catalog requests), SEED (1), OLD_PORT and NEW_PORT (free ones).
set -euo pipefail

cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
COUNT=${COUNT:-3000}
SEED=${SEED:-1}
source scripts/run-server.sh

# start <binary> <port> <name>: the server on its own data directory; sets PORT.
start() {
    BIN=$1 SERVER_PORT=$2 DATA_DIR="$WORK_DIR/$3" start_server test
    wait_healthy "$BASE_URL" 60 "$SERVER_PID"
}
start "$1" "${OLD_PORT:-0}" old
old_port=$PORT
start "$2" "${NEW_PORT:-0}" new
python3 scripts/compare-responses.py --old "$old_port" --new "$PORT" --data Data/oldnyc-locations.jsonl.gz \
    --count "$COUNT" --seed "$SEED"
