use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eq, neq))]
    id: i64,
}

fn main() {}
