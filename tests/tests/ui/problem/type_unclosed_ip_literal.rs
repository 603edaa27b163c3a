use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "https://[::1/problems/x")]
struct Conflict;

fn main() {}
