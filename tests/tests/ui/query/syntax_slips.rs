// Syntax slips in `#[query(..)]`: each error shows the form to write.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query("sort")]
    id: i64,
    #[query(filter(eq in))]
    year: i32,
    #[query(sort search)]
    title: String,
    #[query]
    isbn: String,
}

#[derive(CollectionQuery)]
#[query("isbn")]
struct ArticleQuery {
    id: i64,
}

fn main() {}
