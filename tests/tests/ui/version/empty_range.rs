use problem_core::versioned;

#[versioned("3.0..=2.0")]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
