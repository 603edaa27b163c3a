use problem_core::Problem;

const CONFLICT: u16 = 409;

#[derive(Debug, Problem)]
#[problem(status = CONFLICT)]
struct Constant;

#[derive(Debug, Problem)]
#[problem(status = "409")]
struct Text;

#[derive(Debug, Problem)]
#[problem(status = 400 + 9)]
struct Expression;

#[derive(Debug, Problem)]
#[problem(status)]
struct NoValue;

fn main() {}
