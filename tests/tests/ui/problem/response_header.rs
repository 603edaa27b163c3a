use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 429)]
struct Throttled {
    #[problem(header = "Content-Type")]
    content_type: String,
    #[problem(header = "Retry-After")]
    retry: u32,
    #[problem(header = "retry-after")]
    retry_again: u32,
}

fn main() {}
