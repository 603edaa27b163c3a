use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409)]
struct Conflict {
    #[problem(rename = "status")]
    state: String,
}

fn main() {}
