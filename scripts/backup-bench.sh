#!/usr/bin/env bash
# How long `past-nyc backup` takes on a SQLite store of 100,000 favorites, and
# how much it slows the writers of a running server.
#
#  1. A server (--password-cost test) is filled over HTTP: USERS users save
#     PER_USER favorites each (default 1,000 x 100), through the server's own
#     write path (group commit, change log), so the file is what such a store is.
#  2. `backup` alone, three times: the median time and the file's size.
#  3. WRITERS clients (scripts/bench/favorite-writers.py: alternately save and
#     remove a favorite, each a durable write) for DURATION seconds: writes/s,
#     p50 and p99 of their latency.
#  4. The same writers while `backup` runs again and again for the whole
#     DURATION: the same figures, and each backup's time under that load.
#
# Usage: scripts/backup-bench.sh   (the release build: swift build -c release --product past-nyc)
# Environment: PAST_NYC_BIN (another build), USERS (1000), PER_USER (100),
#   WRITERS (4), DURATION (10, seconds per measured run).
# Not in CI, and not pinned: the server, the writers and the backup share the
# machine's cores, so figures from a machine shared with other work are rough.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"
USERS=${USERS:-1000}
PER_USER=${PER_USER:-100}
WRITERS=${WRITERS:-4}
DURATION=${DURATION:-10}
WRITER_SCRIPT="$ROOT/scripts/bench/favorite-writers.py"

[[ -x "$BIN" ]] || fail "$BIN is missing: swift build -c release --product past-nyc"
start_server test
DATA=${DATA_DIR:-$WORK_DIR/data}
echo "server: $BIN (PID $SERVER_PID) on $BASE_URL, data in $DATA"

echo "== 1. filling: $USERS users x $PER_USER favorites"
python3 "$WRITER_SCRIPT" fill --url "$BASE_URL" --users "$USERS" --per-user "$PER_USER"
favorites=$(sqlite3 -readonly "$DATA/accounts.sqlite" 'SELECT count(*) FROM favorites')
echo "favorites stored: $favorites"

# backup_once <file>: one backup; prints its wall time in milliseconds.
backup_once() {
    local started
    started=$(now_ms)
    "$BIN" backup --data-dir "$DATA" --to "$1" >/dev/null
    echo $(($(now_ms) - started))
}

echo "== 2. backup alone"
times=()
for run in 1 2 3; do times+=("$(backup_once "$WORK_DIR/alone.backup")"); done
echo "backup of $favorites favorites: median $(printf '%s\n' "${times[@]}" | median) ms (runs: ${times[*]} ms)," \
    "file $(($(stat -c %s "$WORK_DIR/alone.backup") / 1024)) KiB"
[[ "$(sqlite3 -readonly "$WORK_DIR/alone.backup" 'SELECT count(*) FROM favorites')" == "$favorites" ]] \
    || fail "the backup does not hold the $favorites favorites"

echo "== 3. $WRITERS writers, no backup, $DURATION s"
python3 "$WRITER_SCRIPT" write --url "$BASE_URL" --writers "$WRITERS" --seconds "$DURATION" --prefix alone \
    | tee "$WORK_DIR/alone.json"

echo "== 4. $WRITERS writers while backups run back to back, $DURATION s"
python3 "$WRITER_SCRIPT" write --url "$BASE_URL" --writers "$WRITERS" --seconds "$DURATION" --prefix loaded \
    >"$WORK_DIR/loaded.json" &
writers_pid=$!
loaded_times=()
while kill -0 "$writers_pid" 2>/dev/null; do
    loaded_times+=("$(backup_once "$WORK_DIR/loaded.backup")")
done
wait "$writers_pid"
cat "$WORK_DIR/loaded.json"
echo "backups under load: ${#loaded_times[@]}, median $(printf '%s\n' "${loaded_times[@]}" | median) ms (runs: ${loaded_times[*]} ms)"

alone=$(jq .perSecond "$WORK_DIR/alone.json") loaded=$(jq .perSecond "$WORK_DIR/loaded.json")
echo "writers: $alone writes/s alone, $loaded during backups" \
    "($(awk -v a="$alone" -v b="$loaded" 'BEGIN { printf "%+.0f%%", (b - a) * 100 / a }'));" \
    "p99 $(jq .p99ms "$WORK_DIR/alone.json") ms alone, $(jq .p99ms "$WORK_DIR/loaded.json") ms during backups"
