//! Compile-fail and compile-pass cases of the macros (`trybuild`).
//!
//! Regenerate the expected messages with `TRYBUILD=overwrite` and read them.

/// `#[derive(Problem)]`: every user mistake is a spanned error with a fix-it
/// message; the pass cases compile (one under `#![deny(warnings)]`).
#[test]
fn derive_problem_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/problem/*.rs");
    t.pass("tests/ui/problem/pass/*.rs");
}
