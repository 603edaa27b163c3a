//! Compile-time behaviour of `#[versioned]` and `versioned!`: every user
//! mistake is a spanned error with the message pinned in a `.stderr` file.

#[test]
fn versioned_ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/version/pass/*.rs");
    t.compile_fail("tests/ui/version/*.rs");
}
