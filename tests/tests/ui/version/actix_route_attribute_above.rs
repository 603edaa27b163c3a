// actix-web's `#[get]` above `#[versioned]` (the reverse order is refused,
// `actix_route_attribute.rs`): `#[get]` runs first and hides the function
// inside a service struct, where `#[versioned]` cannot see it. It compiles
// until the handler is listed in `versioned![...]`, which then reports
// that the service is no `Handler` (documented on `#[versioned]`).
use actix_web::web;
use problem_core::{version, versioned};

#[actix_web::get("/books")]
#[versioned("1.0")]
async fn list_v1() -> &'static str {
    "v1"
}

#[versioned("2.0")]
async fn list_v2() -> &'static str {
    "v2"
}

fn main() {
    let _ = web::get().to(version::versioned![list_v1, list_v2]);
}
