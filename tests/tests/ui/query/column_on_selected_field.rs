use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(column = "book_title")]
    title: String,
}

fn main() {}
