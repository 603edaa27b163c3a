// Three handlers whose constraints overlap pairwise: one error per pair,
// each on the later handler of the pair.
use actix_web::web;
use problem_core::version;
use problem_core::versioned;

#[versioned("1.x")]
async fn a() -> &'static str {
    "a"
}

#[versioned("1.5+")]
async fn b() -> &'static str {
    "b"
}

#[versioned("1.7")]
async fn c() -> &'static str {
    "c"
}

fn main() {
    let _ = web::get().to(version::versioned![a, b, c]);
}
