// A `rename` that is no query parameter name: the error gives one to write.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[allow(dead_code)]
struct BookQuery {
    id: i64,
    #[query(filter(eq), rename = "api-version")]
    version: i32,
    #[query(sort, rename = "-year")]
    year: i32,
}

fn main() {}
