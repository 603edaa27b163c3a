use problem_core::versioned;

#[versioned("2.x")]
#[versioned("3.x")]
async fn list_books() -> &'static str {
    "books"
}

fn main() {}
