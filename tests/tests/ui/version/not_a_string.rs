use problem_core::versioned;

#[versioned(1.0)]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
