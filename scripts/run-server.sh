# Sourced by every script that needs our server: starts `past-nyc serve` (release
# build) on 127.0.0.1 with a throwaway data directory, and stops every server it
# started (by PID) when the script exits. Sources scripts/lib.sh.
#
# After `start_server <owasp|test> [serve options…]`: $PORT, $BASE_URL and $SERVER_PID
# of that server (one started before keeps running: start_server again for a second
# one), $SERVER_LOG, and $WORK_DIR (removed at exit).
#
# Environment, read by each start_server:
#   PAST_NYC_BIN    another build than .build/release/past-nyc (read once into $BIN,
#                   which a script may set before a start to run another binary)
#   SERVER_PORT     the port (default 0: one the kernel picks, read from the server's log)
#   DATA_DIR        the data directory (default $WORK_DIR/data)
#   CATALOG         a built catalog.sqlite, copied into an empty data directory to skip
#                   the first start's import
#   SERVER_CPUS     pins the server to those CPUs (taskset -c), so it starts one event
#                   loop per CPU given
#   SERVER_WRAPPER  a command the server runs under, with its options (e.g. valgrind …);
#                   $SERVER_PID is then the wrapper's
#   SERVER_LOG_FILE where its stderr goes (default $WORK_DIR/server-<n>.log)
#   SERVER_LOG_LEVEL  its --log-level: notice (the default), or info to log every request
#                   (not less: the port is read from the notice it logs)
#   SERVER_START_SECONDS  how long a start may take (300: a first start imports the catalog)

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BIN=${PAST_NYC_BIN:-"$ROOT/.build/release/past-nyc"}
WORK_DIR=$(mktemp -d -t past-nyc-server.XXXXXX)
SERVER_PID=""
SERVER_PIDS=()
at_exit 'rm -rf "$WORK_DIR"'
at_exit 'for pid in "${SERVER_PIDS[@]}"; do stop_server "$pid" || true; done'

# stop_server [pid]: SIGTERM to the server (default $SERVER_PID) and waits for its
# exit; one still running after 15 s is killed (SIGKILL), and stop_server returns 1.
stop_server() {
    local pid=${1:-$SERVER_PID} deadline=$((SECONDS + 15))
    [[ "$pid" != "$SERVER_PID" ]] || SERVER_PID=""
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.05; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        wait "$pid" 2>/dev/null || true
        echo "the server $pid ignored SIGTERM for 15 s and was killed" >&2
        return 1
    fi
    wait "$pid" 2>/dev/null || true
}

# start_server <owasp|test> [serve options…]: starts the server and returns once it
# logs its port, that is once it listens with everything loaded.
start_server() {
    launch_server "$@"
    wait_listening
}

# launch_server <owasp|test> [serve options…]: starts the server in the background
# and returns at once; wait_listening then waits for it. Servers launched one after
# the other start side by side.
launch_server() {
    local cost=$1 data_dir=${DATA_DIR:-$WORK_DIR/data}
    shift
    [[ -x "$BIN" ]] || fail "no server at $BIN (swift build -c release --product past-nyc)"
    SERVER_LOG=${SERVER_LOG_FILE:-$WORK_DIR/server-${#SERVER_PIDS[@]}.log}
    if [[ -n "${CATALOG:-}" && ! -e "$data_dir/catalog.sqlite" ]]; then
        mkdir -p "$data_dir"
        cp "$CATALOG" "$data_dir/catalog.sqlite"
    fi
    # shellcheck disable=SC2086 # SERVER_WRAPPER is a command and its words
    (on_cpus "${SERVER_CPUS:-}" ${SERVER_WRAPPER:-} "$BIN" serve --host 127.0.0.1 --port "${SERVER_PORT:-0}" \
        --data-dir "$data_dir" --source-dir "$ROOT/Data" --openapi "$ROOT/openapi.yaml" --web-dir "$ROOT/Web" \
        --password-cost "$cost" --log-level "${SERVER_LOG_LEVEL:-notice}" "$@" </dev/null >/dev/null 2>"$SERVER_LOG") &
    SERVER_PID=$!
    SERVER_PIDS+=("$SERVER_PID")
}

# wait_listening [pid log]: waits until the server (default: the last launched) logs
# its port, and sets PORT, BASE_URL, SERVER_PID and SERVER_LOG to that server's.
wait_listening() {
    SERVER_PID=${1:-$SERVER_PID}
    SERVER_LOG=${2:-$SERVER_LOG}
    local deadline=$((SECONDS + ${SERVER_START_SECONDS:-300}))
    PORT=""
    until [[ -n "$PORT" ]]; do
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG" >&2; fail "the server exited before listening"; }
        ((SECONDS < deadline)) || fail "the server did not listen within ${SERVER_START_SECONDS:-300} s (see $SERVER_LOG)"
        sleep 0.01
        PORT=$(grep -oE 'port=[0-9]+' "$SERVER_LOG" | head -1 | cut -d= -f2 || true)
    done
    BASE_URL="http://127.0.0.1:$PORT"
}

# start_smtp_sink: starts scripts/smtp-sink.py (aiosmtpd, a local SMTP server keeping
# each message it accepts as a JSON file in $MAIL_DIR) on a free port, and sets
# SMTP_PORT and MAIL_OPTIONS (the serve options that send the server's mail to it); it
# is stopped by its PID when the script exits.
start_smtp_sink() {
    MAIL_DIR="$WORK_DIR/mail"
    mkdir -p "$MAIL_DIR"
    local output="$WORK_DIR/smtp-sink.out" deadline=$((SECONDS + 30)) pid
    python3 "$ROOT/scripts/smtp-sink.py" "$MAIL_DIR" </dev/null >"$output" 2>"$WORK_DIR/smtp-sink.log" &
    pid=$!
    at_exit "kill $pid 2>/dev/null || true"
    SMTP_PORT=""
    until [[ -n "$SMTP_PORT" ]]; do
        kill -0 "$pid" 2>/dev/null || { cat "$WORK_DIR/smtp-sink.log" >&2; fail "smtp-sink.py exited (pip install aiosmtpd?)"; }
        ((SECONDS < deadline)) || fail "smtp-sink.py did not listen within 30 s"
        sleep 0.05
        SMTP_PORT=$(sed -n 's/^port=//p' "$output")
    done
    MAIL_OPTIONS=(--smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from no-reply@past-nyc.example)
}

# keep_servers_running: the servers started so far outlive the script (whoever keeps
# their PIDs stops them).
keep_servers_running() {
    SERVER_PIDS=()
}
