use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
struct Book {
    id: i64,
    #[serde(rename = "publishedYear")]
    #[query(filter(eq, gt), sort)]
    published_year: i32,
}

fn main() {}
