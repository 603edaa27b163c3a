use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(Operator::Eq))]
    id: i64,
}

fn main() {}
