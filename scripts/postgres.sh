#!/usr/bin/env bash
# A throw-away PostgreSQL for tests and benchmarks: a fresh cluster (`initdb`) in a
# temporary directory, listening on 127.0.0.1 only, trusting local connections,
# durable as in production (fsync and synchronous_commit on), with pg_stat_statements
# loaded (`CREATE EXTENSION pg_stat_statements` to read it: scripts/bench.sh counts the
# statements a request costs). It stops by itself after a time limit, so a forgotten
# one does not outlive the session.
#
# Usage:
#   scripts/postgres.sh start [--port N] [--minutes M]
#       Starts a server (a free port unless --port; stops itself after M minutes,
#       default 60) and prints two lines on stdout: its URL, then its directory.
#         { read -r url; read -r dir; } < <(scripts/postgres.sh start)
#   scripts/postgres.sh stop DIR     stops the server (by the PID in DIR) and deletes DIR
#   scripts/postgres.sh down DIR     stops the server but keeps DIR (an outage)
#   scripts/postgres.sh up DIR       starts the server of DIR again, on the same port
#
# Needs the Debian `postgresql` package (`apt-get install -y postgresql`). PostgreSQL
# refuses to run as root: as root, the server runs as the `postgres` user (or
# `nobody`), which owns DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Close every descriptor inherited above stderr: the server and the watchdog outlive
# this script, and must not hold its caller's pipes open (a caller reading our
# output to its end would wait for them).
for descriptor in /proc/$$/fd/*; do
    descriptor=${descriptor##*/}
    if ((descriptor > 2)); then eval "exec $descriptor>&-" 2>/dev/null || true; fi
done

bin_dir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -n "$dir" && -x "$dir/postgres" ]] || { echo "postgres.sh: install PostgreSQL first (apt-get install -y postgresql)" >&2; exit 1; }
    echo "$dir"
}

# The user the server runs as: ourselves, or a non-root account when we are root.
server_user() {
    if [[ $(id -u) -ne 0 ]]; then id -un
    elif id postgres >/dev/null 2>&1; then echo postgres
    else echo nobody
    fi
}

as_server_user() {
    local user
    user=$(server_user)
    if [[ $(id -u) -eq 0 ]]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

# Starts the cluster in $1 and waits until it accepts connections.
start_postgres() {
    local dir=$1
    as_server_user "$(bin_dir)/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=30 start >/dev/null
}

# Fast shutdown (SIGINT: clients are disconnected, the data stays consistent) of the
# server whose PID is on the first line of postmaster.pid; waits up to 30 s.
stop_postgres() {
    local dir=$1 pid
    [[ -f "$dir/data/postmaster.pid" ]] || return 0
    pid=$(head -n 1 "$dir/data/postmaster.pid")
    kill -INT "$pid" 2>/dev/null || return 0
    for _ in $(seq 300); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

check_dir() {
    [[ -n "${1:-}" && -f "$1/port" ]] || { echo "postgres.sh: $1 is not a directory made by 'postgres.sh start'" >&2; exit 2; }
}

command=${1:-}
shift || true
case "$command" in
start)
    port=""
    minutes=60
    while [[ $# -gt 0 ]]; do
        case "$1" in
        --port) port=$2; shift 2 ;;
        --minutes) minutes=$2; shift 2 ;;
        *) echo "postgres.sh: unknown option $1" >&2; exit 2 ;;
        esac
    done
    chosen_port=$port
    [[ -n "$port" ]] || port=$(free_port)
    dir=$(mktemp -d /tmp/past-nyc-postgres.XXXXXX)
    chmod 755 "$dir"
    echo "$port" >"$dir/port"
    [[ $(id -u) -ne 0 ]] || chown "$(server_user)" "$dir"
    as_server_user "$(bin_dir)/initdb" --pgdata="$dir/data" --username=past --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 300
shared_buffers = 64MB
fsync = on
synchronous_commit = on
shared_preload_libraries = 'pg_stat_statements'
EOF
    # A port found free may be taken before the server binds it (another server, or a
    # client's ephemeral port): without --port, another free port is tried, a few times.
    for attempt in 1 2 3 4 5; do
        start_postgres "$dir" && break
        if [[ -n "$chosen_port" || $attempt == 5 ]] || ! grep -q "Address already in use" "$dir/server.log"; then
            cat "$dir/server.log" >&2
            exit 1
        fi
        port=$(free_port)
        sed -i "s/^port = .*/port = $port/" "$dir/data/postgresql.conf"
        echo "$port" >"$dir/port"
    done
    # The time limit: a detached watchdog, its output away from our caller's pipes.
    setsid bash -c "sleep $((minutes * 60)); '$0' stop '$dir'" </dev/null >/dev/null 2>&1 &
    echo "$!" >"$dir/watchdog.pid"
    echo "postgresql://past@127.0.0.1:$port/postgres"
    echo "$dir"
    ;;
stop)
    check_dir "${1:-}"
    stop_postgres "$1"
    watchdog=$(cat "$1/watchdog.pid" 2>/dev/null || true)
    if [[ -n "$watchdog" ]]; then
        # Its own process group (setsid): the group goes, its sleep included.
        [[ "$watchdog" == "$$" || "$watchdog" == "$PPID" ]] || kill -- "-$watchdog" 2>/dev/null || true
    fi
    rm -rf "$1"
    ;;
down)
    check_dir "${1:-}"
    stop_postgres "$1"
    ;;
up)
    check_dir "${1:-}"
    start_postgres "$1"
    ;;
*)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
