#!/usr/bin/env bash
# Soak: mixed traffic for DURATION seconds against a release build (docs/RELIABILITY.md):
# reads, logins, favorites, recents, walks, bad requests, and clients that vanish
# mid-request. Every 10 s a sample of the server's RSS, open descriptors and the
# interval's p50/p99 goes to a CSV; at the end the descriptors must be back at their
# baseline and the plot is drawn (scripts/plot-soak.py, matplotlib).
#
# Usage: swift build -c release --product past-nyc && scripts/reliability-soak.sh [OUT_DIR]
#   OUT_DIR (default docs/reliability) receives soak.csv and soak.png.
# Environment: DURATION (600), CLIENTS (concurrent client loops, 16).
set -euo pipefail
source "$(dirname "$0")/run-server.sh"
OUT_DIR=$(realpath -m "${1:-$ROOT/docs/reliability}")
DURATION=${DURATION:-600}
CLIENTS=${CLIENTS:-16}
mkdir -p "$OUT_DIR"

fds() { descriptor_count "$SERVER_PID"; }

# The soak's users all register from 127.0.0.1: that one limit is lifted.
start_server test --registrations-per-hour 0
curl -sf "$BASE_URL/healthz" >/dev/null
# Warm-up at the soak's concurrency, so the database connections the server opens
# lazily as load grows are open before the baseline is taken.
python3 "$ROOT/scripts/hostile-clients.py" --port "$PORT" burst --duration 5 --clients "$CLIENTS" --seed 7 >/dev/null
sleep 1
baseline_fds=$(fds)
echo "baseline: $baseline_fds descriptors, RSS $(awk '/VmRSS/ { print $2 / 1024 }' "/proc/$SERVER_PID/status") MiB"
python3 "$ROOT/scripts/hostile-clients.py" --port "$PORT" soak --duration "$DURATION" --clients "$CLIENTS" \
    --pid "$SERVER_PID" --csv "$OUT_DIR/soak.csv" --sample 10 > "$WORK_DIR/soak.json"
echo "traffic: $(cat "$WORK_DIR/soak.json")"
# Up to 35 s: a connection a vanished client left open is closed by the server's
# timeouts (10 s for a request head, 30 s idle), not at once.
for _ in $(seq 1 175); do [[ $(fds) -le $baseline_fds ]] && break; sleep 0.2; done
final_fds=$(fds)
echo "descriptors after the soak: $final_fds (baseline $baseline_fds)"
[[ $final_fds -le $baseline_fds ]] || ls -l "/proc/$SERVER_PID/fd"
python3 "$ROOT/scripts/plot-soak.py" "$OUT_DIR/soak.csv" "$OUT_DIR/soak.png"
[[ $final_fds -le $baseline_fds ]] || { echo "FAIL: descriptors did not return to the baseline"; exit 1; }
