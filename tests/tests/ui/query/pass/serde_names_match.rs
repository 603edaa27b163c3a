// serde serializes every field under its query name: accepted.
use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Book {
    #[query(filter(eq), sort)]
    id: i64,
    #[query(filter(eq, gt), sort, rename = "publishedYear")]
    published_year: i32,
    #[serde(rename = "pages")]
    #[query(rename = "pages")]
    page_count: u32,
    #[serde(skip)]
    internal_note: String,
}

#[derive(serde::Serialize, CollectionQuery)]
#[serde(rename_all(deserialize = "camelCase"))]
#[allow(dead_code)]
struct Article {
    id: i64,
    #[query(sort)]
    published_year: i32,
}

fn main() {}
