use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(sortable)]
    id: i64,
}

fn main() {}
