use problem_core::versioned;

#[versioned("2.x", "2.1")]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
