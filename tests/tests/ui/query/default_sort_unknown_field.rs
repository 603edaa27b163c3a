use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(default_sort = "-published")]
struct BookQuery {
    id: i64,
}

fn main() {}
