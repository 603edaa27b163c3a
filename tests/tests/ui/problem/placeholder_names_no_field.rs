use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "A book with ISBN {isbn2} already exists")]
struct DuplicateIsbn {
    isbn: String,
}

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "Book {1} not found")]
struct NotFound(u64);

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "Book {0} not found")]
struct NamedNotFound {
    id: u64,
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "Bad {x}")]
struct NoFields;

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "{code:>width$}")]
struct BadWidth {
    code: u32,
}

fn main() {}
