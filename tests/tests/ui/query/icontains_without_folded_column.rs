use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq, icontains), search)]
    title: String,
}

fn main() {}
