use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/x#a#b")]
struct Conflict;

fn main() {}
