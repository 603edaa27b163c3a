//! The development flag defaults from `NODE_ENV` (spec, "Masking rules").
//! Its own test binary: it changes the process environment.

use problem_core::pipeline::{Pipeline, development_from_env};

#[test]
fn development_defaults_from_node_env() {
    // SAFETY: this binary runs this one test; nothing else reads the
    // environment concurrently.
    unsafe { std::env::remove_var("NODE_ENV") };
    assert!(!development_from_env());
    assert!(!Pipeline::builder().build().unwrap().development());
    unsafe { std::env::set_var("NODE_ENV", "production") };
    assert!(!Pipeline::builder().build().unwrap().development());
    unsafe { std::env::set_var("NODE_ENV", "development") };
    assert!(development_from_env());
    assert!(Pipeline::builder().build().unwrap().development());
    assert!(
        !Pipeline::builder()
            .development(false)
            .build()
            .unwrap()
            .development()
    );
}
