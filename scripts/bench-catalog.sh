#!/usr/bin/env bash
# Benchmarks the catalog endpoints of a release build against nginx serving a
# static file of similar size, on 127.0.0.1 only.
#
# Reports, as medians of RUNS runs: cold start (no catalog yet) and warm start
# (catalog present) time until /healthz answers 200; requests/s, p50 and p99
# latency of wrk with CONNECTIONS connections, and the server's CPU time per
# request, on
#   /nearby?lat=&lon=&limit=10&photos=5   (random points inside NYC)
#   /region?south=&west=&north=&east=     (random ~1 km boxes inside NYC)
#   /photos/{id}                          (random photo IDs of the catalog)
#   nginx, a ~9 KB static file            (the yardstick)
# then the median over rounds of /nearby's req/s divided by nginx's, and the
# server's peak resident memory (VmHWM) after all of it.
#
# The runs are interleaved: each round runs every request once, so a noisy
# neighbour slows all of them alike and the per-round ratio stays fair. With two
# CPUs or more, the server and nginx share SERVER_CPUS and wrk runs on WRK_CPUS.
#
# Usage: swift build -c release && scripts/bench-catalog.sh
# Environment: PORT (18080), NGINX_PORT (18081), RUNS (3), DURATION (10s; whole seconds),
#   CONNECTIONS (64), THREADS (1, wrk's), SERVER_CPUS ("0"), WRK_CPUS ("1"),
#   SERVER_CMD (default below; $PORT and $TMP, the data directory, are
#   expanded when it runs).
set -euo pipefail

cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
SERVER_CPUS=${SERVER_CPUS:-0}
WRK_CPUS=${WRK_CPUS:-1}
if [[ "$(nproc)" -lt 2 ]] || ! command -v taskset >/dev/null; then SERVER_CPUS=""; WRK_CPUS=""; fi
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

# Every script seeds its random numbers per thread and prints one machine-readable
# line: RESULT <req/s> <p50 ms> <p99 ms> <non-2xx> <socket errors>.
cat >"$WORK/report.lua" <<'LUA'
init = function(args) math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6)) end
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
request = function()
  local lat = 40.57 + math.random() * 0.30
  local lon = -74.04 + math.random() * 0.22
  return wrk.format("GET", string.format("/nearby?lat=%.6f&lon=%.6f&limit=10&photos=5", lat, lon))
end
$(cat "$WORK/report.lua")
LUA

# ~1 km boxes: 0.009 degrees of latitude, 0.012 of longitude at 40.7 N.
cat >"$WORK/region.lua" <<LUA
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
if [[ -n "$SERVER_CPUS" ]]; then
    taskset -c "$SERVER_CPUS" nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
else
    nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
fi
NGINX_PID=$!

# --- runs ----------------------------------------------------------------------

echo "server: $SERVER_CMD   wrk: $THREADS threads, $CONNECTIONS connections, $DURATION x $RUNS rounds"
echo "CPUs: server and nginx ${SERVER_CPUS:-any}, wrk ${WRK_CPUS:-any}"

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

cat >"$WORK/static.lua" <<LUA
$(cat "$WORK/report.lua")
LUA

# The nginx worker: the process whose CPU time nginx's requests cost.
NGINX_WORKER=""
until [[ -n "$NGINX_WORKER" ]]; do NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -n 1); sleep 0.01; done

# Jiffies of user plus system CPU a process has used.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICKS_PER_SECOND=$(getconf CLK_TCK)

WRK=(wrk -t "$THREADS" -c "$CONNECTIONS")
if [[ -n "$WRK_CPUS" ]]; then WRK=(taskset -c "$WRK_CPUS" "${WRK[@]}"); fi

LABELS=("GET /nearby limit=10 photos=5" "GET /region ~1 km box" "GET /photos/{id}" "nginx ~9 KB static file")
URLS=("http://127.0.0.1:$PORT" "http://127.0.0.1:$PORT" "http://127.0.0.1:$PORT" "http://127.0.0.1:$NGINX_PORT/static.json")
SCRIPTS=("$WORK/nearby.lua" "$WORK/region.lua" "$WORK/photos.lua" "$WORK/static.lua")

# measure <index> <duration>: one wrk run; prints "RESULT <req/s> <p50> <p99> <non-2xx> <errors> <CPU µs per request>".
measure() {
    local pid=$SERVER_PID before line
    [[ "${URLS[$1]}" == *":$NGINX_PORT/"* ]] && pid=$NGINX_WORKER
    before=$(cpu_ticks "$pid")
    line=$("${WRK[@]}" -d "$2" -s "${SCRIPTS[$1]}" "${URLS[$1]}" | grep '^RESULT')
    echo "$line" | awk -v ticks=$(( $(cpu_ticks "$pid") - before )) -v hz="$TICKS_PER_SECOND" -v seconds="${2%s}" \
        '{ printf "%s %.1f\n", $0, ticks / hz * 1e6 / ($2 * seconds) }'
}

for index in "${!LABELS[@]}"; do measure "$index" 2s >/dev/null; done  # warm-up
results=()
ratios=()
for ((run = 1; run <= RUNS; run++)); do
    round=()
    for index in "${!LABELS[@]}"; do round+=("$(measure "$index" "$DURATION")"); done
    results+=("${round[@]}")
    nearby=$(awk '{ print $2 }' <<<"${round[0]}")
    static=$(awk '{ print $2 }' <<<"${round[3]}")
    ratios+=("$(awk -v a="$nearby" -v b="$static" 'BEGIN { printf "%.3f", a / b }')")
    echo "round $run: /nearby $nearby req/s, nginx $static req/s, ratio ${ratios[-1]}"
done

# column <index> <field>: the median of one field over the rounds of one request.
column() {
    for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#LABELS[@]} + $1]}"; done | awk -v f="$2" '{ print $f }' | median
}
printf '%-30s %10s %11s %11s %14s %s\n' "request (median of $RUNS)" "req/s" "p50 ms" "p99 ms" "CPU µs/req" "non-2xx/errors"
for index in "${!LABELS[@]}"; do
    bad=$(for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#LABELS[@]} + index]}"; done | awk '{ s += $5 + $6 } END { print s }')
    printf '%-30s %10s %11s %11s %14s %s\n' "${LABELS[$index]}" "$(column "$index" 2)" "$(column "$index" 3)" \
        "$(column "$index" 4)" "$(column "$index" 7)" "$bad"
done
printf '/nearby req/s / nginx req/s, median of the rounds: %s\n' "$(printf '%s\n' "${ratios[@]}" | median)"

printf 'server peak RSS (VmHWM): %s\n' "$(awk '/VmHWM/ { print $2, $3 }' "/proc/$SERVER_PID/status")"
