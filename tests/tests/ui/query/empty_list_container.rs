use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query()]
struct BookQuery {
    id: i64,
}

fn main() {}
