#!/usr/bin/env bash
# Logins at the real (OWASP) scrypt cost from 16 concurrent clients (that wait out
# Retry-After after a 503, as the app does; HONOUR_RETRY_AFTER=0 floods), while GET
# /nearby is measured on 4 other connections: shows that hashing is bounded (503
# with Retry-After beyond 2 running + 4 queued) and does not starve the catalog.
# Each run first measures /nearby alone, then under the login load, while 20
# probe logins (curl, one at a time) time how fast a 503 comes back. Before the
# runs, 10 sequential logins give the time of one OWASP hash (plus well under a
# millisecond of HTTP and SQLite), as a median.
#
# Usage: scripts/bench-login.sh [runs (3)] [duration (10s)]
set -euo pipefail
source "$(dirname "$0")/bench-server.sh"
RUNS=${1:-3}
DURATION=${2:-10s}
NEARBY="/nearby?lat=40.7359&lon=-73.9911&limit=10"

build_release
start_server owasp
register loadtest "login benchmark password" >/dev/null

login_once() {
    curl -s -o /dev/null -w "${1:-}%{time_total}\n" -X POST "$BASE_URL/users/login" \
        -H 'Content-Type: application/json' -d '{"username":"loadtest","password":"login benchmark password"}'
}
sequential=$(for _ in $(seq 1 10); do login_once; done | median)
echo "one login alone (one scrypt N=2^17 r=8 p=1): median $(awk -v s="$sequential" 'BEGIN { print s * 1000 }') ms"
two=$(for _ in $(seq 1 5); do login_once & login_once & wait; done | median)
echo "two logins at once: median $(awk -v s="$two" 'BEGIN { print s * 1000 }') ms each"

requests_per_second() { awk '$1 == "Requests/sec:" { print $2 }' "$1"; }

alone=(); loaded=(); alone_rps=(); loaded_rps=(); logins=(); busy=()
for run in $(seq 1 "$RUNS"); do
    wrk -t1 -c4 -d"$DURATION" --latency "$BASE_URL$NEARBY" >"$WORK_DIR/alone$run.txt"
    LOGIN_USER=loadtest LOGIN_PASSWORD="login benchmark password" \
        wrk -t2 -c16 -d"$DURATION" --timeout 10s --latency -s "$ROOT/scripts/bench-login.lua" "$BASE_URL" \
        >"$WORK_DIR/login$run.txt" &
    login_pid=$!
    wrk -t1 -c4 -d"$DURATION" --latency "$BASE_URL$NEARBY" >"$WORK_DIR/loaded$run.txt" &
    nearby_pid=$!
    for _ in $(seq 1 20); do login_once '%{http_code} '; done >"$WORK_DIR/probes$run.txt"
    wait "$nearby_pid"
    wait "$login_pid"
    alone+=("$(p99_ms "$WORK_DIR/alone$run.txt")")
    loaded+=("$(p99_ms "$WORK_DIR/loaded$run.txt")")
    alone_rps+=("$(requests_per_second "$WORK_DIR/alone$run.txt")")
    loaded_rps+=("$(requests_per_second "$WORK_DIR/loaded$run.txt")")
    ok=$(awk '$1 == "status" && $2 == "200:" { print $3 }' "$WORK_DIR/login$run.txt")
    logins+=("${ok:-0}")
    busy+=("$(awk '$1 == 503 { print $2 * 1000 }' "$WORK_DIR/probes$run.txt" | median)")
    echo "run $run: /nearby alone ${alone_rps[-1]} req/s p99 ${alone[-1]} ms," \
        "under logins ${loaded_rps[-1]} req/s p99 ${loaded[-1]} ms;" \
        "logins: $(grep -E '^status' "$WORK_DIR/login$run.txt" | tr '\n' ' ')" \
        "probe 503s: $(awk '$1 == 503' "$WORK_DIR/probes$run.txt" | wc -l)/20, median ${busy[-1]} ms," \
        "max $(awk '$1 == 503 { print $2 * 1000 }' "$WORK_DIR/probes$run.txt" | sort -g | tail -1) ms"
done
echo "median of $RUNS runs: /nearby alone $(printf '%s\n' "${alone_rps[@]}" | median) req/s" \
    "p99 $(printf '%s\n' "${alone[@]}" | median) ms," \
    "under login load $(printf '%s\n' "${loaded_rps[@]}" | median) req/s" \
    "p99 $(printf '%s\n' "${loaded[@]}" | median) ms;" \
    "successful logins per run $(printf '%s\n' "${logins[@]}" | median);" \
    "503 answered in $(printf '%s\n' "${busy[@]}" | median) ms (curl, connect included)"
echo "server peak RSS (VmHWM): $(awk '$1 == "VmHWM:" { print $2, $3 }' "/proc/$SERVER_PID/status")"
