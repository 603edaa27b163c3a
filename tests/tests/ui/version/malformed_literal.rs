use problem_core::versioned;

#[versioned("1.0", "1.2.3")]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
