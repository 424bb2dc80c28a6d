#!/usr/bin/env bash
# The benchmark harness: one release server, scenarios per endpoint, each GET
# scenario against nginx serving the very same bodies, in interleaved rounds.
#
# Usage: swift build -c release --product past-nyc && scripts/bench.sh [SCENARIO...]
#
# Scenarios (default: all of them; a group name runs all of its variants; a GET
# scenario whose endpoint does not answer 200 is skipped):
#   nearby    nearby-city, nearby-core: /nearby?lat=&lon=&limit=10&photos=5 at random
#             points of the five-borough box, and of the built-up core; nearby-heading
#             and nearby-topic: the core's with a random heading (fov 60), and with the
#             topic "Apartment houses"
#   region    region-city, region-core: /region over random ~1 km boxes, same two areas
#   photos    /photos/{id} of random photo IDs
#   locations /locations/{id}: random pages (default limit, cursors followed) of the
#             76 locations with more than 50 photos
#   healthz   /healthz: the HTTP server alone
#   topics    /topics: one body made at start
#   popular   /photos/popular over windows of 1, 7, 30 and 365 days, after 3 users saved
#             the same 20 photos, 16 connections (no nginx twin: the list follows the
#             favorites)
#   clusters  clusters-z10, -z11, -z13: /clusters of the whole five-borough box
#   search    /search?q= with 1-2 words of one photo's text, the last cut to a 3-5
#             letter prefix half of the time
#   images    images: GET /photos/{id}/image?size=600 of random photos, each fetched once
#             from a local image origin while the pool is built (nginx serving sample
#             JPEGs made with cjpeg, --image-origin), then served from the disk copy;
#             images-pack: GET /images/pack of a lower-Manhattan box, about 1,100
#             thumbnails (6 MB), its twin nginx serving a file of the same bytes. Then,
#             once: the server's RSS while 200 clients download that pack at once
#             (2 MB/s each), and the cost of cold misses against the origin's own time
#             (scripts/bench/image-miss.py)
#   tours     /tours from random Manhattan points at the default budget (and, once,
#             `past-nyc tour-gain` on the same points: planned against greedy photos)
#   favorites PUT /favorites/{id}, a fresh user per run, 64 connections: a durable,
#             group-committed write per request; its twin is the disk, not nginx: the
#             rate of single-threaded 4 KiB write + fdatasync in the same data directory
#             (scripts/bench/fdatasync-rate.py), measured in the same round
#   recents   PUT /recents/{id} of random photos, a fresh user per run, 64 connections,
#             the disk as its twin, as favorites
#   favorites-ids GET /favorites?ids= of 100 photos, 16 connections, by a fresh user per
#             run who saved 200 of the 400 photos the lists are drawn from
#   walks     walks-accept, walks-reject: POST /walks/{id}/points over 64 walks of a
#             fresh user, every point accepted (a durable, group-committed write) or
#             every point rejected (no write); walks-batch: POST
#             /walks/{id}/points/batch of 100 points recorded offline, every point
#             accepted (req/s × 100 is points/s, each batch one durable transaction)
#   login     GET /nearby on 4 connections while 16 clients log in at the OWASP
#             scrypt cost (waiting out Retry-After after a 503): the row is /nearby's,
#             the logins' statuses are in its last column
#   cluster   cluster-nginx1, cluster-nginx3, cluster-direct: nearby-core's pool of
#             /nearby through nginx in front of one instance and in front of three
#             (scripts/cluster.sh with INSTANCES=1 and =3, both up at once on one
#             PostgreSQL: DATABASE_URL's, else a throw-away one), and straight to the
#             one instance without nginx. nginx's cache is off (CLUSTER_CACHE=off): this
#             measures the proxying; scripts/bench-edge.sh measures the cache. Not
#             pinned: wrk (CLUSTER_THREADS threads), nginx and the instances share the
#             machine's cores, so on a small machine more instances cannot add cores,
#             only spread the same ones; µs/rq is the instances' CPU, not nginx's; no
#             nginx twin
#   cluster-favorites  PUT /favorites/{id} as favorites (a fresh user per run, each PUT
#             a new favorite, 64 connections), through nginx in front of three
#             instances on PostgreSQL (scripts/cluster.sh, as cluster-nginx3); not
#             pinned, no twin. -one: one user, as favorites (its writes queue on the
#             user's row lock); -users: 64 fresh users, each request the next one's.
#             Also reports PostgreSQL's side per request: the statements it ran
#             (each one round trip from an instance; counted by pg_stat_statements,
#             which scripts/postgres.sh loads) and the CPU of its processes (not
#             with a DATABASE_URL of another server)
#
# How: scripts/bench/pools.py draws a seeded pool of POOL_SIZE requests per GET
# scenario, asks the server for each, and writes every body to a file under a random
# name; nginx serves those files, so each GET scenario has a twin sending the same
# bytes. wrk replays a pool through scripts/bench/replay.lua, which formats every
# request once, in wrk's init (walks and login have their own scripts there). The
# server and nginx run on SERVER_CPUS, wrk on WRK_CPUS; wrk reports its own CPU
# time, and a run where wrk kept its core over 90% busy is flagged (then wrk, not
# the server, may be the limit).
#
# The server is started with this script's environment: `DATABASE_URL=… scripts/bench.sh
# favorites` measures whichever user-data store that environment selects.
#
# Reports: cold start (no catalog yet) and warm start (catalog present) until /healthz
# answers 200, medians of RUNS; then rounds, each running every scenario and its nginx
# twin once (interleaved, so a noisy neighbour slows both alike), with the ratio of
# their req/s; then per scenario the medians of req/s, p50, p99, server CPU µs per
# request (from /proc) and wrk's CPU, nginx's, the median ratio and its range, the
# goal and whether it was met; and the server's peak resident memory (VmHWM).
#
# Environment: PORT (18080), NGINX_PORT (18081), RUNS (3), START_RUNS (RUNS: cold and
#   warm starts measured), DURATION (10s; whole
#   seconds), CONNECTIONS (64), THREADS (1, wrk's, for the GET scenarios), POOL_SIZE
#   (1000), SEED (1), SERVER_CPUS ("0"), WRK_CPUS ("1"), BIN (.build/release/past-nyc),
#   PASSWORD_COST (owasp with login, else test), CLUSTER_THREADS (2, wrk's, for
#   cluster), SWAP_EVERY (unset: none; seconds between the catalog corrections accepted
#   while the runs go on, each making a new generation: scripts/generations-bench.sh),
#   METRICS (off; on: the server counts with --metrics-listen and is scraped every
#   second all along, as a Prometheus does every 15 s: scripts/bench-metrics.sh).
#   The server starts through scripts/run-server.sh.
#
# Runs and duration: RUNS=3 DURATION=5s scripts/bench.sh favorites (START_RUNS=1 to
# measure the start times once).
set -euo pipefail

cd "$(dirname "$0")/.."
PAST_NYC_BIN=${BIN:-${PAST_NYC_BIN:-.build/release/past-nyc}}
source scripts/run-server.sh
source scripts/prometheus.sh

ALL_SCENARIOS="nearby region photos locations healthz topics popular clusters search tours favorites favorites-ids recents walks login cluster cluster-favorites images"
read -r -a REQUESTED <<<"${*:-$ALL_SCENARIOS}"
PORT=${PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
RUNS=${RUNS:-3}
START_RUNS=${START_RUNS:-$RUNS}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
POOL_SIZE=${POOL_SIZE:-1000}
SEED=${SEED:-1}
SERVER_CPUS=$(pinnable "${SERVER_CPUS:-0}")
WRK_CPUS=$(pinnable "${WRK_CPUS:-1}")
if [[ " ${REQUESTED[*]} " == *" login "* ]]; then PASSWORD_COST=${PASSWORD_COST:-owasp}; fi
PASSWORD_COST=${PASSWORD_COST:-test}
HEALTH_TIMEOUT_SECONDS=${HEALTH_TIMEOUT_SECONDS:-300}
CLUSTER_THREADS=${CLUSTER_THREADS:-2}
# wrk's share of its core above which a run is flagged, in percent.
WRK_SATURATED=90
# The write scenarios' load: 2 wrk threads, 16 connections.
WRITE_THREADS=2
WRITE_CONNECTIONS=16
WALKS=64

for tool in wrk nginx curl jq python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install -y $tool)" >&2; exit 1; }
done
[[ -x "$BIN" ]] || { echo "bench: no $BIN (swift build -c release --product past-nyc)" >&2; exit 1; }

WORK=$WORK_DIR
TMP="$WORK/data"
mkdir -p "$TMP" "$WORK/pools" "$WORK/nginx/www" "$WORK/nginx/logs"
NGINX_PID=""
CLUSTERS=()  # the clusters' directories, in start order

at_exit 'if [[ -n "$NGINX_PID" ]]; then kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; fi'
at_exit 'for ((cluster = ${#CLUSTERS[@]} - 1; cluster >= 0; cluster--)); do
    CLUSTER_DIR="${CLUSTERS[cluster]}" scripts/cluster.sh stop >/dev/null 2>&1 || true
done'
trap 'exit 1' INT TERM

# Starts the server (scripts/run-server.sh: $SERVER_PID, on SERVER_CPUS, its data in
# $TMP, on $PORT) and sets STARTUP_MS to the milliseconds until /healthz answered 200.
start_timed() {
    local started
    started=$(now_ms)
    # At the binary's default log level (info: a line a request), as served; a cold
    # start imports the catalog itself (no CATALOG copied in).
    # The limits a load from one address must pass, lifted as for any load test (and only
    # those): the write scenarios send one user's writes far faster than
    # --user-write-rate allows a user, every run registers fresh users from one address,
    # and the login scenario hashes 16 logins of one address at once.
    local metrics_options=()
    [[ "${METRICS:-off}" == on ]] && metrics_options=(--metrics-listen 127.0.0.1:0)
    CATALOG="" DATA_DIR=$TMP SERVER_PORT=$PORT SERVER_LOG_LEVEL=info SERVER_START_SECONDS=$HEALTH_TIMEOUT_SECONDS \
        start_server "$PASSWORD_COST" --user-write-rate 0 --registrations-per-hour 0 --hashes-per-client 0 \
        "${IMAGE_OPTIONS[@]}" "${metrics_options[@]}"
    wait_healthy "$BASE_URL" "$HEALTH_TIMEOUT_SECONDS" "$SERVER_PID"
    if [[ "${METRICS:-off}" == on ]]; then
        local metrics_url
        metrics_url="http://127.0.0.1:$(metrics_port "$SERVER_LOG")/metrics"
        (while kill -0 "$SERVER_PID" 2>/dev/null; do curl -sf -o /dev/null "$metrics_url" || true; sleep 1; done) &
        at_exit "kill $! 2>/dev/null || true"
    fi
    STARTUP_MS=$(( $(now_ms) - started ))
}

# register [url]: a new user (a fresh name, so a persistent store takes it too) of the
# server at <url> (default the bench's); prints the token.
USERS=0
register() {
    USERS=$((USERS + 1))
    curl -sf -X POST "${1:-$BASE_URL}/users" -H 'Content-Type: application/json' \
        -d "{\"username\":\"bench$$-$RANDOM-$USERS\",\"password\":\"benchmark password $USERS\"}" | jq -r .token
}

# --- scenarios -----------------------------------------------------------------------

NAMES=(); POOLED=(); declare -A LABEL SIZE GOAL_RATIO GOAL_RPS GOAL_P99 TARGET_URL TARGET_PIDS
for requested in "${REQUESTED[@]}"; do
    case "$requested" in
        walks | walks-accept | walks-reject | walks-batch | login | cluster | cluster-favorites*) ;;
        nearby* | region* | photos | locations | healthz | topics | popular | clusters* | search | tours | favorites | favorites-ids | recents | images*)
            POOLED+=("$requested") ;;
        *) echo "bench: unknown scenario '$requested' (known: $ALL_SCENARIOS)" >&2; exit 1 ;;
    esac
done

# --- the image origin ------------------------------------------------------------

# For the images scenarios: nginx on ORIGIN_PORT answers every source path with one of
# four sample JPEGs (600 px for the 600 px paths, thumbnails for /thumb/, chosen by
# the path), and the server fetches from it (--image-origin).
IMAGE_OPTIONS=()
ORIGIN_PID=""
at_exit 'if [[ -n "$ORIGIN_PID" ]]; then kill "$ORIGIN_PID" 2>/dev/null; wait "$ORIGIN_PID" 2>/dev/null; fi'
if [[ " ${REQUESTED[*]} " == *" images"* ]]; then
    command -v cjpeg >/dev/null || { echo "bench: cjpeg is required for images (apt-get install -y libjpeg-turbo-progs)" >&2; exit 1; }
    ORIGIN_PORT=${ORIGIN_PORT:-18082}
    mkdir -p "$WORK/origin/www" "$WORK/origin/logs"
    # Photographs are mostly smooth with grain: a gradient with noise, at quality 85.
    for sample in 1 2 3 4; do
        python3 scripts/bench/sample-ppm.py 600 $((380 + sample * 20)) "$sample" | cjpeg -quality 85 >"$WORK/origin/www/full$sample.jpg"
        python3 scripts/bench/sample-ppm.py 150 100 "$sample" | cjpeg -quality 85 >"$WORK/origin/www/thumb$sample.jpg"
    done
    cat >"$WORK/origin/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/origin/nginx.pid;
error_log $WORK/origin/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/origin/body;
    proxy_temp_path $WORK/origin/proxy;
    fastcgi_temp_path $WORK/origin/fastcgi;
    uwsgi_temp_path $WORK/origin/uwsgi;
    scgi_temp_path $WORK/origin/scgi;
    split_clients "\$request_uri" \$sample { 25% 1; 25% 2; 25% 3; * 4; }
    server {
        listen 127.0.0.1:$ORIGIN_PORT;
        root $WORK/origin/www;
        default_type image/jpeg;
        location ~ /thumb/ { try_files /thumb\$sample.jpg =404; }
        location / { try_files /full\$sample.jpg =404; }
    }
}
CONF
    # nginx's workers run as nobody: the samples must be theirs to read (mktemp's 0700).
    chmod a+rX "$WORK" && chmod -R a+rX "$WORK/origin"
    (on_cpus "$WRK_CPUS" nginx -p "$WORK/origin" -c "$WORK/origin/nginx.conf" -e "$WORK/origin/logs/error.log") &
    ORIGIN_PID=$!
    until curl -s -o /dev/null "http://127.0.0.1:$ORIGIN_PORT/600px/x.jpg"; do
        kill -0 "$ORIGIN_PID" 2>/dev/null || { echo "bench: the image origin's nginx exited" >&2; exit 1; }
        sleep 0.01
    done
    IMAGE_OPTIONS=(--image-origin "http://127.0.0.1:$ORIGIN_PORT")
fi

# --- start times -------------------------------------------------------------------

echo "server: $BIN on port $PORT (password cost $PASSWORD_COST)   wrk: $CONNECTIONS connections, $DURATION x $RUNS rounds"
echo "CPUs: server and nginx ${SERVER_CPUS:-any}, wrk ${WRK_CPUS:-any}; pools of $POOL_SIZE requests, seed $SEED"

cold=(); warm=()
for ((run = 1; run <= START_RUNS; run++)); do
    rm -rf "$TMP" && mkdir -p "$TMP"
    start_timed
    cold+=("$STARTUP_MS")
    stop_server
    start_timed
    warm+=("$STARTUP_MS")
    if (( run < START_RUNS )); then stop_server; fi
done
printf 'cold start to healthy (ms, median of %d): %s\n' "$START_RUNS" "$(printf '%s\n' "${cold[@]}" | median)"
printf 'warm start to healthy (ms, median of %d): %s\n' "$START_RUNS" "$(printf '%s\n' "${warm[@]}" | median)"

# --- request pools, and nginx serving the same bodies -----------------------------

# Each manifest line: <scenario> <tab> <median body bytes> <tab> <label>.
if (( ${#POOLED[@]} > 0 )); then
    python3 scripts/bench/pools.py --port "$PORT" --data Data/oldnyc-locations.jsonl.gz \
        --out "$WORK/pools" --www "$WORK/nginx/www" --size "$POOL_SIZE" --seed "$SEED" "${POOLED[@]}" >"$WORK/pools/manifest"
fi
for requested in "${REQUESTED[@]}"; do
    case "$requested" in
        walks) printf 'walks-accept\t-\tPOST /walks/{id}/points, accepted\nwalks-reject\t-\tPOST /walks/{id}/points, rejected\n' ;;
        walks-accept) printf 'walks-accept\t-\tPOST /walks/{id}/points, accepted\n' ;;
        walks-reject) printf 'walks-reject\t-\tPOST /walks/{id}/points, rejected\n' ;;
        walks-batch) printf 'walks-batch\t-\tPOST /walks/{id}/points/batch, 100 points\n' ;;
        login) printf 'login\t-\tGET /nearby c4 under OWASP logins\n' ;;
        cluster)
            # nearby-core's pool, drawn apart so that nearby-core itself runs only if asked for.
            mkdir -p "$WORK/cluster/pool" "$WORK/cluster/www"
            python3 scripts/bench/pools.py --port "$PORT" --data Data/oldnyc-locations.jsonl.gz \
                --out "$WORK/cluster/pool" --www "$WORK/cluster/www" --size "$POOL_SIZE" --seed "$SEED" \
                nearby-core >"$WORK/cluster/manifest"
            size=$(cut -f2 "$WORK/cluster/manifest")
            for target in nginx1 nginx3 direct; do
                cp "$WORK/cluster/pool/nearby-core.server" "$WORK/pools/cluster-$target.server"
            done
            printf 'cluster-nginx1\t%s\tGET /nearby core, nginx + 1 instance\n' "$size"
            printf 'cluster-nginx3\t%s\tGET /nearby core, nginx + 3 instances\n' "$size"
            printf 'cluster-direct\t%s\tGET /nearby core, 1 instance no nginx\n' "$size" ;;
        cluster-favorites | cluster-favorites-one | cluster-favorites-users)
            # favorites' pool, drawn apart so that favorites itself runs only if asked for.
            mkdir -p "$WORK/cluster-favorites/pool" "$WORK/cluster-favorites/www"
            python3 scripts/bench/pools.py --port "$PORT" --data Data/oldnyc-locations.jsonl.gz \
                --out "$WORK/cluster-favorites/pool" --www "$WORK/cluster-favorites/www" --size "$POOL_SIZE" \
                --seed "$SEED" favorites >/dev/null
            for users in one users; do
                [[ "$requested" == cluster-favorites || "$requested" == "cluster-favorites-$users" ]] || continue
                cp "$WORK/cluster-favorites/pool/favorites.server" "$WORK/pools/cluster-favorites-$users.server"
                printf 'cluster-favorites-%s\t-\tPUT /favorites, nginx + 3, PostgreSQL, %s\n' "$users" \
                    "$( [[ $users == one ]] && echo "1 user" || echo "$CONNECTIONS users")"
            done ;;
    esac
done >>"$WORK/pools/manifest"
while IFS=$'\t' read -r name size label; do
    NAMES+=("$name"); SIZE[$name]=$size; LABEL[$name]=$label
done <"$WORK/pools/manifest"
(( ${#NAMES[@]} > 0 )) || { echo "bench: no scenario left to run" >&2; exit 1; }

# Goals (issues 11, 19, 30 and 33): ratio to nginx, or req/s, and p99 in ms (or p99 alone).
for name in "${NAMES[@]}"; do
    case "$name" in
        nearby-heading | nearby-topic) GOAL_RATIO[$name]=0.6; GOAL_P99[$name]=5 ;;
        nearby-* | region-*) GOAL_RATIO[$name]=0.75; GOAL_P99[$name]=5 ;;
        topics) GOAL_RATIO[$name]=0.9; GOAL_P99[$name]=5 ;;
        popular) GOAL_P99[$name]=5 ;;
        photos) GOAL_RATIO[$name]=0.9; GOAL_P99[$name]=5 ;;
        locations) GOAL_RATIO[$name]=0.75; GOAL_P99[$name]=5 ;;
        favorites-ids) GOAL_P99[$name]=5 ;;
        favorites | recents) GOAL_RATIO[$name]=5; GOAL_P99[$name]=20 ;;
        healthz | clusters-*) GOAL_RATIO[$name]=0.5; GOAL_P99[$name]=5 ;;
        search) GOAL_RPS[$name]=10000; GOAL_P99[$name]=10 ;;
        images) GOAL_RATIO[$name]=0.9; GOAL_P99[$name]=5 ;;
        images-pack) GOAL_RATIO[$name]=0.8; GOAL_P99[$name]=1000 ;;
    esac
done

# /nearby for the login scenario: one point in Manhattan.
echo "/nearby?lat=40.7359&lon=-73.9911&limit=10" >"$WORK/pools/login-nearby.server"
if [[ " ${NAMES[*]} " == *" tours "* ]]; then
    echo "--- tours: planned against greedy (past-nyc tour-gain, one thread, server idle)"
    "$BIN" tour-gain --data-dir "$TMP" --source-dir Data "$WORK/pools/tours.points"
fi

# The clusters: one instance (for cluster-nginx1 and cluster-direct), then three
# (cluster-nginx3, cluster-favorites) on the first one's PostgreSQL (or DATABASE_URL's).
# cluster_start <dir> <instances> [DATABASE_URL]; the clusters stop by themselves after
# CLUSTER_TIME_LIMIT seconds, should this script be killed before its cleanup.
cluster_start() {
    CLUSTERS+=("$1")
    # As the single server: the load from one address lifts the limits it must exceed.
    CLUSTER_DIR="$1" INSTANCES="$2" PAST_NYC="$(realpath "$BIN")" PASSWORD_COST="$PASSWORD_COST" CLUSTER_CACHE=off \
        INSTANCE_OPTIONS="--user-write-rate 0 --registrations-per-hour 0 --hashes-per-client 0" \
        DATABASE_URL="${3:-${DATABASE_URL:-}}" \
        CLUSTER_TIME_LIMIT=$((1800 + ${#NAMES[@]} * 2 * (RUNS + 1) * ${DURATION%s})) scripts/cluster.sh start >/dev/null
}
if [[ " ${NAMES[*]} " == *" cluster-nginx1 "* || " ${NAMES[*]} " == *" cluster-direct "* ]]; then
    echo "--- cluster: starting scripts/cluster.sh with INSTANCES=1"
    cluster_start "$WORK/cluster/one" 1
    TARGET_URL[cluster-nginx1]=$(source "$WORK/cluster/one/cluster.env" && echo "$CLUSTER_URL")
    TARGET_URL[cluster-direct]=$(source "$WORK/cluster/one/cluster.env" && echo "${INSTANCE_URLS[0]}")
    TARGET_PIDS[cluster-nginx1]=$(source "$WORK/cluster/one/cluster.env" && echo "${INSTANCE_PIDS[*]}")
    TARGET_PIDS[cluster-direct]=${TARGET_PIDS[cluster-nginx1]}
fi
if [[ " ${NAMES[*]} " == *" cluster-nginx3 "* || " ${NAMES[*]} " == *" cluster-favorites-"* ]]; then
    echo "--- cluster: starting scripts/cluster.sh with INSTANCES=3"
    if ((${#CLUSTERS[@]} > 0)); then
        cluster_start "$WORK/cluster/three" 3 "$(source "$WORK/cluster/one/cluster.env" && echo "$DATABASE_URL")"
    else
        cluster_start "$WORK/cluster/three" 3
    fi
    for name in cluster-nginx3 cluster-favorites-one cluster-favorites-users; do
        TARGET_URL[$name]=$(source "$WORK/cluster/three/cluster.env" && echo "$CLUSTER_URL")
        TARGET_PIDS[$name]=$(source "$WORK/cluster/three/cluster.env" && echo "${INSTANCE_PIDS[*]}")
    done
    CLUSTER_DATABASE_URL=$(source "$WORK/cluster/three/cluster.env" && echo "$DATABASE_URL")
    # Counts statements for cluster-favorites-* where the server loads it (scripts/postgres.sh's does).
    psql "$CLUSTER_DATABASE_URL" -qc 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements' >/dev/null 2>&1 || true
fi
# The clusters' nginx serve HTTPS with certificates of their own (scripts/cluster.sh):
# curl trusts them all (wrk checks none).
if ((${#CLUSTERS[@]} > 0)); then
    for cluster in "${CLUSTERS[@]}"; do cat "$cluster/tls/cert.pem"; done >"$WORK/cluster-certificates.pem"
    export CURL_CA_BUNDLE="$WORK/cluster-certificates.pem"
fi

# postgres_statements: how many statements the clusters' PostgreSQL has run, from
# pg_stat_statements (these reads of it left out), or - where it is not loaded.
postgres_statements() {
    psql "$CLUSTER_DATABASE_URL" -Atqc \
        "SELECT sum(calls) FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'" 2>/dev/null || echo -
}
# postgres_ticks: the CPU jiffies of the PostgreSQL a cluster started (its postmaster
# and the postmaster's children, the backends; one that exited took its share along), or -
# when the clusters run on another server's (DATABASE_URL).
postgres_ticks() {
    local dir postmaster pid ticks sum=-
    for dir in "${CLUSTERS[@]}"; do
        [[ -f "$dir/postgres-dir" ]] || continue
        postmaster=$(head -n 1 "$(cat "$dir/postgres-dir")/data/postmaster.pid")
        sum=0
        for pid in "$postmaster" $(pgrep -P "$postmaster"); do
            ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true)
            sum=$((sum + ${ticks:-0}))
        done
    done
    echo "$sum"
}

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
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/nginx/www;
        default_type application/json;
    }
}
CONF
(on_cpus "$SERVER_CPUS" nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log") &
NGINX_PID=$!
until curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/"; do
    kill -0 "$NGINX_PID" 2>/dev/null || { echo "bench: nginx exited" >&2; cat "$WORK/nginx/logs/error.log" >&2; exit 1; }
    sleep 0.01
done
# The nginx worker: the process whose CPU time nginx's requests cost.
NGINX_WORKER=""
until [[ -n "$NGINX_WORKER" ]]; do NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -n 1); sleep 0.01; done

# Generations of the catalog all along the runs: a correction accepted every SWAP_EVERY
# seconds (after the pools were drawn), each swapping a new generation in.
if [[ -n "${SWAP_EVERY:-}" ]]; then
    (swap=0; while sleep "$SWAP_EVERY"; do
        swap=$((swap + 1))
        python3 scripts/bench/accept-corrections.py "$TMP" 1 "$swap" >/dev/null
    done) &
    SWAPPER=$!
    at_exit 'kill "$SWAPPER" 2>/dev/null || true'
fi

# --- runs ----------------------------------------------------------------------

# popular: three users save the same 20 photos, so every window lists them.
if [[ " ${NAMES[*]} " == *" popular "* ]]; then
    popular_photos=$(curl -sf "$BASE_URL/nearby?lat=40.7306&lon=-73.9866&limit=20&photos=1" | jq -r '.locations[].photos[0].photoID')
    for _ in 1 2 3; do
        TOKEN=$(register)
        for photo in $popular_photos; do
            curl -sf -o /dev/null -X PUT "$BASE_URL/favorites/$photo" -H "Authorization: Bearer $TOKEN"
        done
    done
fi

TICKS_PER_SECOND=$(getconf CLK_TCK)

# start_walks <file> [first point]: starts $WALKS walks of the user $TOKEN, one ID a line in <file>.
start_walks() {
    for _ in $(seq 1 "$WALKS"); do
        local walk
        walk=$(curl -sf -X POST "$BASE_URL/walks" -H "Authorization: Bearer $TOKEN" | jq -r .walkID)
        echo "$walk"
        if [[ -n "${2:-}" ]]; then
            curl -sf -o /dev/null -X POST "$BASE_URL/walks/$walk/points" -H "Authorization: Bearer $TOKEN" \
                -H 'Content-Type: application/json' -d "$2"
        fi
    done >"$1"
}

# wrk_run <threads> <connections> <duration> <url> <script> [args...]: wrk on WRK_CPUS; prints its RESULT line.
wrk_run() {
    local threads=$1 connections=$2 duration=$3 url=$4 script=$5
    shift 5
    (on_cpus "$WRK_CPUS" wrk -t "$threads" -c "$connections" -d "$duration" --timeout 10s -s "$script" "$url" -- "$@") |
        grep '^RESULT'
}

# measure <scenario> <server|nginx> <duration>: one wrk run of the scenario; prints
# "<req/s> <p50> <p99> <non-2xx> <errors> <wrk CPU s> <statuses> <server CPU µs per request> <wrk CPU % of a core per thread>".
RUN_NUMBER=0
measure() {
    local name=$1 target=$2 duration=$3 pid=$SERVER_PID url=$BASE_URL threads=$THREADS before line
    RUN_NUMBER=$((RUN_NUMBER + 1))
    if [[ "$target" == disk ]]; then python3 scripts/bench/fdatasync-rate.py "$TMP" "${duration%s}"; return; fi
    if [[ "$target" == nginx ]]; then pid=$NGINX_WORKER; url="http://127.0.0.1:$NGINX_PORT"; fi
    if [[ "$name" == cluster-* ]]; then pid=${TARGET_PIDS[$name]}; url=${TARGET_URL[$name]}; fi
    # shellcheck disable=SC2086 # the cluster's instances: one PID each
    before=$(cpu_ticks $pid)
    case "$name" in
        cluster-favorites-*)
            threads=$WRITE_THREADS
            local tokens="" statements postgres
            TOKEN=$(register "$url")
            if [[ "$name" == cluster-favorites-users ]]; then
                for _ in $(seq 2 "$CONNECTIONS"); do tokens+=" $(register "$url")"; done
                tokens="$TOKEN$tokens" TOKEN=""
            fi
            statements=$(postgres_statements)
            postgres=$(postgres_ticks)
            # shellcheck disable=SC2086 # one PID per instance
            before=$(cpu_ticks $pid)
            line=$(WRK_CPUS="" TOKEN=$TOKEN TOKENS=$tokens wrk_run "$threads" "$CONNECTIONS" "$duration" "$url" \
                scripts/bench/replay.lua "$WORK/pools/$name.server" "$SEED")
            # PostgreSQL's statements and CPU µs per request answered (req/s × seconds).
            echo "$line" | awk -v statements="$statements" -v now="$(postgres_statements)" -v ticks="$postgres" \
                -v after="$(postgres_ticks)" -v hz="$TICKS_PER_SECOND" -v seconds="${duration%s}" \
                '{ requests = $2 * seconds
                   if (requests == 0) { print "- -"; exit }
                   printf "%s %s\n", (statements == "-" ? "-" : sprintf("%.2f", (now - statements) / requests)),
                       (ticks == "-" ? "-" : sprintf("%.1f", (after - ticks) / hz * 1e6 / requests)) }' \
                >>"$WORK/postgres-$name" ;;
        cluster-*)
            threads=$CLUSTER_THREADS
            line=$(WRK_CPUS="" wrk_run "$threads" "$CONNECTIONS" "$duration" "$url" scripts/bench/replay.lua \
                "$WORK/pools/$name.server" "$SEED") ;;
        popular)
            threads=$WRITE_THREADS
            line=$(wrk_run "$threads" "$WRITE_CONNECTIONS" "$duration" "$url" scripts/bench/replay.lua \
                "$WORK/pools/$name.$target" "$SEED") ;;
        favorites-ids)
            threads=$WRITE_THREADS
            TOKEN=$(register)
            while read -r photo; do
                curl -sf -o /dev/null -X PUT "$BASE_URL/favorites/$photo" -H "Authorization: Bearer $TOKEN"
            done <"$WORK/pools/favorites-ids.saved"
            before=$(cpu_ticks "$pid")
            line=$(TOKEN=$TOKEN wrk_run "$threads" "$WRITE_CONNECTIONS" "$duration" "$url" \
                scripts/bench/replay.lua "$WORK/pools/favorites-ids.server" "$SEED") ;;
        favorites | recents)
            threads=$WRITE_THREADS
            TOKEN=$(register)
            before=$(cpu_ticks "$pid")
            line=$(TOKEN=$TOKEN wrk_run "$threads" "$CONNECTIONS" "$duration" "$url" \
                scripts/bench/replay.lua "$WORK/pools/$name.server" "$SEED") ;;
        walks-*)
            threads=$WRITE_THREADS
            TOKEN=$(register)
            if [[ "$name" != walks-reject ]]; then start_walks "$WORK/walks"; else
                start_walks "$WORK/walks" '{"latitude":40.70,"longitude":-74.00}'
            fi
            before=$(cpu_ticks "$pid")
            line=$(MODE=${name#walks-} RUN=$RUN_NUMBER THREADS=$threads WALK_IDS="$WORK/walks" TOKEN=$TOKEN \
                wrk_run "$threads" "$WRITE_CONNECTIONS" "$duration" "$url" scripts/bench/walks.lua) ;;
        login)
            local logins
            LOGIN_USER=bench-login LOGIN_PASSWORD="login benchmark password" \
                wrk_run "$WRITE_THREADS" "$WRITE_CONNECTIONS" "$duration" "$url" scripts/bench/login.lua >"$WORK/logins" &
            logins=$!
            line=$(wrk_run 1 4 "$duration" "$url" scripts/bench/replay.lua "$WORK/pools/login-nearby.server" "$SEED")
            wait "$logins"
            line="${line% *} logins:$(awk '{ print $8 }' "$WORK/logins")" ;;
        *)
            line=$(wrk_run "$threads" "$CONNECTIONS" "$duration" "$url" scripts/bench/replay.lua \
                "$WORK/pools/$name.$target" "$SEED") ;;
    esac
    # shellcheck disable=SC2086
    echo "$line" | awk -v ticks=$(( $(cpu_ticks $pid) - before )) -v hz="$TICKS_PER_SECOND" -v seconds="${duration%s}" \
        -v threads="$threads" \
        '{ printf "%s %s %s %s %s %s %s %.1f %.0f\n", $2, $3, $4, $5, $6, $7, $8,
           ($2 > 0 ? ticks / hz * 1e6 / ($2 * seconds) : 0), $7 / seconds / threads * 100 }'
}
has_twin() { [[ -f "$WORK/pools/$1.nginx" || "$1" == favorites || "$1" == recents ]]; }
# The twin's target: the disk for the durable writes, nginx for the rest.
twin_of() { if [[ "$1" == favorites || "$1" == recents ]]; then echo disk; else echo nginx; fi; }
if [[ " ${NAMES[*]} " == *" login "* ]]; then
    curl -sf -o /dev/null -X POST "$BASE_URL/users" -H 'Content-Type: application/json' \
        -d '{"username":"bench-login","password":"login benchmark password"}' || true
fi

NO_TWIN="- - - - - - - - -"
for name in "${NAMES[@]}"; do  # warm-up
    [[ "$name" == login || "$name" == walks-* || "$name" == *favorites* || "$name" == recents ]] && continue
    measure "$name" server 2s >/dev/null
    has_twin "$name" && measure "$name" nginx 2s >/dev/null
done

# results[run * count + index] holds one scenario's server and nginx runs side by side (18 fields).
results=()
for ((run = 1; run <= RUNS; run++)); do
    line="round $run:"
    for index in "${!NAMES[@]}"; do
        name=${NAMES[$index]}
        server=$(measure "$name" server "$DURATION")
        nginx=$NO_TWIN
        has_twin "$name" && nginx=$(measure "$name" "$(twin_of "$name")" "$DURATION")
        results+=("$server $nginx")
        ratio=$(awk -v a="${server%% *}" -v b="${nginx%% *}" 'BEGIN { if (b == "-") print "-"; else printf "%.2f", a / b }')
        saturated=$(awk -v s="$server" -v n="$nginx" -v limit="$WRK_SATURATED" \
            'BEGIN { split(s, a, " "); split(n, b, " "); if (a[9] > limit || (b[9] != "-" && b[9] > limit)) print "!" }')
        line+=" $name ${server%% *}/s $ratio$saturated"
    done
    echo "$line"
done

# field <index> <field>: one field of one scenario, per round.
field() {
    for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + $1]}"; done | awk -v f="$2" '{ print $f }'
}
echo
printf '%-36s %6s %8s %6s %6s %6s %5s | %8s %6s %6s %5s | %5s %-11s %-16s %s\n' "scenario (median of $RUNS)" "body" \
    "req/s" "p50" "p99 ms" "µs/rq" "wrk%" "nginx/s" "p99 ms" "µs/rq" "wrk%" "ratio" "(range)" "goal" "notes"
for index in "${!NAMES[@]}"; do
    name=${NAMES[$index]}
    rps=$(field "$index" 1 | median)
    p99=$(field "$index" 3 | median)
    ratio="-"; range=""; nginx_rps="-"; nginx_p99="-"; nginx_cpu="-"; nginx_wrk="-"
    if has_twin "$name"; then
        ratios=$(for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + index]}"; done |
            awk '{ printf "%.3f\n", $1 / $10 }')
        ratio=$(printf '%.2f' "$(median <<<"$ratios")")
        range="($(sort -g <<<"$ratios" | head -n 1 | xargs printf '%.2f')–$(sort -g <<<"$ratios" | tail -n 1 | xargs printf '%.2f'))"
        nginx_rps=$(field "$index" 10 | median); nginx_p99=$(field "$index" 12 | median)
        nginx_cpu=$(field "$index" 17 | median); nginx_wrk=$(field "$index" 18 | median)
    fi
    notes=""
    bad=$(for ((run = 0; run < RUNS; run++)); do echo "${results[run * ${#NAMES[@]} + index]}"; done |
        awk '{ s += $4 + $5 + ($13 == "-" ? 0 : $13 + $14) } END { print s }')
    (( bad > 0 )) && notes+="$bad non-2xx/errors; "
    busiest=$( (field "$index" 9; field "$index" 18) | grep -v '^-$' | sort -g | tail -n 1)
    (( busiest > WRK_SATURATED )) && notes+="wrk saturated (${busiest}%): the client may be the limit; "
    statuses=$(field "$index" 7 | sort | uniq | grep -v '^-$' | tr '\n' ' ' || true)
    [[ -n "$statuses" ]] && notes+="statuses $statuses"
    goal="-"
    if [[ -n "${GOAL_P99[$name]:-}" ]]; then
        if [[ -z "${GOAL_RATIO[$name]:-}" && -z "${GOAL_RPS[$name]:-}" ]]; then
            goal="<${GOAL_P99[$name]}ms"
            met=$(awk -v p="$p99" -v l="${GOAL_P99[$name]}" 'BEGIN { print (p < l) ? "met" : "MISSED" }')
        elif [[ -n "${GOAL_RATIO[$name]:-}" ]]; then
            goal="≥${GOAL_RATIO[$name]}× <${GOAL_P99[$name]}ms"
            met=$(awk -v r="$ratio" -v g="${GOAL_RATIO[$name]}" -v p="$p99" -v l="${GOAL_P99[$name]}" \
                'BEGIN { print (r >= g && p < l) ? "met" : "MISSED" }')
        else
            goal="≥${GOAL_RPS[$name]}/s <${GOAL_P99[$name]}ms"
            met=$(awk -v r="$rps" -v g="${GOAL_RPS[$name]}" -v p="$p99" -v l="${GOAL_P99[$name]}" \
                'BEGIN { print (r >= g && p < l) ? "met" : "MISSED" }')
        fi
        goal+=" $met"
    fi
    cpu=$(field "$index" 8 | median)
    [[ "$name" == login ]] && cpu="-"  # the server's CPU went to hashing
    printf '%-36s %6s %8s %6s %6s %6s %5s | %8s %6s %6s %5s | %5s %-11s %-16s %s\n' "${LABEL[$name]}" "${SIZE[$name]}" \
        "$rps" "$(field "$index" 2 | median)" "$p99" "$cpu" "$(field "$index" 9 | median)" \
        "$nginx_rps" "$nginx_p99" "$nginx_cpu" "$nginx_wrk" "$ratio" "$range" "$goal" "$notes"
done
echo "µs/rq: CPU time (user + system, /proc) of the server (cluster-*: its instances) or nginx's worker per request; wrk%: wrk's CPU, % of a core per thread"
echo "ratio: our req/s over nginx's serving the same bodies, per round; ! in a round marks wrk's core over ${WRK_SATURATED}% busy"
echo "favorites, recents: the nginx/s column is the disk's single-threaded 4 KiB write + fdatasync per second in the data directory, the ratio ours over it"
for name in "${NAMES[@]}"; do
    [[ -f "$WORK/postgres-$name" ]] || continue
    printf '%s, PostgreSQL per request (median of %d): %s statements (round trips), %s µs CPU\n' "$name" "$RUNS" \
        "$(awk '{ print $1 }' "$WORK/postgres-$name" | median)" "$(awk '{ print $2 }' "$WORK/postgres-$name" | median)"
done

if [[ " ${NAMES[*]} " == *" images-pack "* ]]; then
    # 200 downloads of the pack at once, each slowed to 2 MB/s so they overlap: what
    # they add to the server's resident memory (VmRSS, sampled every 50 ms).
    pack_url="$BASE_URL$(head -n 1 "$WORK/pools/images-pack.server")"
    rss() { awk '/VmRSS/ { print $2 }' "/proc/$SERVER_PID/status"; }
    before=$(rss); peak=$before; downloads=()
    for _ in $(seq 1 200); do
        curl -s -o /dev/null --limit-rate 2M "$pack_url" &
        downloads+=($!)
    done
    while kill -0 "${downloads[@]}" 2>/dev/null; do
        now=$(rss); (( now > peak )) && peak=$now
        sleep 0.05
    done
    wait "${downloads[@]}" 2>/dev/null || true
    printf 'images-pack: 200 concurrent downloads at 2 MB/s each added %d KiB to the server'"'"'s RSS (%d KiB before, %d KiB at peak)\n' \
        $((peak - before)) "$before" "$peak"
fi
if [[ " ${NAMES[*]} " == *" images "* ]]; then
    python3 scripts/bench/image-miss.py --port "$PORT" --origin-port "$ORIGIN_PORT" --data Data/oldnyc-locations.jsonl.gz \
        --seed "$SEED" --exclude "$WORK/pools/images.server"
fi

printf 'server peak RSS (VmHWM): %s\n' "$(awk '/VmHWM/ { print $2, $3 }' "/proc/$SERVER_PID/status")"
