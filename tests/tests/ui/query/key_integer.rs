use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = 1)]
struct BookQuery {
    id: i64,
}

fn main() {}
