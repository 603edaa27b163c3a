use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter("eq"))]
    id: i64,
}

fn main() {}
