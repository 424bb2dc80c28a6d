#!/usr/bin/env bash
# Benchmarks the catalog endpoints of a release build against nginx serving a
# static file of similar size, on 127.0.0.1 only.
#
# Reports, as medians of RUNS runs: cold start (no catalog yet) and warm start
# (catalog present) time until /healthz answers 200; requests/s, p50 and p99
# latency of wrk with CONNECTIONS connections on
#   /nearby?lat=&lon=&limit=10&photos=5   (random points inside NYC)
#   /region?south=&west=&north=&east=     (random ~1 km boxes inside NYC)
#   /photos/{id}                          (random photo IDs of the catalog)
#   nginx, a ~9 KB static file            (the yardstick)
# and the server's peak resident memory (VmHWM) after all of it.
#
# Usage: swift build -c release && scripts/bench-catalog.sh
# Environment: PORT (18080), NGINX_PORT (18081), RUNS (3), DURATION (10s),
#   CONNECTIONS (64), THREADS (2, wrk's), SERVER_CPUS (e.g. "1" to pin the
#   server with taskset; default unpinned), SERVER_CMD (default below; $PORT
#   and $TMP, the data directory, are expanded when it runs).
set -euo pipefail

cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SERVER_CPUS=${SERVER_CPUS:-}
SERVER_CMD=${SERVER_CMD:-'.build/release/past-nyc serve --host 127.0.0.1 --port $PORT --data-dir $TMP'}
HEALTH_TIMEOUT_SECONDS=${HEALTH_TIMEOUT_SECONDS:-60}

for tool in wrk nginx curl; do
    command -v "$tool" >/dev/null || { echo "bench-catalog: $tool is required (apt-get install -y $tool)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/bench-catalog.XXXXXX)
TMP="$WORK/data"
mkdir -p "$TMP"
SERVER_PID=""
NGINX_PID=""

cleanup() {
    if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    if [[ -n "$NGINX_PID" ]]; then kill "$NGINX_PID" 2>/dev/null || true; wait "$NGINX_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# The inner shell expands $PORT and $TMP in SERVER_CMD.
export PORT TMP

# Starts the server in the background (SERVER_PID) and sets STARTUP_MS to the
# milliseconds until /healthz answered 200. Polls the real condition, bounded by a deadline.
start_server() {
    local started deadline
    started=$(now_ms)
    if [[ -n "$SERVER_CPUS" ]]; then
        taskset -c "$SERVER_CPUS" bash -c "exec $SERVER_CMD" >>"$WORK/server.log" 2>&1 &
    else
        bash -c "exec $SERVER_CMD" >>"$WORK/server.log" 2>&1 &
    fi
    SERVER_PID=$!
    deadline=$(( started + HEALTH_TIMEOUT_SECONDS * 1000 ))
    until curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "bench-catalog: the server exited; its log:" >&2; cat "$WORK/server.log" >&2; exit 1
        fi
        if (( $(now_ms) > deadline )); then
            echo "bench-catalog: no healthy /healthz within ${HEALTH_TIMEOUT_SECONDS}s" >&2; exit 1
        fi
        sleep 0.01
    done
    STARTUP_MS=$(( $(now_ms) - started ))
}

stop_server() {
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- wrk scripts -------------------------------------------------------------

# Every script prints one machine-readable line: RESULT <req/s> <p50 ms> <p99 ms> <non-2xx> <socket errors>.
cat >"$WORK/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT %.0f %.3f %.3f %d %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
LUA

# Random points in a box over the five boroughs' built-up core.
cat >"$WORK/nearby.lua" <<LUA
init = function(args) math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6)) end
request = function()
  local lat = 40.57 + math.random() * 0.30
  local lon = -74.04 + math.random() * 0.22
  return wrk.format("GET", string.format("/nearby?lat=%.6f&lon=%.6f&limit=10&photos=5", lat, lon))
end
$(cat "$WORK/report.lua")
LUA

# ~1 km boxes: 0.009 degrees of latitude, 0.012 of longitude at 40.7 N.
cat >"$WORK/region.lua" <<LUA
init = function(args) math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6)) end
request = function()
  local south = 40.57 + math.random() * 0.30
  local west = -74.04 + math.random() * 0.22
  return wrk.format("GET", string.format("/region?south=%.6f&west=%.6f&north=%.6f&east=%.6f",
    south, west, south + 0.009, west + 0.012))
end
$(cat "$WORK/report.lua")
LUA

{
    echo "ids = {"
    zcat Data/oldnyc-locations.jsonl.gz | grep -o '"id": "[^"]*"' | sed -e 's/^"id": /  /' -e 's/$/,/'
    echo "}"
    echo 'init = function(args) math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6)) end'
    echo 'request = function() return wrk.format("GET", "/photos/" .. ids[math.random(#ids)]) end'
    cat "$WORK/report.lua"
} >"$WORK/photos.lua"

# --- nginx with a ~9 KB static file ------------------------------------------

mkdir -p "$WORK/nginx/www" "$WORK/nginx/logs"
head -c 9216 < <(zcat Data/oldnyc-locations.jsonl.gz) >"$WORK/nginx/www/static.json"
chmod -R a+rX "$WORK"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/nginx/www;
        default_type application/json;
    }
}
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!

# --- runs ----------------------------------------------------------------------

echo "server: $SERVER_CMD   wrk: $THREADS threads, $CONNECTIONS connections, $DURATION x $RUNS runs"

cold=(); warm=()
for ((run = 1; run <= RUNS; run++)); do
    rm -rf "$TMP" && mkdir -p "$TMP"
    start_server
    cold+=("$STARTUP_MS")
    stop_server
    start_server
    warm+=("$STARTUP_MS")
    if (( run < RUNS )); then stop_server; fi
done
printf 'cold start to healthy (ms, median of %d): %s\n' "$RUNS" "$(printf '%s\n' "${cold[@]}" | median)"
printf 'warm start to healthy (ms, median of %d): %s\n' "$RUNS" "$(printf '%s\n' "${warm[@]}" | median)"

until curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/static.json"; do
    kill -0 "$NGINX_PID" 2>/dev/null || { echo "bench-catalog: nginx exited" >&2; cat "$WORK/nginx/logs/error.log" >&2; exit 1; }
    sleep 0.01
done

# bench <label> <url> <lua script>: a short warm-up, then RUNS measured runs.
bench() {
    local label=$1 url=$2 script=$3 lines=()
    wrk -t "$THREADS" -c "$CONNECTIONS" -d 2s -s "$script" "$url" >/dev/null
    for ((run = 1; run <= RUNS; run++)); do
        lines+=("$(wrk -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" -s "$script" "$url" | grep '^RESULT')")
    done
    local rps p50 p99 bad
    rps=$(printf '%s\n' "${lines[@]}" | awk '{ print $2 }' | median)
    p50=$(printf '%s\n' "${lines[@]}" | awk '{ print $3 }' | median)
    p99=$(printf '%s\n' "${lines[@]}" | awk '{ print $4 }' | median)
    bad=$(printf '%s\n' "${lines[@]}" | awk '{ s += $5 + $6 } END { print s }')
    printf '%-34s %10s req/s   p50 %8s ms   p99 %8s ms   non-2xx/errors %s\n' "$label" "$rps" "$p50" "$p99" "$bad"
}

cat >"$WORK/static.lua" <<LUA
$(cat "$WORK/report.lua")
LUA

bench "GET /nearby limit=10 photos=5" "http://127.0.0.1:$PORT" "$WORK/nearby.lua"
bench "GET /region ~1 km box" "http://127.0.0.1:$PORT" "$WORK/region.lua"
bench "GET /photos/{id}" "http://127.0.0.1:$PORT" "$WORK/photos.lua"
bench "nginx ~9 KB static file" "http://127.0.0.1:$NGINX_PORT/static.json" "$WORK/static.lua"

printf 'server peak RSS (VmHWM): %s\n' "$(awk '/VmHWM/ { print $2, $3 }' "/proc/$SERVER_PID/status")"
