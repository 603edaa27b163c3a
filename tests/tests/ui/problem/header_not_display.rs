use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 429)]
struct Limited {
    #[problem(header = "Retry-After")]
    retry: Vec<u32>,
}

#[derive(Debug, Problem)]
#[problem(status = 429)]
struct MaybeLimited {
    #[problem(header = "Retry-After")]
    retry: Option<std::time::Duration>,
}

fn main() {}
