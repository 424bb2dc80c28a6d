# Sourced by the reliability scripts: starts `past-nyc serve` (release build) on
# 127.0.0.1 with a free port and a throwaway data directory, and stops it (by PID)
# when the script exits.
#
# After `start_server <password-cost>`: $PORT, $BASE_URL, $SERVER_PID, $WORK_DIR.
# PAST_NYC_BIN runs another build than .build/release/past-nyc; SERVER_CPUS, when set,
# pins the server to those CPUs (`taskset -c`), so it starts one event loop per CPU given.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${PAST_NYC_BIN:-"$ROOT/.build/release/past-nyc"}
WORK_DIR=$(mktemp -d -t past-nyc-bench.XXXXXX)
SERVER_PID=""

stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        wait "$SERVER_PID" || true
    fi
    SERVER_PID=""
}

cleanup() {
    stop_server
    rm -rf "$WORK_DIR"
}
trap cleanup EXIT

build_release() {
    (cd "$ROOT" && swift build -c release --product past-nyc >&2)
}

# start_server <owasp|test> [serve options...]: waits (at most 5 minutes, the first
# start imports the catalog) until the server logs its port. The data directory is
# $DATA_DIR when set, else one under $WORK_DIR. CATALOG, when set, is a built
# catalog.sqlite copied into an empty data directory, to skip the first start's import.
start_server() {
    local cost=$1
    shift
    local log="$WORK_DIR/server-$cost.log"
    if [[ -n "${CATALOG:-}" && ! -e "${DATA_DIR:-$WORK_DIR/data}/catalog.sqlite" ]]; then
        mkdir -p "${DATA_DIR:-$WORK_DIR/data}"
        cp "$CATALOG" "${DATA_DIR:-$WORK_DIR/data}/catalog.sqlite"
    fi
    ${SERVER_CPUS:+taskset -c "$SERVER_CPUS"} "$BIN" serve --host 127.0.0.1 --port 0 --data-dir "${DATA_DIR:-$WORK_DIR/data}" --source-dir "$ROOT/Data" \
        --openapi "$ROOT/openapi.yaml" --web-dir "$ROOT/Web" --password-cost "$cost" --log-level notice "$@" 2>"$log" &
    SERVER_PID=$!
    PORT=""
    for _ in $(seq 1 3000); do
        PORT=$(grep -oE 'port=[0-9]+' "$log" | head -1 | cut -d= -f2 || true)
        [[ -n "$PORT" ]] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; echo "server exited" >&2; exit 1; }
        sleep 0.1
    done
    [[ -n "$PORT" ]] || { echo "server did not start listening" >&2; exit 1; }
    BASE_URL="http://127.0.0.1:$PORT"
}

# register <username> <password>: prints the new token.
register() {
    curl -sf -X POST "$BASE_URL/users" -H 'Content-Type: application/json' \
        -d "{\"username\":\"$1\",\"password\":\"$2\"}" | jq -r .token
}

# median of the numbers on stdin, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# p99_ms <wrk --latency output file>: the 99th percentile in milliseconds.
p99_ms() {
    awk '$1 == "99%" {
        value = $2
        if (value ~ /us$/) { sub(/us$/, "", value); value /= 1000 }
        else if (value ~ /ms$/) { sub(/ms$/, "", value) }
        else if (value ~ /s$/) { sub(/s$/, "", value); value *= 1000 }
        print value
    }' "$1"
}
