// `versioned![...]` names its handlers in a constant item, where an
// enclosing impl's `Self` is not in scope: one error, on `Self`.
use actix_web::web;
use problem_core::{version, versioned};

struct Books;

impl Books {
    #[versioned("1.x")]
    async fn list() -> &'static str {
        "v1"
    }

    fn route() -> actix_web::Route {
        web::get().to(version::versioned![Self::list])
    }
}

fn main() {
    let _ = Books::route;
}
