use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 429)]
struct RateLimited {
    #[problem(header = "Retry After")]
    retry_after: u32,
    #[problem(header = "X-Limit:")]
    limit: u32,
    #[problem(header = "")]
    empty: u32,
}

fn main() {}
