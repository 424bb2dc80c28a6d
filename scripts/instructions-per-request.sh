#!/usr/bin/env bash
# User-space instructions per request of a release server, counted by callgrind:
# unlike req/s, the figure does not move with the machine's load.
#
# Usage: scripts/instructions-per-request.sh BIN POOL CATALOG [SECONDS]
#   BIN      the server (its debug info is stripped into a copy: valgrind cannot read Swift's)
#   POOL     a request pool as scripts/bench/replay.lua reads it (a path, or a method and a path, a line)
#   CATALOG  a built catalog.sqlite (e.g. var/catalog.sqlite), copied to a scratch data directory
# Starts the server under callgrind (instrumentation off), warms it up with wrk for 3 s,
# counts the access log's request lines while wrk replays POOL for SECONDS (default 8) with
# instrumentation on, and prints the requests, the instructions and their ratio. The whole
# process is counted: event loop, log writer, workers, the group committer. The profile is
# kept in PROFILE (default /tmp/past-nyc-callgrind.out).
#
# Writes: with REGISTER=1 a fresh user is registered and every request carries its token;
# WARM_POOL (default POOL) is what the warm-up replays. Give writes a WARM_POOL of other
# photos, so that the counted PUTs each save a photo not saved yet, e.g. the two halves of
# one pool of `PUT /favorites/{id}` lines.
set -euo pipefail
POOL=$2 CATALOG=$3 SECONDS_=${4:-8}
cd "$(dirname "$0")/.."
source scripts/run-server.sh
D=$WORK_DIR
objcopy --strip-debug "$1" "$D/server"
BIN="$D/server" SERVER_CPUS=0 SERVER_LOG_LEVEL=info SERVER_START_SECONDS=600 \
    SERVER_WRAPPER="valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$D/cg.out" start_server test
wait_healthy "$BASE_URL" 600 "$SERVER_PID"
if [[ "${REGISTER:-0}" == 1 ]]; then
    TOKEN=$(curl -sf -X POST "$BASE_URL/users" -H 'Content-Type: application/json' \
        -d '{"username":"instructions","password":"instructions per request"}' | jq -r .token)
    export TOKEN
fi
taskset -c 1 wrk -t1 -c64 -d3s -s scripts/bench/replay.lua "$BASE_URL" -- "${WARM_POOL:-$POOL}" 1 >/dev/null
sleep 1  # the log writer flushes every 50 ms
callgrind_control -i on "$SERVER_PID" >/dev/null 2>&1
callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
before=$(grep -c 'msg=request' "$SERVER_LOG" || true)
taskset -c 1 wrk -t1 -c64 -d"${SECONDS_}s" -s scripts/bench/replay.lua "$BASE_URL" -- "$POOL" 1 >/dev/null
sleep 1
callgrind_control -d "$SERVER_PID" >/dev/null 2>&1
after=$(grep -c 'msg=request' "$SERVER_LOG" || true)
requests=$((after - before))
instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$D/cg.out.1")
echo "requests=$requests instructions=$instructions per_request=$((instructions / requests))"
cp "$D/cg.out.1" "${PROFILE:-/tmp/past-nyc-callgrind.out}"
echo "profile: callgrind_annotate --inclusive=yes ${PROFILE:-/tmp/past-nyc-callgrind.out} | swift-demangle --simplified"
