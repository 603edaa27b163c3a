use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 302)]
struct Redirect;

#[derive(Debug, Problem)]
#[problem(status = 600)]
struct TooHigh;

#[derive(Debug, Problem)]
enum Mixed {
    #[problem(status = 200)]
    Fine,
}

fn main() {}
