//! Compile-fail cases of the three macros (`trybuild`), in one runner so
//! the cases share one build of their dependencies.
//!
//! Regenerate the expected messages with `TRYBUILD=overwrite` and read them.
//!
//! The compile-pass cases (`tests/ui/*/pass/`) are `[[test]]` targets of
//! this crate (its `Cargo.toml`), each a crate of its own with its own
//! `fn main`. A `trybuild` run that has a pass case builds every case one
//! after the other (about 170 `cargo build`s); one with compile-fail cases
//! only checks them all in a single `cargo check --keep-going`.

/// `#[derive(Problem)]`, `#[versioned]` / `versioned!` and
/// `#[derive(CollectionQuery)]`: every user mistake is a spanned error with a
/// fix-it message pinned in a `.stderr` file.
#[test]
fn macros_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/problem/*.rs");
    t.compile_fail("tests/ui/version/*.rs");
    t.compile_fail("tests/ui/query/*.rs");
    t.compile_fail("tests/ui/routing/*.rs");
}

/// One bad attribute is one error: the derives emit placeholder impls on a
/// mistake, so a type used as a `CollectionQuery` or a `Problem` (in a
/// handler, as an error, as a response) adds no follow-on error, and
/// `#[versioned]` still defines its function, so a handler used directly
/// or in `versioned![...]` adds none. Reads the pinned messages of the
/// cases that use the type or the handler.
#[test]
fn one_bad_attribute_is_one_error() {
    for case in [
        "tests/ui/query/sortable_in_use.stderr",
        "tests/ui/query/generic_in_use.stderr",
        "tests/ui/problem/bad_attribute_in_use.stderr",
        "tests/ui/problem/where_trailing_comma.stderr",
        "tests/ui/version/handler_not_versioned.stderr",
        // `#[versioned]` keeps the function on a mistake: its uses add none.
        "tests/ui/version/bad_attribute_in_use.stderr",
        "tests/ui/version/not_async_in_use.stderr",
        "tests/ui/query/value_in_use.stderr",
        "tests/ui/query/value_generic_in_use.stderr",
        "tests/ui/query/value_adjacent.stderr",
        // serde's derive reports an unknown rule; `QueryValue` adds none.
        "tests/ui/query/value_unknown_rule.stderr",
    ] {
        let text = std::fs::read_to_string(case).unwrap();
        let errors = text.lines().filter(|l| l.starts_with("error")).count();
        assert_eq!(errors, 1, "{case}:\n{text}");
    }
}

/// Every compile-pass case (`tests/ui/*/pass/*.rs`) is a `[[test]]` target
/// of `tests/Cargo.toml`: a case added without its entry would never be
/// compiled.
#[test]
fn every_pass_case_is_a_test_target() {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap();
    let mut cases = 0;
    for group in std::fs::read_dir("tests/ui").unwrap() {
        let pass = group.unwrap().path().join("pass");
        let Ok(files) = std::fs::read_dir(&pass) else {
            continue;
        };
        for file in files {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                let entry = format!("path = \"{}\"", path.display());
                assert!(
                    manifest.contains(&entry),
                    "{entry} is missing in tests/Cargo.toml"
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, manifest.matches("harness = false").count());
}
