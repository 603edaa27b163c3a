// A handler `#[versioned]` refuses (not `async`), used afterwards: the
// function is still defined, so the refusal is the only error.
use actix_web::web;
use problem_core::{version, versioned};

struct Books;

impl Books {
    #[versioned("1.0")]
    fn list() -> &'static str {
        "v1"
    }
}

fn main() {
    let _ = web::get().to(version::versioned![Books::list]);
    let _ = web::get().to(Books::list);
}
