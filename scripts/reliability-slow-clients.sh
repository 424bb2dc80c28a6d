#!/usr/bin/env bash
# Slowloris, slow readers and a connection flood against a release build (docs/RELIABILITY.md).
#
# 1. wrk measures GET /nearby while 1,000 slowloris connections trickle a request head
#    one byte every 3 s, then while 100 slow readers pipeline /openapi.yaml and read it
#    16 bytes a second; each right after a baseline run without them (so a noisy
#    neighbour moves both alike). Normal clients must keep at least half of the
#    baseline's req/s.
# 2. The server is restarted with --max-connections 256 and 2,000 connections arrive
#    at once, each sending GET /healthz and then holding its idle connection: each new
#    one past 90 % of the cap closes an idle one, and only when none is idle is one
#    answered 503; every connection gets 200 or 503 (no other answer, no hang), and
#    the server answers /healthz afterwards.
#
# Every client here connects from 127.0.0.1 and stands for many clients, so both
# servers run with --max-connections-per-client 0: the per-client cap (256) would
# otherwise refuse most of them with 429 (that cap has tests of its own).
#
# CPUs are pinned as scripts/bench.sh pins them: the server on CPU 0, wrk and the
# misbehaving clients on CPU 1, so the clients never take the server's core.
#
# Usage: swift build -c release --product past-nyc && scripts/reliability-slow-clients.sh
# Environment: DURATION (wrk seconds, 10), CONNECTIONS (wrk's, 32), SERVER_CPUS (0)
# and CLIENT_CPUS (1), empty for no pinning.
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
SERVER_CPUS=$(pinnable "${SERVER_CPUS-0}")
CLIENT_CPUS=$(pinnable "${CLIENT_CPUS-1}")
clients() { (on_cpus "$CLIENT_CPUS" python3 "$ROOT/scripts/hostile-clients.py" "$@"); }
NEARBY="/nearby?lat=40.7306&lon=-73.9866&limit=10&photos=5"
ulimit -n "$(ulimit -Hn)"

reqs() { (on_cpus "$CLIENT_CPUS" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$BASE_URL$NEARBY") | awk '/Requests\/sec/ { print $2 }'; }
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$1" "$2"; }
at_least_half() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.5 * float(sys.argv[2]) else 1)" "$1" "$2"; }
fail=0

start_server test --max-connections-per-client 0
curl -sf "$BASE_URL/healthz" >/dev/null
baseline=$(reqs)
baseline_loris=$baseline
echo "baseline: $baseline req/s"

clients --port "$PORT" slowloris --connections 1000 --interval 3 --duration $((DURATION + 10)) > "$WORK_DIR/slowloris.json" &
loris=$!
sleep 5
under_loris=$(reqs)
wait "$loris"
echo "slowloris (1,000 connections): $under_loris req/s, ratio $(ratio "$under_loris" "$baseline"); clients: $(cat "$WORK_DIR/slowloris.json")"
at_least_half "$under_loris" "$baseline" || { echo "FAIL: below half the baseline under slowloris"; fail=1; }

sleep 2  # the slowloris client has closed its connections
baseline=$(reqs)
echo "baseline: $baseline req/s"

clients --port "$PORT" slowread --connections 100 --duration $((DURATION + 8)) > "$WORK_DIR/slowread.json" &
slow=$!
sleep 3
under_slowread=$(reqs)
wait "$slow"
echo "slow readers (100 connections): $under_slowread req/s, ratio $(ratio "$under_slowread" "$baseline"); clients: $(cat "$WORK_DIR/slowread.json")"
at_least_half "$under_slowread" "$baseline" || { echo "FAIL: below half the baseline under slow readers"; fail=1; }
stop_server

start_server test --max-connections 256 --max-connections-per-client 0
clients --port "$PORT" flood --connections 2000 --hold 3 > "$WORK_DIR/flood.json"
echo "flood (2,000 connections at once, cap 256): $(cat "$WORK_DIR/flood.json")"
python3 - "$WORK_DIR/flood.json" <<'PY' || fail=1
import json, sys
result = json.load(open(sys.argv[1]))
problems = [key for key in ("other_status", "refused", "closed_without_answer", "reset") if result[key]]
if result["ok"] < 256 or problems:
    print(f"FAIL: flood outcome {result}")
    sys.exit(1)
PY
status=$(curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/healthz")
echo "after the flood: GET /healthz → $status; server alive: $(kill -0 "$SERVER_PID" && echo yes)"
[[ "$status" == 200 ]] || { echo "FAIL: the server does not answer after the flood"; fail=1; }
flood_summary=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["ok"], "served,", r["unavailable"], "answered 503")' "$WORK_DIR/flood.json")
echo "summary: slowloris $(ratio "$under_loris" "$baseline_loris"), slow readers $(ratio "$under_slowread" "$baseline") of the unloaded req/s (goal >= 0.50 each); flood: $flood_summary, /healthz after it $status; $([[ $fail == 0 ]] && echo PASS || echo FAIL)"
exit "$fail"
