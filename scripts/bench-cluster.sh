#!/usr/bin/env bash
# GET /nearby through nginx in front of one instance and in front of three
# (scripts/cluster.sh, both clusters up at once on one PostgreSQL), and straight
# to one instance without nginx: req/s, p50 and p99, medians of RUNS rounds, each
# round running the three targets once, interleaved, so a noisy neighbour slows
# all alike. wrk replays a seeded pool of /nearby?lat=&lon=&limit=10&photos=5
# at random points of the built-up core through scripts/bench-pool.lua.
#
# Nothing is pinned: nginx, wrk and the instances share the machine's cores, so
# on a small machine more instances cannot add cores, only spread the same ones.
#
# Usage: swift build -c release --product past-nyc && scripts/bench-cluster.sh
# Environment: RUNS (3), DURATION (8s), CONNECTIONS (64), THREADS (2, wrk's),
#   POOL_SIZE (1000), SEED (1)
set -euo pipefail

# ROOT, WORK_DIR (removed at exit by cleanup, redefined below) and median.
source "$(dirname "$0")/bench-server.sh"
RUNS=${RUNS:-3}
DURATION=${DURATION:-8s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
POOL_SIZE=${POOL_SIZE:-1000}
SEED=${SEED:-1}
export PASSWORD_COST=test CLUSTER_TIME_LIMIT=1800

for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "bench-cluster: $tool is required (apt-get install -y $tool)" >&2; exit 1; }
done

cleanup() {
    CLUSTER_DIR="$WORK_DIR/three" "$ROOT/scripts/cluster.sh" stop >/dev/null || true
    CLUSTER_DIR="$WORK_DIR/one" "$ROOT/scripts/cluster.sh" stop >/dev/null || true
    rm -rf "$WORK_DIR"
}

CLUSTER_DIR="$WORK_DIR/one" INSTANCES=1 "$ROOT/scripts/cluster.sh" start
ONE_URL=$(source "$WORK_DIR/one/cluster.env" && echo "$CLUSTER_URL")
DIRECT_URL=$(source "$WORK_DIR/one/cluster.env" && echo "${INSTANCE_URLS[0]}")
DATABASE_URL=$(source "$WORK_DIR/one/cluster.env" && echo "$DATABASE_URL") \
    CLUSTER_DIR="$WORK_DIR/three" INSTANCES=3 "$ROOT/scripts/cluster.sh" start
THREE_URL=$(source "$WORK_DIR/three/cluster.env" && echo "$CLUSTER_URL")

python3 - "$POOL_SIZE" "$SEED" >"$WORK_DIR/pool" <<'EOF'
import random, sys
size, seed = int(sys.argv[1]), int(sys.argv[2])
generator = random.Random(seed)
for _ in range(size):
    lat = generator.uniform(40.57, 40.87)
    lon = generator.uniform(-74.04, -73.82)
    print(f"/nearby?lat={lat:.5f}&lon={lon:.5f}&limit=10&photos=5")
EOF

declare -A RESULTS
targets=("nginx, 1 instance|$ONE_URL" "nginx, 3 instances|$THREE_URL" "1 instance, no nginx|$DIRECT_URL")
for target in "${targets[@]}"; do
    # Warm up: the first requests of each target open its connections.
    wrk -t1 -c4 -d1s "${target#*|}/healthz" >/dev/null
done
for run in $(seq 1 "$RUNS"); do
    for target in "${targets[@]}"; do
        name=${target%%|*}
        line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$ROOT/scripts/bench-pool.lua" "${target#*|}" \
            -- "$WORK_DIR/pool" "$SEED" | grep '^RESULT')
        read -r _ rps p50 p99 non2xx socket_errors _ <<<"$line"
        echo "run $run, $name: $rps req/s, p50 $p50 ms, p99 $p99 ms, non-2xx $non2xx, socket errors $socket_errors"
        RESULTS[$name]+="$rps $p50 $p99"$'\n'
    done
done

echo
echo "GET /nearby, medians of $RUNS runs (wrk -t$THREADS -c$CONNECTIONS -d$DURATION; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)):"
for target in "${targets[@]}"; do
    name=${target%%|*}
    values=${RESULTS[$name]}
    printf '  %-22s %8s req/s  p50 %6s ms  p99 %6s ms\n' "$name" \
        "$(awk 'NF { print $1 }' <<<"$values" | median)" \
        "$(awk 'NF { print $2 }' <<<"$values" | median)" \
        "$(awk 'NF { print $3 }' <<<"$values" | median)"
done
