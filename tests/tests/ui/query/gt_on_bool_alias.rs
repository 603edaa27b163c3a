use problem_core::CollectionQuery;

type Flag = bool;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(gt))]
    available: Flag,
}

fn main() {}
