// The key, never serialized: every in-memory page reads it.
use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
struct Book {
    #[serde(skip_serializing)]
    id: i64,
    #[query(sort)]
    title: String,
}

fn main() {}
