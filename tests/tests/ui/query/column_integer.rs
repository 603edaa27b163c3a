use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eq), column = 5)]
    id: i64,
}

fn main() {}
