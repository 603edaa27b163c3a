#![deny(clippy::pedantic)] // generated code adds no lint, `unused_async` included
#![deny(warnings)]

use actix_web::{App, HttpResponse, web};
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

/// Patterns, `mut`, `return` and `?` keep their meaning.
#[versioned("4.x")]
async fn patterns(
    web::Json((a, b)): web::Json<(u32, u32)>,
    mut q: web::Query<u8>,
) -> Result<String, actix_web::Error> {
    if a == 0 {
        return Ok(String::new());
    }
    q.0 += 1;
    let x: u32 = "1".parse().map_err(actix_web::error::ErrorBadRequest)?;
    Ok(format!("{a}{b}{x}{}", q.0))
}

async fn other() -> &'static str {
    "other"
}

fn main() {
    let _app = App::new()
        .route("/a", web::get().to(version::versioned![old, new, newest]))
        .route(
            "/b",
            web::get().to(version::versioned![old, fallback = other,]),
        )
        .route("/c", web::get().to(version::versioned![patterns]))
        // A #[versioned] function is still an actix-web handler on its own.
        .route("/d", web::get().to(newest));
}
