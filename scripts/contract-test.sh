#!/usr/bin/env bash
# Contract test: runs schemathesis, generating requests from openapi.yaml, against
# a real `past-nyc` server and checks every response against the document, closed
# first by scripts/openapi_closure.py: a response member the document does not
# describe fails, though the published response schemas stay open.
#
#   scripts/contract-test.sh [path/to/past-nyc]      (default .build/release/past-nyc)
#
# It builds nothing: build the server first (`swift build -c release`).
# Environment: EXAMPLES (max examples per operation, default 30), SEED (a
# schemathesis seed, to replay a run), SCHEMATHESIS_VERSION (default below).
#
# The server runs on 127.0.0.1 on a free port with a fresh data directory and
# cheap password hashing (`--password-cost test`), and is stopped by its PID
# when the script exits, whatever happened.
#
# Two runs share the server:
#   1. every operation but POST /users/logout, with the bearer token of user A;
#   2. POST /users/logout alone, with the token of user B, because a successful
#      logout revokes the token it presents: in run 1 it would sign user A out
#      and leave every later authenticated request a 401.
# DELETE /users/me and PUT /users/me/password stay in run 1: they need the
# user's password, which schemathesis never sends (it is not in the document's
# examples), so they answer 403 (or 400) and never delete or change user A.
# Their success paths are covered by the integration tests, not here.
# The other writes of run 1 cannot lock user A out either: PATCH /users/me
# changes only the display name and home, and DELETE /users/me/data (the reset)
# and DELETE /recents erase favorites, recents (and walks) but keep the account
# and every token; the walk operations start, feed and delete only user A's walks.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A path given on the command line is relative to where the script was started.
if [[ $# -gt 0 ]]; then
    BINARY="$(realpath -m -- "$1")"
else
    BINARY="$ROOT/.build/release/past-nyc"
fi
cd "$ROOT"

EXAMPLES="${EXAMPLES:-30}"
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
HEALTH_TIMEOUT_SECONDS=120
STOP_TIMEOUT_SECONDS=15
CHECKS="not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance"

log() { printf '[contract-test] %s\n' "$*"; }
fail() { printf '[contract-test] FAIL: %s\n' "$*" >&2; exit 1; }

[[ -x "$BINARY" ]] || fail "no server binary at $BINARY (build it with: swift build -c release)"

# schemathesis runs as a module of this python3, so that a fresh install works
# without a shell rehash (pyenv shims) or a PATH change.
schemathesis() { python3 -m schemathesis.cli "$@"; }
installed_version() {
    python3 -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true
}
if [[ "$(installed_version)" != "$SCHEMATHESIS_VERSION" ]]; then
    log "installing schemathesis $SCHEMATHESIS_VERSION from PyPI"
    python3 -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
log "schemathesis $(installed_version)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/past-nyc-contract.XXXXXX")"
SERVER_LOG="$WORK/server.log"
CLOSED_DOCUMENT="$WORK/openapi.closed.yaml"
python3 scripts/openapi_closure.py openapi.yaml >"$CLOSED_DOCUMENT"
SERVER_PID=""

stop_server() {
    [[ -n "$SERVER_PID" ]] || return 0
    local pid="$SERVER_PID"
    SERVER_PID=""
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid"
    local deadline=$((SECONDS + STOP_TIMEOUT_SECONDS))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        wait "$pid" 2>/dev/null || true
        log "the server ignored SIGTERM for ${STOP_TIMEOUT_SECONDS}s and was killed"
        return 1
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    stop_server || status=1
    if ((status != 0)) && [[ -s "$SERVER_LOG" ]]; then
        log "last lines of the server log:"
        tail -n 40 "$SERVER_LOG" >&2
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

PORT="$(free_port)"
BASE_URL="http://127.0.0.1:$PORT"
log "starting $BINARY on $BASE_URL (data dir $WORK/data)"
"$BINARY" serve --host 127.0.0.1 --port "$PORT" --data-dir "$WORK/data" --password-cost test \
    >"$SERVER_LOG" 2>&1 </dev/null &
SERVER_PID=$!

deadline=$((SECONDS + HEALTH_TIMEOUT_SECONDS))
until curl --silent --fail --max-time 2 --output /dev/null "$BASE_URL/healthz"; do
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the server exited before /healthz answered 200"
    ((SECONDS < deadline)) || fail "/healthz did not answer 200 within ${HEALTH_TIMEOUT_SECONDS}s"
    sleep 0.2
done
log "/healthz answers 200"

# register NAME: creates a user with a random password and prints its token.
register() {
    local name="$1" password body status
    password="contract-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    body="$(printf '{"username":"%s","password":"%s"}' "$name" "$password")"
    status="$(curl --silent --max-time 10 --output "$WORK/register.json" --write-out '%{http_code}' \
        -H 'Content-Type: application/json' --data "$body" "$BASE_URL/users")"
    [[ "$status" == 201 ]] || fail "POST /users for $name answered $status: $(cat "$WORK/register.json")"
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["token"])' "$WORK/register.json"
}

TOKEN_A="$(register contract_a)"
TOKEN_B="$(register contract_b)"
log "registered contract_a and contract_b"

# run_schemathesis NAME TOKEN [FILTER...]
run_schemathesis() {
    local name="$1" token="$2"
    shift 2
    local seed_args=()
    [[ -n "${SEED:-}" ]] && seed_args=(--seed "$SEED")
    log "schemathesis run: $name"
    schemathesis run "$CLOSED_DOCUMENT" \
        --url "$BASE_URL" \
        --checks "$CHECKS" \
        --max-examples "$EXAMPLES" \
        --header "Authorization: Bearer $token" \
        --request-timeout 10 \
        --generation-database none \
        --output-sanitize true \
        --no-color \
        "${seed_args[@]}" \
        "$@"
}

failures=0
run_schemathesis "all operations but POST /users/logout (user A)" "$TOKEN_A" \
    --exclude-path /users/logout || failures=$((failures + 1))
run_schemathesis "POST /users/logout (user B)" "$TOKEN_B" \
    --include-path /users/logout || failures=$((failures + 1))

kill -0 "$SERVER_PID" 2>/dev/null || fail "the server died during the run"
stop_server || fail "the server did not stop on SIGTERM"

((failures == 0)) || fail "$failures schemathesis run(s) failed"
log "passed"
