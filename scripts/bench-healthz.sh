#!/usr/bin/env bash
# Measures GET /healthz throughput and latency of our server against nginx serving the
# same tiny JSON file, both on 127.0.0.1, with wrk (keep-alive, 64 connections).
#
# Usage: scripts/bench-healthz.sh
#   SERVER_CMD   command that starts our server on $PORT (default: the release past-nyc binary)
#   PORT         port for our server (default 18080); NGINX_PORT for nginx (default 18081)
#   DURATION     wrk duration per run (default 10s); RUNS runs per server, median reported (default 3)
#   SKIP_BUILD=1 skips `swift build -c release`
#
# With two or more CPUs, each server is pinned to CPU 0 and wrk to CPU 1, so the client
# does not steal the server's core. Everything started here is stopped by its PID on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
PORT="${PORT:-18080}"
NGINX_PORT="${NGINX_PORT:-18081}"
DURATION="${DURATION:-10s}"
RUNS="${RUNS:-3}"
CONNECTIONS=64
SERVER_CMD="${SERVER_CMD:-.build/release/past-nyc serve --host 127.0.0.1 --port $PORT}"

WORK="$(mktemp -d /tmp/bench-healthz.XXXXXX)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

install_if_missing() {
    local tool="$1" package="$2"
    if ! command -v "$tool" >/dev/null 2>&1; then
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y "$package"
    fi
}
install_if_missing wrk wrk
install_if_missing nginx nginx-light
install_if_missing curl curl

if [ -z "${SKIP_BUILD:-}" ]; then
    swift build -c release
fi

SERVER_CPU=""
CLIENT_CPU=""
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
    SERVER_CPU="taskset -c 0"
    CLIENT_CPU="taskset -c 1"
fi

wait_for_healthz() {
    local port="$1" pid="$2"
    for _ in $(seq 1 200); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; then return 0; fi
        kill -0 "$pid" 2>/dev/null || { echo "server (pid $pid) exited before answering" >&2; return 1; }
        sleep 0.05
    done
    echo "no answer on port $port after 10 s" >&2
    return 1
}

# Prints "req/s p50 p99" (latencies in ms): the median run by req/s.
measure() {
    local port="$1" results=()
    for run in $(seq 1 "$RUNS"); do
        local out
        out="$($CLIENT_CPU wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:$port/healthz")"
        local rps p50 p99
        rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
        p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
        p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
        echo "  run $run: $rps req/s, p50 $p50, p99 $p99" >&2
        results+=("$rps $(to_ms "$p50") $(to_ms "$p99")")
    done
    printf '%s\n' "${results[@]}" | sort -n -k1 | awk -v n="$RUNS" 'NR == int((n + 1) / 2)'
}

# wrk prints latencies as 812.00us, 1.20ms or 2.01s.
to_ms() {
    awk -v value="$1" 'BEGIN {
        if (value ~ /us$/) { sub(/us$/, "", value); printf "%.3f", value / 1000 }
        else if (value ~ /ms$/) { sub(/ms$/, "", value); printf "%.3f", value }
        else if (value ~ /s$/) { sub(/s$/, "", value); printf "%.3f", value * 1000 }
        else { print value }
    }'
}

peak_rss_kib() {
    awk '/^VmHWM:/ {print $2}' "/proc/$1/status"
}

echo "== our server: $SERVER_CMD" >&2
$SERVER_CPU $SERVER_CMD >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
wait_for_healthz "$PORT" "$SERVER_PID"
read -r OUR_RPS OUR_P50 OUR_P99 < <(measure "$PORT")
OUR_RSS="$(peak_rss_kib "$SERVER_PID")"
ACCESS_LINES="$(wc -l <"$WORK/server.log")"

echo "== nginx" >&2
mkdir -p "$WORK/nginx/www" "$WORK/nginx/logs"
printf '{"status":"ok"}' >"$WORK/nginx/www/healthz"
cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log $WORK/nginx/logs/access.log;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/nginx/www;
        location = /healthz { default_type application/json; }
    }
}
CONF
$SERVER_CPU nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log" &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
wait_for_healthz "$NGINX_PORT" "$NGINX_PID"
read -r NGINX_RPS NGINX_P50 NGINX_P99 < <(measure "$NGINX_PORT")
NGINX_RSS="$(peak_rss_kib "$NGINX_PID")"

printf '\nGET /healthz, wrk -t1 -c%s -d%s, median of %s runs (access logs on)\n' "$CONNECTIONS" "$DURATION" "$RUNS"
printf '%-8s %12s %10s %10s %14s\n' server "req/s" "p50 ms" "p99 ms" "peak RSS KiB"
printf '%-8s %12s %10s %10s %14s\n' ours "$OUR_RPS" "$OUR_P50" "$OUR_P99" "$OUR_RSS"
printf '%-8s %12s %10s %10s %14s\n' nginx "$NGINX_RPS" "$NGINX_P50" "$NGINX_P99" "$NGINX_RSS"
awk -v ours="$OUR_RPS" -v nginx="$NGINX_RPS" -v p99="$OUR_P99" 'BEGIN {
    printf "ratio ours/nginx: %.2f (goal >= 0.50); our p99 %s ms (goal < 5)\n", ours / nginx, p99
}'
echo "access log lines written by our server: $ACCESS_LINES" >&2
