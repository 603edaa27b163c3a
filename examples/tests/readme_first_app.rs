//! The README's "Your first app" and `examples/src/bin/first_app.rs` stay
//! one program: the binary's code, without its header comment and its test
//! module, is exactly the README's `src/main.rs` block.

#[test]
fn readme_first_app_is_the_binary() {
    let readme = include_str!("../../README.md");
    let bin = include_str!("../src/bin/first_app.rs");
    let start = bin.find("use std::time").unwrap();
    let end = bin.find("#[cfg(test)]").unwrap();
    let code = bin[start..end].trim_end();
    let block = readme
        .split("```rust,no_run\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap();
    assert_eq!(block, code);
}
