// A field type that is not queryable is one error, whatever operators the
// field lists.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(gt, lt))]
    tags: Vec<String>,
    #[query(filter(gte, contains), search, sort)]
    authors: Vec<String>,
}

fn main() {}
