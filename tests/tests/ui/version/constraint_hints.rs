use problem_core::versioned;

#[versioned(">=2.1")]
async fn at_least() -> &'static str {
    "v2"
}

#[versioned("1..2")]
async fn exclusive_range() -> &'static str {
    "v1"
}

#[versioned("3.0..3.4")]
async fn inclusive_range() -> &'static str {
    "v3"
}

#[versioned("4.*")]
async fn wildcard() -> &'static str {
    "v4"
}

#[versioned("<=0.9")]
async fn at_most() -> &'static str {
    "v0"
}

fn main() {}
