use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(default_sort = "- year")]
struct BookQuery {
    id: i64,
    #[query(sort)]
    year: i32,
}

fn main() {}
