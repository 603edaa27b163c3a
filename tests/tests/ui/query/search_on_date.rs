use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(search)]
    published: time::Date,
}

fn main() {}
