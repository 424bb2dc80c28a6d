#!/usr/bin/env bash
# User-space instructions per request of a release server, counted by callgrind:
# unlike req/s, the figure does not move with the machine's load.
#
# Usage: scripts/instructions-per-request.sh BIN POOL CATALOG [SECONDS]
#   BIN      the server (its debug info is stripped into a copy: valgrind cannot read Swift's)
#   POOL     a request pool as scripts/bench/replay.lua reads it (one path a line)
#   CATALOG  a built catalog.sqlite (e.g. var/catalog.sqlite), copied to a scratch data directory
# Starts the server under callgrind (instrumentation off), warms it up with wrk for 3 s,
# counts the access log's request lines while wrk replays POOL for SECONDS (default 8) with
# instrumentation on, and prints the requests, the instructions and their ratio. The whole
# process is counted: event loop, log writer, workers.
set -euo pipefail
BIN=$1 POOL=$2 CATALOG=$3 SECONDS_=${4:-8}
PORT=${PORT:-18190}
cd "$(dirname "$0")/.."
D=$(mktemp -d /tmp/ipr.XXXXXX)
objcopy --strip-debug "$BIN" "$D/server"
cp "$CATALOG" "$D/"
taskset -c 0 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$D/cg.out" \
    "$D/server" serve --host 127.0.0.1 --port "$PORT" --data-dir "$D" --password-cost test 2>"$D/log" >/dev/null &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 600); do
    kill -0 $SERVER || { echo "server died: $D/log" >&2; exit 1; }
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 1
done
taskset -c 1 wrk -t1 -c64 -d3s -s scripts/bench/replay.lua "http://127.0.0.1:$PORT" -- "$POOL" 1 >/dev/null
sleep 1  # the log writer flushes every 50 ms
callgrind_control -i on $SERVER >/dev/null 2>&1
callgrind_control -z $SERVER >/dev/null 2>&1
before=$(grep -c 'msg=request' "$D/log" || true)
taskset -c 1 wrk -t1 -c64 -d"${SECONDS_}s" -s scripts/bench/replay.lua "http://127.0.0.1:$PORT" -- "$POOL" 1 >/dev/null
sleep 1
callgrind_control -d $SERVER >/dev/null 2>&1
after=$(grep -c 'msg=request' "$D/log" || true)
requests=$((after - before))
instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$D/cg.out.1")
echo "requests=$requests instructions=$instructions per_request=$((instructions / requests))"
echo "profile: callgrind_annotate --inclusive=yes $D/cg.out.1 | swift-demangle --simplified"
