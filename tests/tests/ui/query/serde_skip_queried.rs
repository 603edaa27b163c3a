// A field the in-memory filters and sorts read, never serialized: every
// in-memory request would fail (or, for an `Option`, never match).
use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
struct Book {
    id: i64,
    #[serde(skip)]
    #[query(filter(eq, gt), sort)]
    rank: i32,
    #[serde(skip_serializing)]
    #[query(search)]
    summary: Option<String>,
}

fn main() {}
