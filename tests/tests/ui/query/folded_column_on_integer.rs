use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eq), folded_column = "id_folded")]
    id: i64,
}

fn main() {}
