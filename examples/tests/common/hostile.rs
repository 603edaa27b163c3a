//! Hostile-input checks shared by the SQLite and PostgreSQL runs: what a
//! client sends never produces a 500, a stored value that cannot be read
//! back, or a database error.

#![allow(dead_code)]

use problem_core::query::fold_case;
use reqwest::Method;
use serde_json::{Value, json};

use super::lists::seed_books;
use super::{ADMIN, Catalog, PROBLEM_JSON, header, json};

pub fn problem(status: u16, detail: Option<&str>, instance: &str) -> Value {
    let mut p = json!({"type": "about:blank", "title": problem_core::status_title(status), "status": status, "instance": instance});
    if let Some(d) = detail {
        p["detail"] = json!(d);
    }
    p
}

/// The 400 `Request validation failed` document with these issues.
pub fn validation(instance: &str, issues: Value) -> Value {
    let mut p = problem(400, Some("Request validation failed"), instance);
    p["issues"] = issues;
    p
}

async fn total(cat: &Catalog) -> u64 {
    let (status, _, body) = cat.get_json("/books?per_page=1").await;
    assert_eq!(status, 200, "{body}");
    body["meta"]["total"].as_u64().unwrap()
}

async fn post(cat: &Catalog, content_type: &str, body: String) -> (u16, Value) {
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("Content-Type", content_type.to_owned())
        .body(body)
        .send()
        .await
        .unwrap();
    let (status, headers, body) = json(res).await;
    if status >= 400 {
        assert_eq!(header(&headers, "content-type"), Some(PROBLEM_JSON));
    }
    (status, body)
}

const FORM: &str = "application/x-www-form-urlencoded";
const JSON: &str = "application/json";

fn form(price: &str, rating: &str) -> String {
    format!(
        "isbn=9780000000017&title=Hostile&author=Tester&year=2001&price={price}&rating={rating}"
    )
}

fn json_book(price: &str) -> String {
    format!(
        r#"{{"isbn": "9780000000024", "title": "Hostile", "author": "Tester", "year": 2001, "price": {price}}}"#
    )
}

/// Row 1: `NaN`, `inf`, `Infinity` and `1e999` in a form or JSON body are a
/// 400 `invalid_value` on the member; nothing is stored.
pub async fn non_finite_numbers_are_400_and_nothing_is_stored(cat: &Catalog) {
    let before = total(cat).await;
    let issue = |name: &str, message: &str| {
        validation(
            "/books",
            json!([{"location": "body", "name": name, "code": "invalid_value", "message": message}]),
        )
    };
    for (price, rating, name, shown) in [
        ("NaN", "1", "/price", "NaN"),
        ("inf", "1", "/price", "inf"),
        ("-inf", "1", "/price", "-inf"),
        ("Infinity", "1", "/price", "inf"),
        ("1e999", "1", "/price", "inf"),
        ("5", "NaN", "/rating", "NaN"),
    ] {
        let (status, body) = post(cat, FORM, form(price, rating)).await;
        assert_eq!(
            (status, body),
            (
                400,
                issue(
                    name,
                    &format!("invalid value: floating point `{shown}`, expected a finite number")
                )
            ),
            "form price={price} rating={rating}"
        );
    }
    let (status, body) = post(cat, JSON, json_book("1e999")).await;
    assert_eq!(
        (status, body),
        (
            400,
            issue(
                "/price",
                "invalid value: a number out of range, expected a finite number"
            )
        )
    );
    for token in ["NaN", "Infinity", "-Infinity"] {
        let (status, body) = post(cat, JSON, json_book(token)).await;
        assert_eq!(
            (status, body),
            (
                400,
                issue(
                    "/price",
                    "invalid value: a non-finite number, expected a finite number"
                )
            ),
            "JSON price {token}"
        );
    }
    // A non-finite token in a document that is broken anyway is a syntax error.
    let (status, body) = post(cat, JSON, format!("{} x", json_book("NaN"))).await;
    assert_eq!(
        (status, body),
        (400, problem(400, Some("Malformed JSON body"), "/books"))
    );
    assert_eq!(total(cat).await, before, "nothing was stored");
}

/// Row 2: U+0000 in a query value (percent-encoded) or a body string is a
/// 400 `invalid_value` on that parameter or member.
pub async fn nul_characters_are_400(cat: &Catalog) {
    for (query, name) in [
        ("title__contains=a%00b", "title__contains"),
        ("q=%00", "q"),
        ("author=x%00", "author"),
        ("isbn__in=1,%00", "isbn__in"),
        ("sort=title%00", "sort"),
        // The version's query parameter too (it was the invalid-version
        // problem, the NUL echoed in its detail), repeated or not.
        ("api-version=%00", "api-version"),
        ("api-version=3&api-version=3%00", "api-version"),
    ] {
        let (status, _, body) = cat.get_json(&format!("/books?{query}")).await;
        assert_eq!(
            (status, body),
            (
                400,
                validation(
                    "/books",
                    json!([{"location": "query", "name": name, "code": "invalid_value",
                            "message": format!("`{name}` must not contain NUL characters (U+0000)"),
                            "expected": "text without NUL characters"}])
                )
            ),
            "{query}"
        );
    }
    // Any query parameter on any route, one that never reads its query
    // included (a book, the version-neutral health check), before routing.
    for path in ["/books/7", "/health"] {
        let (status, _, body) = cat.get_json(&format!("{path}?x=a%00")).await;
        assert_eq!(
            (status, body),
            (
                400,
                validation(
                    path,
                    json!([{"location": "query", "name": "x", "code": "invalid_value",
                            "message": "`x` must not contain NUL characters (U+0000)",
                            "expected": "text without NUL characters"}])
                )
            ),
            "{path}"
        );
    }
    // A path parameter, before the handler looks at it.
    for (path, name) in [("/books/7%00", "id"), ("/demo/errors/a%00b", "kind")] {
        let (status, _, body) = cat.get_json(path).await;
        assert_eq!(
            (status, body),
            (
                400,
                validation(
                    path,
                    json!([{"location": "path", "name": name, "code": "invalid_value",
                            "message": format!("`{name}` must not contain NUL characters (U+0000)"),
                            "expected": "text without NUL characters"}])
                )
            ),
            "{path}"
        );
    }
    let body = r#"{"isbn": "9780000000031", "title": "a\u0000b", "author": "Tester", "year": 2001, "price": 1}"#;
    let (status, body) = post(cat, JSON, body.to_owned()).await;
    assert_eq!(
        (status, body),
        (
            400,
            validation(
                "/books",
                json!([{"location": "body", "name": "/title", "code": "invalid_value",
                        "message": "invalid value: a string with a NUL character, expected a string without NUL characters (U+0000)"}])
            )
        )
    );
    let before = total(cat).await;
    let (status, body) = post(cat, FORM, form("1", "1").replace("Tester", "Te%00ster")).await;
    assert_eq!(
        (status, body),
        (
            400,
            validation(
                "/books",
                json!([{"location": "body", "name": "/author", "code": "invalid_value",
                        "message": "invalid value: a string with a NUL character, expected a string without NUL characters (U+0000)"}])
            )
        )
    );
    assert_eq!(total(cat).await, before, "nothing was stored");
    // A member or field whose own name holds U+0000: the issue names it.
    let nul_name = |name: &str| {
        validation(
            "/books",
            json!([{"location": "body", "name": name, "code": "invalid_value",
                    "message": "invalid value: a string with a NUL character, expected a string without NUL characters (U+0000)"}]),
        )
    };
    let body = r#"{"isbn": "9780000000031", "title": "ab", "x\u0000y": 1, "author": "Tester", "year": 2001, "price": 1}"#;
    let (status, body) = post(cat, JSON, body.to_owned()).await;
    assert_eq!((status, body), (400, nul_name("/x\u{0}y")));
    let (status, body) = post(cat, FORM, format!("{}&x%00y=1", form("1", "1"))).await;
    assert_eq!((status, body), (400, nul_name("/x\u{0}y")));
    // A member the book ignores is checked like the others.
    let body = r#"{"isbn": "9780000000031", "title": "ab", "extra": ["x\u0000"], "author": "Tester", "year": 2001, "price": 1}"#;
    let (status, body) = post(cat, JSON, body.to_owned()).await;
    assert_eq!((status, body), (400, nul_name("/extra/0")));
    assert_eq!(total(cat).await, before, "nothing was stored");
}

/// Dates are RFC 3339's: four-digit years, no sign, in a body and in a
/// filter alike (`-4714-11-24` was stored on SQLite and a 500 on
/// PostgreSQL, and SQLite compared negative years as text). A `-0.0` price
/// is stored as `0.0` on both (PostgreSQL kept the sign, SQLite did not).
pub async fn dates_and_signed_zeros_are_the_same_on_every_database(cat: &Catalog) {
    let before = total(cat).await;
    let expected = |shown: &str| {
        format!("invalid value: string \"{shown}\", expected an RFC 3339 full-date (YYYY-MM-DD)")
    };
    for date in [
        "-4714-11-24",
        "-0001-01-01",
        "+2001-01-01",
        "10000-01-01",
        "2001-1-01",
    ] {
        // The same refusal from a JSON body and from a form.
        let json_body = json_book("1").replace('}', &format!(r#", "published_at": "{date}"}}"#));
        let form_body = format!(
            "{}&published_at={}",
            form("1", "1"),
            date.replace('+', "%2B")
        );
        for (content_type, body) in [(JSON, json_body), (FORM, form_body)] {
            let (status, body) = post(cat, content_type, body).await;
            assert_eq!(
                (status, body),
                (
                    400,
                    validation(
                        "/books",
                        json!([{"location": "body", "name": "/published_at", "code": "invalid_value",
                                "message": expected(date)}])
                    )
                ),
                "{content_type} {date}"
            );
        }
        for op in ["", "__gt", "__lte"] {
            let name = format!("published_at{op}");
            let query = format!("/books?{name}={}", date.replace('+', "%2B"));
            let (status, _, body) = cat.get_json(&query).await;
            assert_eq!(
                (status, body),
                (
                    400,
                    validation(
                        "/books",
                        json!([{"location": "query", "name": name, "code": "invalid_value",
                                "message": format!("`{date}` is not a valid RFC 3339 date"),
                                "expected": "RFC 3339 date"}])
                    )
                ),
                "{query}"
            );
        }
    }
    assert_eq!(total(cat).await, before, "nothing was stored");
    let body = r#"{"isbn": "9780000000048", "title": "Zero", "author": "Tester", "year": 2001, "price": -0.0, "rating": -0.0, "published_at": "0000-01-01"}"#;
    let (status, created) = post(cat, JSON, body.to_owned()).await;
    assert_eq!(status, 201, "{created}");
    let (status, _, read) = cat.get_json(&format!("/books/{}", created["id"])).await;
    assert_eq!(status, 200);
    for book in [&created, &read] {
        for member in ["price", "rating"] {
            let v = book[member].as_f64().unwrap();
            assert!(v == 0.0 && v.is_sign_positive(), "{member}: {book}");
        }
        assert_eq!(book["published_at"], json!("0000-01-01"));
    }
}

fn too_long(name: &str, what: &str) -> Value {
    validation(
        "/books",
        json!([{"location": "query", "name": name, "code": "too_long",
                "message": format!("{what} of `{name}` is longer than 256 characters"), "max": 256}]),
    )
}

/// Rows 3 and 4: the query limits (64 filters, 256 characters per value,
/// list item and search term) refuse the attacks; the largest requests they
/// allow are answered by the database without an error.
pub async fn query_limits_refuse_oversized_queries(cat: &Catalog) {
    let long = "a".repeat(16_000);
    let (status, _, body) = cat.get_json(&format!("/books?q={long}")).await;
    assert_eq!((status, body), (400, too_long("q", "a term")));
    let (status, _, body) = cat
        .get_json(&format!("/books?title__contains={}", "a".repeat(25_000)))
        .await;
    assert_eq!(
        (status, body),
        (400, too_long("title__contains", "the value"))
    );
    let (status, _, body) = cat
        .get_json(&format!("/books?isbn__in=1,{}", "9".repeat(257)))
        .await;
    assert_eq!((status, body), (400, too_long("isbn__in", "an entry")));
    // 257 characters of two bytes each: characters are counted, not bytes.
    let (status, _, body) = cat
        .get_json(&format!("/books?title={}", "%C3%A9".repeat(257)))
        .await;
    assert_eq!((status, body), (400, too_long("title", "the value")));
    let many = vec!["title__contains=a"; 998].join("&");
    let (status, _, body) = cat.get_json(&format!("/books?{many}")).await;
    assert_eq!(
        (status, body),
        (
            400,
            validation(
                "/books",
                json!([{"location": "query", "name": "title__contains", "code": "too_many_filters",
                        "message": "at most 64 filter conditions are allowed", "max": 64}])
            )
        )
    );

    // The largest requests the limits allow (within the 64 KiB a URI may
    // have): answered, never a database error.
    let value = "a%25_".repeat(64);
    let mut worst: Vec<String> = (0..32)
        .map(|_| format!("title__contains={value}"))
        .collect();
    worst.extend((0..31).map(|_| {
        format!(
            "author__starts_with={}{}",
            "%C3%A9".repeat(64),
            "b".repeat(192)
        )
    }));
    let list = (0..100)
        .map(|i| format!("{i:0>100}"))
        .collect::<Vec<_>>()
        .join(",");
    worst.push(format!("isbn__in={list}"));
    let terms = (0..20)
        .map(|_| "Ab".repeat(128))
        .collect::<Vec<_>>()
        .join("+");
    worst.push(format!("q={terms}"));
    let query = worst.join("&");
    assert!(query.len() < 65_000, "{}", query.len());
    let (status, _, body) = cat.get_json(&format!("/books?{query}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"], json!([]));
    let (status, _, body) = cat.get_json(&format!("/books?{query}&limit=5")).await;
    assert_eq!(status, 200, "{body}");
    let terms = (0..20)
        .map(|i| format!("{}{i}", "x".repeat(254)))
        .collect::<Vec<_>>()
        .join("+");
    let (status, _, body) = cat
        .get_json(&format!("/books?q={terms}&sort=-price,title"))
        .await;
    assert_eq!((status, &body["data"]), (200, &json!([])), "{body}");
}

fn folded_matches(term: &str) -> Vec<i64> {
    let term = fold_case(term).into_owned();
    seed_books()
        .iter()
        .filter(|b| {
            [Some(&b.title), Some(&b.author), b.subtitle.as_ref()]
                .into_iter()
                .flatten()
                .any(|t| fold_case(t).contains(&term))
        })
        .map(|b| b.id)
        .collect()
}

/// Row 8: search folds case by Unicode simple case folding on every
/// database: `MÁRQUEZ`, `márquez` and `MárQuEz` find the same rows, the
/// rows the seed data says.
pub async fn search_folds_case_the_same_on_every_database(cat: &Catalog) {
    let expected = folded_matches("márquez");
    assert!(
        expected.len() > 10,
        "the seed has Márquez books: {expected:?}"
    );
    for q in ["M%C3%81RQUEZ", "m%C3%A1rquez", "M%C3%A1rQuEz"] {
        let (ids, total) = super::lists::walk_offset(cat, &format!("q={q}")).await;
        assert_eq!(ids, expected, "q={q}");
        assert_eq!(total, expected.len() as u64);
    }
    // Not folded to ASCII: `a` does not match `á`.
    let (ids, _) = super::lists::walk_offset(cat, "q=MARQUEZ").await;
    assert_eq!(ids, folded_matches("marquez"));
}

/// U+FFFD, U+FFFE and U+FFFF are three characters on every database: the
/// case-insensitive operators and search find each only where it is.
/// (SQLite's `LIKE` reads U+FFFE and U+FFFF as U+FFFD: `LIKE` alone found
/// all three there, and only the one on PostgreSQL.) A query value that is
/// not UTF-8 (`%FF`) is decoded to U+FFFD.
pub async fn noncharacters_match_only_themselves_on_every_database(cat: &Catalog) {
    let mut ids = Vec::new();
    for (n, text) in ["\u{FFFD}", "\u{FFFE}", "x\u{FFFF}y"]
        .into_iter()
        .enumerate()
    {
        let body = json!({"isbn": format!("979000000010{n}"), "title": text, "author": text,
                          "year": 2001, "price": 1});
        let (status, created) = post(cat, JSON, body.to_string()).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_i64().unwrap());
    }
    let first = ids[0];
    for (encoded, expected) in [
        ("%EF%BF%BD", vec![ids[0]]),
        ("%FF", vec![ids[0]]),
        ("%EF%BF%BE", vec![ids[1]]),
        ("%EF%BF%BF", vec![ids[2]]),
    ] {
        for query in [
            format!("title__icontains={encoded}"),
            format!("author__icontains={encoded}"),
            format!("q={encoded}"),
            format!("search={encoded}&search_fields=author"),
        ] {
            let (status, _, body) = cat
                .get_json(&format!("/books?{query}&id__gte={first}&fields=id"))
                .await;
            let found: Vec<i64> = body["data"]
                .as_array()
                .unwrap_or_else(|| panic!("{query}: {status} {body}"))
                .iter()
                .map(|b| b["id"].as_i64().unwrap())
                .collect();
            assert_eq!((status, found), (200, expected.clone()), "{query}");
        }
    }
    let (status, _, body) = cat
        .get_json(&format!(
            "/books?title__istarts_with=%EF%BF%BE&id__gte={first}&fields=id"
        ))
        .await;
    assert_eq!(
        (status, &body["data"]),
        (200, &json!([{"id": ids[1]}])),
        "{body}"
    );
    let (status, _, body) = cat
        .get_json(&format!(
            "/books?author__istarts_with=%EF%BF%BF&id__gte={first}&fields=id"
        ))
        .await;
    assert_eq!((status, &body["data"]), (200, &json!([])), "{body}");
}
