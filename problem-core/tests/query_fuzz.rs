//! Property tests: arbitrary query strings never panic, whatever the mode;
//! a refused one names its issues, an accepted one pages well-typed items.

mod query_support;

use problem_core::query::{CollectionParams, QueryConfig, QueryError, RawQuery, TypedQuery};
use proptest::prelude::*;
use query_support::{Book, config};

const PIECES: &[&str] = &[
    "page",
    "per_page",
    "limit",
    "cursor",
    "sort",
    "q",
    "search",
    "search_fields",
    "fields",
    "exclude",
    "id",
    "title",
    "year",
    "subtitle",
    "published",
    "available",
    "isbn",
    "__",
    "__in",
    "__not_in",
    "__gt",
    "__is_null",
    "__contains",
    "=",
    "&",
    ",",
    "-",
    "+",
    "%",
    "%2",
    "%FF",
    "%25",
    "0",
    "1",
    "-1",
    "99999999999999999999999",
    "true",
    "false",
    "2024-02-30",
    "2024-01-01",
    " ",
    "é",
    "\u{0}",
    "NaN",
    "api-version",
    "AAAA",
    "_-",
    "\\",
];

fn query_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.concat()),
        ".{0,200}",
    ]
}

/// Whatever the query, parsing answers: a refused query names at least one
/// issue (or is the too-many-parameters error), and an accepted one pages
/// items of the schema's types without an error.
fn check(qs: &str) {
    if let Err(e) = CollectionParams::from_query_str(qs) {
        assert_refused(qs, &e);
    }
    let items = vec![
        serde_json::json!({"id": 1, "title": "t", "year": 1, "subtitle": null,
                           "published": "2024-01-01", "available": true, "isbn": "1"}),
        serde_json::json!({"id": 2, "title": "é", "year": -1, "subtitle": "s",
                           "published": "1999-12-31", "available": false, "isbn": "2"}),
    ];
    for cfg in [config(), QueryConfig::default().lenient(true)] {
        match TypedQuery::<Book>::from_query_str(qs, &cfg) {
            Ok(q) => {
                let page = q.page_in_memory(&items);
                assert!(page.is_ok(), "{qs}: {:?}", page.err());
                // A cursor page needs a key (the lenient configuration has
                // a random one): either way it never panics.
                let _ = q.cursor_page_in_memory(&items);
            }
            Err(e) => assert_refused(qs, &e),
        }
    }
}

fn assert_refused(qs: &str, e: &QueryError) {
    match e {
        QueryError::TooManyParameters => {}
        QueryError::Invalid(issues) => assert!(!issues.is_empty(), "{qs}: no issue"),
        other => panic!("{qs}: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_query_strings_never_panic(qs in query_string()) {
        check(&qs);
    }

    #[test]
    fn arbitrary_cursors_never_panic(cursor in "[A-Za-z0-9_=%-]{0,300}", sort in "-?(id|year|title)") {
        check(&format!("sort={sort}&cursor={cursor}"));
    }

    #[test]
    fn arbitrary_pairs_never_panic(pairs in prop::collection::vec((".{0,12}", ".{0,12}"), 0..20)) {
        if let Ok(raw) = RawQuery::from_pairs(pairs) {
            if let Err(e) = CollectionParams::parse(&raw) {
                assert_refused("pairs", &e);
            }
            if let Err(e) = TypedQuery::<Book>::parse(&raw, &config()) {
                assert_refused("pairs", &e);
            }
        }
    }
}

/// A real cursor: the second page of `sort=-year` over 30 items, 5 a page.
fn real_cursor() -> (TypedQuery<Book>, String) {
    let items: Vec<serde_json::Value> = (1..=30)
        .map(|i| serde_json::json!({"id": i, "title": format!("t{}", i % 7), "year": 1990 + i % 11, "published": "2024-01-01", "available": true}))
        .collect();
    let first = TypedQuery::<Book>::from_query_str("sort=-year&limit=5", &config()).unwrap();
    let token = first
        .cursor_page_in_memory(&items)
        .unwrap()
        .meta
        .next_cursor
        .unwrap();
    let qs = format!("sort=-year&limit=5&cursor={token}");
    (
        TypedQuery::<Book>::from_query_str(&qs, &config()).unwrap(),
        token,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The property of the `cursor_mutated` fuzz target, in CI: a cursor
    /// changed in any way is refused as `invalid_cursor`, never accepted
    /// with another position.
    #[test]
    fn mutated_real_cursors_are_refused(
        edits in prop::collection::vec((0usize..200, 0u8..4, prop::sample::select(b"AQgw-_09azZ=%. ".to_vec())), 1..4),
    ) {
        let (real, token) = real_cursor();
        let mut bytes = token.clone().into_bytes();
        for (at, kind, letter) in edits {
            let pos = at % bytes.len().max(1);
            match kind {
                _ if bytes.is_empty() => bytes.push(letter),
                0 => bytes[pos] = letter,
                1 => bytes.insert(pos, letter),
                2 => { bytes.remove(pos); }
                _ => bytes.truncate(pos),
            }
        }
        let mutated = String::from_utf8(bytes).unwrap();
        let encoded: String = form_urlencoded::byte_serialize(mutated.as_bytes()).collect();
        let result = TypedQuery::<Book>::from_query_str(&format!("sort=-year&limit=5&cursor={encoded}"), &config());
        match result {
            Ok(q) if mutated == token => prop_assert_eq!(q.after(), real.after()),
            Ok(q) if mutated.is_empty() => prop_assert_eq!(q.after(), None),
            Ok(q) => prop_assert!(false, "mutated cursor {mutated:?} accepted at {:?}", q.after()),
            Err(e) => {
                let codes: Vec<&str> = e.issues().iter().map(|i| i.code.as_ref()).collect();
                prop_assert_eq!(codes, vec!["invalid_cursor"]);
            }
        }
    }
}
