//! Property: for every sortable field of the catalog, both directions and a
//! mixed multi-field sort, over rows holding nulls, extreme values (1e300,
//! the smallest subnormal, 0 and negative zero, the longest allowed texts,
//! non-ASCII and duplicates), walking every keyset cursor page returns every
//! row exactly once, in the order the stored values say, and the server
//! accepts every cursor it issued; walking back from the last page with
//! the previous cursors visits the same pages. On embedded SQLite, and on PostgreSQL
//! when `TEST_POSTGRES_URL` is set (required with `REQUIRE_POSTGRES=1`).

mod common;

use std::cmp::Ordering;

use common::{ADMIN, Catalog, lists};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

/// Texts: empty-looking, non-ASCII, astral, the longest allowed (256
/// characters), and values that collide.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_owned()),
        Just("A".to_owned()),
        Just("Ábc".to_owned()),
        Just("ábc".to_owned()),
        Just("z".to_owned()),
        Just("😀 emoji".to_owned()),
        Just("é".repeat(256)),
        Just("𝄞".repeat(256)),
        Just("Z".repeat(256)),
        "[a-zA-Z0-9éß][a-zA-Z0-9 éß]{0,11}",
    ]
}

fn price() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(1e300),
        Just(f64::MAX),
        Just(5e-324),
        Just(9.99),
        (0u32..1000).prop_map(|c| f64::from(c) / 100.0),
    ]
}

#[derive(Debug, Clone)]
struct NewBook {
    title: String,
    author: String,
    year: i32,
    price: f64,
    rating: f64,
    subtitle: Option<String>,
    published_at: String,
}

fn book() -> impl Strategy<Value = NewBook> {
    (
        text(),
        text(),
        prop_oneof![Just(1450), Just(2000), Just(2026), 1900..2020i32],
        price(),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(5.0),
            (0u32..=50).prop_map(|r| f64::from(r) / 10.0)
        ],
        proptest::option::of(text()),
        prop_oneof![Just("1999-12-31"), Just("2000-01-01"), Just("1450-01-01")],
    )
        .prop_map(
            |(title, author, year, price, rating, subtitle, published_at)| NewBook {
                title,
                author,
                year,
                price,
                rating,
                subtitle,
                published_at: published_at.to_owned(),
            },
        )
}

/// The sorts walked: every sortable field in both directions, and mixed ones.
const SORTS: [&str; 17] = [
    "id",
    "-id",
    "title",
    "-title",
    "author",
    "-author",
    "year",
    "-year",
    "price",
    "-price",
    "rating",
    "-rating",
    "published_at",
    "-published_at",
    "-price,title",
    "rating,-author,year",
    "-published_at,-rating,title",
];

fn cmp_field(a: &Value, b: &Value, field: &str) -> Ordering {
    let (x, y) = (&a[field], &b[field]);
    match (x, y) {
        (Value::Number(x), Value::Number(y)) => x
            .as_f64()
            .unwrap()
            .partial_cmp(&y.as_f64().unwrap())
            .unwrap(),
        // Text and dates compare by code point (RFC 3339 dates sort as text).
        (Value::String(x), Value::String(y)) => x.cmp(y),
        other => panic!("unexpected values {other:?}"),
    }
}

/// The ids of `rows` in the order of `sort` (the key `id` last).
fn expected(rows: &[Value], sort: &str) -> Vec<i64> {
    let mut keys: Vec<(&str, bool)> = sort
        .split(',')
        .map(|s| match s.strip_prefix('-') {
            Some(f) => (f, true),
            None => (s, false),
        })
        .collect();
    if !keys.iter().any(|(f, _)| *f == "id") {
        keys.push(("id", false));
    }
    let mut sorted: Vec<&Value> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        keys.iter()
            .map(|(f, desc)| {
                let o = cmp_field(a, b, f);
                if *desc { o.reverse() } else { o }
            })
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    });
    sorted.iter().map(|b| b["id"].as_i64().unwrap()).collect()
}

async fn check(cat: &Catalog, books: &[NewBook]) {
    for (i, b) in books.iter().enumerate() {
        let body = json!({
            "isbn": format!("{:013}", 9_780_000_000_000u64 + i as u64),
            "title": b.title, "author": b.author, "year": b.year, "price": b.price,
            "rating": b.rating, "subtitle": b.subtitle, "published_at": b.published_at,
        });
        let res = cat
            .request(reqwest::Method::POST, "/books")
            .header("Authorization", format!("Bearer {ADMIN}"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{body}: {}", res.text().await.unwrap());
    }
    // What the server stored, as it reads it back.
    let (status, _, all) = cat.get_json("/books?per_page=100").await;
    assert_eq!(status, 200);
    let rows = all["data"].as_array().unwrap().clone();
    assert_eq!(rows.len(), books.len());
    // Read back as sent, in the order of the creates (ids rise; PostgreSQL's
    // sequence need not start at 1), but for the documented normalisation:
    // a `-0.0` is stored as `0.0`.
    let unsigned_zero = |x: f64| if x == 0.0 { 0.0 } else { x };
    let ids: Vec<i64> = rows.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    for (i, (row, b)) in rows.iter().zip(books).enumerate() {
        let sent = json!({
            "id": ids[i],
            "isbn": format!("{:013}", 9_780_000_000_000u64 + i as u64),
            "title": b.title, "author": b.author, "genre": "fiction", "year": b.year,
            "price": unsigned_zero(b.price), "rating": unsigned_zero(b.rating),
            "subtitle": b.subtitle, "published_at": b.published_at, "in_stock": true,
        });
        assert_eq!(row, &sent, "book {i}");
        for member in ["price", "rating"] {
            assert_eq!(
                row[member].as_f64().map(f64::to_bits),
                sent[member].as_f64().map(f64::to_bits),
                "book {i}: {member}"
            );
        }
    }
    for sort in SORTS {
        for limit in [1, 7] {
            let walked = lists::walk_cursor_both_ways(cat, &format!("sort={sort}"), limit).await;
            assert_eq!(walked, expected(&rows, sort), "sort={sort} limit={limit}");
        }
    }
}

/// Runs the property on catalogs started by `start`, one per case.
fn run(cases: u32, start: impl Fn() -> Catalog) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&proptest::collection::vec(book(), 1..40), |books| {
            let cat = start();
            rt.block_on(check(&cat, &books));
            Ok(())
        })
        .unwrap();
}

#[test]
fn every_cursor_walk_visits_every_row_once_on_sqlite() {
    run(6, || Catalog::start(&[("CATALOG_SEED_ROWS", "0")]));
}

#[test]
fn every_cursor_walk_visits_every_row_once_on_postgres() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    run(4, || {
        rt.block_on(common::reset_postgres(&url));
        Catalog::start(&[("CATALOG_SEED_ROWS", "0"), ("DATABASE_URL", url.as_str())])
    });
}
