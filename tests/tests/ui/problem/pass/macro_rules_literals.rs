//! Literals passed through `macro_rules!` fragments (`$t:literal`,
//! `$t:expr`) arrive in invisible groups: the three macros read them as
//! the literals they are. A `detail` placeholder and a field type passed
//! through a fragment name the fields the derive binds (hygiene).
#![deny(warnings)]

use problem_core::{CollectionQuery, Problem, versioned};

macro_rules! problem_type {
    ($name:ident, $doc:literal, $status:literal, $ty:literal, $detail:expr, $id:ty) => {
        #[doc = $doc]
        #[derive(Debug, Problem)]
        #[problem(status = $status, type = $ty, detail = $detail)]
        struct $name {
            #[problem(rename = "bookId")]
            id: $id,
            #[problem(header = "Retry-After")]
            retry: $id,
        }
    };
}

problem_type!(
    Locked,
    "The book is locked by another reader.",
    423,
    "/problems/locked",
    "The book {id} is locked, retry in {retry:>3}s",
    u64
);

macro_rules! query {
    ($name:ident, $column:literal, $select:literal, $max:literal) => {
        #[derive(CollectionQuery)]
        #[query(key = "id", max_page_size = $max)]
        #[allow(dead_code)]
        struct $name {
            #[query(sort, column = $column)]
            id: i64,
            #[query(select = $select)]
            note: String,
        }
    };
}

query!(BookQuery, "book_id", false, 30);

macro_rules! handler {
    ($name:ident, $version:literal) => {
        #[versioned($version)]
        async fn $name() -> &'static str {
            "v2"
        }
    };
}

handler!(list_v2, "2.x");

fn main() {
    let e = Locked { id: 7, retry: 30 };
    assert_eq!(e.status().as_u16(), 423);
    assert_eq!(e.problem_type(), "/problems/locked");
    assert_eq!(e.to_string(), "The book 7 is locked, retry in  30s");
    assert_eq!(e.headers().unwrap().get("retry-after").unwrap(), "30");
    assert_eq!(
        serde_json::to_string(&e.extensions().unwrap()).unwrap(),
        r#"{"bookId":7}"#
    );
    use problem_core::DocumentedProblem;
    assert_eq!(
        Locked::problem_type_docs()[0].description,
        "The book is locked by another reader."
    );
    let q = problem_core::query::TypedQuery::<BookQuery>::from_query_str(
        "sort=-id",
        &problem_core::query::QueryConfig::default(),
    )
    .unwrap();
    assert_eq!(q.sort().to_string(), "-id");
    let q = problem_core::query::TypedQuery::<BookQuery>::from_query_str(
        "per_page=500",
        &problem_core::query::QueryConfig::default(),
    )
    .unwrap();
    assert_eq!(q.pagination().limit(), 30);
    let _ = actix_web::web::get().to(problem_core::version::versioned![list_v2]);
}
