use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "id")]
struct BookQuery {
    #[query(sort)]
    id: i64,
    #[query(filter(eq))]
    page: i32,
    #[query(filter(eq), rename = "sort")]
    order: String,
    // Sortable or selectable only: no query parameter of its own.
    #[query(sort)]
    limit: i32,
}

fn main() {}
