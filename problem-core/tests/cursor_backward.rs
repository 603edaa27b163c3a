//! Property: in memory, for random rows (duplicates, nulls) and random
//! sorts (1 to 3 fields, mixed directions, nullable fields), walking every
//! keyset page forward and then every page backward from the last one
//! (following `prev_cursor`) visits the same pages, page for page, in the
//! same order; the first page has no previous cursor, every later page has
//! one; the next cursor of a page reached backward leads to the page after
//! it; and the forward walk is the whole collection in the sort's order.

use std::cmp::Ordering;

use problem_core::CollectionQuery;
use problem_core::query::{CursorPage, QueryConfig, TypedQuery};
use proptest::prelude::*;
use serde_json::{Value as Json, json};

#[derive(CollectionQuery)]
#[query(key = "id")]
#[allow(dead_code)]
struct Row {
    #[query(sort)]
    id: i64,
    #[query(sort)]
    a: Option<i32>,
    #[query(sort)]
    b: String,
    #[query(sort)]
    c: Option<String>,
}

fn config() -> QueryConfig {
    QueryConfig::default()
        .cursor_keys([b"0123456789abcdef0123456789abcdef".to_vec()])
        .unwrap()
}

fn page(query: &str, rows: &[Json]) -> CursorPage<Json> {
    TypedQuery::<Row>::from_query_str(query, &config())
        .unwrap_or_else(|e| panic!("{query}: {e:?}"))
        .cursor_page_in_memory(rows)
        .unwrap()
}

fn ids(p: &CursorPage<Json>) -> Vec<i64> {
    p.data.iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

/// Nulls lowest, numbers and texts by value.
fn cmp(x: &Json, y: &Json) -> Ordering {
    match (x, y) {
        (Json::Null, Json::Null) => Ordering::Equal,
        (Json::Null, _) => Ordering::Less,
        (_, Json::Null) => Ordering::Greater,
        (Json::Number(x), Json::Number(y)) => x.as_i64().cmp(&y.as_i64()),
        (Json::String(x), Json::String(y)) => x.cmp(y),
        other => panic!("unexpected {other:?}"),
    }
}

fn expected(rows: &[Json], sort: &[(&str, bool)]) -> Vec<i64> {
    let mut keys = sort.to_vec();
    if !keys.iter().any(|(f, _)| *f == "id") {
        keys.push(("id", false));
    }
    let mut sorted: Vec<&Json> = rows.iter().collect();
    sorted.sort_by(|x, y| {
        keys.iter()
            .map(|(f, desc)| {
                let o = cmp(&x[*f], &y[*f]);
                if *desc { o.reverse() } else { o }
            })
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    });
    sorted.iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

fn rows() -> impl Strategy<Value = Vec<Json>> {
    proptest::collection::vec(
        (
            proptest::option::of(0..3i32),
            prop_oneof![Just("x"), Just("y"), Just("Ω")],
            proptest::option::of(prop_oneof![Just("p"), Just("q")]),
        ),
        0..30,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (a, b, c))| json!({"id": i as i64 * 3 % 31, "a": a, "b": b, "c": c}))
            .collect()
    })
}

fn sort() -> impl Strategy<Value = Vec<(&'static str, bool)>> {
    proptest::sample::subsequence(vec!["a", "b", "c", "id"], 1..=3)
        .prop_shuffle()
        .prop_flat_map(|fields| {
            let n = fields.len();
            (
                Just(fields),
                proptest::collection::vec(any::<bool>(), n..=n),
            )
        })
        .prop_map(|(fields, desc)| fields.into_iter().zip(desc).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn backward_walk_visits_the_forward_pages(rows in rows(), sort in sort(), limit in 1u64..6) {
        let sort_param: Vec<String> = sort
            .iter()
            .map(|(f, desc)| format!("{}{f}", if *desc { "-" } else { "" }))
            .collect();
        let base = format!("sort={}&limit={limit}", sort_param.join(","));

        // Forward.
        let mut forward: Vec<(Vec<i64>, CursorPage<Json>)> = Vec::new();
        let mut query = base.clone();
        loop {
            let p = page(&query, &rows);
            prop_assert_eq!(p.meta.prev_cursor.is_some(), !forward.is_empty(), "{}", query);
            let next = p.meta.next_cursor.clone();
            forward.push((ids(&p), p));
            match next {
                Some(c) => query = format!("{base}&cursor={c}"),
                None => break,
            }
            prop_assert!(forward.len() <= rows.len() + 1);
        }
        let all: Vec<i64> = forward.iter().flat_map(|(ids, _)| ids.clone()).collect();
        prop_assert_eq!(&all, &expected(&rows, &sort));
        for (ids, _) in &forward[..forward.len() - 1] {
            prop_assert_eq!(ids.len() as u64, limit);
        }

        // Backward from the last page.
        let mut backward: Vec<Vec<i64>> = vec![forward.last().unwrap().0.clone()];
        let mut prev = forward.last().unwrap().1.meta.prev_cursor.clone();
        while let Some(c) = prev {
            let p = page(&format!("{base}&cursor={c}"), &rows);
            let at = forward.len() - 1 - backward.len();
            // The page after this one, through its next cursor.
            let next = p.meta.next_cursor.clone().expect("a page reached backward has a next page");
            let after = page(&format!("{base}&cursor={next}"), &rows);
            prop_assert_eq!(ids(&after), forward[at + 1].0.clone());
            prop_assert_eq!(p.meta.prev_cursor.is_some(), at > 0);
            prev = p.meta.prev_cursor.clone();
            backward.push(ids(&p));
            prop_assert!(backward.len() <= forward.len());
        }
        backward.reverse();
        let forward_ids: Vec<Vec<i64>> = forward.into_iter().map(|(ids, _)| ids).collect();
        prop_assert_eq!(backward, forward_ids);
    }
}

#[test]
fn prev_cursors_are_bound_like_next_cursors() {
    let rows: Vec<Json> = (0..6)
        .map(|i| json!({"id": i, "a": i % 2, "b": "x", "c": null}))
        .collect();
    let first = page("sort=-a&limit=2", &rows);
    let second = page(
        &format!("sort=-a&limit=2&cursor={}", first.meta.next_cursor.unwrap()),
        &rows,
    );
    let prev = second.meta.prev_cursor.unwrap();
    let code = |q: &str| {
        TypedQuery::<Row>::from_query_str(q, &config())
            .unwrap_err()
            .issues()[0]
            .code
            .clone()
    };
    assert_eq!(
        code(&format!("sort=a&limit=2&cursor={prev}")),
        "cursor_mismatch"
    );
    assert_eq!(
        code(&format!("sort=-a&limit=2&page=1&cursor={prev}")),
        "conflicting_parameters"
    );
    let mut tampered = prev.clone().into_bytes();
    tampered[5] = if tampered[5] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    assert_eq!(
        code(&format!("sort=-a&limit=2&cursor={tampered}")),
        "invalid_cursor"
    );
    let other = QueryConfig::default()
        .cursor_keys([b"another-key-another-key-another-key".to_vec()])
        .unwrap();
    let err = TypedQuery::<Row>::from_query_str(&format!("sort=-a&limit=2&cursor={prev}"), &other)
        .unwrap_err();
    assert_eq!(err.issues()[0].code, "invalid_cursor");
    // The first page again, exactly: no prev, the same next cursor.
    let back = page(&format!("sort=-a&limit=2&cursor={prev}"), &rows);
    let again = page("sort=-a&limit=2", &rows);
    assert_eq!((ids(&back), back.meta.prev_cursor), (ids(&again), None));
    assert_eq!(back.meta.next_cursor, again.meta.next_cursor);
}

/// A cursor is never issued that the next request would refuse: sort-key
/// values too long to carry in [`MAX_CURSOR_LENGTH`] characters make the
/// page an `ApplyError::CursorTooLong`, both ways; just under, the cursors
/// are issued and accepted. Found by an outside audit: a 3,040-character
/// sort key gave a 4,116-character `next_cursor` that the next request
/// refused as `invalid_cursor`.
#[test]
fn no_cursor_is_issued_that_a_request_would_refuse() {
    use problem_core::query::{ApplyError, MAX_CURSOR_LENGTH};
    let rows = |len: usize| {
        vec![
            json!({"id": 1, "a": 1, "b": "x".repeat(len), "c": null}),
            json!({"id": 2, "a": 1, "b": "y", "c": null}),
            json!({"id": 3, "a": 1, "b": "z", "c": null}),
        ]
    };
    let first = |len: usize| {
        TypedQuery::<Row>::from_query_str("sort=b&limit=1", &config())
            .unwrap()
            .cursor_page_in_memory(rows(len))
    };
    assert_eq!(
        first(3040).unwrap_err(),
        ApplyError::CursorTooLong { length: 4116 }
    );
    assert_eq!(
        ApplyError::CursorTooLong { length: 4116 }.to_string(),
        "the sort-key values of a page's edge row make a cursor of 4116 characters, more than the 4096 a request may carry: sort by shorter values (the sortable text of one row must stay under about 3,000 bytes)"
    );
    // Just under the limit: issued, and accepted by the next request.
    let next = first(3020).unwrap().meta.next_cursor.unwrap();
    assert!(next.len() <= MAX_CURSOR_LENGTH, "{}", next.len());
    let second = page(&format!("sort=b&limit=1&cursor={next}"), &rows(3020));
    assert_eq!(ids(&second), [2]);
    // A page that starts on the long row: its previous cursor would be
    // as long, so that page is refused too.
    let from_y = page("sort=-b&limit=2", &rows(3040))
        .meta
        .next_cursor
        .unwrap();
    let last =
        TypedQuery::<Row>::from_query_str(&format!("sort=-b&limit=2&cursor={from_y}"), &config())
            .unwrap()
            .cursor_page_in_memory(rows(3040));
    assert_eq!(
        last.unwrap_err(),
        ApplyError::CursorTooLong { length: 4116 }
    );
}
