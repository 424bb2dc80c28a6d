#!/usr/bin/env bash
# Benchmarks the catalog and exploring endpoints of a release build, each against
# nginx serving the very same response bodies, on 127.0.0.1 only.
#
# Scenarios (SCENARIOS picks them, by name or group; a scenario whose endpoint
# does not answer 200 is skipped):
#   nearby   nearby-city, nearby-core: /nearby?lat=&lon=&limit=10&photos=5 at random
#            points of the five-borough box, and of the built-up core
#   region   region-city, region-core: /region over random ~1 km boxes, same two areas
#   photos   /photos/{id} of random photo IDs
#   clusters clusters-z10, -z11, -z13: /clusters of the whole five-borough box
#   search   /search?q= with 1-2 words of one photo's text, the last cut to a 3-5
#            letter prefix half of the time
#
# How: scripts/bench-catalog-pools.py draws a seeded pool of POOL_SIZE request
# paths per scenario, asks the server for each, and writes every body to a file
# under a random name; nginx serves those files, so each scenario has a twin that
# sends the same bytes. wrk replays a pool through scripts/bench-pool.lua, which
# formats every request once, in wrk's init. The server and nginx run on
# SERVER_CPUS, wrk on WRK_CPUS; wrk reports its own CPU time, and a run where wrk
# kept its core over 90% busy is flagged (then wrk, not the server, may be the limit).
#
# Reports: cold start (no catalog yet) and warm start (catalog present) until
# /healthz answers 200, medians of RUNS; then rounds, each running every scenario
# and its nginx twin once (interleaved, so a noisy neighbour slows both alike),
# with the ratio of their req/s per round; then per scenario the medians of req/s,
# p50, p99, server CPU per request and wrk CPU, the median ratio and its range,
# and the server's peak resident memory (VmHWM) after all of it.
#
# Usage: swift build -c release --product past-nyc && scripts/bench-catalog.sh
# Environment: SCENARIOS ("nearby region photos clusters search"), PORT (18080),
#   NGINX_PORT (18081), RUNS (3), DURATION (10s; whole seconds), CONNECTIONS (64),
#   THREADS (1, wrk's), POOL_SIZE (1000), SEED (1), SERVER_CPUS ("0"),
#   WRK_CPUS ("1"), SERVER_CMD (default below; $PORT and $TMP, the data
#   directory, are expanded when it runs).
set -euo pipefail

cd "$(dirname "$0")/.."

SCENARIOS=${SCENARIOS:-"nearby region photos clusters search"}
PORT=${PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
POOL_SIZE=${POOL_SIZE:-1000}
SEED=${SEED:-1}
SERVER_CPUS=${SERVER_CPUS:-0}
WRK_CPUS=${WRK_CPUS:-1}
if [[ "$(nproc)" -lt 2 ]] || ! command -v taskset >/dev/null; then SERVER_CPUS=""; WRK_CPUS=""; fi
SERVER_CMD=${SERVER_CMD:-'.build/release/past-nyc serve --host 127.0.0.1 --port $PORT --data-dir $TMP'}
HEALTH_TIMEOUT_SECONDS=${HEALTH_TIMEOUT_SECONDS:-60}
# wrk's share of its core above which a run is flagged, in percent.
WRK_SATURATED=90

for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "bench-catalog: $tool is required (apt-get install -y $tool)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/bench-catalog.XXXXXX)
TMP="$WORK/data"
mkdir -p "$TMP" "$WORK/pools" "$WORK/nginx/www" "$WORK/nginx/logs"
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

# --- start times -------------------------------------------------------------------

echo "server: $SERVER_CMD   wrk: $THREADS threads, $CONNECTIONS connections, $DURATION x $RUNS rounds"
echo "CPUs: server and nginx ${SERVER_CPUS:-any}, wrk ${WRK_CPUS:-any}; pools of $POOL_SIZE requests, seed $SEED"

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

# --- request pools, and nginx serving the same bodies -----------------------------

# Each line: <scenario> <tab> <median body bytes> <tab> <label>.
# shellcheck disable=SC2086 # SCENARIOS is a list of words.
python3 scripts/bench-catalog-pools.py --port "$PORT" --data Data/oldnyc-locations.jsonl.gz \
    --out "$WORK/pools" --www "$WORK/nginx/www" --size "$POOL_SIZE" --seed "$SEED" $SCENARIOS >"$WORK/pools/manifest"
NAMES=(); SIZES=(); LABELS=()
while IFS=$'\t' read -r name size label; do NAMES+=("$name"); SIZES+=("$size"); LABELS+=("$label"); done <"$WORK/pools/manifest"
(( ${#NAMES[@]} > 0 )) || { echo "bench-catalog: no scenario left to run" >&2; exit 1; }

chmod -R a+rX "$WORK"
# Sendfile and an open-file cache: the yardstick at its best.
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    open_file_cache max=20000 inactive=10m;
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
first_nginx_path=$(head -n 1 "$WORK/pools/${NAMES[0]}.nginx")
until curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT$first_nginx_path"; do
    kill -0 "$NGINX_PID" 2>/dev/null || { echo "bench-catalog: nginx exited" >&2; cat "$WORK/nginx/logs/error.log" >&2; exit 1; }
    sleep 0.01
done

# The nginx worker: the process whose CPU time nginx's requests cost.
NGINX_WORKER=""
until [[ -n "$NGINX_WORKER" ]]; do NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -n 1); sleep 0.01; done

# --- runs ----------------------------------------------------------------------

# Jiffies of user plus system CPU a process has used.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICKS_PER_SECOND=$(getconf CLK_TCK)

WRK=(wrk -t "$THREADS" -c "$CONNECTIONS")
if [[ -n "$WRK_CPUS" ]]; then WRK=(taskset -c "$WRK_CPUS" "${WRK[@]}"); fi

# measure <scenario> <server|nginx> <duration>: one wrk run over the scenario's pool; prints
# "<req/s> <p50> <p99> <non-2xx> <errors> <wrk CPU s> <server CPU µs per request> <wrk CPU % of a core per thread>".
measure() {
    local pid=$SERVER_PID port=$PORT before line
    if [[ "$2" == nginx ]]; then pid=$NGINX_WORKER; port=$NGINX_PORT; fi
    before=$(cpu_ticks "$pid")
    line=$("${WRK[@]}" -d "$3" -s scripts/bench-pool.lua "http://127.0.0.1:$port" -- "$WORK/pools/$1.$2" "$SEED" | grep '^RESULT')
    echo "$line" | awk -v ticks=$(( $(cpu_ticks "$pid") - before )) -v hz="$TICKS_PER_SECOND" -v seconds="${3%s}" \
        -v threads="$THREADS" \
        '{ printf "%s %s %s %s %s %s %.1f %.0f\n", $2, $3, $4, $5, $6, $7, ticks / hz * 1e6 / ($2 * seconds), $7 / seconds / threads * 100 }'
}

for name in "${NAMES[@]}"; do measure "$name" server 2s >/dev/null; measure "$name" nginx 2s >/dev/null; done  # warm-up

# results[run * count + index] holds one scenario's server and nginx runs side by side (16 fields).
results=()
for ((run = 1; run <= RUNS; run++)); do
    line="round $run:"
    for index in "${!NAMES[@]}"; do
        name=${NAMES[$index]}
        server=$(measure "$name" server "$DURATION")
        nginx=$(measure "$name" nginx "$DURATION")
        results+=("$server $nginx")
        ratio=$(awk -v a="${server%% *}" -v b="${nginx%% *}" 'BEGIN { printf "%.2f", a / b }')
        saturated=$(awk -v s="$server" -v n="$nginx" -v limit="$WRK_SATURATED" \
            'BEGIN { split(s, a, " "); split(n, b, " "); if (a[8] > limit || b[8] > limit) print "!" }')
        line+=" $name $ratio$saturated"
    done
    echo "$line"
done

# field <index> <field>: one field of one scenario, per round.
field() {
    for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + $1]}"; done | awk -v f="$2" '{ print $f }'
}
echo
printf '%-30s %7s %9s %7s %7s %9s %6s   %9s %7s %9s %6s   %5s %-11s %s\n' "scenario (median of $RUNS)" "body" \
    "req/s" "p50 ms" "p99 ms" "CPU µs/rq" "wrk %" "nginx r/s" "p99 ms" "CPU µs/rq" "wrk %" "ratio" "(range)" "errors"
for index in "${!NAMES[@]}"; do
    ratios=$(for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + index]}"; done |
        awk '{ printf "%.3f\n", $1 / $9 }')
    bad=$(for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + index]}"; done |
        awk '{ s += $4 + $5 + $12 + $13 } END { print s }')
    busiest=$( (field "$index" 8; field "$index" 16) | sort -g | tail -n 1)
    flag=""
    (( busiest > WRK_SATURATED )) && flag=" wrk saturated (${busiest}%): the client may be the limit"
    printf '%-30s %7s %9s %7s %7s %9s %6s   %9s %7s %9s %6s   %5.2f %-11s %s%s\n' "${LABELS[$index]}" "${SIZES[$index]}" \
        "$(field "$index" 1 | median)" "$(field "$index" 2 | median)" "$(field "$index" 3 | median)" \
        "$(field "$index" 7 | median)" "$(field "$index" 8 | median)" \
        "$(field "$index" 9 | median)" "$(field "$index" 11 | median)" "$(field "$index" 15 | median)" \
        "$(field "$index" 16 | median)" "$(median <<<"$ratios")" \
        "($(sort -g <<<"$ratios" | head -n 1)–$(sort -g <<<"$ratios" | tail -n 1))" "$bad" "$flag"
done
echo "ratio: the scenario's req/s over nginx's serving the same bodies, per round; ! marks a round where wrk's core was over ${WRK_SATURATED}% busy"

printf 'server peak RSS (VmHWM): %s\n' "$(awk '/VmHWM/ { print $2, $3 }' "/proc/$SERVER_PID/status")"
