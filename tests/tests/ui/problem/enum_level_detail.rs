use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "Not found: {0}")]
enum Catalog {
    Book(u64),
}

fn main() {}
