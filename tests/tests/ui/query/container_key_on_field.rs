use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(key = "id")]
    id: i64,
}

fn main() {}
