// The item type derives `CollectionQuery` too: serde would serialize the
// items under other names than the query reads.
use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
#[serde(rename_all = "camelCase")]
struct Book {
    #[query(filter(eq), sort)]
    id: i64,
    #[query(filter(eq, gt), sort)]
    published_year: i32,
    page_count: u32,
}

#[derive(serde::Serialize, CollectionQuery)]
#[serde(rename_all = "kebab-case")]
struct Article {
    id: i64,
    #[query(sort)]
    published_year: i32,
}

fn main() {}
