use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "isbn")]
struct BookQuery {
    isbn: Option<String>,
}

fn main() {}
