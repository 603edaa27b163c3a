use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(sort)]
struct BookQuery {
    id: i64,
}

fn main() {}
