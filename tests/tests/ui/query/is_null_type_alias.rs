use problem_core::CollectionQuery;

type MaybeText = Option<String>;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq, is_null))]
    subtitle: MaybeText,
}

fn main() {}
