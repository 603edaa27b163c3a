use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404, title = "Book {id} not found")]
struct BookNotFound {
    id: u64,
}

// `{{` is no escape in `title` (it is not a format string).
#[derive(Debug, Problem)]
#[problem(status = 400, title = "Invalid {{json}}")]
struct Invalid;

fn main() {}
