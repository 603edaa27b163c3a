// A field named `stack` or `correlationId`: sent in production, replaced by
// the pipeline's own member in development; refused as the same `rename` is.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 404)]
struct Missing {
    stack: String,
}

#[derive(Debug, Problem)]
#[problem(status = 409)]
#[allow(non_snake_case)]
struct Conflict {
    correlationId: String,
    #[problem(rename = "trace")]
    stack: String,
}

fn main() {}
