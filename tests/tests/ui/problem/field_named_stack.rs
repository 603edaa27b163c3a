// A field named `stack` or `correlationId`: replaced by the pipeline's own
// member where it sets one (`stack` in development, `correlationId` on a
// 5xx) and sent elsewhere; refused as the same `rename` is.
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
