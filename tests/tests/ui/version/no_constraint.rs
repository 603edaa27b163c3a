use problem_core::versioned;

#[versioned]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
