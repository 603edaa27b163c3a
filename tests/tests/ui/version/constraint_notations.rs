// Constraints in the notations of semver and Cargo: each error gives the
// literal to write instead.
use problem_core::versioned;

#[versioned("1.0.0")]
async fn semver() -> &'static str {
    "v1"
}

#[versioned(">2.0")]
async fn greater() -> &'static str {
    "v2"
}

#[versioned("<3")]
async fn less() -> &'static str {
    "v0"
}

#[versioned("^2")]
async fn caret() -> &'static str {
    "v2"
}

#[versioned("~2.1")]
async fn tilde() -> &'static str {
    "v2"
}

#[versioned("2.x..=3.x")]
async fn major_range() -> &'static str {
    "v2"
}

#[versioned("*")]
async fn any() -> &'static str {
    "any"
}

#[versioned("5.0..4.0")]
async fn reversed() -> &'static str {
    "v4"
}

fn main() {}
