#!/usr/bin/env bash
# A past-nyc cluster on this machine, on loopback: a throw-away PostgreSQL
# (scripts/postgres.sh) holding the user data, three `past-nyc serve` instances
# on it (each with its own data directory for the read-only catalog), and nginx
# (Debian nginx-light) balancing them round robin, configured from
# deploy/nginx.conf.template: HTTPS with a self-signed certificate made here by
# openssl (for 127.0.0.1 and localhost), and plain HTTP that redirects to it.
# The instances stay plain HTTP on loopback. The same parts as compose.yaml,
# started by hand.
#
# Usage:
#   scripts/cluster.sh start    start everything, print the URLs, return
#   scripts/cluster.sh status   which processes run; /healthz through nginx
#   scripts/cluster.sh stop     stop everything (by PID) and remove the directory
#
# Environment:
#   CLUSTER_DIR         where the cluster keeps its files (default /tmp/past-nyc-cluster)
#   CLUSTER_PORT        nginx's HTTPS port on 127.0.0.1 (default: a free port)
#   CLUSTER_HTTP_PORT   nginx's plain HTTP port, redirecting (default: a free port)
#   CLUSTER_TIME_LIMIT  seconds after which the cluster stops by itself (default 3600; 0: never)
#   INSTANCES           how many instances behind nginx: 3 (default) or 1
#   PASSWORD_COST       the instances' --password-cost (default owasp; `test` for tests)
#   LOG_LEVEL           the instances' --log-level (default notice; info logs every request)
#   CLUSTER_CACHE       on (default): nginx caches the public catalog's answers;
#                       off: `proxy_cache off` (benchmarks of the proxying alone)
#   DATABASE_URL        use this PostgreSQL instead of starting a throw-away one
#   PAST_NYC            the binary (default .build/release/past-nyc)
#   INSTANCE_OPTIONS    more `serve` options for every instance (a load test lifts the
#                       fair-use limits it must exceed, e.g. `--user-write-rate 0`)
#
# After `start`, $CLUSTER_DIR/cluster.env holds CLUSTER_URL (https://…),
# CLUSTER_HTTP_URL (the redirecting http://…), CLUSTER_CA (the certificate to
# trust: curl --cacert "$CLUSTER_CA"), INSTANCE_URLS, INSTANCE_PIDS, NGINX_PID
# and DATABASE_URL as shell assignments, for tests.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"
source "$ROOT/scripts/prometheus.sh"
SCRIPT="$ROOT/scripts/cluster.sh"
CLUSTER_DIR=${CLUSTER_DIR:-/tmp/past-nyc-cluster}
BIN=${PAST_NYC:-$BIN}
INSTANCES=${INSTANCES:-3}
PASSWORD_COST=${PASSWORD_COST:-owasp}
LOG_LEVEL=${LOG_LEVEL:-notice}
CLUSTER_CACHE=${CLUSTER_CACHE:-on}
CLUSTER_TIME_LIMIT=${CLUSTER_TIME_LIMIT:-3600}
PIDS_FILE="$CLUSTER_DIR/pids"
CLUSTER_UP=""

# Remembers a started process: `<pid> <name>` a line, in start order.
remember() {
    echo "$1 $2" >>"$PIDS_FILE"
}

running_pids() {
    [[ -f "$PIDS_FILE" ]] || return 0
    while read -r pid name; do
        if kill -0 "$pid" 2>/dev/null; then echo "$pid $name"; fi
    done <"$PIDS_FILE"
}

ensure_nginx() {
    command -v nginx >/dev/null 2>&1 && return 0
    [[ $EUID -eq 0 ]] || fail "nginx is missing: apt-get install nginx-light"
    echo "installing nginx-light" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light >&2
}

# Starts a throw-away PostgreSQL (scripts/postgres.sh, which stops it by itself
# five minutes after the cluster's time limit, start-up included) and prints its
# URL; its directory goes to $CLUSTER_DIR/postgres-dir for `stop`.
start_postgres() {
    local minutes=$(((CLUSTER_TIME_LIMIT + 359) / 60)) url dir
    [[ "$CLUSTER_TIME_LIMIT" != 0 ]] || minutes=525600
    { read -r url; read -r dir; } < <("$ROOT/scripts/postgres.sh" start --minutes "$minutes")
    [[ "$url" == postgresql://* && -d "$dir" ]] || fail "scripts/postgres.sh start failed"
    echo "$dir" >"$CLUSTER_DIR/postgres-dir"
    echo "$url"
}

# The nginx.conf around deploy/nginx.conf.template: foreground (its PID is the
# master's), files in the cluster directory (the response cache in
# $CLUSTER_DIR/nginx/cache), no access log. Run as root, its workers run as
# root too: they must reach the cache inside $CLUSTER_DIR, which may be private
# to its owner (as a `mktemp -d` directory is), where nginx's default worker
# user (nobody) could not.
# A self-signed certificate for 127.0.0.1 and localhost (subjectAltName: what
# clients check, not the CN), an ECDSA P-256 key, valid for 30 days, in
# $CLUSTER_DIR/tls: cert.pem (clients trust it as their CA) and key.pem.
make_certificate() {
    local dir="$CLUSTER_DIR/tls"
    command -v openssl >/dev/null 2>&1 || fail "openssl is missing: apt-get install openssl"
    mkdir -p "$dir"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
        -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>"$dir/openssl.log" \
        || { cat "$dir/openssl.log" >&2; fail "openssl could not make the certificate"; }
    chmod 600 "$dir/key.pem"
}

write_nginx_conf() {
    local listen_tls=$1 listen=$2 first=$3 second=$4 third=$5 dir="$CLUSTER_DIR/nginx" user=""
    mkdir -p "$dir/temp"
    [[ $EUID -ne 0 ]] || user="user $(id -un) $(id -gn);"
    sed -e "s|\${PAST_NYC_LISTEN_TLS}|$listen_tls|" \
        -e "s|\${PAST_NYC_LISTEN}|$listen|" \
        -e "s|\${PAST_NYC_HTTPS_PORT}|${listen_tls##*:}|" \
        -e "s|\${PAST_NYC_TLS_CERTIFICATE}|$CLUSTER_DIR/tls/cert.pem|" \
        -e "s|\${PAST_NYC_TLS_CERTIFICATE_KEY}|$CLUSTER_DIR/tls/key.pem|" \
        -e "s|\${PAST_NYC_INSTANCE_1}|$first|" \
        -e "s|\${PAST_NYC_INSTANCE_2}|$second|" \
        -e "s|\${PAST_NYC_INSTANCE_3}|$third|" \
        -e "s|\${PAST_NYC_CACHE_DIR}|$dir/cache|" \
        "$ROOT/deploy/nginx.conf.template" >"$dir/past-nyc.conf"
    if [[ "$CLUSTER_CACHE" == off ]]; then
        sed -i -e 's|proxy_cache past_nyc_cache;|proxy_cache off;|' "$dir/past-nyc.conf"
        grep -q 'proxy_cache off;' "$dir/past-nyc.conf" || fail "could not turn nginx's cache off"
    fi
    cat >"$dir/nginx.conf" <<EOF
daemon off;
$user
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events {
    worker_connections 4096;
}
http {
    access_log off;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    include $dir/past-nyc.conf;
}
EOF
}

start() {
    [[ -z "$(running_pids)" ]] || fail "a cluster already runs in $CLUSTER_DIR (scripts/cluster.sh stop)"
    [[ -x "$BIN" ]] || fail "$BIN is missing: swift build -c release --product past-nyc"
    [[ "$INSTANCES" == 1 || "$INSTANCES" == 3 ]] || fail "INSTANCES must be 1 or 3"
    [[ "$CLUSTER_CACHE" == on || "$CLUSTER_CACHE" == off ]] || fail "CLUSTER_CACHE must be on or off"
    ensure_nginx
    rm -rf "$CLUSTER_DIR"
    mkdir -p "$CLUSTER_DIR"
    : >"$PIDS_FILE"
    # Until everything is up, a failure stops whatever has started.
    at_exit '[[ -n "$CLUSTER_UP" ]] || stop >/dev/null 2>&1'

    local database_url=${DATABASE_URL:-}
    if [[ -z "$database_url" ]]; then
        database_url=$(start_postgres)
    fi

    # The catalog is built once and copied: every instance reads its own copy.
    "$BIN" import --data-dir "$CLUSTER_DIR/catalog" --source-dir "$ROOT/Data" \
        >"$CLUSTER_DIR/import.log" 2>&1 || { cat "$CLUSTER_DIR/import.log" >&2; fail "import failed"; }

    local urls=() pids=() addresses=() metrics=()
    for n in $(seq 1 "$INSTANCES"); do
        local dir="$CLUSTER_DIR/instance$n"
        cp -a "$CLUSTER_DIR/catalog" "$dir"
        # nginx reaches the instances from 127.0.0.1: they believe its X-Forwarded-For
        # (the client's address, appended by nginx) and do not count its connections
        # against one client; anyone else's X-Forwarded-For is ignored.
        DATA_DIR=$dir SERVER_LOG_FILE="$dir.log" SERVER_LOG_LEVEL=$LOG_LEVEL \
            launch_server "$PASSWORD_COST" --database-url "$database_url" --trusted-proxy 127.0.0.1 \
            --metrics-listen 127.0.0.1:0 ${INSTANCE_OPTIONS:-}
        pids+=("$SERVER_PID")
        remember "$SERVER_PID" "instance$n"
    done
    for n in $(seq 1 "$INSTANCES"); do
        SERVER_START_SECONDS=120 wait_listening "${pids[$((n - 1))]}" "$CLUSTER_DIR/instance$n.log"
        addresses+=("127.0.0.1:$PORT")
        urls+=("$BASE_URL")
        metrics+=("127.0.0.1:$(metrics_port "$CLUSTER_DIR/instance$n.log")")
        wait_healthy "$BASE_URL" 60
    done

    local port=${CLUSTER_PORT:-$(free_port)} http_port=${CLUSTER_HTTP_PORT:-$(free_port)}
    make_certificate
    if [[ "$INSTANCES" == 1 ]]; then
        write_nginx_conf "127.0.0.1:$port" "127.0.0.1:$http_port" "${addresses[0]}" "${addresses[0]}" "${addresses[0]}"
    else
        write_nginx_conf "127.0.0.1:$port" "127.0.0.1:$http_port" "${addresses[@]}"
    fi
    nginx -t -q -p "$CLUSTER_DIR/nginx" -e "$CLUSTER_DIR/nginx/error.log" -c "$CLUSTER_DIR/nginx/nginx.conf"
    nginx -p "$CLUSTER_DIR/nginx" -e "$CLUSTER_DIR/nginx/error.log" -c "$CLUSTER_DIR/nginx/nginx.conf" \
        </dev/null >/dev/null 2>&1 &
    local nginx_pid=$!
    remember "$nginx_pid" nginx
    CURL_CA_BUNDLE="$CLUSTER_DIR/tls/cert.pem" wait_healthy "https://127.0.0.1:$port" 10

    if [[ "$CLUSTER_TIME_LIMIT" != 0 ]]; then
        # Counted from now, when everything is up; stopped early, it ends its sleep too.
        (
            trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
            sleep "$CLUSTER_TIME_LIMIT" &
            sleeper=$!
            wait "$sleeper"
            trap - TERM
            CLUSTER_DIR="$CLUSTER_DIR" "$SCRIPT" stop
        ) </dev/null >/dev/null 2>&1 &
        remember "$!" time-limit
    fi

    cat >"$CLUSTER_DIR/cluster.env" <<EOF
CLUSTER_URL=https://127.0.0.1:$port
CLUSTER_HTTP_URL=http://127.0.0.1:$http_port
CLUSTER_CA=$CLUSTER_DIR/tls/cert.pem
INSTANCE_URLS=(${urls[*]})
INSTANCE_PIDS=(${pids[*]})
METRICS_TARGETS=(${metrics[*]})
NGINX_PID=$nginx_pid
DATABASE_URL='$database_url'
EOF
    CLUSTER_UP=1
    keep_servers_running  # until `cluster.sh stop` or the time limit
    echo "PostgreSQL: $database_url"
    for n in $(seq 1 "$INSTANCES"); do
        echo "instance $n: ${urls[$((n - 1))]} (PID ${pids[$((n - 1))]}, log $CLUSTER_DIR/instance$n.log," \
            "metrics http://${metrics[$((n - 1))]}/metrics)"
    done
    echo "nginx:      https://127.0.0.1:$port (PID $nginx_pid; certificate $CLUSTER_DIR/tls/cert.pem)"
    echo "            http://127.0.0.1:$http_port redirects to it"
    if [[ "$CLUSTER_TIME_LIMIT" != 0 ]]; then
        echo "stops by itself after $CLUSTER_TIME_LIMIT s; scripts/cluster.sh stop stops it now"
    fi
}

# Stops in reverse start order (nginx, the instances, the time limit):
# SIGTERM, then SIGKILL for whatever has not exited within 10 s; then
# PostgreSQL, if the cluster started its own.
stop() {
    local lines
    lines=$(running_pids | tac)
    if [[ -n "$lines" ]]; then
        while read -r pid name; do
            # Run by the time limit, this is (bash execs a subshell's last command)
            # or is a child of the time limit's process: it ends once this returns.
            [[ "$pid" != "$$" && "$pid" != "$PPID" ]] || continue
            echo "stopping $name (PID $pid)"
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 100); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$pid" 2>/dev/null || true
        done <<<"$lines"
    fi
    if [[ -f "$CLUSTER_DIR/postgres-dir" ]]; then
        echo "stopping PostgreSQL"
        "$ROOT/scripts/postgres.sh" stop "$(cat "$CLUSTER_DIR/postgres-dir")" || true
    fi
    rm -rf "$CLUSTER_DIR"
}

status() {
    [[ -f "$PIDS_FILE" ]] || { echo "no cluster in $CLUSTER_DIR"; return 1; }
    local down=0
    while read -r pid name; do
        if kill -0 "$pid" 2>/dev/null; then
            echo "$name: running (PID $pid)"
        else
            echo "$name: not running (PID $pid)"
            down=1
        fi
    done <"$PIDS_FILE"
    if [[ -f "$CLUSTER_DIR/postgres-dir" ]]; then
        local pg_pid
        pg_pid=$(head -n 1 "$(cat "$CLUSTER_DIR/postgres-dir")/data/postmaster.pid" 2>/dev/null || true)
        if [[ -n "$pg_pid" ]] && kill -0 "$pg_pid" 2>/dev/null; then
            echo "postgres: running (PID $pg_pid)"
        else
            echo "postgres: not running"
            down=1
        fi
    fi
    if [[ -f "$CLUSTER_DIR/cluster.env" ]]; then
        # shellcheck source=/dev/null
        source "$CLUSTER_DIR/cluster.env"
        echo "$CLUSTER_URL/healthz: $(curl -s --max-time 2 --cacert "$CLUSTER_CA" "$CLUSTER_URL/healthz" || echo unreachable)"
    fi
    return "$down"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
