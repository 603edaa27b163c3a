// Half way through a migration from thiserror: `#[error(..)]` left on a
// type that no longer derives `thiserror::Error`. The derive's error says
// what to write; rustc adds its own for the unknown attribute, and, as the
// derive cannot tell whether thiserror's `Display` exists, the missing
// `Display` and `Error`.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[error("book {id} not found")]
#[problem(status = 404)]
struct BookNotFound {
    id: u64,
}

fn main() {}
