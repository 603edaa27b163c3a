use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query()]
    id: i64,
}

fn main() {}
