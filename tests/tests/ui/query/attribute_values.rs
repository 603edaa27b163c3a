use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(key = "id", max_page_size = "100")]
struct PageSize {
    #[query(sort)]
    id: i64,
}

#[derive(CollectionQuery)]
#[query(key = "id")]
struct SelectCall {
    #[query(sort)]
    id: i64,
    #[query(select(false))]
    isbn: String,
}

#[derive(CollectionQuery)]
#[query(key = "id")]
struct SelectTwice {
    #[query(sort)]
    id: i64,
    #[query(select = false, select = true)]
    notes: String,
}

#[derive(CollectionQuery)]
#[query(key = "id")]
struct Generic<T> {
    #[query(sort)]
    id: i64,
    extra: T,
}

fn main() {}
