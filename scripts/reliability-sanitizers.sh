#!/usr/bin/env bash
# The whole test suite under AddressSanitizer, then under ThreadSanitizer
# (docs/RELIABILITY.md), each in its own scratch path so the debug build is left alone.
# Prints each run's summary and every sanitizer report's first lines; fails if either
# run fails or reports anything.
#
# Usage: scripts/reliability-sanitizers.sh [address|thread ...]   (default: both)
# Slow: each is a full build with instrumentation plus the suite (several times
# slower than a debug run).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
export SWIFT_BACKTRACE=enable=no
failed=0
for sanitizer in "${@:-address thread}"; do
    for one in $sanitizer; do
        log=/tmp/past-nyc-sanitize-$one.log
        started=$SECONDS
        swift test --sanitize="$one" --scratch-path "/tmp/rel-${one:0:1}san" > "$log" 2>&1
        status=$?
        reports=$(grep -cE '^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)' "$log")
        echo "$one: exit $status in $((SECONDS - started))s, $reports sanitizer report lines (log: $log)"
        grep -E 'Test run with|tests? in [0-9]+ suites? (passed|failed)' "$log" | tail -2
        grep -A12 -E '^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer)' "$log" | head -60
        ((status == 0 && reports == 0)) || failed=1
    done
done
exit "$failed"
