use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq), folded_column = "title_folded")]
    title: String,
}

fn main() {}
