#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for the given number of seconds
# (default 60) with the stable toolchain (RUSTC_BOOTSTRAP=1 allows the -Z
# flags cargo-fuzz needs) and prints a summary line per target:
#   <target> <seconds> s, <executions> execs, <corpus> corpus entries: OK | CRASH
#
# Usage: scripts/fuzz.sh [seconds] [target...]
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); installs it when
# missing. Crashes are written to fuzz/artifacts/<target>/; the corpus grows
# in fuzz/corpus/<target>/ (both ignored by git). Exits non-zero when a
# target crashed, ran no input, or fewer targets than fuzz/Cargo.toml
# declares were found.
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:-60}"
shift || true
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked >&2 || exit 1
fi

cd fuzz
TARGETS=("$@")
if [ "${#TARGETS[@]}" -eq 0 ]; then
    mapfile -t TARGETS < <(cargo fuzz list)
    # Every [[bin]] of fuzz/Cargo.toml is a target: a list that comes back
    # short (or empty, when `cargo fuzz list` fails) is a failure, not a
    # run that fuzzes nothing.
    declared=$(grep -c '^\[\[bin\]\]' Cargo.toml)
    if [ "${#TARGETS[@]}" -ne "$declared" ] || [ "$declared" -eq 0 ]; then
        echo "fuzz.sh: cargo fuzz list gave ${#TARGETS[@]} targets, fuzz/Cargo.toml declares $declared" >&2
        exit 1
    fi
fi

cargo fuzz build -O >&2 || exit 1

LOGDIR="${FUZZ_LOG_DIR:-artifacts/logs}"
mkdir -p "$LOGDIR"
status=0
for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t"
    log="$LOGDIR/$t.log"
    start=$(date +%s)
    cargo fuzz run -O "$t" "corpus/$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    # Fuzzing time as libFuzzer reports it ("Done N runs in S second(s)"),
    # else the wall time (which includes cargo's up-to-date check).
    took=$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}' | tail -n1)
    took="${took:-$(( $(date +%s) - start ))}"
    execs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -n1)
    corpus=$(ls "corpus/$t" | wc -l)
    if [ "$rc" -eq 0 ] && [ "${execs:-0}" -gt 0 ]; then
        verdict=OK
    elif [ "$rc" -eq 0 ]; then
        verdict="NO RUNS (libFuzzer reported no executed units; see fuzz/$log)"
        status=1
        tail -n 40 "$log" >&2
    else
        verdict="CRASH (exit $rc; see fuzz/$log and fuzz/artifacts/$t/)"
        status=1
        tail -n 40 "$log" >&2
    fi
    echo "$t ${took} s, ${execs:-?} execs, ${corpus} corpus entries: $verdict"
done
exit $status
