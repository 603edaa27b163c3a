// Signature mistakes that `versioned![...]` could never list (`self`, a
// type parameter, an `impl Trait` argument): one error each, on the
// mistake; listing the functions adds no "no #[versioned] attribute"
// error of its own.
use actix_web::web;
use problem_core::{version, versioned};

struct Books;

impl Books {
    #[versioned("1.x")]
    async fn list_v1(&self) -> &'static str {
        "v1"
    }
}

#[versioned("2.x")]
async fn list_v2<T: Default>() -> &'static str {
    let _ = T::default();
    "v2"
}

#[versioned("3.x")]
async fn list_v3(x: impl actix_web::FromRequest) -> &'static str {
    let _ = x;
    "v3"
}

fn main() {
    let _ = web::get().to(version::versioned![Books::list_v1, list_v2, list_v3]);
}
