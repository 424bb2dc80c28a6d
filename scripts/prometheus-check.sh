#!/usr/bin/env bash
# A real Prometheus (Debian's `prometheus`) scrapes one server's --metrics-listen
# listener: the deploy/prometheus config and alert rules pass promtool; the target is
# `up`; the requests made to the public port show up by route template; the alert rules
# load and evaluate without error; the public port answers /metrics 404. Under 30 s.
#
# Usage: scripts/prometheus-check.sh [path/to/past-nyc]  (default .build/release/past-nyc)
set -euo pipefail

PAST_NYC_BIN=${1:-}
source "$(dirname "${BASH_SOURCE[0]}")/run-server.sh"
source "$ROOT/scripts/prometheus.sh"

promtool check config "$ROOT/deploy/prometheus/prometheus.yml"
promtool check rules "$ROOT/deploy/prometheus/past-nyc-alerts.yml"

start_server test --metrics-listen 127.0.0.1:0
metrics=$(metrics_port "$SERVER_LOG")
for _ in 1 2 3; do curl -sf -o /dev/null "$BASE_URL/healthz"; done
curl -s -o /dev/null "$BASE_URL/photos/no-such-photo"
code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/metrics")
[[ "$code" == 404 ]] || fail "the public port answered /metrics with $code, not 404"
echo "ok: the public port answers /metrics 404"

start_prometheus "$WORK_DIR/prometheus" "127.0.0.1:$metrics"
wait_prometheus 'up{job="past-nyc"}' 1 15
wait_prometheus 'sum(past_nyc_http_requests_total{route="/healthz",method="GET",status="200"})' 3 15
wait_prometheus 'sum(past_nyc_http_requests_total{route="/photos/{photoID}",status="404"})' 1 5
wait_prometheus 'count(past_nyc_http_requests_total{route=~".*no-such.*"}) or vector(0)' 0 5
wait_prometheus 'past_nyc_catalog_generation' 0 5
# Every alert rule evaluated at least once, none with an error.
rules=$(curl -sf "$PROMETHEUS_URL/api/v1/rules")
unhealthy=$(jq '[.data.groups[].rules[] | select(.health != "ok")] | length' <<<"$rules")
count=$(jq '[.data.groups[].rules[]] | length' <<<"$rules")
((count > 0 && unhealthy == 0)) || fail "alert rules: $count loaded, $unhealthy not ok: $rules"
echo "ok: $count alert rules evaluate"
