// Migrating from thiserror: `thiserror::Error` kept next to `Problem`.
use problem_core::Problem;

#[derive(Debug, thiserror::Error, Problem)]
#[error("book {id} not found")]
#[problem(status = 404)]
struct BookNotFound {
    id: u64,
}

#[derive(Debug, thiserror::Error, Problem)]
#[problem(status = 400)]
enum CatalogError {
    #[error("book {0} not found")]
    #[problem(status = 404)]
    NotFound(u64),
    #[error("slow down")]
    RateLimited,
}

fn main() {}
