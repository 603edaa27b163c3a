"""Judges REDbot's notes (scripts/redbot-check.sh).

Usage: python report.py RESULTS.jsonl ALLOWLIST
RESULTS.jsonl: one line per request, from lint.py, each with the status the
script expected added as "expected_status". ALLOWLIST: lines
`NOTE_ID REQUEST-GLOB # reason`, the glob matched (fnmatch) against the
request as the script wrote it, `METHOD PATH[ | Header: value]...`.

Prints every request's status and REDbot's notes, then fails (exit 1) when a
status is not the expected one, when a note of level WARN or BAD is not
allowlisted, or when a HEAD response's status or header fields differ from
the GET's of the same request (Date aside).
"""

import fnmatch
import json
import sys


def request_line(r: dict) -> str:
    return " | ".join([f"{r['method']} {r['path']}", *r["headers"]])


def main() -> int:
    results = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    allow = []
    for line in open(sys.argv[2], encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            note_id, glob = line.split(None, 1)
            allow.append((note_id, glob.strip(), [0]))
    failures = []
    for r in results:
        req = request_line(r)
        print(f"{req}  ->  {r['status']}")
        if str(r["status"]) != str(r["expected_status"]):
            failures.append(f"{req}: status {r['status']}, expected {r['expected_status']}")
        for n in r["notes"]:
            mark = ""
            if n["level"] in ("WARN", "BAD"):
                hits = [a for a in allow if a[0] == n["id"] and fnmatch.fnmatchcase(req, a[1])]
                for a in hits:
                    a[2][0] += 1
                mark = "  (allowlisted)" if hits else "  <- NOT ALLOWLISTED"
                if not hits:
                    failures.append(f"{req}: {n['level']} {n['id']}: {n['summary']}")
            print(f"    {n['level']:<5} {n['id']}: {n['summary']}{mark}")

    def fields(r: dict) -> list[str]:
        return sorted(h.lower() for h in r["response_headers"] if not h.lower().startswith("date:"))

    gets = {(r["path"], tuple(r["headers"])): r for r in results if r["method"] == "GET"}
    for r in results:
        if r["method"] != "HEAD":
            continue
        g = gets.get((r["path"], tuple(r["headers"])))
        if g is None:
            continue
        if r["status"] != g["status"] or fields(r) != fields(g):
            failures.append(
                f"{request_line(r)}: HEAD differs from GET: {r['status']} {fields(r)} vs {g['status']} {fields(g)}"
            )
    for note_id, glob, used in allow:
        if not used[0]:
            print(f"note: allowlist entry {note_id} {glob!r} matched nothing (stale?)")
    if failures:
        print("\nredbot-check: FAILED")
        for f in failures:
            print(f"  {f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
