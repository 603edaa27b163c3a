use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    isbn: String,
    title: String,
}

fn main() {}
