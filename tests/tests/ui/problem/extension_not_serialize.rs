use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 503, title = "Storage unavailable")]
struct StorageDown {
    cause: std::io::Error,
}

fn main() {}
