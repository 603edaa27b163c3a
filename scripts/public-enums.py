#!/usr/bin/env python3
"""Public enums of problem-core that are not `#[non_exhaustive]`.

A public enum a user may match on is `#[non_exhaustive]`, so that a new
variant (a count strategy, a version strategy, an error) is no breaking
change. Reads rustdoc's JSON output, as `scripts/doc-examples.py` does:

    RUSTC_BOOTSTRAP=1 cargo rustdoc -p problem-core --lib --all-features -- \
        -Z unstable-options --output-format json
    python3 scripts/public-enums.py target/doc/problem_core.json

Prints "<public enums> <not non_exhaustive>", then one line per enum that is
neither `#[non_exhaustive]` nor listed in EXEMPT; exits 1 when there is one,
when an EXEMPT name is no public enum, or when no enum was found.

query-operators is not checked: its enums (`Class`, `Applies`) are the
derive's shared table, matched exhaustively by problem-core and the derive
on purpose (a new class is to be decided everywhere), and users depend on
problem-core alone.
"""
import json
import sys

# Each with why it may stay exhaustive.
EXEMPT = {
    # A closed set: a sort is ascending or descending.
    "Direction": "asc/desc is a closed set",
    # The futures of the middleware (pin-projected enums): polled, never
    # matched on by a user.
    "PipelineFuture": "a middleware's future",
    "Call": "the state of PipelineFuture",
    "VersionFuture": "a middleware's future",
    "ConditionalFuture": "a middleware's future",
}


def main(path):
    doc = json.load(open(path))
    enums = [
        item for item in doc["index"].values()
        if item.get("crate_id") == 0
        and item.get("visibility") == "public"
        and "enum" in (item.get("inner") or {})
    ]
    missing = []
    for item in enums:
        attrs = item.get("attrs") or []
        # rustdoc writes the attribute as "non_exhaustive" (newer) or
        # "#[non_exhaustive]" (older).
        marked = any(
            isinstance(a, str) and a.strip("#[] ") == "non_exhaustive" for a in attrs
        )
        if not marked and item["name"] not in EXEMPT:
            span = item.get("span") or {}
            line = (span.get("begin") or [0])[0]
            missing.append(f"{span.get('filename')}:{line} enum {item['name']}")
    # An exemption that names no public enum any more is stale; and a run
    # that finds no enum at all read a layout it does not know.
    names = {item["name"] for item in enums}
    stale = sorted(set(EXEMPT) - names)
    print(len(enums), len(missing))
    for m in sorted(missing):
        print(m)
    for name in stale:
        print(f"EXEMPT names {name}, which is no public enum of the crate")
    if not enums:
        print("no public enum found: has rustdoc's JSON layout changed?")
    return 1 if missing or stale or not enums else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
