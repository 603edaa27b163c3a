// The constraints are right and their wrapping is not: each error gives
// the attribute to write.
use problem_core::versioned;

#[versioned(version = "1.x")]
async fn keyed() -> &'static str {
    "v1"
}

#[versioned(["1.x", "2.x"])]
async fn array() -> &'static str {
    "v1"
}

#[versioned("1.x" | "2.x")]
async fn either() -> &'static str {
    "v1"
}

fn main() {}
