// The key defaults to `id`; an `Option` there is refused on its type.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: Option<i64>,
    title: String,
}

fn main() {}
