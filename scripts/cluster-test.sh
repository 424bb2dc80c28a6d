#!/usr/bin/env bash
# The cluster test: scripts/cluster.sh's PostgreSQL, three instances and nginx,
# checked from outside over HTTP.
#
#  1. One session across instances: register through instance 1, log in through
#     instance 2, save a favorite through instance 3, see it through instance 1,
#     log out through instance 1: every instance refuses the token at once. The
#     same again through nginx.
#  2. The login throttle: wrong passwords until 429 on one SQLite instance of
#     its own, then across the three instances in turn, then through nginx: the
#     429 comes at the same attempt everywhere.
#  3. kill -9 of instance 2 under mixed read and write load through nginx
#     (scripts/cluster-load.py): every acknowledged write is there afterwards,
#     the clients saw at most one 502 each, all within 1 s (the ones in flight
#     on the killed instance), and no other failure, and successes never stopped for more than 2 s.
#
# Usage: scripts/cluster-test.sh [path/to/past-nyc]  (default .build/release/past-nyc)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PAST_NYC=${1:-$ROOT/.build/release/past-nyc}
WORK_DIR=$(mktemp -d -t past-nyc-cluster-test.XXXXXX)
export CLUSTER_DIR="$WORK_DIR/cluster" PASSWORD_COST=test CLUSTER_TIME_LIMIT=170
SINGLE_PID=""
FAILURES=0

cleanup() {
    "$ROOT/scripts/cluster.sh" stop >/dev/null || true
    if [[ -n "$SINGLE_PID" ]] && kill -0 "$SINGLE_PID" 2>/dev/null; then
        kill -TERM "$SINGLE_PID"
        wait "$SINGLE_PID" || true
    fi
    rm -rf "$WORK_DIR"
}
trap cleanup EXIT

pass() { echo "ok: $*"; }
failed() {
    echo "FAILED: $*" >&2
    FAILURES=$((FAILURES + 1))
}
# expect <what> <wanted> <got>
expect() {
    if [[ "$2" == "$3" ]]; then pass "$1: $3"; else failed "$1: wanted $2, got $3"; fi
}

# status <method> <url> [token] [json body]: the response status.
status() {
    local arguments=(-s -o /dev/null -w '%{http_code}' -X "$1" "$2")
    [[ -n "${3:-}" ]] && arguments+=(-H "Authorization: Bearer $3")
    [[ -n "${4:-}" ]] && arguments+=(-H 'Content-Type: application/json' -d "$4")
    curl "${arguments[@]}"
}

# token <path> <base url> <username>: the token of a register or login (empty if none).
token() {
    curl -sf -X POST "$2$1" -H 'Content-Type: application/json' \
        -d "{\"username\":\"$3\",\"password\":\"cluster test password\"}" | jq -r .token || true
}

# throttle_count <username> <url>...: wrong-password logins, sent to the URLs in
# turn, until one answers 429; prints that attempt's number (0: none in 20).
throttle_count() {
    local username=$1
    shift
    local urls=("$@")
    for attempt in $(seq 1 20); do
        local url=${urls[$(((attempt - 1) % ${#urls[@]}))]}
        local code
        code=$(status POST "$url/users/login" "" "{\"username\":\"$username\",\"password\":\"not the password\"}")
        if [[ "$code" == 429 ]]; then
            echo "$attempt"
            return
        fi
        [[ "$code" == 401 ]] || { echo "attempt $attempt: $code" >&2; echo -1; return; }
    done
    echo 0
}

echo "== starting the cluster"
"$ROOT/scripts/cluster.sh" start
# shellcheck source=/dev/null
source "$CLUSTER_DIR/cluster.env"
ONE=${INSTANCE_URLS[0]} TWO=${INSTANCE_URLS[1]} THREE=${INSTANCE_URLS[2]}
PHOTO=$(curl -sf "$CLUSTER_URL/nearby?lat=40.73&lon=-73.99&limit=1&photos=1" | jq -r '.locations[0].photos[0].photoID')

echo "== 1. one session across the instances"
expect "register through instance 1" 201 \
    "$(status POST "$ONE/users" "" '{"username":"riis","password":"cluster test password"}')"
TOKEN=$(token /users/login "$TWO" riis)
[[ -n "$TOKEN" && "$TOKEN" != null ]] && pass "log in through instance 2" || failed "log in through instance 2"
expect "favorite through instance 3" 201 "$(status PUT "$THREE/favorites/$PHOTO" "$TOKEN")"
expect "the favorite through instance 1" "$PHOTO" \
    "$(curl -sf "$ONE/favorites" -H "Authorization: Bearer $TOKEN" | jq -r '.favorites[0].photoID')"
for url in "$TWO" "$THREE"; do
    expect "the token before logout at $url" 200 "$(status GET "$url/users/me" "$TOKEN")"
done
expect "log out through instance 1" 204 "$(status POST "$ONE/users/logout" "$TOKEN")"
for url in "$TWO" "$THREE" "$ONE"; do
    expect "the revoked token at $url" 401 "$(status GET "$url/users/me" "$TOKEN")"
done

expect "register through nginx" 201 \
    "$(status POST "$CLUSTER_URL/users" "" '{"username":"abbott","password":"cluster test password"}')"
TOKEN=$(token /users/login "$CLUSTER_URL" abbott)
expect "favorite through nginx" 201 "$(status PUT "$CLUSTER_URL/favorites/$PHOTO" "$TOKEN")"
for url in "$CLUSTER_URL" "$CLUSTER_URL" "$CLUSTER_URL" "$ONE" "$TWO" "$THREE"; do
    expect "the favorite again at $url" 200 "$(status PUT "$url/favorites/$PHOTO" "$TOKEN")"
done
expect "log out through nginx" 204 "$(status POST "$CLUSTER_URL/users/logout" "$TOKEN")"
for url in "$CLUSTER_URL" "$CLUSTER_URL" "$CLUSTER_URL" "$ONE" "$TWO" "$THREE"; do
    expect "the revoked token at $url" 401 "$(status GET "$url/users/me" "$TOKEN")"
done

echo "== 2. the login throttle"
# One instance on SQLite of its own (no DATABASE_URL): the reference count.
cp -a "$CLUSTER_DIR/catalog" "$WORK_DIR/single"
env -u DATABASE_URL "$PAST_NYC" serve --host 127.0.0.1 --port 0 --data-dir "$WORK_DIR/single" \
    --source-dir "$ROOT/Data" --openapi "$ROOT/openapi.yaml" --web-dir "$ROOT/Web" --password-cost test --log-level notice \
    </dev/null >/dev/null 2>"$WORK_DIR/single.log" &
SINGLE_PID=$!
SINGLE_URL=""
for _ in $(seq 1 600); do
    port=$(grep -oE 'port=[0-9]+' "$WORK_DIR/single.log" | head -1 | cut -d= -f2 || true)
    [[ -n "$port" ]] && { SINGLE_URL="http://127.0.0.1:$port"; break; }
    sleep 0.1
done
[[ -n "$SINGLE_URL" ]] || { cat "$WORK_DIR/single.log" >&2; failed "the SQLite instance did not start"; exit 1; }
for who in "$SINGLE_URL" "$CLUSTER_URL"; do
    expect "register throttled at $who" 201 \
        "$(status POST "$who/users" "" '{"username":"throttled","password":"cluster test password"}')"
done
SINGLE_COUNT=$(throttle_count throttled "$SINGLE_URL")
if ((SINGLE_COUNT > 0)); then pass "one SQLite instance: 429 at attempt $SINGLE_COUNT"; else failed "one SQLite instance: no 429 ($SINGLE_COUNT)"; fi
expect "the three instances in turn: 429 at attempt" "$SINGLE_COUNT" "$(throttle_count throttled "$ONE" "$TWO" "$THREE")"
expect "register throttled2 through nginx" 201 \
    "$(status POST "$CLUSTER_URL/users" "" '{"username":"throttled2","password":"cluster test password"}')"
expect "through nginx: 429 at attempt" "$SINGLE_COUNT" "$(throttle_count throttled2 "$CLUSTER_URL")"

echo "== 3. kill -9 of instance 2 under load through nginx"
CLIENTS=8
python3 "$ROOT/scripts/cluster-load.py" --url "$CLUSTER_URL" --clients "$CLIENTS" --seconds 8 \
    >"$WORK_DIR/load.json" &
LOAD_PID=$!
sleep 3
kill -KILL "${INSTANCE_PIDS[1]}"
echo "killed instance 2 (PID ${INSTANCE_PIDS[1]})"
load_status=0
wait "$LOAD_PID" || load_status=$?
cat "$WORK_DIR/load.json"
expect "every acknowledged write is there (cluster-load.py exit status)" 0 "$load_status"
gateway_failures=$(jq .gatewayFailures "$WORK_DIR/load.json")
if ((gateway_failures <= CLIENTS)); then
    pass "requests lost with the instance: $gateway_failures (at most one per client)"
else
    failed "requests lost with the instance: $gateway_failures, more than one per client ($CLIENTS)"
fi
span=$(jq .gatewayFailureSpanSeconds "$WORK_DIR/load.json")
if awk -v span="$span" 'BEGIN { exit !(span < 1) }'; then
    pass "those failed within $span s of each other (none after nginx saw the instance die)"
else
    failed "failures went on for $span s after the kill: nginx kept sending requests to the dead instance"
fi
expect "other failed requests (any other non-2xx)" 0 "$(jq .otherFailures "$WORK_DIR/load.json")"
gap=$(jq .longestGapSeconds "$WORK_DIR/load.json")
if awk -v gap="$gap" 'BEGIN { exit !(gap < 2) }'; then pass "longest time without a 2xx: $gap s"; else failed "no 2xx for $gap s"; fi
expect "the survivors still serve: instance 1" 200 "$(status GET "$ONE/healthz")"
expect "the survivors still serve: instance 3" 200 "$(status GET "$THREE/healthz")"

if ((FAILURES > 0)); then
    echo "cluster test: $FAILURES check(s) failed; logs:" >&2
    tail -n 20 "$CLUSTER_DIR"/instance*.log "$CLUSTER_DIR/nginx/error.log" >&2 || true
    exit 1
fi
echo "cluster test passed"
