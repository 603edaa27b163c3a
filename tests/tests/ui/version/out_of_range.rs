use problem_core::versioned;

#[versioned("70000.x")]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
