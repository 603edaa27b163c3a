use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404)]
#[problem()]
struct NotFound;

fn main() {}
