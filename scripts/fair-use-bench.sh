#!/usr/bin/env bash
# Replays the attacks of docs/RELIABILITY.md's "Fair use" section with
# scripts/fair-use-attacks.py against one release server on its public defaults
# (OWASP password cost, every fair-use limit as shipped), then, with CLUSTER=1,
# through nginx in front of the three PostgreSQL-backed instances of
# scripts/cluster.sh. One JSON line per attack: the legitimate client's p50/p99
# quiet and attacked, and the server's CPU per attack request.
#
#   scripts/fair-use-bench.sh [--attack NAME …]
#
# Environment: DURATION (seconds of each quiet and attacked run, default 10),
# CLUSTER=1 (through the cluster's nginx instead of one server), PAST_NYC_BIN
# (another build than .build/release/past-nyc). Bounded: every run stops by itself.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"

DURATION=${DURATION:-10}
# 4,100 sockets from one address, and the server's 4,096 connections.
ulimit -n "$(ulimit -Hn)"

if [[ "${CLUSTER:-0}" == 1 ]]; then
    export CLUSTER_DIR="$WORK_DIR/cluster" CLUSTER_TIME_LIMIT=1800 PAST_NYC="$BIN"
    "$ROOT/scripts/cluster.sh" start >&2
    at_exit '"$ROOT/scripts/cluster.sh" stop >&2 || true'
    # shellcheck disable=SC1091 # written by cluster.sh start
    source "$CLUSTER_DIR/cluster.env"
    pids=()
    for pid in "${INSTANCE_PIDS[@]}"; do pids+=(--pid "$pid"); done
    python3 "$ROOT/scripts/fair-use-attacks.py" --url "$CLUSTER_URL" --cacert "$CLUSTER_CA" "${pids[@]}" \
        --duration "$DURATION" "$@"
else
    start_server owasp
    python3 "$ROOT/scripts/fair-use-attacks.py" --url "$BASE_URL" --pid "$SERVER_PID" --duration "$DURATION" "$@"
fi
