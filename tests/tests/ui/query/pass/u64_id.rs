// `u64` ids are queryable: filtered, ordered and sorted like other integers.
#![deny(warnings)]
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct OrderQuery {
    #[query(filter(eq, ne, in, not_in, gt, gte, lt, lte), sort)]
    id: u64,
    #[query(filter(eq, gt), sort)]
    customer: Option<u64>,
}

fn main() {}
