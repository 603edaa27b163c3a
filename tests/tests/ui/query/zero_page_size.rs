use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_page_size = 0)]
struct BookQuery {
    id: i64,
}

fn main() {}
