use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(EQ))]
    id: i64,
}

fn main() {}
