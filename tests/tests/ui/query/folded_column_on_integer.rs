use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
struct BookQuery {
    #[query(filter(eq), folded_column = "id_folded")]
    id: i64,
}

// One mistake, one error: the case-folding operator on an integer; the
// folded column it asks for is not reported as a second mistake.
#[derive(CollectionQuery)]
struct CopyQuery {
    #[query(sort)]
    id: i64,
    #[query(filter(icontains), folded_column = "copies_folded")]
    copies: i64,
}

// Without the column, the same: one error, and no advice to add one.
#[derive(CollectionQuery)]
struct PageQuery {
    #[query(sort)]
    id: i64,
    #[query(filter(istarts_with))]
    pages: i64,
}

fn main() {}
