//! Compile-fail and compile-pass cases of the three macros (`trybuild`),
//! in one runner so the cases share one build of their dependencies.
//!
//! Regenerate the expected messages with `TRYBUILD=overwrite` and read them.

/// `#[derive(Problem)]`, `#[versioned]` / `versioned!` and
/// `#[derive(CollectionQuery)]`: every user mistake is a spanned error with a
/// fix-it message pinned in a `.stderr` file; the pass cases compile (some
/// under `#![deny(warnings)]`).
#[test]
fn macros_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/problem/*.rs");
    t.pass("tests/ui/problem/pass/*.rs");
    t.pass("tests/ui/version/pass/*.rs");
    t.compile_fail("tests/ui/version/*.rs");
    t.compile_fail("tests/ui/query/*.rs");
}
