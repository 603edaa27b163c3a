use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404u16)]
struct NotFound;

fn main() {}
