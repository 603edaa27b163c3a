// A problem type without `Debug` is one error, on its name (the impls that
// need `Debug` add none), and its `Display` still works.
use problem_core::Problem;

#[derive(Problem)]
#[problem(status = 404, detail = "Book {id} not found")]
struct NotFound {
    id: u64,
    #[problem(header = "Retry-After")]
    retry: Option<u32>,
}

#[derive(Problem)]
enum CatalogError {
    #[problem(status = 503)]
    Down,
}

fn main() {
    let _ = CatalogError::Down;
    let _ = NotFound { id: 1, retry: None }.to_string();
}
