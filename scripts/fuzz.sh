#!/usr/bin/env bash
# Builds every libFuzzer target in Fuzz/ and runs each for SECONDS (default 60), all
# at once; fails when any of them finds a crash, a hang, a leak or an over-allocation.
#
#   scripts/fuzz.sh [SECONDS]
#
# A target is a folder Fuzz/<name>/ with Harness.swift (the LLVMFuzzerTestOneInput
# entry), `sources` (the module sources it needs, one path a line), corpus/ (the
# seed inputs, kept in the repository) and optionally `max_len` (the longest input to
# try, in bytes; 8192 without it). Each is compiled by swiftc as one module with
# `-sanitize=fuzzer,address`; imports of our own modules are dropped from the copies,
# since their sources are compiled into that one module. New inputs the fuzzer finds
# go to .build/fuzz/<name>/corpus, findings to .build/fuzz/<name>/artifacts, never
# into the repository: copy a finding into corpus/ once it is fixed and has a test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
SECONDS_EACH=${1:-60}
[[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS]" >&2; exit 2; }
if ! command -v swiftc >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
export SWIFT_BACKTRACE=enable=no
OUT=.build/fuzz
OWN_MODULES='Basics|Descriptors|HTTPServer|Accounts|Catalog|API|SQLite|Postgres|Gzip|Explore|Walks'

build() {
    local name=$1 dir=$OUT/$1
    rm -rf "$dir/src" && mkdir -p "$dir/src" "$dir/corpus" "$dir/artifacts"
    local sources=()
    while read -r source; do
        [[ -z "$source" || "$source" == \#* ]] && continue
        # Distinct names: two modules may each have a file of the same name.
        local copy="$dir/src/$(echo "$source" | tr / _)"
        grep -Ev "^(@testable )?import ($OWN_MODULES)\$" "$source" > "$copy"
        sources+=("$copy")
    done < "Fuzz/$name/sources"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -package-name past_nyc \
        -module-name "Fuzz$name" "${sources[@]}" "Fuzz/$name/Harness.swift" -o "$dir/fuzzer"
}

run() {
    local name=$1 dir=$OUT/$1 max_len=8192
    [[ -f "Fuzz/$name/max_len" ]] && max_len=$(<"Fuzz/$name/max_len")
    # -malloc_limit_mb: one allocation past it is a finding (an input that makes us
    # allocate far beyond its size). Leaks are found by LeakSanitizer at exit and per input.
    "$dir/fuzzer" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
        -max_len="$max_len" -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
        "$dir/corpus" "Fuzz/$name/corpus" > "$dir/log" 2>&1
}

targets=()
for harness in Fuzz/*/Harness.swift; do targets+=("$(basename "$(dirname "$harness")")"); done

started=$SECONDS
declare -A pids
for name in "${targets[@]}"; do build "$name" & pids[$name]=$!; done
failed=0
for name in "${targets[@]}"; do
    wait "${pids[$name]}" || { echo "fuzz: building $name failed" >&2; failed=1; }
done
((failed == 0)) || exit 1
echo "fuzz: built ${#targets[@]} targets in $((SECONDS - started))s; running each for ${SECONDS_EACH}s"

started=$SECONDS
for name in "${targets[@]}"; do run "$name" & pids[$name]=$!; done
for name in "${targets[@]}"; do
    if wait "${pids[$name]}"; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/$name/log" | grep -o '[0-9]*$' || echo '?')
        echo "fuzz: $name ok, $runs inputs"
    else
        echo "fuzz: $name FOUND A PROBLEM (log: $OUT/$name/log, input: $OUT/$name/artifacts/):" >&2
        grep -E 'ERROR:|Fatal error|SUMMARY' "$OUT/$name/log" | head -5 >&2
        failed=1
    fi
done
echo "fuzz: ran in $((SECONDS - started))s"
exit "$failed"
