#![deny(warnings)]

use actix_web::{web, App, HttpResponse};
use problem_core::version::{self, ApiVersion};
use problem_core::versioned;

#[versioned("1.0", "1.1", "2.x")]
async fn old(v: ApiVersion) -> String {
    v.to_string()
}

#[versioned("3.0..=3.4")]
pub async fn new(id: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().body(id.to_string())
}

#[versioned("v3.5+")]
async fn newest() -> &'static str {
    "newest"
}

async fn other() -> &'static str {
    "other"
}

fn main() {
    let _app = App::new()
        .route("/a", web::get().to(version::versioned![old, new, newest]))
        .route("/b", web::get().to(version::versioned![old, fallback = other,]));
}
