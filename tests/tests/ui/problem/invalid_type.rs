use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "")]
struct Empty;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/duplicate isbn")]
struct Spaced;

fn main() {}
