// A field whose own name holds `__`, the operator separator: `year__gte`
// would be read as the `gte` filter of `year`, as `rename` with `__` is
// refused.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "id")]
struct BookQuery {
    #[query(sort)]
    id: i64,
    #[allow(non_snake_case)]
    #[query(filter(eq))]
    year__gte: i64,
    #[query(filter(eq, gte))]
    year: i64,
}

fn main() {}
