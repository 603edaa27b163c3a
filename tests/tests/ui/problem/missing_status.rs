use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(title = "Conflict")]
struct NoStatus;

#[derive(Debug, Problem)]
struct NoAttribute {
    isbn: String,
}

#[derive(Debug, Problem)]
enum Catalog {
    #[problem(status = 404)]
    NotFound,
    Gone,
}

fn main() {}
