use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, title = "")]
struct NoTitle;

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "")]
struct NoDetail;

#[derive(Debug, Problem)]
#[problem(status = 409)]
enum Catalog {
    #[problem(title = " ", detail = "Book {0} not found")]
    Missing(u32),
}

fn main() {}
