# Sourced by the scripts (`source "$(dirname "$0")/lib.sh"`): the helpers several of
# them need, written once. Defines functions and ROOT (the repository) only; it
# starts nothing. A script that needs our server sources scripts/run-server.sh,
# which sources this.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# fail <message…>: the message on stderr, named after the script, and exit 1.
fail() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

# at_exit <command>: runs the command (eval'd) when the script exits, however it
# exits; commands run in the reverse order of registration, each whatever the
# others did, with the script's exit status in $EXIT_STATUS. The one EXIT trap of
# a script that uses it.
AT_EXIT=()
at_exit() {
    AT_EXIT+=("$1")
    trap run_at_exit EXIT
}
run_at_exit() {
    EXIT_STATUS=$?
    # A name of its own: the commands run in this function's scope.
    local at_exit_index
    for ((at_exit_index = ${#AT_EXIT[@]} - 1; at_exit_index >= 0; at_exit_index--)); do
        eval "${AT_EXIT[at_exit_index]}" || true
    done
    AT_EXIT=()
    exit "$EXIT_STATUS"
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# now_ms: the wall clock in milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# median: the median of the numbers on stdin, one a line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cpu_ticks <pid…>: the jiffies of user plus system CPU the processes have used (/proc).
cpu_ticks() {
    local pid sum=0
    for pid in "$@"; do sum=$((sum + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
    echo "$sum"
}

# descriptor_count <pid>: how many file descriptors the process has open.
descriptor_count() { ls "/proc/$1/fd" | wc -l; }

# pinnable <cpus>: the CPU list as given where pinning works (two CPUs or more and
# taskset), else empty: `SERVER_CPUS=$(pinnable "${SERVER_CPUS-0}")`.
pinnable() {
    if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then echo "$1"; fi
}

# on_cpus <cpus> <command…>: execs the command pinned to the CPUs (taskset -c), or
# unpinned when <cpus> is empty. It replaces the shell it runs in, so call it in a
# subshell, a pipeline or the background: `(on_cpus 0 server) &` leaves the
# server's own PID in $!.
on_cpus() {
    local cpus=$1
    shift
    if [[ -n "$cpus" ]]; then exec taskset -c "$cpus" "$@"; else exec "$@"; fi
}

# wait_healthy <url> <seconds> [pid]: until GET <url>/healthz answers 200; fails after
# <seconds>, or as soon as the process <pid>, when given, has exited.
wait_healthy() {
    local url=$1 deadline=$((SECONDS + $2)) pid=${3:-}
    until curl -sf -o /dev/null --max-time 2 "$url/healthz"; do
        [[ -z "$pid" ]] || kill -0 "$pid" 2>/dev/null || fail "the process $pid exited before $url/healthz answered"
        ((SECONDS < deadline)) || fail "$url/healthz did not answer 200 within $2 s"
        sleep 0.05
    done
}

# start_image_origin: starts scripts/image-origin.py (a JPEG for any path; needs cjpeg,
# from libjpeg-turbo-progs) on a free port, stopped by its PID at exit, and sets
# IMAGE_ORIGIN_URL for a server's --image-origin: no test asks the internet for a photo.
start_image_origin() {
    command -v cjpeg >/dev/null || fail "cjpeg is required for the image origin (apt-get install -y libjpeg-turbo-progs)"
    local port pid
    port=$(free_port)
    python3 "$ROOT/scripts/image-origin.py" "$port" &
    pid=$!
    at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
    IMAGE_ORIGIN_URL="http://127.0.0.1:$port"
    until curl -sf -o /dev/null --max-time 2 "$IMAGE_ORIGIN_URL/600px/probe.jpg"; do
        kill -0 "$pid" 2>/dev/null || fail "the image origin exited"
        sleep 0.05
    done
}
