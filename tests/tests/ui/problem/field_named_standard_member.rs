// A field named like a standard member would never reach the document.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "A book with this ISBN already exists")]
struct DuplicateBook {
    isbn: String,
    title: String,
}

#[derive(Debug, Problem)]
enum OrderError {
    #[problem(status = 409, detail = "Order {id} cannot be cancelled")]
    NotCancellable { id: u64, status: String },
}

#[derive(Debug, Problem)]
#[problem(status = 400)]
struct Invalid {
    r#type: String,
    // Renamed or skipped, the field is fine.
    #[problem(rename = "book_title")]
    title: String,
    #[problem(skip)]
    detail: String,
}

// Without a `detail` key, the hint says how to make it the detail.
#[derive(Debug, Problem)]
#[problem(status = 422)]
struct Rejected {
    detail: String,
}

fn main() {}
