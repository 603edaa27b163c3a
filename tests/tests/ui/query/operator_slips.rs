// A slip in an operator's name: the error names the operator meant.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eqq))]
    id: i64,
    #[query(filter(contain, startswith))]
    title: String,
}

fn main() {}
