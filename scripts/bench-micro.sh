#!/usr/bin/env bash
# Micro-benchmarks of problem-core against the crates users would pick
# instead (BENCHMARKS.md): runs the criterion benches `problems`, `queries`,
# `versions` and `stack` RUNS times (default 3) and prints, per group, the median
# time of each side (median of the runs' medians) and its ratio to ours.
#
# Settings (environment): RUNS (default 3), MEASURE (criterion measurement
# seconds per function, default 5), WARMUP (seconds, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
MEASURE="${MEASURE:-5}"
WARMUP="${WARMUP:-2}"
target="${CARGO_TARGET_DIR:-target}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cargo bench -p problem-core --no-run >&2
for run in $(seq 1 "$RUNS"); do
    for bench in problems queries versions stack; do
        echo "run $run: $bench" >&2
        cargo bench -p problem-core --bench "$bench" -- \
            --warm-up-time "$WARMUP" --measurement-time "$MEASURE" --noplot >/dev/null 2>&1
    done
    # Keep this run's medians (criterion's estimates of each function).
    mkdir -p "$out/$run"
    (cd "$target/criterion" && find . -path '*/new/estimates.json' -print0 |
        while IFS= read -r -d '' f; do
            mkdir -p "$out/$run/$(dirname "$f")"
            cp "$f" "$out/$run/$f"
        done)
done

python3 - "$out" "$RUNS" <<'EOF'
import json, os, statistics, sys
root, runs = sys.argv[1], int(sys.argv[2])
groups = {}
for run in range(1, runs + 1):
    base = os.path.join(root, str(run))
    for dirpath, _, files in os.walk(base):
        if "estimates.json" not in files or not dirpath.endswith("/new"):
            continue
        rel = os.path.relpath(os.path.dirname(dirpath), base)
        group, _, name = rel.partition(os.sep)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            ns = json.load(f)["median"]["point_estimate"]
        groups.setdefault(group, {}).setdefault(name, []).append(ns)
def label(name):
    return name.replace("_", " ") if False else name
for group in sorted(groups):
    sides = groups[group]
    ours = [n for n in sides if n.startswith("ours")]
    ref = statistics.median(sides[ours[0]]) if ours else None
    print(f"\n{group}")
    print("| side | median ns (median of runs) | runs | ours / side |")
    print("|---|---|---|---|")
    for name in sorted(sides, key=lambda n: (not n.startswith("ours"), n)):
        m = statistics.median(sides[name])
        ratio = f"{ref / m:.2f}" if ref is not None and not name.startswith("ours") else "-"
        runs_text = ", ".join(f"{v:.0f}" for v in sides[name])
        print(f"| {name} | {m:.0f} | {runs_text} | {ratio} |")
EOF
