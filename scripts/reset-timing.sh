#!/usr/bin/env bash
# How long POST /users/password-reset takes for an account's verified address and for
# an address no account has, against a release build that sends its mail to a local
# SMTP server (scripts/smtp-sink.py): the two should be the same, or the answer's time
# would tell who has an account.
#
#   scripts/reset-timing.sh [path/to/past-nyc]     (default .build/release/past-nyc)
#
# It registers USERS users (20) and verifies an address for each, then sends REQUESTS
# (200) resets over one keep-alive connection, alternating a verified address (each
# asked for at most 5 times, the hourly limit, so every one of these queues a message)
# and a fresh unknown one, and prints the medians, 90th percentiles and their ratio
# (scripts/bench/reset_timing.py).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAST_NYC_BIN=$(realpath "${1:-$ROOT/.build/release/past-nyc}")
export PAST_NYC_BIN
# shellcheck source=scripts/run-server.sh
source "$ROOT/scripts/run-server.sh"

start_smtp_sink
start_server test "${MAIL_OPTIONS[@]}" --registrations-per-hour 0 --hashes-per-client 0 --user-write-rate 0
wait_healthy "$BASE_URL" 30 "$SERVER_PID"
python3 "$ROOT/scripts/bench/reset_timing.py" "$BASE_URL" "$MAIL_DIR" "${USERS:-20}" "${REQUESTS:-200}"
stop_server
