#!/usr/bin/env bash
# Browser tests: the map at / and the API reference at /docs in a real browser
# (Tests/Browser: pytest and Playwright for Python driving Debian's chromium).
#
#   scripts/browser-test.sh [path/to/past-nyc]      (default .build/release/past-nyc)
#
# It builds nothing: build the server first (`swift build -c release --product past-nyc`).
# It needs Debian's chromium (`apt-get install chromium`; another binary with
# CHROMIUM=path) and the pinned packages of Tests/Browser/requirements.txt
# (`python3 -m pip install -r Tests/Browser/requirements.txt`); Playwright never
# downloads a browser here.
#
# The server runs on 127.0.0.1 on a free port with a fresh data directory and
# cheap password hashing (`--password-cost test`), its photographs fetched from a
# local origin (scripts/image-origin.py, which needs cjpeg), and is stopped by its
# PID when the script exits, whatever happened. Screenshots of every step go to
# $SCREENSHOTS (default .build/browser-screenshots); map.png there is the one in
# docs/.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAST_NYC_BIN=$(realpath "${1:-$ROOT/.build/release/past-nyc}")
[[ -x "$PAST_NYC_BIN" ]] || { echo "browser-test: no executable $PAST_NYC_BIN (swift build -c release --product past-nyc)" >&2; exit 1; }
export PAST_NYC_BIN
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[[ -x "$CHROMIUM" ]] || { echo "browser-test: no $CHROMIUM (apt-get install chromium, or set CHROMIUM)" >&2; exit 1; }
SCREENSHOTS=${SCREENSHOTS:-"$ROOT/.build/browser-screenshots"}

# shellcheck source=scripts/run-server.sh
source "$ROOT/scripts/run-server.sh"

STARTED=$SECONDS
rm -rf "$SCREENSHOTS"
mkdir -p "$SCREENSHOTS"
# The photographs from a local origin: the map shows them from this server's copy.
start_image_origin
start_server test --image-origin "$IMAGE_ORIGIN_URL"
wait_healthy "$BASE_URL" 10 "$SERVER_PID"
# The moderation tests name a moderator as the operator does: `past-nyc moderators add`
# on the server's data directory, while it runs.
export PAST_NYC_DATA_DIR="${DATA_DIR:-$WORK_DIR/data}"
echo "browser-test: $PAST_NYC_BIN on $BASE_URL (pid $SERVER_PID), ready after $((SECONDS - STARTED)) s"

status=0
(cd "$ROOT/Tests/Browser" \
    && PAST_NYC_URL="$BASE_URL" PAST_NYC_SOURCE_DIR="$ROOT/Data" CHROMIUM="$CHROMIUM" SCREENSHOTS="$SCREENSHOTS" \
        python3 -m pytest -p no:cacheprovider) || status=$?
stop_server
echo "browser-test: $(find "$SCREENSHOTS" -name '*.png' | wc -l) screenshots in $SCREENSHOTS; $((SECONDS - STARTED)) s in all"
exit "$status"
