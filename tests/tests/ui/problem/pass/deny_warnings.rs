//! Every derive feature compiles without a warning in the user's crate.
#![deny(warnings)]
#![deny(
    unused,
    unused_qualifications,
    unused_results,
    rust_2018_idioms,
    nonstandard_style,
    future_incompatible,
    trivial_casts,
    trivial_numeric_casts,
    unreachable_pub,
    missing_debug_implementations
)]

use problem_core::Problem;
use serde::Serialize;

#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
struct DuplicateIsbn {
    isbn: String,
    #[problem(skip)]
    internal_id: i64,
}

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "Book {0} not found ({1:?})")]
struct BookNotFound(u64, #[problem(rename = "shelf")] &'static str);

#[derive(Debug, Problem)]
#[problem(status = 503)]
struct Maintenance;

#[derive(Debug, Problem)]
#[problem(
    status = 429,
    detail = "Retry in {retry_after}s, limit {limit:>width$}"
)]
struct RateLimited {
    #[problem(header = "Retry-After")]
    retry_after: u32,
    #[problem(header = "X-Policy")]
    policy: Option<String>,
    note: Option<String>,
    limit: u32,
    #[problem(skip)]
    width: usize,
    r#match: &'static str,
}

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct Storage {
    source: std::io::Error,
}

#[derive(Debug, Problem)]
#[problem(status = 502)]
struct Upstream {
    #[problem(source)]
    cause: Option<Box<dyn std::error::Error + Send + Sync>>,
}

#[derive(Debug, Serialize)]
struct Payload {
    a: u8,
}

#[derive(Debug, Problem)]
#[problem(type = "/problems/catalog")]
enum CatalogError {
    #[problem(status = 404, detail = "Book {0} not found")]
    NotFound(u64),
    #[problem(status = 422, detail = "Invalid {payload:?}")]
    Invalid { payload: Payload },
    #[problem(status = 500, title = "Storage failed")]
    Storage(#[problem(source)] std::io::Error),
    #[problem(status = 503)]
    Down,
}

#[derive(Debug, Problem)]
enum Never {}

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "{what} {id} exists")]
struct Exists<Id, E>
where
    E: std::error::Error + Send + Sync + 'static,
{
    #[problem(skip)]
    what: &'static str,
    id: Id,
    #[problem(source)]
    cause: E,
}

fn use_all() -> Vec<Box<dyn Problem>> {
    vec![
        Box::new(DuplicateIsbn {
            isbn: "1".into(),
            internal_id: 1,
        }),
        Box::new(BookNotFound(1, "main")),
        Box::new(Maintenance),
        Box::new(RateLimited {
            retry_after: 1,
            policy: None,
            note: None,
            limit: 1,
            width: 1,
            r#match: "x",
        }),
        Box::new(Storage {
            source: std::io::Error::other("x"),
        }),
        Box::new(Upstream { cause: None }),
        Box::new(CatalogError::NotFound(1)),
        Box::new(CatalogError::Invalid {
            payload: Payload { a: 1 },
        }),
        Box::new(CatalogError::Storage(std::io::Error::other("x"))),
        Box::new(CatalogError::Down),
        Box::new(Exists {
            what: "Book",
            id: 1_u8,
            cause: std::fmt::Error,
        }),
    ]
}

fn main() {
    let _never: Option<Never> = None;
    for p in use_all() {
        let _ = p.to_problem("/x");
    }
}
