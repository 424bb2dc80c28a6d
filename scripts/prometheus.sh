# Sourced by the scripts that run a real Prometheus (Debian's `prometheus`) against our
# servers' `--metrics-listen` listeners: scripts/prometheus-check.sh and
# scripts/cluster.sh and scripts/cluster-test.sh. Sources scripts/lib.sh unless sourced
# already (sourcing it again would forget the at_exit commands); starts nothing by itself.

declare -F at_exit >/dev/null || source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# metrics_port <log>: the port of the metrics listener a server logged (its
# "listening … listener=metrics port=N" line), waiting up to 10 s for it.
metrics_port() {
    local log=$1 deadline=$((SECONDS + 10)) port=""
    until [[ -n "$port" ]]; do
        ((SECONDS < deadline)) || fail "no metrics listener in $log"
        port=$(grep -oE 'listener=metrics port=[0-9]+' "$log" | head -1 | cut -d= -f3 || true)
        [[ -n "$port" ]] || sleep 0.05
    done
    echo "$port"
}

# start_prometheus <dir> <target>…: a Prometheus on a free port of 127.0.0.1 with its
# data in <dir>, scraping the targets (HOST:PORT) as the job past-nyc every second and
# evaluating deploy/prometheus/past-nyc-alerts.yml; stopped by its PID at exit. Sets
# PROMETHEUS_URL once it answers.
start_prometheus() {
    local dir=$1 port
    shift
    port=$(free_port)
    mkdir -p "$dir"
    cp "$ROOT/deploy/prometheus/past-nyc-alerts.yml" "$dir/"
    {
        printf 'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n'
        printf 'rule_files:\n  - past-nyc-alerts.yml\n'
        printf 'scrape_configs:\n  - job_name: past-nyc\n    static_configs:\n      - targets:\n'
        for target in "$@"; do printf '          - %s\n' "$target"; done
    } >"$dir/prometheus.yml"
    promtool check config "$dir/prometheus.yml" >/dev/null
    prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
        --web.listen-address="127.0.0.1:$port" </dev/null >"$dir/prometheus.log" 2>&1 &
    local pid=$!
    at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
    PROMETHEUS_URL="http://127.0.0.1:$port"
    local deadline=$((SECONDS + 20))
    until curl -sf -o /dev/null "$PROMETHEUS_URL/-/ready"; do
        kill -0 "$pid" 2>/dev/null || { cat "$dir/prometheus.log" >&2; fail "prometheus exited"; }
        ((SECONDS < deadline)) || fail "prometheus was not ready within 20 s (see $dir/prometheus.log)"
        sleep 0.1
    done
}

# prometheus_value <query>: the value of an instant query's first sample (empty when none).
prometheus_value() {
    curl -sf --get "$PROMETHEUS_URL/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'
}

# wait_prometheus <query> <wanted> <seconds>: waits until the query's value is <wanted>;
# fails naming the query and its last value if it is not within <seconds>.
wait_prometheus() {
    local deadline=$((SECONDS + $3)) value=""
    until [[ "$value" == "$2" ]]; do
        ((SECONDS < deadline)) || fail "Prometheus: $1 is '${value}', not $2, after $3 s"
        sleep 0.5
        value=$(prometheus_value "$1" || true)
    done
    echo "ok: Prometheus: $1 = $2"
}
