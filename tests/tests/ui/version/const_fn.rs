// `const fn` under #[versioned]: one error, on `fn`, saying to write
// `async fn` (the function emitted after the error is not also `const`).
use actix_web::web;
use problem_core::{version, versioned};

#[versioned("1.0")]
const fn list() -> &'static str {
    "v1"
}

// `const async fn`: one error, on `const` (rustc's own "cannot be both
// const and async" is not reported, once or twice).
#[versioned("1.0")]
const async fn show() -> &'static str {
    "v1"
}

fn main() {
    let _ = web::get().to(version::versioned![list]);
    let _ = web::get().to(version::versioned![show]);
}
