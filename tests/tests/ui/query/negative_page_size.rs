// A negative page size: the error covers the whole value, `-` and digits.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_page_size = -1)]
struct BookQuery {
    id: i64,
}

fn main() {}
