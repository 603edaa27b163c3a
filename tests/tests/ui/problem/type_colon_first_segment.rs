use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "problem_types:conflict")]
struct Conflict;

fn main() {}
