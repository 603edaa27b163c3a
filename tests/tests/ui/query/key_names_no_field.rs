use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "isbn")]
struct BookQuery {
    id: i64,
    title: String,
}

fn main() {}
