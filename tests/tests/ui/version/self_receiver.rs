use problem_core::versioned;

struct Books;

impl Books {
    #[versioned("1.0")]
    async fn list(&self) -> &'static str {
        "v1"
    }
}

fn main() {}
