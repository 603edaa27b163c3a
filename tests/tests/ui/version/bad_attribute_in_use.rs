// One bad constraint on an associated handler, and the handler used
// directly and in `versioned![...]` next to handlers of every version: the
// function is still defined, accepting no version, so the bad constraint
// is the only error (no "no function or associated item named `list`",
// no overlap).
use actix_web::web;
use problem_core::{version, versioned};

struct Books;

impl Books {
    #[versioned("1.0.0")]
    async fn list() -> &'static str {
        "v1"
    }

    #[versioned("0.0+")]
    async fn list_any() -> &'static str {
        "any"
    }
}

fn main() {
    let _ = web::get().to(version::versioned![Books::list, Books::list_any]);
    let _ = web::get().to(Books::list);
}
