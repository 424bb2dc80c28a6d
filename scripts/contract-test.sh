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
# and every token; the walk operations start, feed and delete only user A's walks;
# feedback and its decisions change no account.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A path given on the command line is relative to where the script was started.
if [[ $# -gt 0 ]]; then
    BINARY="$(realpath -m -- "$1")"
else
    BINARY="$ROOT/.build/release/past-nyc"
fi
cd "$ROOT"
PAST_NYC_BIN="$BINARY"
# shellcheck source=scripts/run-server.sh
source "$ROOT/scripts/run-server.sh"

EXAMPLES="${EXAMPLES:-30}"
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
HEALTH_TIMEOUT_SECONDS=120
CHECKS="not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance"

log() { printf '[contract-test] %s\n' "$*"; }

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

WORK="$WORK_DIR"
CLOSED_DOCUMENT="$WORK/openapi.closed.yaml"
python3 scripts/openapi_closure.py openapi.yaml >"$CLOSED_DOCUMENT"

# On a failure, the server log's last lines (it logs every request).
report_failure() {
    if ((EXIT_STATUS != 0)) && [[ -s "${SERVER_LOG:-}" ]]; then
        log "last lines of the server log:"
        tail -n 40 "$SERVER_LOG" >&2
    fi
}
at_exit report_failure
trap 'exit 130' INT TERM

log "starting $BINARY (data dir $WORK/data)"
# The photographs come from a local origin: a source on the internet would make the
# image routes' answers 502s, which the server-error check refuses.
start_image_origin
SERVER_LOG_LEVEL=info SERVER_START_SECONDS=$HEALTH_TIMEOUT_SECONDS start_server test --image-origin "$IMAGE_ORIGIN_URL"
wait_healthy "$BASE_URL" "$HEALTH_TIMEOUT_SECONDS" "$SERVER_PID"
log "/healthz answers 200 on $BASE_URL"

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
# User A is a moderator, named as the operator names one, so the moderation operations
# answer their 200s as well as their refusals.
"$BINARY" moderators add contract_a --data-dir "${DATA_DIR:-$WORK_DIR/data}" >/dev/null \
    || fail "past-nyc moderators add contract_a failed"
log "registered contract_a (a moderator) and contract_b"

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
