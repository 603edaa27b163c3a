use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(is_null))]
    subtitle: Option<Option<String>>,
}

fn main() {}
