// `in` on a `Vec` field: the list is the query's, so the field is
// declared as one value.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(in))]
    id: Vec<i64>,
    #[query(filter(eq, not_in))]
    tag: Option<Vec<String>>,
}

fn main() {}
