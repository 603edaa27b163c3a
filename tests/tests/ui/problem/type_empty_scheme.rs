use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "://example.com/x")]
struct Conflict;

fn main() {}
