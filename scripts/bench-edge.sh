#!/usr/bin/env bash
# Catalog reads through the cluster's nginx with and without its response cache,
# in the same run: scripts/cluster.sh (a throw-away PostgreSQL, three instances,
# nginx from deploy/nginx.conf.template, caching), plus a second nginx from the
# same template in front of the same instances with `proxy_cache off`. wrk
# replays one seeded pool of /nearby requests (nearby-core's: random points of
# the built-up core, limit=10&photos=5) against each, in interleaved rounds (the
# order alternates), after a warm-up run against each that also fills the
# cache: the cached figures are of a warm cache, every request a HIT.
#
# Not in CI, and not pinned: wrk, both nginx and the instances share the
# machine's cores, so on a small shared machine the figures are noisy; compare
# the two columns of one run, not runs with each other.
#
# Usage: scripts/bench-edge.sh [path/to/past-nyc]  (default .build/release/past-nyc)
#
# Environment: RUNS (3), DURATION (5s), THREADS (1), CONNECTIONS (16), POOL_SIZE
#   (1000), SEED (1), INSTANCES (3).
#
# Prints each run, then per nginx the medians of req/s, p50 and p99, the CPU
# time per request of the instances (what the cache spares them) and of nginx's
# workers (from /proc), and wrk's CPU (% of a core per thread: near 100, wrk is
# the limit); ends with one `summary:` line.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=${1:-$ROOT/.build/release/past-nyc}
RUNS=${RUNS:-3}
DURATION=${DURATION:-5s}
THREADS=${THREADS:-1}
CONNECTIONS=${CONNECTIONS:-16}
POOL_SIZE=${POOL_SIZE:-1000}
SEED=${SEED:-1}
INSTANCES=${INSTANCES:-3}

for tool in wrk curl python3 nginx; do
    command -v "$tool" >/dev/null || { echo "bench-edge: $tool is required" >&2; exit 1; }
done
[[ -x "$BIN" ]] || { echo "bench-edge: no $BIN (swift build -c release --product past-nyc)" >&2; exit 1; }

WORK=$(mktemp -d -t past-nyc-bench-edge.XXXXXX)
export CLUSTER_DIR="$WORK/cluster"
PLAIN_PID=""
at_exit 'rm -rf "$WORK"'
at_exit '"$ROOT/scripts/cluster.sh" stop >/dev/null 2>&1'
at_exit 'if [[ -n "$PLAIN_PID" ]]; then kill "$PLAIN_PID" 2>/dev/null; wait "$PLAIN_PID" 2>/dev/null; fi'
trap 'exit 1' INT TERM

# Bounded: the cluster stops by itself after warm-ups, rounds and ten minutes to spare.
runs_seconds=$(((RUNS + 1) * 2 * ${DURATION%s}))
echo "--- starting scripts/cluster.sh ($INSTANCES instances, nginx with its cache)"
PAST_NYC=$(realpath "$BIN") PASSWORD_COST=test INSTANCES="$INSTANCES" \
    CLUSTER_TIME_LIMIT=$((600 + runs_seconds)) "$ROOT/scripts/cluster.sh" start >/dev/null
# shellcheck source=/dev/null
source "$CLUSTER_DIR/cluster.env"
# nginx serves HTTPS with the cluster's self-signed certificate: curl trusts it (wrk checks none).
export CURL_CA_BUNDLE=$CLUSTER_CA

# The same template, without the cache, on another port, in front of the same instances.
PLAIN="$WORK/nginx-plain"
mkdir -p "$PLAIN/temp"
PLAIN_PORT=$(free_port) PLAIN_REDIRECT_PORT=$(free_port)
sed -e "s|listen 127.0.0.1:[0-9]* ssl;|listen 127.0.0.1:$PLAIN_PORT ssl;|" \
    -e "s|listen 127.0.0.1:[0-9]*;|listen 127.0.0.1:$PLAIN_REDIRECT_PORT;|" \
    -e "s|proxy_cache_path [^ ]*|proxy_cache_path $PLAIN/cache|" \
    -e "s|proxy_cache past_nyc_cache;|proxy_cache off;|" \
    "$CLUSTER_DIR/nginx/past-nyc.conf" >"$PLAIN/past-nyc.conf"
grep -q 'proxy_cache off;' "$PLAIN/past-nyc.conf" || { echo "bench-edge: could not turn the cache off" >&2; exit 1; }
sed -e "s|$CLUSTER_DIR/nginx|$PLAIN|g" "$CLUSTER_DIR/nginx/nginx.conf" >"$PLAIN/nginx.conf"
nginx -t -q -p "$PLAIN" -e "$PLAIN/error.log" -c "$PLAIN/nginx.conf"
nginx -p "$PLAIN" -e "$PLAIN/error.log" -c "$PLAIN/nginx.conf" </dev/null >/dev/null 2>&1 &
PLAIN_PID=$!
PLAIN_URL="https://127.0.0.1:$PLAIN_PORT"
for _ in $(seq 1 100); do curl -sf -o /dev/null "$PLAIN_URL/healthz" && break; sleep 0.1; done
curl -sf -o /dev/null "$PLAIN_URL/healthz" || { echo "bench-edge: the second nginx does not answer" >&2; exit 1; }

# nearby-core's pool (scripts/bench/pools.py's point_paths over the core box).
python3 - "$POOL_SIZE" "$SEED" >"$WORK/pool" <<'EOF'
import random, sys
size, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(f"{seed}-nearby-core")
south, west, north, east = 40.57, -74.04, 40.87, -73.82
for _ in range(size):
    print("/nearby?lat=%.6f&lon=%.6f&limit=10&photos=5" % (rng.uniform(south, north), rng.uniform(west, east)))
EOF
expect_status() {
    local got
    got=$(curl -s -o /dev/null -D - "$1$(head -n 1 "$WORK/pool")" | tr -d '\r' |
        awk 'NR == 1 { status = $2 } tolower($1) == "x-cache-status:" { cache = $2 } END { print status, cache }')
    [[ "$got" == "$2"* ]] || { echo "bench-edge: $1 answered '$got', wanted '$2'" >&2; exit 1; }
}

HZ=$(getconf CLK_TCK)
workers() { pgrep -P "$1" | tr '\n' ' '; }

# measure <label> <url> <duration> <nginx master PID>: "<req/s> <p50> <p99> <non-2xx> <errors>
# <instances µs/rq> <nginx µs/rq> <wrk CPU % of a core per thread>"
measure() {
    local url=$2 duration=$3 nginx_workers instances_before nginx_before line
    nginx_workers=$(workers "$4")
    # shellcheck disable=SC2086,SC2154 # one PID each
    instances_before=$(cpu_ticks "${INSTANCE_PIDS[@]}")
    # shellcheck disable=SC2086
    nginx_before=$(cpu_ticks $nginx_workers)
    line=$(wrk -t "$THREADS" -c "$CONNECTIONS" -d "$duration" --timeout 10s -s "$ROOT/scripts/bench/replay.lua" \
        "$url" -- "$WORK/pool" "$SEED" | grep '^RESULT')
    # shellcheck disable=SC2086
    echo "$line" | awk -v instances=$(($(cpu_ticks "${INSTANCE_PIDS[@]}") - instances_before)) \
        -v nginx=$(($(cpu_ticks $nginx_workers) - nginx_before)) -v hz="$HZ" -v seconds="${duration%s}" \
        -v threads="$THREADS" \
        '{ n = $2 * seconds; printf "%s %s %s %s %s %.1f %.1f %.0f\n", $2, $3, $4, $5, $6,
           (n > 0 ? instances / hz * 1e6 / n : 0), (n > 0 ? nginx / hz * 1e6 / n : 0), $7 / seconds / threads * 100 }'
}

echo "--- pool: $POOL_SIZE /nearby requests; wrk -t$THREADS -c$CONNECTIONS -d$DURATION; $RUNS rounds"
echo "--- warm-up (fills the cache)"
measure cached "$CLUSTER_URL" 5s "$NGINX_PID" >/dev/null
measure plain "$PLAIN_URL" 2s "$PLAIN_PID" >/dev/null
expect_status "$CLUSTER_URL" "200 HIT"
expect_status "$PLAIN_URL" "200"

declare -a CACHED PLAIN_RESULTS
printf '%-8s %-8s %9s %8s %8s %7s %6s %12s %10s %5s\n' round nginx req/s p50_ms p99_ms non2xx errors instance_µs nginx_µs wrk%
for ((run = 1; run <= RUNS; run++)); do
    if ((run % 2)); then order="cached plain"; else order="plain cached"; fi
    for which in $order; do
        if [[ "$which" == cached ]]; then
            result=$(measure cached "$CLUSTER_URL" "$DURATION" "$NGINX_PID")
            CACHED+=("$result")
        else
            result=$(measure plain "$PLAIN_URL" "$DURATION" "$PLAIN_PID")
            PLAIN_RESULTS+=("$result")
        fi
        # shellcheck disable=SC2086
        printf '%-8s %-8s %9s %8s %8s %7s %6s %12s %10s %5s\n' "$run" "$which" $result
    done
done

# column <field> <results...>: the median of that field.
column() {
    local field=$1
    shift
    printf '%s\n' "$@" | awk -v f="$field" '{ print $f }' | median
}
echo "--- medians of $RUNS rounds"
printf '%-8s %9s %8s %8s %12s %10s %5s\n' nginx req/s p50_ms p99_ms instance_µs nginx_µs wrk%
for which in cached plain; do
    if [[ "$which" == cached ]]; then set -- "${CACHED[@]}"; else set -- "${PLAIN_RESULTS[@]}"; fi
    printf '%-8s %9s %8s %8s %12s %10s %5s\n' "$which" "$(column 1 "$@")" "$(column 2 "$@")" "$(column 3 "$@")" \
        "$(column 6 "$@")" "$(column 7 "$@")" "$(column 8 "$@")"
done
cached_rps=$(column 1 "${CACHED[@]}")
plain_rps=$(column 1 "${PLAIN_RESULTS[@]}")
failures=$(printf '%s\n' "${CACHED[@]}" "${PLAIN_RESULTS[@]}" | awk '{ s += $4 + $5 } END { print s + 0 }')
echo "summary: cached $cached_rps req/s, uncached $plain_rps req/s, ratio $(awk -v a="$cached_rps" -v b="$plain_rps" \
    'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'), $failures non-2xx or socket errors ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
