#!/usr/bin/env python3
"""How many instructions per request each HTTP target of BENCHMARKS.md lets
the full stack add, from one run of scripts/bench-http.sh and the
instructions per request of each mode (scripts/callgrind-http.sh).

The server runs one worker, saturated by wrk, so its time per request is
1 / (requests/s). That time is fitted over every mode as

    t = K + c * I

(least squares; I the mode's user-space instructions per request, K the
rest: the kernel's loopback work and what callgrind does not see). A target
then bounds the instructions of the full side: a ratio R (bare / full time)
allows I_full <= ((K + c * I_bare) / R - K) / c; a cost P% allows
I_full <= ((1 + P / 100) * (K + c * I_bare) - K) / c. The comparisons and
their targets are read from scripts/bench-http.sh's COMPARISONS table.

    ROUNDS=31 DURATION=1 scripts/bench-http.sh > http.txt
    scripts/callgrind-http.sh '/bare/nope'   # ... one per mode
    scripts/http-budget.py http.txt bare_ok=22066 full_ok=39531 \\
        bare_query_ok=28440 bare_404=17914 full_404=30467 \\
        noetag_page=29111 full_page=32274

Python 3.10 or later (statistics.linear_regression), standard library
only; reads files, no network.
"""

import pathlib
import re
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent


def comparisons():
    """(a, b, kind, target, description) of bench-http.sh's COMPARISONS."""
    text = (HERE / "bench-http.sh").read_text()
    block = re.search(r"^COMPARISONS=\($(.*?)^\)$", text, re.M | re.S)
    if block is None:
        sys.exit("http-budget: no COMPARISONS table in scripts/bench-http.sh")
    out = []
    for line in re.findall(r'^\s*"([^"]+)"\s*$', block.group(1), re.M):
        _key, a, b, kind, target, _label, description = line.split("|", 6)
        out.append((a, b, kind, float(target), description))
    return out


def requests_per_second(path):
    """mode -> median requests/s, from bench-http.sh's mode table."""
    rps = {}
    for line in pathlib.Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[a-z_0-9]+", cells[0]):
            try:
                rps[cells[0]] = float(cells[1])
            except ValueError:
                continue
    return rps


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    rps = requests_per_second(argv[1])
    instructions = {}
    for arg in argv[2:]:
        mode, _, count = arg.partition("=")
        if mode not in rps:
            sys.exit(f"http-budget: mode {mode} is not in {argv[1]}")
        instructions[mode] = float(count)
    if len(instructions) < 2:
        sys.exit("http-budget: give the instructions of two modes or more")
    xs = [instructions[m] for m in instructions]
    ys = [1e9 / rps[m] for m in instructions]
    try:
        c, k = statistics.linear_regression(xs, ys)
    except statistics.StatisticsError:
        sys.exit("http-budget: the modes' instructions are all equal")
    print(f"fit over {len(xs)} modes: t = {k:.0f} ns + {c * 1000:.1f} ns per 1000 instructions")
    print("\n| mode | instructions / request | ns / request measured | fitted |")
    print("|---|---|---|---|")
    for mode, x in instructions.items():
        print(f"| {mode} | {x / 1000:.2f} k | {1e9 / rps[mode]:.0f} | {k + c * x:.0f} |")
    print("\n| comparison | target | the full side may add | it adds | fitted value |")
    print("|---|---|---|---|---|")
    for a, b, kind, target, description in comparisons():
        if a not in instructions or b not in instructions:
            continue
        base, full = instructions[b], instructions[a]
        t_base, t_full = k + c * base, k + c * full
        if kind == "cost":
            most = ((1 + target / 100) * t_base - k) / c
            bound, fitted = f"<= {target:g}%", f"{(t_full / t_base - 1) * 100:.1f}%"
        else:
            most = (t_base / target - k) / c
            bound, fitted = f">= {target:g}", f"{t_base / t_full:.3f}"
        print(
            f"| {description} | {bound} | {(most - base) / 1000:.2f} k "
            f"| {(full - base) / 1000:.2f} k | {fitted} |"
        )


if __name__ == "__main__":
    main(sys.argv)
