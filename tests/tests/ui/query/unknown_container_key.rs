use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_size = 50)]
struct BookQuery {
    id: i64,
}

fn main() {}
