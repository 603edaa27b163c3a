use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct Conflicts {
    #[problem(skip, rename = "id")]
    internal_id: i64,
    #[problem(source, header = "X-Cause")]
    io: std::io::Error,
    #[problem(rename = "after", header = "Retry-After")]
    retry_after: u32,
}

fn main() {}
