use problem_core::versioned;

#[versioned("1.0")]
async unsafe fn list_books_v1() -> &'static str {
    "books"
}

fn main() {}
