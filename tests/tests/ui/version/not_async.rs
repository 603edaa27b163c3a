use problem_core::versioned;

#[versioned("1.0")]
fn list_books_v1() -> impl std::future::Future<Output = &'static str> {
    async { "v1" }
}

fn main() {}
