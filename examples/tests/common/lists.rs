//! List checks shared by the SQLite and PostgreSQL runs: results compared
//! with what the seed data says, row for row.

#![allow(dead_code)]

use std::cmp::Ordering;

use examples::catalog::model::Book;
use examples::catalog::seed;
use serde_json::{Value, json};

use super::{Catalog, PROBLEM_JSON, header, json};

pub const ROWS: u32 = 3000;

pub fn seed_books() -> Vec<Book> {
    seed::books(ROWS)
}

fn ids(books: &[&Book]) -> Vec<i64> {
    books.iter().map(|b| b.id).collect()
}

fn data_ids(body: &Value) -> Vec<i64> {
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect()
}

/// Walks every offset page of `query` (per_page 100) and returns the ids.
pub async fn walk_offset(cat: &Catalog, query: &str) -> (Vec<i64>, u64) {
    let mut out = Vec::new();
    let mut page = 1;
    let total = loop {
        let (status, _, body) = cat
            .get_json(&format!("/books?{query}&per_page=100&page={page}"))
            .await;
        assert_eq!(status, 200, "{body}");
        out.extend(data_ids(&body));
        if body["links"].get("next").is_none() {
            break body["meta"]["total"].as_u64().unwrap();
        }
        page += 1;
        assert!(page < 200, "bounded walk");
    };
    (out, total)
}

/// Walks every cursor page of `query` following `links.next`.
pub async fn walk_cursor(cat: &Catalog, query: &str, limit: u32) -> Vec<i64> {
    let mut out = Vec::new();
    let mut next = format!("/books?{query}&limit={limit}");
    for _ in 0..500 {
        let (status, _, body) = cat.get_json(&next).await;
        assert_eq!(status, 200, "{body}");
        let page = data_ids(&body);
        assert!(page.len() <= limit as usize);
        out.extend(page);
        assert_eq!(body["meta"]["limit"], json!(limit));
        match body["links"].get("next").and_then(Value::as_str) {
            Some(n) => {
                assert_eq!(
                    body["meta"]["next_cursor"].as_str().map(|c| n.contains(c)),
                    Some(true)
                );
                next = n.to_owned();
            }
            None => {
                assert_eq!(body["meta"]["next_cursor"], Value::Null);
                return out;
            }
        }
    }
    panic!("the cursor walk did not end");
}

/// Walks every cursor page of `query` forward (`links.next`), then back
/// from the last page (`links.prev`) to the first, and checks that the
/// backward walk visits the same pages in the same order: the first page
/// has no `prev` (`meta.prev_cursor` null, no `prev` link), every later
/// page has one, in `links` and in the `Link` header (`rel="prev"`).
/// Returns the ids of the forward walk.
pub async fn walk_cursor_both_ways(cat: &Catalog, query: &str, limit: u32) -> Vec<i64> {
    // `back`: the page was reached with a previous cursor.
    let prev_of = |body: &Value, headers: &reqwest::header::HeaderMap, back: bool| {
        let link = body["links"].get("prev").and_then(Value::as_str);
        let cursor = body["meta"]["prev_cursor"].as_str();
        assert_eq!(link.is_some(), cursor.is_some(), "{body}");
        if let (Some(l), Some(c)) = (link, cursor) {
            assert!(l.ends_with(&format!("cursor={c}")), "{l}");
        }
        // The `Link` header: the body's links, whole, as the 2 KiB rule
        // keeps them (long sort keys make long cursors).
        assert_eq!(
            header(headers, "link"),
            expected_link_header(&body["links"], back).as_deref(),
            "{body}"
        );
        link.map(str::to_owned)
    };
    let mut pages: Vec<Vec<i64>> = Vec::new();
    let mut url = format!("/books?{query}&limit={limit}");
    let mut last_prev = None;
    for _ in 0..500 {
        let (status, headers, body) = cat.get_json(&url).await;
        assert_eq!(status, 200, "{body}");
        let prev = prev_of(&body, &headers, false);
        assert_eq!(prev.is_some(), !pages.is_empty(), "{url}: {body}");
        pages.push(data_ids(&body));
        match body["links"].get("next").and_then(Value::as_str) {
            Some(n) => url = n.to_owned(),
            None => {
                last_prev = prev;
                break;
            }
        }
    }
    let mut back: Vec<Vec<i64>> = vec![pages.last().unwrap().clone()];
    let mut prev = last_prev;
    while let Some(url) = prev {
        let (status, headers, body) = cat.get_json(&url).await;
        assert_eq!(status, 200, "{body}");
        assert!(body["meta"]["next_cursor"].is_string(), "{body}");
        prev = prev_of(&body, &headers, true);
        back.push(data_ids(&body));
        assert!(back.len() <= pages.len(), "{query}: bounded walk back");
    }
    back.reverse();
    assert_eq!(back, pages, "{query} limit={limit}: backward walk");
    pages.concat()
}

/// The `Link` header of a list whose body has `links`: every link in the
/// order self, first, prev, next, last; over
/// `spec::MAX_LINK_HEADER_LENGTH` bytes, `prev` and `next` only, else
/// `next` alone, else `prev` alone (`prev` first on a page reached with a
/// previous cursor, `back`); none when each alone is over it.
pub fn expected_link_header(links: &Value, back: bool) -> Option<String> {
    let text = |rels: &[&str]| {
        rels.iter()
            .filter_map(|rel| Some(format!("<{}>; rel=\"{rel}\"", links.get(*rel)?.as_str()?)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let max = problem_core::spec::MAX_LINK_HEADER_LENGTH;
    let all = text(&["self", "first", "prev", "next", "last"]);
    if all.len() <= max {
        return Some(all);
    }
    let (on, other) = if back {
        ("prev", "next")
    } else {
        ("next", "prev")
    };
    [&["prev", "next"][..], &[on], &[other]]
        .into_iter()
        .map(text)
        .find(|t| !t.is_empty() && t.len() <= max)
}

fn by(books: &[Book], keep: impl Fn(&Book) -> bool) -> Vec<&Book> {
    books.iter().filter(|b| keep(b)).collect()
}

pub async fn default_page_is_the_first_20_by_id(cat: &Catalog) {
    let books = seed_books();
    let res = cat.get("/books").send().await.unwrap();
    let (status, headers, body) = json(res).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "x-api-version"), Some("3"));
    assert_eq!(header(&headers, "x-api-supported-versions"), Some("2, 3"));
    assert_eq!(
        body["meta"],
        json!({"page": 1, "per_page": 20, "total": ROWS, "total_pages": ROWS / 20})
    );
    assert_eq!(data_ids(&body), (1..=20).collect::<Vec<i64>>());
    assert_eq!(body["data"][0], serde_json::to_value(&books[0]).unwrap());
    assert_eq!(
        body["data"][0]["published_at"].as_str().unwrap().len(),
        10,
        "RFC 3339 full-date"
    );
    assert_eq!(body["links"]["self"], json!("/books"));
    assert!(
        body["links"].get("prev").is_none(),
        "absent links are omitted: {}",
        body["links"]
    );
    assert_eq!(body["links"]["next"], json!("/books?page=2"));
    assert_eq!(
        body["links"]["last"],
        json!(format!("/books?page={}", ROWS / 20))
    );
    let link = header(&headers, "link").unwrap();
    assert!(link.contains("</books?page=2>; rel=\"next\""), "{link}");
}

pub async fn page_and_per_page_give_offset_and_limit(cat: &Catalog) {
    let (_, _, body) = cat.get_json("/books?page=2&per_page=50").await;
    assert_eq!(data_ids(&body), (51..=100).collect::<Vec<i64>>());
    assert_eq!(
        body["meta"],
        json!({"page": 2, "per_page": 50, "total": ROWS, "total_pages": ROWS / 50})
    );
    let (_, _, body) = cat.get_json("/books?per_page=500").await;
    assert_eq!(
        body["meta"]["per_page"],
        json!(100),
        "clamped to the maximum"
    );
    assert_eq!(body["data"].as_array().unwrap().len(), 100);
    let (_, _, body) = cat.get_json("/books?page=2&limit=7").await;
    assert_eq!(data_ids(&body), (8..=14).collect::<Vec<i64>>());
}

pub async fn filter_and_sort_return_exactly_the_rows_sql_would(cat: &Catalog) {
    let books = seed_books();
    let mut expected = by(&books, |b| b.year >= 2000);
    expected.sort_by(|a, b| {
        b.price
            .partial_cmp(&a.price)
            .unwrap_or(Ordering::Equal)
            .then(a.id.cmp(&b.id))
    });
    let (got, total) = walk_offset(cat, "year__gte=2000&sort=-price").await;
    assert_eq!(total as usize, expected.len());
    assert_eq!(got, ids(&expected));
    assert!(expected.len() > 300, "a real filter: {}", expected.len());
}

pub async fn every_operator_filters_like_the_seed_data_says(cat: &Catalog) {
    let books = seed_books();
    type Check = (&'static str, Box<dyn Fn(&Book) -> bool>);
    let cases: Vec<Check> = vec![
        (
            "id__in=5,3,9,2999",
            Box::new(|b| [5, 3, 9, 2999].contains(&b.id)),
        ),
        (
            "id__not_in=1,2&id__lte=10",
            Box::new(|b| b.id > 2 && b.id <= 10),
        ),
        ("id__gt=2990", Box::new(|b| b.id > 2990)),
        ("id__ne=1&id__lt=4", Box::new(|b| b.id == 2 || b.id == 3)),
        ("isbn=9780000000019", Box::new(|b| b.id == 1)),
        (
            "title=The%20Winter%20Song",
            Box::new(|b| b.title == "The Winter Song"),
        ),
        (
            "title__contains=Winter",
            Box::new(|b| b.title.contains("Winter")),
        ),
        (
            "title__starts_with=The%20Bright",
            Box::new(|b| b.title.starts_with("The Bright")),
        ),
        (
            "title__ends_with=Rain",
            Box::new(|b| b.title.ends_with("Rain")),
        ),
        (
            "author__contains=Borges",
            Box::new(|b| b.author.contains("Borges")),
        ),
        (
            "author__starts_with=Ada&genre__ne=poetry",
            Box::new(|b| b.author.starts_with("Ada") && b.genre != "poetry"),
        ),
        (
            "genre__in=poetry,drama",
            Box::new(|b| b.genre == "poetry" || b.genre == "drama"),
        ),
        (
            "genre__not_in=poetry,drama,fiction",
            Box::new(|b| !["poetry", "drama", "fiction"].contains(&b.genre.as_str())),
        ),
        (
            "genre=history&year__lt=1950",
            Box::new(|b| b.genre == "history" && b.year < 1950),
        ),
        ("year=1999", Box::new(|b| b.year == 1999)),
        (
            "year__in=1990,1991&price__gte=50",
            Box::new(|b| (b.year == 1990 || b.year == 1991) && b.price >= 50.0),
        ),
        ("price__lt=6", Box::new(|b| b.price < 6.0)),
        ("rating__gt=4.5", Box::new(|b| b.rating > 4.5)),
        ("rating=5", Box::new(|b| b.rating == 5.0)),
        ("subtitle__is_null=true", Box::new(|b| b.subtitle.is_none())),
        (
            "subtitle__is_null=false",
            Box::new(|b| b.subtitle.is_some()),
        ),
        (
            "subtitle__is_not_null=true",
            Box::new(|b| b.subtitle.is_some()),
        ),
        (
            "subtitle__contains=Poems",
            Box::new(|b| b.subtitle.as_deref().is_some_and(|s| s.contains("Poems"))),
        ),
        (
            "published_at__gte=2020-01-01",
            Box::new(|b| b.published_at >= time::macros::date!(2020 - 01 - 01)),
        ),
        (
            "published_at=1941-07-19",
            Box::new(|b| b.published_at == time::macros::date!(1941 - 07 - 19)),
        ),
        (
            "in_stock=false&year__gt=2015",
            Box::new(|b| !b.in_stock && b.year > 2015),
        ),
    ];
    for (query, keep) in cases {
        let expected = by(&books, keep);
        let (got, total) = walk_offset(cat, query).await;
        assert_eq!(got, ids(&expected), "{query}");
        assert_eq!(total as usize, expected.len(), "{query}");
    }
}

pub async fn search_ands_terms_and_ors_fields_case_insensitively(cat: &Catalog) {
    let books = seed_books();
    let hit = |b: &Book, term: &str| {
        [Some(&b.title), Some(&b.author), b.subtitle.as_ref()]
            .into_iter()
            .flatten()
            .any(|f| f.to_lowercase().contains(term))
    };
    let expected = by(&books, |b| hit(b, "winter") && hit(b, "song"));
    let (got, _) = walk_offset(cat, "q=WINTER%20song").await;
    assert_eq!(got, ids(&expected));
    assert!(!expected.is_empty());
    let (same, _) = walk_offset(cat, "search=winter%20SONG").await;
    assert_eq!(same, got);
    let expected = by(&books, |b| {
        b.title.to_lowercase().contains("poems") || b.author.to_lowercase().contains("poems")
    });
    let (got, _) = walk_offset(cat, "q=poems&search_fields=title,author").await;
    assert_eq!(
        got,
        ids(&expected),
        "search_fields narrows to title and author"
    );
}

pub async fn cursor_walk_returns_every_matching_row_once_in_order(cat: &Catalog) {
    let books = seed_books();
    let mut expected = by(&books, |b| b.genre == "poetry" || b.genre == "drama");
    expected.sort_by(|a, b| {
        b.rating
            .partial_cmp(&a.rating)
            .unwrap_or(Ordering::Equal)
            .then_with(|| a.title.cmp(&b.title))
            .then(a.id.cmp(&b.id))
    });
    let got = walk_cursor_both_ways(cat, "genre__in=poetry,drama&sort=-rating,title", 37).await;
    assert_eq!(got, ids(&expected));
    let mut expected = by(&books, |b| b.year >= 2000);
    expected.sort_by(|a, b| {
        a.year
            .cmp(&b.year)
            .then(b.price.partial_cmp(&a.price).unwrap_or(Ordering::Equal))
            .then(a.id.cmp(&b.id))
    });
    let got = walk_cursor(cat, "year__gte=2000&sort=year,-price", 100).await;
    assert_eq!(got, ids(&expected));
}

pub async fn sparse_fieldsets(cat: &Catalog) {
    let (status, _, body) = cat.get_json("/books?fields=id,title&per_page=3").await;
    assert_eq!(status, 200, "{body}");
    let first: Vec<Value> = seed_books()[..3]
        .iter()
        .map(|b| json!({"id": b.id, "title": b.title}))
        .collect();
    assert_eq!(body["data"], json!(first));
    let (_, _, body) = cat
        .get_json("/books?exclude=subtitle,in_stock,isbn&per_page=1")
        .await;
    let keys: Vec<&String> = body["data"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "id",
            "title",
            "author",
            "genre",
            "year",
            "price",
            "rating",
            "published_at"
        ]
    );
    let (_, _, body) = cat
        .get_json("/books?fields=id,title,year&exclude=year&per_page=1")
        .await;
    assert_eq!(body["data"], json!([first[0]]));
}

pub async fn values_are_matched_literally(cat: &Catalog) {
    for value in ["'%20OR%201%3D1%20--", "%25", "_", "%5C"] {
        let (status, _, body) = cat
            .get_json(&format!("/books?title__contains={value}"))
            .await;
        assert_eq!(status, 200);
        assert_eq!(body["meta"]["total"], json!(0), "{value}");
    }
}

pub async fn bad_queries_are_400_with_every_issue(cat: &Catalog) {
    let res = cat
        .get("/books?sort=isbn&colour=red&year__gte=abc&page=0")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers().get("content-type").unwrap(), PROBLEM_JSON);
    let (status, _, body) = json(res).await;
    assert_eq!(status, 400);
    assert_eq!(body["detail"], json!("Request validation failed"));
    assert_eq!(body["instance"], json!("/books"));
    let mut codes: Vec<(String, String)> = body["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap().to_owned(),
                i["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        [
            ("colour".to_owned(), "unknown_parameter".to_owned()),
            ("page".to_owned(), "out_of_range".to_owned()),
            ("sort".to_owned(), "not_sortable".to_owned()),
            ("year__gte".to_owned(), "invalid_value".to_owned()),
        ]
    );
    for issue in body["issues"].as_array().unwrap() {
        assert_eq!(issue["location"], json!("query"));
        if issue["code"] == json!("not_sortable") {
            assert_eq!(
                issue["allowed"],
                json!([
                    "id",
                    "title",
                    "author",
                    "year",
                    "price",
                    "rating",
                    "published_at"
                ])
            );
        }
        if issue["code"] == json!("invalid_value") {
            assert_eq!(issue["expected"], json!("integer"));
        }
    }
    for (query, code) in [
        ("per_page=10&limit=20", "conflicting_parameters"),
        ("title__gt=a", "operator_not_allowed"),
        ("nope__gt=1", "unknown_field"),
        ("q=x&search_fields=genre", "not_searchable"),
        ("fields=id,colour", "not_selectable"),
        ("id__in=1,,2", "invalid_value"),
        ("cursor=not-a-cursor", "invalid_cursor"),
        ("per_page=0", "out_of_range"),
    ] {
        let (status, _, body) = cat.get_json(&format!("/books?{query}")).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(
            body["issues"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["code"] == json!(code)),
            "{query}: {body}"
        );
    }
    let many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
    let (status, _, body) = cat
        .get_json(&format!("/books?id__in={}", many.join(",")))
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["issues"][0]["code"], json!("too_many_values"));
}

pub async fn cursors_are_bound_to_their_query(cat: &Catalog) {
    let (_, _, body) = cat.get_json("/books?sort=-price&limit=5").await;
    let cursor = body["meta"]["next_cursor"].as_str().unwrap().to_owned();
    let (status, _, body) = cat
        .get_json(&format!("/books?sort=price&limit=5&cursor={cursor}"))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["issues"][0]["code"],
        json!("cursor_mismatch"),
        "{body}"
    );
    let (status, _, body) = cat
        .get_json(&format!(
            "/books?sort=-price&limit=5&year__gt=1&cursor={cursor}"
        ))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["issues"][0]["code"],
        json!("cursor_mismatch"),
        "{body}"
    );
    let (status, _, body) = cat
        .get_json(&format!("/books?sort=-price&page=2&cursor={cursor}"))
        .await;
    assert_eq!(status, 400, "cursor and page together: {body}");
    let codes = |body: &Value| -> Vec<(String, String)> {
        body["issues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["name"].as_str().unwrap().to_owned(),
                    i["code"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    // A cursor beside `page` is the conflict, whatever the token.
    assert_eq!(
        codes(&body),
        [("cursor".to_owned(), "conflicting_parameters".to_owned())]
    );
    let (_, _, body) = cat.get_json("/books?page=2&cursor=zzz").await;
    assert_eq!(
        codes(&body),
        [("cursor".to_owned(), "conflicting_parameters".to_owned())]
    );
    // A token that is no cursor is reported with the other issues.
    for (query, other) in [
        ("cursor=zzz&colour=red", ("colour", "unknown_parameter")),
        ("cursor=zzz&per_page=0", ("per_page", "out_of_range")),
    ] {
        let (status, _, body) = cat.get_json(&format!("/books?{query}")).await;
        assert_eq!(status, 400, "{query}");
        let mut got = codes(&body);
        got.sort();
        let mut want = vec![
            (other.0.to_owned(), other.1.to_owned()),
            ("cursor".to_owned(), "invalid_cursor".to_owned()),
        ];
        want.sort();
        assert_eq!(got, want, "{query}: {body}");
    }
    let mut tampered = cursor.clone().into_bytes();
    let mid = tampered.len() / 2;
    tampered[mid] = if tampered[mid] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let (status, _, body) = cat
        .get_json(&format!("/books?sort=-price&limit=5&cursor={tampered}"))
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["issues"][0]["code"], json!("invalid_cursor"));
    let (status, _, body) = cat
        .get_json(&format!("/books?sort=-price&limit=5&cursor={cursor}"))
        .await;
    assert_eq!(status, 200);
    // Previous cursors are bound the same way.
    let prev = body["meta"]["prev_cursor"].as_str().unwrap().to_owned();
    for (query, code) in [
        (
            format!("sort=price&limit=5&cursor={prev}"),
            "cursor_mismatch",
        ),
        (
            format!("sort=-price&limit=5&year__gt=1&cursor={prev}"),
            "cursor_mismatch",
        ),
        (
            format!("sort=-price&limit=5&q=poems&cursor={prev}"),
            "cursor_mismatch",
        ),
        (
            format!("sort=-price&limit=5&cursor={}", &prev[..prev.len() - 2]),
            "invalid_cursor",
        ),
    ] {
        let (status, _, body) = cat.get_json(&format!("/books?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["issues"][0]["code"], json!(code), "{query}: {body}");
    }
    let (status, _, back) = cat
        .get_json(&format!("/books?sort=-price&limit=5&cursor={prev}"))
        .await;
    let (_, _, first) = cat.get_json("/books?sort=-price&limit=5").await;
    assert_eq!(status, 200);
    assert_eq!(back["data"], first["data"]);
    assert_eq!(back["meta"], first["meta"]);
}

/// Rows seeded for the count-strategy tests: above the default estimate
/// threshold (10,000), so `count=estimated` estimates.
pub const COUNT_ROWS: u32 = 12_000;

/// The `Link` header the catalog sends for these `links`.
fn link_header(links: &Value) -> String {
    ["self", "first", "prev", "next", "last"]
        .iter()
        .filter_map(|rel| {
            links
                .get(*rel)
                .and_then(Value::as_str)
                .map(|u| format!("<{u}>; rel=\"{rel}\""))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `Prefer: count=...` on offset listings of a catalog seeded with
/// [`COUNT_ROWS`] books, versions 2 and 3: whole bodies and the exact
/// `Preference-Applied`, `Vary`, `Link` and `X-Total-Count` values.
/// `estimate` is what `count=estimated` answers for the whole table (the
/// planner's estimate on PostgreSQL, the count capped at 10,001 on SQLite).
pub async fn count_strategies(cat: &Catalog, estimate: u64) {
    let books = seed::books(COUNT_ROWS);
    let poetry: Vec<&Book> = books.iter().filter(|b| b.genre == "poetry").collect();
    let all = COUNT_ROWS as u64;
    let p = poetry.len() as u64;
    assert!(p <= 10_000);
    let first_two = |rows: &[&Book]| json!([{"id": rows[0].id}, {"id": rows[1].id}]);
    let all_refs: Vec<&Book> = books.iter().collect();
    // (Prefer lines, query, Preference-Applied, total, total is an estimate, data)
    type Case<'a> = (
        &'a [&'a str],
        &'a str,
        Option<&'a str>,
        Option<u64>,
        bool,
        Value,
    );
    let cases: Vec<Case> = vec![
        (
            &[],
            "per_page=2&fields=id",
            None,
            Some(all),
            false,
            first_two(&all_refs),
        ),
        (
            &["count=exact"],
            "per_page=2&fields=id",
            Some("count=exact"),
            Some(all),
            false,
            first_two(&all_refs),
        ),
        (
            &["count=none"],
            "per_page=2&fields=id",
            Some("count=none"),
            None,
            false,
            first_two(&all_refs),
        ),
        (
            &["count=estimated"],
            "per_page=2&fields=id",
            Some("count=estimated"),
            Some(estimate),
            true,
            first_two(&all_refs),
        ),
        (
            &["count=estimated"],
            "genre=poetry&per_page=2&fields=id",
            Some("count=estimated"),
            Some(p),
            false,
            first_two(&poetry),
        ),
        (
            &["count=planned"],
            "per_page=2&fields=id",
            None,
            Some(all),
            false,
            first_two(&all_refs),
        ),
        (
            &["return=minimal", "respond-async, COUNT=\"none\"; x=1"],
            "per_page=2&fields=id",
            Some("count=none"),
            None,
            false,
            first_two(&all_refs),
        ),
        (
            &["count=bogus, count=none"],
            "per_page=2&fields=id",
            None,
            Some(all),
            false,
            first_two(&all_refs),
        ),
    ];
    for (prefer, query, applied, total, estimated, data) in cases {
        let path = format!("/books?{query}");
        let at = |page: u64| format!("/books?{query}&page={page}");
        let mut links = json!({"self": path, "first": at(1), "next": at(2)});
        let mut meta = json!({"page": 1, "per_page": 2});
        if let Some(t) = total {
            meta["total"] = json!(t);
            meta["total_pages"] = json!(t.div_ceil(2));
            if estimated {
                meta["total_is_estimate"] = json!(true);
            } else {
                links["last"] = json!(at(t.div_ceil(2)));
            }
        }
        for version in ["2", "3"] {
            let mut req = cat.get(&path).header("X-API-Version", version);
            for line in prefer {
                req = req.header("Prefer", *line);
            }
            let (status, headers, body) = json(req.send().await.unwrap()).await;
            let what = format!("v{version} {prefer:?} {query}");
            assert_eq!(status, 200, "{what}: {body}");
            assert_eq!(header(&headers, "preference-applied"), applied, "{what}");
            let vary = if prefer.is_empty() {
                "X-API-Version, Accept"
            } else {
                "Prefer, X-API-Version, Accept"
            };
            assert_eq!(header(&headers, "vary"), Some(vary), "{what}");
            assert_eq!(
                header(&headers, "link"),
                Some(link_header(&links).as_str()),
                "{what}"
            );
            if version == "3" {
                assert_eq!(
                    body,
                    json!({"data": data, "meta": meta, "links": links}),
                    "{what}"
                );
                assert_eq!(header(&headers, "x-total-count"), None, "{what}");
            } else {
                assert_eq!(body, data, "{what}");
                assert_eq!(
                    header(&headers, "x-total-count"),
                    total.map(|t| t.to_string()).as_deref(),
                    "{what}"
                );
            }
        }
    }
    // Without an exact total, the page after the last is not linked: the
    // listing reads one row more to know (6 rows, 3 a page: page 2 is the
    // last and full).
    for prefer in ["count=none", "count=estimated"] {
        for (page, next) in [(1, true), (2, false)] {
            let query = format!("id__lte=6&per_page=3&fields=id&page={page}");
            let res = cat
                .get(&format!("/books?{query}"))
                .header("Prefer", prefer)
                .send()
                .await
                .unwrap();
            let (status, headers, body) = json(res).await;
            assert_eq!(status, 200, "{prefer} {query}: {body}");
            let ids: Vec<u64> = (page * 3 - 2..=page * 3).collect();
            assert_eq!(
                body["data"],
                json!(ids.iter().map(|id| json!({"id": id})).collect::<Vec<_>>()),
                "{prefer} {query}"
            );
            let at = |n: u64| format!("/books?id__lte=6&per_page=3&fields=id&page={n}");
            let mut links = json!({"self": format!("/books?{query}"), "first": at(1)});
            if page > 1 {
                links["prev"] = json!(at(page - 1));
            }
            if next {
                links["next"] = json!(at(page + 1));
            }
            if prefer == "count=estimated" {
                // Under the threshold the estimate is the exact count.
                links["last"] = json!(at(2));
            }
            assert_eq!(body["links"], links, "{prefer} {query}");
            assert_eq!(
                header(&headers, "link"),
                Some(link_header(&links).as_str()),
                "{prefer} {query}"
            );
        }
    }
    // An estimate is never below what a page shows: the last page of the
    // table (rows 11,901 to 12,000) raises SQLite's capped count (10,001)
    // to 12,000, so total_pages is not below the page (it was 101).
    for version in ["2", "3"] {
        let (status, headers, body) = json(
            cat.get("/books?per_page=100&page=120&fields=id")
                .header("Prefer", "count=estimated")
                .header("X-API-Version", version)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 200, "v{version}: {body}");
        if version == "3" {
            assert_eq!(
                body["meta"],
                json!({"page": 120, "per_page": 100, "total": 12_000,
                       "total_pages": 120, "total_is_estimate": true})
            );
            assert_eq!(body["data"].as_array().map(Vec::len), Some(100));
        } else {
            assert_eq!(header(&headers, "x-total-count"), Some("12000"));
        }
    }
    // A page that is not full holds the last rows: the estimate becomes
    // what it shows (rows 11,999 and 12,000 on page 1,715 of 7). An empty
    // page past the end shows there are at most the rows before it
    // (12,100 before page 122 of 100): an estimate is not raised to them
    // (it was, to 12,100: more rows than exist).
    for (page, per_page, total, rows) in [
        (1715u64, 7u64, 12_000, 2),
        (122, 100, estimate.min(12_100), 0),
    ] {
        let query = format!("per_page={per_page}&page={page}&fields=id");
        let (status, _, body) = json(
            cat.get(&format!("/books?{query}"))
                .header("Prefer", "count=estimated")
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(
            body["meta"],
            json!({"page": page, "per_page": per_page, "total": total,
                   "total_pages": total.div_ceil(per_page), "total_is_estimate": true}),
            "{query}"
        );
        assert_eq!(body["data"].as_array().map(Vec::len), Some(rows), "{query}");
    }
    // A cursor listing has no total: the preference is not applied, and
    // the response does not vary by it.
    let (status, headers, body) = json(
        cat.get("/books?limit=2&fields=id")
            .header("Prefer", "count=none")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "preference-applied"), None);
    assert_eq!(header(&headers, "vary"), Some("X-API-Version, Accept"));
    assert_eq!(body["meta"].get("prev_cursor"), None, "{body}");

    // Version 2 sends `X-Total-Count` on every list, keyset pages included:
    // the number of matching books, counted as `Prefer` asks.
    for (prefer, total, applied, vary) in [
        (None, Some("6"), None, "X-API-Version, Accept"),
        (
            Some("count=none"),
            None,
            Some("count=none"),
            "Prefer, X-API-Version, Accept",
        ),
        (
            Some("count=exact"),
            Some("6"),
            Some("count=exact"),
            "Prefer, X-API-Version, Accept",
        ),
    ] {
        let mut req = cat
            .get("/books?id__lte=6&limit=2&fields=id")
            .header("X-API-Version", "2");
        if let Some(p) = prefer {
            req = req.header("Prefer", p);
        }
        let (status, headers, body) = json(req.send().await.unwrap()).await;
        assert_eq!(status, 200, "{prefer:?}: {body}");
        assert_eq!(body, json!([{"id": 1}, {"id": 2}]), "{prefer:?}");
        assert_eq!(header(&headers, "x-total-count"), total, "{prefer:?}");
        assert_eq!(
            header(&headers, "preference-applied"),
            applied,
            "{prefer:?}"
        );
        assert_eq!(header(&headers, "vary"), Some(vary), "{prefer:?}");
        let link = header(&headers, "link").unwrap_or_default();
        assert!(link.contains(r#"rel="next""#), "{prefer:?}: {link}");
    }

    // An empty page far past an estimated last page: `prev` is that last
    // page (which has rows), not the empty page before this one; no `last`.
    let (status, _, body) = json(
        cat.get("/books?per_page=5&page=100000&fields=id")
            .header("Prefer", "count=estimated")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["meta"]["total_pages"],
        json!(estimate.div_ceil(5)),
        "{body}"
    );
    assert_eq!(
        body["links"]["prev"],
        json!(format!(
            "/books?per_page=5&page={}&fields=id",
            estimate.div_ceil(5)
        )),
        "{body}"
    );
    assert_eq!(body["links"].get("last"), None, "{body}");
}

/// `_` and `utm_*` are accepted and ignored: not filters, absent from
/// every link and from the cursor's binding; `utm` and `x_` are still
/// unknown; they count toward the 1000-parameter limit.
pub async fn tolerated_parameters(cat: &Catalog) {
    let (status, headers, body) = cat
        .get_json("/books?_=1700000000&per_page=2&utm_source=news&fields=id&utm_campaign=a%7Cb")
        .await;
    assert_eq!(status, 200, "{body}");
    let links = json!({
        "self": "/books?per_page=2&fields=id",
        "first": "/books?per_page=2&fields=id&page=1",
        "next": "/books?per_page=2&fields=id&page=2",
        "last": format!("/books?per_page=2&fields=id&page={}", ROWS / 2),
    });
    assert_eq!(
        body,
        json!({
            "data": [{"id": 1}, {"id": 2}],
            "meta": {"page": 1, "per_page": 2, "total": ROWS, "total_pages": ROWS / 2},
            "links": links,
        })
    );
    assert_eq!(header(&headers, "link"), Some(link_header(&links).as_str()));

    // Cursor pages: the links drop them, and a cursor issued without them
    // continues with other values of them.
    let (status, _, first) = cat.get_json("/books?limit=2&fields=id&_=1").await;
    assert_eq!(status, 200);
    let next = first["meta"]["next_cursor"].as_str().unwrap();
    assert_eq!(
        first["links"],
        json!({"self": "/books?limit=2&fields=id", "next": format!("/books?limit=2&fields=id&cursor={next}")})
    );
    let (status, _, second) = cat
        .get_json(&format!(
            "/books?utm_medium=mail&limit=2&fields=id&_=2&_=3&cursor={next}"
        ))
        .await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["data"], json!([{"id": 3}, {"id": 4}]));
    let prev = second["meta"]["prev_cursor"].as_str().unwrap();
    assert_eq!(
        second["links"]["prev"],
        json!(format!("/books?limit=2&fields=id&cursor={prev}"))
    );

    for name in ["utm", "x_", "_x"] {
        let (status, _, body) = cat.get_json(&format!("/books?{name}=1")).await;
        assert_eq!(status, 400, "{name}");
        assert_eq!(
            body["issues"][0]["code"],
            json!("unknown_parameter"),
            "{name}: {body}"
        );
        assert_eq!(body["issues"][0]["name"], json!(name), "{name}: {body}");
    }

    let many = vec!["_=1"; 1001].join("&");
    let (status, _, body) = cat.get_json(&format!("/books?{many}")).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["detail"],
        json!("The query string has more than 1000 parameters.")
    );
    let (status, _, _) = cat
        .get_json(&format!("/books?{}", vec!["_=1"; 1000].join("&")))
        .await;
    assert_eq!(status, 200);
}

/// `iexact`, `icontains` and `istarts_with` fold both sides by Unicode
/// simple case folding (the catalog reads `title_folded` and
/// `author_folded`): `WISŁAWA` finds `Wisława` on SQLite, whose `LOWER`
/// folds ASCII only, as on PostgreSQL. Whole bodies.
pub async fn case_insensitive_operators_fold_unicode_case(cat: &Catalog) {
    let books = seed_books();
    let folded = |t: &str| problem_core::query::fold_case(t).into_owned();
    let expected = by(&books, |b| {
        folded(&b.author).starts_with("wisława") && folded(&b.title).contains("garden")
    });
    assert!(
        expected.len() > 4,
        "the seed has such books: {}",
        expected.len()
    );
    let query = "author__istarts_with=WIS%C5%81AWA&title__icontains=gARDEN";
    let (status, headers, body) = cat.get_json(&format!("/books?{query}&per_page=2")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    let total = expected.len();
    let last = total.div_ceil(2);
    assert_eq!(
        body,
        json!({
            "data": [
                serde_json::to_value(expected[0]).unwrap(),
                serde_json::to_value(expected[1]).unwrap(),
            ],
            "meta": {"page": 1, "per_page": 2, "total": total, "total_pages": last},
            "links": {
                "self": format!("/books?{query}&per_page=2"),
                "first": format!("/books?{query}&per_page=2&page=1"),
                "next": format!("/books?{query}&per_page=2&page=2"),
                "last": format!("/books?{query}&per_page=2&page={last}"),
            }
        })
    );
    // Every spelling of the case finds the same rows, the ones the seed
    // data says; `a` is not folded to `á`.
    for (query, keep) in [
        (
            "author__icontains=M%C3%81RQUEZ",
            Box::new(|b: &Book| folded(&b.author).contains("márquez"))
                as Box<dyn Fn(&Book) -> bool>,
        ),
        (
            "author__icontains=m%C3%A1rQuEz",
            Box::new(|b: &Book| folded(&b.author).contains("márquez")),
        ),
        ("author__icontains=MARQUEZ", Box::new(|_: &Book| false)),
        (
            "title__istarts_with=the%20SILENT",
            Box::new(|b: &Book| b.title.starts_with("The Silent")),
        ),
        ("title__istarts_with=silent", Box::new(|_: &Book| false)),
        ("author__istarts_with=%C5%81", Box::new(|_: &Book| false)),
        ("author__icontains=%25", Box::new(|_: &Book| false)),
    ] {
        let expected = by(&books, keep);
        let (got, total) = walk_offset(cat, query).await;
        assert_eq!(got, ids(&expected), "{query}");
        assert_eq!(total as usize, expected.len(), "{query}");
    }
    // Not allowed where the catalog does not list them.
    let (status, headers, body) = cat
        .get_json("/books?title__iexact=x&isbn__icontains=9")
        .await;
    assert_eq!(status, 400);
    assert_eq!(header(&headers, "content-type"), Some(PROBLEM_JSON));
    assert_eq!(
        body,
        json!({
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": "Request validation failed",
            "instance": "/books",
            "issues": [
                {"location": "query", "name": "title__iexact", "code": "operator_not_allowed",
                 "message": "operator `iexact` is not allowed on `title`",
                 "allowed": ["eq", "contains", "starts_with", "ends_with", "icontains", "istarts_with"]},
                {"location": "query", "name": "isbn__icontains", "code": "operator_not_allowed",
                 "message": "operator `icontains` is not allowed on `isbn`",
                 "allowed": ["eq", "in"]}
            ]
        })
    );
}

/// Issue 17: every keyset page after the first carries `prev`, also one
/// left empty because its rows were deleted after its cursor was issued:
/// that `prev` leads back to the page that ended with the cursor's row.
pub async fn emptied_cursor_pages_lead_back(cat: &Catalog) {
    let base = "/books?id__in=1,2,3,4,5&sort=id&fields=id&limit=2";
    let (_, _, first) = cat.get_json(base).await;
    assert_eq!(data_ids(&first), [1, 2]);
    let second_url = first["links"]["next"].as_str().unwrap().to_owned();
    let (_, _, second) = cat.get_json(&second_url).await;
    assert_eq!(data_ids(&second), [3, 4]);
    let third_url = second["links"]["next"].as_str().unwrap().to_owned();
    let deleted = cat
        .request(reqwest::Method::DELETE, "/books/5")
        .bearer_auth(super::ADMIN)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    let (status, headers, empty) = cat.get_json(&third_url).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(data_ids(&empty), Vec::<i64>::new());
    assert_eq!(empty["meta"]["next_cursor"], Value::Null, "{empty}");
    assert!(empty["links"].get("next").is_none(), "{empty}");
    let cursor = empty["meta"]["prev_cursor"]
        .as_str()
        .expect("an emptied page has prev");
    let prev = empty["links"]["prev"].as_str().unwrap().to_owned();
    assert!(prev.ends_with(&format!("cursor={cursor}")), "{prev}");
    assert!(
        header(&headers, "link")
            .unwrap()
            .contains(&format!("<{prev}>; rel=\"prev\"")),
        "{headers:?}"
    );
    // Back to the page that ended with the cursor's row, and on back to
    // the first.
    let (status, _, back) = cat.get_json(&prev).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(data_ids(&back), [3, 4]);
    let (_, _, start) = cat.get_json(back["links"]["prev"].as_str().unwrap()).await;
    assert_eq!(data_ids(&start), [1, 2]);
    assert!(start["links"].get("prev").is_none(), "{start}");
    // Its next leads to the (still empty) page after it.
    let (_, _, after) = cat.get_json(back["links"]["next"].as_str().unwrap()).await;
    assert_eq!(data_ids(&after), Vec::<i64>::new());
}
