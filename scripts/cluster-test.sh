#!/usr/bin/env bash
# The cluster test: scripts/cluster.sh's PostgreSQL, three instances and nginx,
# checked from outside over HTTPS (nginx's certificate, made by cluster.sh with
# openssl, is the one curl and the Python checks trust); the instances are
# reached directly over plain HTTP on loopback.
#
#  0. TLS at the edge: HTTPS answers with TLS 1.2 and 1.3 and carries HSTS;
#     plain HTTP answers every request (a POST too) with a 308 to the same
#     target over HTTPS and no HSTS; a client that does not trust the
#     certificate is refused.
#  0b. A real Prometheus (Debian's) scrapes the instances' --metrics-listen
#     listeners and sees all three `up`; after the kill of section 4, instance 2 down.
#  1. One session across instances: register through instance 1, log in through
#     instance 2, save a favorite through instance 3, see it through instance 1,
#     log out through instance 1: every instance refuses the token at once. The
#     same again through nginx.
#     Then GET /sync held on instance 2 (wait) is woken by a favorite saved
#     through instance 3, within 1 s (PostgreSQL LISTEN/NOTIFY).
#  2. The login throttle: wrong passwords until 429 on one SQLite instance of
#     its own, then across the three instances in turn, then through nginx: the
#     429 comes at the same attempt everywhere.
#  3. Reads from the edge: a repeated catalog read (GET, HEAD, If-None-Match,
#     gzip or not) is answered from nginx's cache and reaches no instance (their
#     access logs show it); a cold key reaches one instance once however many
#     ask at once; /healthz is never cached; a user's favorites, and anything
#     asked with a token, always reach an instance and carry no-store, so one
#     user never sees another's answer or an old one of their own. Then the
#     API's limits and error shape through nginx (scripts/edge-limits.py).
#  4. kill -9 of instance 2 under mixed read and write load through nginx
#     (scripts/cluster-load.py): every acknowledged write is there afterwards,
#     the clients saw at most one 502 each, all within 1 s (the ones in flight
#     on the killed instance), and no other failure, and successes never stopped for more than 2 s.
#
# Usage: scripts/cluster-test.sh [path/to/past-nyc]  (default .build/release/past-nyc)
set -euo pipefail

PAST_NYC_BIN=${1:-}
source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"
source "$ROOT/scripts/prometheus.sh"
export PAST_NYC=$BIN
# The instances log every request (info): section 3 reads their logs.
export CLUSTER_DIR="$WORK_DIR/cluster" PASSWORD_COST=test CLUSTER_TIME_LIMIT=170 LOG_LEVEL=info
FAILURES=0
at_exit '"$ROOT/scripts/cluster.sh" stop >/dev/null'

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
# Every curl below trusts the cluster's certificate (the instances' plain HTTP ignores it).
export CURL_CA_BUNDLE=$CLUSTER_CA

echo "== 0. TLS at the edge"
for version in 1.2 1.3; do
    expect "HTTPS with TLS $version" 200 \
        "$(curl -s -o /dev/null -w '%{http_code}' --tlsv$version --tls-max $version "$CLUSTER_URL/healthz")"
done
expect "TLS 1.1 refused (curl's exit status)" 35 \
    "$(curl -s -o /dev/null --tlsv1.1 --tls-max 1.1 "$CLUSTER_URL/healthz" 2>/dev/null; echo $?)"
expect "a client that does not trust the certificate (curl's exit status)" 60 \
    "$(CURL_CA_BUNDLE="" curl -s -o /dev/null --capath /nonexistent "$CLUSTER_URL/healthz"; echo $?)"
hsts=$(curl -s -D - -o /dev/null "$CLUSTER_URL/healthz" | grep -i '^strict-transport-security:' | tr -d '\r' || true)
expect "HSTS on HTTPS" "Strict-Transport-Security: max-age=31536000" "$hsts"
hsts=$(curl -s -D - -o /dev/null "$CLUSTER_URL/no/such/path" | grep -ci '^strict-transport-security:' || true)
expect "HSTS on an error over HTTPS" 1 "$hsts"
expect "plain HTTP: GET redirected" "308 $CLUSTER_URL/nearby?lat=40.73&lon=-73.99" \
    "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$CLUSTER_HTTP_URL/nearby?lat=40.73&lon=-73.99")"
expect "plain HTTP: POST redirected, not answered" "308 $CLUSTER_URL/users" \
    "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -X POST -H 'Content-Type: application/json' \
        -d '{"username":"cleartext","password":"cluster test password"}' "$CLUSTER_HTTP_URL/users")"
expect "plain HTTP: no HSTS (RFC 6797 7.2: never over plain HTTP)" 0 \
    "$(curl -s -D - -o /dev/null "$CLUSTER_HTTP_URL/healthz" | grep -ci '^strict-transport-security:' || true)"
expect "following the redirect" 200 "$(curl -s -L -o /dev/null -w '%{http_code}' "$CLUSTER_HTTP_URL/healthz")"
PHOTO=$(curl -sf "$CLUSTER_URL/nearby?lat=40.73&lon=-73.99&limit=1&photos=1" | jq -r '.locations[0].photos[0].photoID')

echo "== 0b. Prometheus scrapes the three instances"
start_prometheus "$WORK_DIR/prometheus" "${METRICS_TARGETS[@]}"
wait_prometheus 'count(up{job="past-nyc"} == 1)' 3 20

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

echo "== 1b. a change through one instance wakes a /sync held on another"
expect "register through instance 1" 201 \
    "$(status POST "$ONE/users" "" '{"username":"stieglitz","password":"cluster test password"}')"
TOKEN=$(token /users/login "$ONE" stieglitz)
NEXT=$(curl -sf "$TWO/sync" -H "Authorization: Bearer $TOKEN" | jq -r '.next')
curl -sf "$TWO/sync?since=$NEXT&wait=20" -H "Authorization: Bearer $TOKEN" >"$WORK_DIR/held-sync.json" &
HELD=$!
sleep 1  # the request is held on instance 2 by now
expect "favorite through instance 3" 201 "$(status PUT "$THREE/favorites/$PHOTO" "$TOKEN")"
SAVED=$(now_ms)
wait "$HELD"
WOKEN=$(($(now_ms) - SAVED))
expect "the change the held sync on instance 2 answered" "$PHOTO" \
    "$(jq -r '.changes[] | select(.type == "favorite") | .photoID' "$WORK_DIR/held-sync.json")"
if ((WOKEN < 1000)); then pass "instance 2 answered ${WOKEN} ms after the write"; else
    failed "instance 2 answered ${WOKEN} ms after the write (goal: within 1 s)"; fi

echo "== 2. the login throttle"
# One instance on SQLite of its own (no DATABASE_URL): the reference count.
cp -a "$CLUSTER_DIR/catalog" "$WORK_DIR/single"
DATABASE_URL="" DATA_DIR="$WORK_DIR/single" SERVER_START_SECONDS=60 start_server test
SINGLE_URL=$BASE_URL
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

echo "== 3. reads from the edge: nginx's cache, its limits and errors"
# fetch <name> <curl arguments>…: the status; headers in $WORK_DIR/<name>.head, body in <name>.body.
fetch() {
    local name=$1
    shift
    curl -s -D "$WORK_DIR/$name.head" -o "$WORK_DIR/$name.body" -w '%{http_code}' "$@"
}
# header <name> <field>: that field of the response fetched as <name> (empty if none).
header() {
    grep -i "^$2:" "$WORK_DIR/$1.head" | head -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//' || true
}
# logged <request id>: how many requests with that X-Request-ID the instances logged.
logged() {
    cat "$CLUSTER_DIR"/instance*.log | grep -c "request_id=$1 " || true
}
# logged_path <path>: how many requests for that path the instances logged.
logged_path() {
    cat "$CLUSTER_DIR"/instance*.log | grep -c "method=GET path=$1 " || true
}
# sync_logs: waits until each instance has logged a request sent to it directly,
# after everything before it (the log is written a moment after the answer).
SYNC=0
sync_logs() {
    local n=0
    for url in "${INSTANCE_URLS[@]}"; do
        n=$((n + 1))
        SYNC=$((SYNC + 1))
        curl -s -o /dev/null -H "X-Request-ID: edge-sync-$SYNC" "$url/healthz" || true
        for _ in $(seq 1 50); do
            grep -q "request_id=edge-sync-$SYNC " "$CLUSTER_DIR/instance$n.log" && break
            sleep 0.1
        done
    done
}

NEARBY="$CLUSTER_URL/nearby?lat=40.73&lon=-73.98"
nearby_before=$(logged_path /nearby)
expect "a catalog read through nginx" "200 MISS" \
    "$(fetch nearby1 -H 'X-Request-ID: edge-nearby-1' "$NEARBY") $(header nearby1 X-Cache-Status)"
expect "its Cache-Control" "public, max-age=300" "$(header nearby1 Cache-Control)"
expect "the same read again: from the cache" "200 HIT" \
    "$(fetch nearby2 -H 'X-Request-ID: edge-nearby-2' "$NEARBY") $(header nearby2 X-Cache-Status)"
expect "the cached answer's body and ETag are the instance's" "same" \
    "$(cmp -s "$WORK_DIR/nearby1.body" "$WORK_DIR/nearby2.body" \
        && [[ "$(header nearby1 ETag)" == "$(header nearby2 ETag)" ]] && echo same || echo different)"
expect "the cached answer carries the request's own X-Request-ID" edge-nearby-2 "$(header nearby2 X-Request-ID)"
ETAG=$(header nearby1 ETag)
expect "HEAD of it: from the cache" "200 HIT" \
    "$(fetch nearby3 -I -H 'X-Request-ID: edge-nearby-3' "$NEARBY") $(header nearby3 X-Cache-Status)"
expect "If-None-Match with its ETag: 304 from the cache" "304 HIT" \
    "$(fetch nearby4 -H "If-None-Match: $ETAG" -H 'X-Request-ID: edge-nearby-4' "$NEARBY") $(header nearby4 X-Cache-Status)"
expect "asked with gzip (its own entry)" "200 MISS gzip" \
    "$(fetch nearby5 -H 'Accept-Encoding: gzip, deflate, br' -H 'X-Request-ID: edge-nearby-5' "$NEARBY") $(header nearby5 X-Cache-Status) $(header nearby5 Content-Encoding)"
expect "asked with gzip again, spelled otherwise: from the cache" "200 HIT gzip" \
    "$(fetch nearby6 -H 'Accept-Encoding: gzip' -H 'X-Request-ID: edge-nearby-6' "$NEARBY") $(header nearby6 X-Cache-Status) $(header nearby6 Content-Encoding)"
expect "and without gzip: the plain entry" "200 HIT  same" \
    "$(fetch nearby7 -H 'X-Request-ID: edge-nearby-7' "$NEARBY") $(header nearby7 X-Cache-Status) $(header nearby7 Content-Encoding) $(cmp -s "$WORK_DIR/nearby1.body" "$WORK_DIR/nearby7.body" && echo same || echo different)"
# A cold key asked by eight clients at once: one instance answers it, once.
lock_pids=()
for n in $(seq 1 8); do
    curl -s -o /dev/null -H "X-Request-ID: edge-lock-$n" "$CLUSTER_URL/search?q=bridge&limit=3" &
    lock_pids+=("$!")
done
wait "${lock_pids[@]}"
expect "/healthz (never cached)" 200 "$(fetch health1 -H 'X-Request-ID: edge-health-1' "$CLUSTER_URL/healthz")"
expect "/healthz again" "200 MISS" \
    "$(fetch health2 -H 'X-Request-ID: edge-health-2' "$CLUSTER_URL/healthz") $(header health2 X-Cache-Status)"
sync_logs
expect "instances that saw the first catalog read" 1 "$(logged edge-nearby-1)"
expect "instances that saw the repeated reads (GET, HEAD, If-None-Match, gzip, plain)" 0 \
    "$(($(logged edge-nearby-2) + $(logged edge-nearby-3) + $(logged edge-nearby-4) + $(logged edge-nearby-6) + $(logged edge-nearby-7)))"
expect "GET /nearby the instances logged for those seven reads (the plain and the gzip entry)" 2 \
    "$(($(logged_path /nearby) - nearby_before))"
lock_total=0
for n in $(seq 1 8); do lock_total=$((lock_total + $(logged "edge-lock-$n"))); done
expect "eight clients at once on a cold key: requests that reached an instance" 1 "$lock_total"
expect "/healthz reached an instance both times" 2 "$(($(logged edge-health-1) + $(logged edge-health-2)))"

# Favorites: always an instance's answer of the moment, for that user only.
CAROL=$(token /users "$CLUSTER_URL" carol)
DAVE=$(token /users "$CLUSTER_URL" dave)
[[ -n "$CAROL" && -n "$DAVE" ]] && pass "two users registered through nginx" || failed "register carol and dave"
favorites_check() { # <name> <token> <wanted photo IDs, comma-separated>
    local code
    code=$(fetch "$1" -H "Authorization: Bearer $2" -H "X-Request-ID: edge-$1" "$CLUSTER_URL/favorites")
    expect "GET /favorites as $1" "200 $3 no-store BYPASS" \
        "$code $(jq -r '[.favorites[].photoID] | join(",")' "$WORK_DIR/$1.body") $(header "$1" Cache-Control) $(header "$1" X-Cache-Status)"
}
favorites_check carol1 "$CAROL" ""
favorites_check dave1 "$DAVE" ""
expect "carol saves a favorite" 201 "$(status PUT "$CLUSTER_URL/favorites/$PHOTO" "$CAROL")"
favorites_check carol2 "$CAROL" "$PHOTO"
favorites_check dave2 "$DAVE" ""
expect "GET /favorites without a token, twice" "401 401 no-store" \
    "$(fetch anonymous1 -H 'X-Request-ID: edge-anonymous1' "$CLUSTER_URL/favorites") $(fetch anonymous2 -H 'X-Request-ID: edge-anonymous2' "$CLUSTER_URL/favorites") $(header anonymous2 Cache-Control)"
expect "a catalog read with a token: past the cache, no-store" "200 BYPASS no-store" \
    "$(fetch nearby8 -H "Authorization: Bearer $CAROL" -H 'X-Request-ID: edge-nearby-8' "$NEARBY") $(header nearby8 X-Cache-Status) $(header nearby8 Cache-Control)"
expect "the same with its ETag in If-None-Match: the instance's 304" "304 BYPASS" \
    "$(fetch nearby10 -H "Authorization: Bearer $CAROL" -H "If-None-Match: $ETAG" "$NEARBY") $(header nearby10 X-Cache-Status)"
expect "the cache still holds the public answer" "200 HIT public, max-age=300" \
    "$(fetch nearby9 "$NEARBY") $(header nearby9 X-Cache-Status) $(header nearby9 Cache-Control)"
sync_logs
for name in carol1 dave1 carol2 dave2 anonymous1 anonymous2 nearby-8; do
    expect "instances that answered edge-$name" 1 "$(logged "edge-$name")"
done

python3 "$ROOT/scripts/edge-limits.py" --url "$CLUSTER_URL" --cacert "$CLUSTER_CA" || failed "the limits and errors through nginx (above)"

echo "== 4. kill -9 of instance 2 under load through nginx"
CLIENTS=8
python3 "$ROOT/scripts/cluster-load.py" --url "$CLUSTER_URL" --cacert "$CLUSTER_CA" --clients "$CLIENTS" --seconds 8 \
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
wait_prometheus "up{instance=\"${METRICS_TARGETS[1]}\"}" 0 10

if ((FAILURES > 0)); then
    echo "cluster test: $FAILURES check(s) failed; logs:" >&2
    tail -n 20 "$CLUSTER_DIR"/instance*.log "$CLUSTER_DIR/nginx/error.log" >&2 || true
    exit 1
fi
echo "cluster test passed"
