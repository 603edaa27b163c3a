use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(column = "id; DROP TABLE books")]
    id: i64,
}

fn main() {}
