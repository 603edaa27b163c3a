#!/usr/bin/env python3
"""Public items of a crate (problem-core, query-operators) without a doc example.

Walks rustdoc's JSON output from the crate root through every public module,
re-export and inherent impl (trait impls, fields, variants, constants,
statics and type aliases are left out) and lists each function, method,
struct, enum, trait and module whose docs hold no code block.

    RUSTC_BOOTSTRAP=1 cargo rustdoc -p problem-core --lib --all-features -- \
        -Z unstable-options --output-format json
    python3 scripts/doc-examples.py target/doc/problem_core.json

(`cargo +nightly rustdoc ...` works as well; CI runs the stable toolchain
with RUSTC_BOOTSTRAP=1, as `.ci/run` does.)

Prints "<items> <without example>", then one line per item without one;
exits 1 when any item has none.
"""
import json
import sys

SKIP = {"struct_field", "variant", "assoc_type", "assoc_const", "constant",
        "static", "use", "type_alias", "macro", "proc_macro"}


def main(path):
    doc = json.load(open(path))
    index = doc["index"]
    seen, found = set(), []

    def kind(item):
        return next(iter(item["inner"]))

    def visit(i, owner):
        i = str(i)
        if i in seen or i not in index:
            return
        seen.add(i)
        item = index[i]
        if item["crate_id"] != 0:
            return
        k = kind(item)
        if k == "module":
            for child in item["inner"]["module"]["items"]:
                visit(child, owner)
            found.append((item, k, owner))
            return
        if k == "use":
            target = item["inner"]["use"].get("id")
            if target is not None:
                visit(target, owner)
            return
        if k == "impl":
            impl = item["inner"]["impl"]
            if impl.get("trait") is None:
                for child in impl["items"]:
                    visit(child, owner)
            return
        if item.get("visibility") != "public":
            return
        found.append((item, k, owner))
        inner = item["inner"][k]
        if k in ("struct", "enum", "union"):
            for impl in inner.get("impls", []):
                visit(impl, item.get("name"))
        if k == "trait":
            for child in inner.get("items", []):
                visit(child, item.get("name"))

    visit(doc["root"], None)
    checked = [(it, k, o) for it, k, o in found if k not in SKIP]
    missing = []
    for item, k, owner in checked:
        if "```" not in (item.get("docs") or ""):
            span = item.get("span") or {}
            line = (span.get("begin") or [0])[0]
            name = f"{owner}::{item.get('name')}" if owner else item.get("name")
            missing.append(f"{span.get('filename')}:{line} {k} {name}")
    print(len(checked), len(missing))
    for m in sorted(missing):
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
