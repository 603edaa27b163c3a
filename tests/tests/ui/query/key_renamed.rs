use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "id")]
struct BookQuery {
    #[query(filter(eq), rename = "book_id")]
    id: i64,
}

fn main() {}
