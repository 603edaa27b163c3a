// A fallback alone: the error is on `fallback`. A fallback that is no
// handler: rustc's error, on the call (see `expand::table`).
use actix_web::web;
use problem_core::{version, versioned};

#[versioned("1.x")]
async fn list_v1() -> &'static str {
    "v1"
}

async fn by_id(id: u32) -> String {
    id.to_string()
}

async fn any() -> &'static str {
    "any"
}

fn main() {
    let _ = web::get().to(version::versioned![fallback = any]);
    let _ = web::get().to(version::versioned![list_v1, fallback = by_id]);
}
