use problem_core::versioned;

#[versioned(,)]
async fn list() -> &'static str {
    "v"
}

fn main() {}
