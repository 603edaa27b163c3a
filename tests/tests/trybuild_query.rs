//! Compile errors of `#[derive(CollectionQuery)]`, pinned by trybuild
//! (`tests/ui/query/*.rs` and their `.stderr`).

#[test]
fn collection_query_derive_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/query/*.rs");
}
