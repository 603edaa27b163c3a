use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404)]
struct NotFound {
    #[problem()]
    id: u64,
}

fn main() {}
