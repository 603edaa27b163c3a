use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {}

fn main() {}
