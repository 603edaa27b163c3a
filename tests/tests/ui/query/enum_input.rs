use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
enum BookQuery {
    Id(i64),
}

fn main() {}
