#!/usr/bin/env bash
# 10,000 idle keep-alive connections held while wrk measures GET /nearby (docs/RELIABILITY.md):
# req/s without and with them, and the server's RSS and descriptors before and while
# they are held. Goal: they cost under 100 MiB and under 10 % of the req/s.
#
# The server closes a keep-alive connection after 30 s idle; opening 10,000 can take
# longer on a busy machine, so the client (its own process, with its own descriptor
# limit) sends one more request on each once all are open, and wrk runs right after,
# well inside that window.
#
# CPUs are pinned as scripts/bench.sh pins them: the server on CPU 0 (one event loop,
# holding all 10,000), wrk on CPU 1, and the client holding the idle connections on
# wrk's CPU too, so neither client takes the server's core. Unpinned, the scheduler
# puts them anywhere and the figure moves with it.
#
# Usage: swift build -c release --product past-nyc && scripts/reliability-idle.sh
# Environment: IDLE (10000), DURATION (wrk seconds, 10), CONNECTIONS (wrk's, 32),
# SERVER_CPUS (0) and CLIENT_CPUS (1), empty for no pinning.
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
IDLE=${IDLE:-10000}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
SERVER_CPUS=$(pinnable "${SERVER_CPUS-0}")
CLIENT_CPUS=$(pinnable "${CLIENT_CPUS-1}")
NEARBY="/nearby?lat=40.7306&lon=-73.9866&limit=10&photos=5"
ulimit -n "$(ulimit -Hn)"

reqs() { (on_cpus "$CLIENT_CPUS" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$BASE_URL$NEARBY") | awk '/Requests\/sec/ { print $2 }'; }
rss_mib() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER_PID/status"; }
fds() { descriptor_count "$SERVER_PID"; }

# The idle connections all come from 127.0.0.1 and stand for as many clients: lift the
# per-client cap (256), which would refuse them.
start_server test --max-connections $((IDLE + 1000)) --max-connections-per-client 0
curl -sf "$BASE_URL/healthz" >/dev/null
baseline=$(reqs)
rss_before=$(rss_mib); fds_before=$(fds)
echo "without idle connections: $baseline req/s, RSS $rss_before MiB, $fds_before descriptors"

(on_cpus "$CLIENT_CPUS" python3 "$ROOT/scripts/hostile-clients.py" --port "$PORT" idle --connections "$IDLE" --hold $((DURATION + 8))) \
    > "$WORK_DIR/idle.json" 2> "$WORK_DIR/idle.log" &
client=$!
for _ in $(seq 1 5000); do grep -qs "^ready" "$WORK_DIR/idle.log" && break; sleep 0.1; done
grep -qs '^ready' "$WORK_DIR/idle.log" || { echo "FAIL: the idle connections did not open"; cat "$WORK_DIR/idle.log"; exit 1; }
rss_idle=$(rss_mib); fds_idle=$(fds)
with_idle=$(reqs)
rss_after=$(rss_mib); fds_after=$(fds)
wait "$client"
sleep 2
echo "with $IDLE idle connections: $with_idle req/s; RSS $rss_idle MiB ($rss_after after wrk), $fds_idle descriptors ($fds_after after wrk)"
echo "idle client: $(cat "$WORK_DIR/idle.json")"
echo "after they closed: RSS $(rss_mib) MiB, $(fds) descriptors"
python3 - "$baseline" "$with_idle" "$rss_before" "$rss_idle" "$IDLE" <<'PY'
import sys
baseline, with_idle, rss_before, rss_idle, idle = map(float, sys.argv[1:])
cost = rss_idle - rss_before
loss = 1 - with_idle / baseline
print(f"cost of {idle:.0f} idle connections: {cost:.1f} MiB ({cost * 1024 / idle:.1f} KiB each), "
      f"throughput {loss * 100:+.1f} % lost")
ok = cost < 100 and loss < 0.10
print("goal (< 100 MiB, < 10 %):", "met" if ok else "NOT met")
print(f"summary: {idle:.0f} idle connections cost {cost:.1f} MiB RSS (goal < 100) and {loss * 100:.1f} % of "
      f"{baseline:.0f} req/s (goal < 10 %): {'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
PY
