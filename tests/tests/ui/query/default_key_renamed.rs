use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eq), rename = "book_id")]
    id: i64,
}

fn main() {}
