use problem_core::{CollectionQuery, QueryValue};

#[derive(serde::Serialize, QueryValue)]
enum Status {
    Draft,
    InPrint,
}

// An enum of unit variants is queryable, but neither ordered nor text: the
// error is on the operator that asks for an order or for text.
#[derive(CollectionQuery)]
struct BookQuery {
    id: i64,
    #[query(filter(eq, gt), search)]
    status: Status,
    #[query(filter(in, contains))]
    stage: Status,
}

fn main() {}
