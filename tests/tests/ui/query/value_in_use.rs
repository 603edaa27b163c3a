// A mistake in the enum is one error: the placeholder impl keeps the
// collection query that uses it free of follow-on errors.
use problem_core::{CollectionQuery, QueryValue};

#[derive(serde::Serialize, QueryValue)]
enum Status {
    Draft,
    Withdrawn(String),
}

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq), sort)]
    status: Status,
}

fn main() {}
