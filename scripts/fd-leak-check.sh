#!/usr/bin/env bash
# Descriptor-leak check (CI, docs/RELIABILITY.md): starts a release build, warms it up,
# counts its open descriptors (/proc/PID/fd), runs DURATION seconds of mixed good,
# bad and aborted requests (scripts/hostile-clients.py burst: half heads, cut bodies,
# garbage, resets, clients gone before the answer), and fails unless the count comes
# back to that baseline within 10 s of the last client leaving.
#
# Usage: swift build -c release --product past-nyc && scripts/fd-leak-check.sh
# Environment: DURATION (15).
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
DURATION=${DURATION:-15}
CLIENTS="python3 $ROOT/scripts/hostile-clients.py"

fds() { descriptor_count "$SERVER_PID"; }

start_server test
curl -sf "$BASE_URL/healthz" >/dev/null
# Warm-up with the same concurrency: every lazily opened file (the database connections a
# pool opens as load grows, their journals) is open before the baseline.
$CLIENTS --port "$PORT" burst --duration 5 --clients 16 --seed 7 >/dev/null
sleep 1
baseline=$(fds)
result=$($CLIENTS --port "$PORT" burst --duration "$DURATION" --clients 16 --seed 1)
peak=$(fds)
now=$peak
for _ in $(seq 1 100); do
    now=$(fds)
    ((now <= baseline)) && break
    sleep 0.1
done
echo "descriptors: baseline $baseline, right after the burst $peak, settled at $now; traffic: $result"
if ((now > baseline)); then
    echo "FAIL: $((now - baseline)) descriptors leaked:" >&2
    ls -l "/proc/$SERVER_PID/fd" >&2
    exit 1
fi
errors=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["statuses"].get("500", 0))' "$result")
((errors == 0)) || { echo "FAIL: $errors answers were 500" >&2; exit 1; }
