// A generic enum is one error: the placeholder impl has the enum's own
// generics, so the collection query that uses it adds none.
use problem_core::{CollectionQuery, QueryValue};

#[derive(serde::Serialize, QueryValue)]
enum Kind<T> {
    A,
    #[serde(skip)]
    B(T),
}

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq))]
    kind: Kind<u8>,
}

fn main() {}
