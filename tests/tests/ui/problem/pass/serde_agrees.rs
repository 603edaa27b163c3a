// serde attributes that agree with the problem document: the same member
// names, the skipped field skipped by both, an `Option` left out when
// `None` by both.
#![deny(warnings)]
use problem_core::Problem;

#[derive(Debug, serde::Serialize, Problem)]
#[serde(rename_all = "camelCase")]
#[problem(status = 409)]
struct DuplicateBook {
    #[problem(rename = "bookId")]
    book_id: u64,
    #[serde(skip)]
    #[problem(skip)]
    secret: String,
    #[serde(rename = "ISBN")]
    #[problem(rename = "ISBN")]
    isbn: String,
    // Unchanged by `camelCase`.
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
}

fn main() {
    let dup = DuplicateBook {
        book_id: 1,
        secret: "s".into(),
        isbn: "978".into(),
        title: "Dune".into(),
        hint: None,
    };
    let doc = serde_json::to_value(dup.to_problem("/books").unwrap()).unwrap();
    assert_eq!(doc["bookId"], 1);
    assert_eq!(doc["ISBN"], "978");
    assert!(doc.get("secret").is_none());
    assert!(doc.get("hint").is_none());
    assert_eq!(
        serde_json::to_value(&dup).unwrap(),
        serde_json::json!({"bookId": 1, "ISBN": "978", "title": "Dune"})
    );
}
