use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct Failed {
    #[problem(source)]
    cause: String,
}

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct MaybeFailed {
    #[problem(source)]
    cause: Option<u32>,
}

// A field named `source` is the cause unless skipped, renamed or a header.
#[derive(Debug, Problem)]
#[problem(status = 502)]
struct Upstream {
    source: &'static str,
}

fn main() {}
