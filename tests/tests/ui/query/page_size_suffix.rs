use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_page_size = 100u8)]
struct BookQuery {
    id: i64,
}

fn main() {}
