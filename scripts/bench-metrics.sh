#!/usr/bin/env bash
# What counting costs: scripts/bench.sh's nearby-core (GET /nearby against nginx serving
# the same bodies) and favorites (PUT /favorites against the disk's fdatasync rate), once
# with metrics off and once with --metrics-listen on and a scrape every second, one
# after the other in one invocation, each against its own yardstick measured in the
# same rounds. Compare the ratio columns: with metrics on they should be no lower.
#
# Usage: swift build -c release --product past-nyc && scripts/bench-metrics.sh
# Environment: as scripts/bench.sh (RUNS, DURATION, SERVER_CPUS, WRK_CPUS, …).
set -euo pipefail
cd "$(dirname "$0")/.."
for metrics in off on; do
    echo "=== metrics $metrics"
    METRICS=$metrics scripts/bench.sh nearby-core favorites
done
