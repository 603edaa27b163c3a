use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(select = "false")]
    notes: String,
}

fn main() {}
