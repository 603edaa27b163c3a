use problem_core::versioned;

#[versioned("1.0, 2.x")]
async fn list() -> &'static str {
    "v"
}

fn main() {}
