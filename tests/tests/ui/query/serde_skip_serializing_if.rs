// `skip_serializing_if` on a queried field that is not an `Option`: the
// items whose member it leaves out would fail every in-memory filter and
// sort. On an `Option` it is fine (an absent member reads as `null`).
use problem_core::CollectionQuery;

#[derive(serde::Serialize, CollectionQuery)]
struct Book {
    id: i64,
    #[serde(skip_serializing_if = "String::is_empty")]
    #[query(filter(eq, contains), sort)]
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[query(filter(is_null), sort)]
    subtitle: Option<String>,
}

fn main() {}
