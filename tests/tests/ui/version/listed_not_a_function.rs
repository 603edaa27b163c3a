// A const (not a handler function) listed in `versioned![...]`.
use actix_web::web;
use problem_core::version;
use problem_core::versioned;

#[versioned("1.0")]
async fn list_books_v1() -> &'static str {
    "v1"
}

const LIST: u8 = 3;

fn main() {
    let _ = web::get().to(version::versioned![list_books_v1, LIST]);
}
