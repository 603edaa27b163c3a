use problem_core::Problem;

// A field named `source` is not the cause when another field is marked
// `#[problem(source)]`: it becomes an extension member, so it must be
// `Serialize`, and the advice is not "mark it `#[problem(source)]`".
#[derive(Debug, Problem)]
#[problem(status = 500)]
struct Failed {
    source: std::io::Error,
    #[problem(source)]
    other: std::fmt::Error,
}

fn main() {}
