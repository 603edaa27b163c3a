//! Property tests: arbitrary query strings never panic, whatever the mode.

mod query_support;

use problem_core::query::{CollectionParams, QueryConfig, RawQuery, TypedQuery};
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

fn check(qs: &str) {
    let _ = CollectionParams::from_query_str(qs);
    for cfg in [config(), QueryConfig::default().lenient(true)] {
        if let Ok(q) = TypedQuery::<Book>::from_query_str(qs, &cfg) {
            let items = vec![
                serde_json::json!({"id": 1, "title": "t", "year": 1, "published": "2024-01-01", "available": true}),
            ];
            let _ = q.page_in_memory(&items);
            let _ = q.cursor_page_in_memory(&items);
        }
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
            let _ = CollectionParams::parse(&raw);
            let _ = TypedQuery::<Book>::parse(&raw, &config());
        }
    }
}
