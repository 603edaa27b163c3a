// A raw identifier as the struct's name, with a mistake: the mistake alone
// is reported.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_page_size = 0)]
struct r#BookQuery {
    id: i64,
}

fn main() {}
