use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = id)]
struct BookQuery {
    id: i64,
}

fn main() {}
