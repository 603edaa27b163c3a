//! Another process holding the catalog's SQLite file locked is an outage of
//! the database, answered as one: the 503 problem `The database is
//! unavailable` with `Retry-After: 5`, once SQLite's busy timeout has run
//! out, and the next request after the lock is released is served. Before,
//! a read failed as a masked 500 (`database is locked`) and a write as a
//! 500 or a 503, by which step timed out first.

mod common;

use std::time::Duration;

use common::{Catalog, EDITOR, PROBLEM_JSON, header, json};
use sqlx::{Connection, Executor, SqliteConnection};

#[tokio::test]
async fn a_locked_sqlite_file_is_a_503() {
    let db = common::SqliteFile::new("catalog-locked");
    db.reset();
    let url = db.url();
    let cat = Catalog::start(&[("DATABASE_URL", &url), ("CATALOG_SEED_ROWS", "20")]);
    assert_eq!(cat.get("/books/1").send().await.unwrap().status(), 200);

    // A second process's exclusive lock: readers and writers both wait.
    let mut holder = SqliteConnection::connect(&url).await.unwrap();
    holder.execute("PRAGMA journal_mode = DELETE").await.ok();
    holder.execute("BEGIN EXCLUSIVE").await.unwrap();
    let new_book = serde_json::json!({
        "isbn": "9780000000017", "title": "Locked", "author": "A", "year": 2000, "price": 1.0,
    });
    for (what, req) in [
        ("read", cat.get("/books/2").timeout(Duration::from_secs(30))),
        (
            "write",
            cat.request(reqwest::Method::POST, "/books")
                .header("Authorization", format!("Bearer {EDITOR}"))
                .json(&new_book)
                .timeout(Duration::from_secs(30)),
        ),
    ] {
        let res = req.send().await.unwrap();
        let (status, headers, body) = json(res).await;
        assert_eq!(
            header(&headers, "content-type"),
            Some(PROBLEM_JSON),
            "{what}"
        );
        assert_eq!(header(&headers, "retry-after"), Some("5"), "{what}");
        let (method, path) = if what == "read" {
            ("GET", "/books/2")
        } else {
            ("POST", "/books")
        };
        // Masked, as every 5xx outside development: the detail is in the log.
        let id = body["correlationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert_eq!(
            (status, body),
            (
                503,
                serde_json::json!({
                    "type": "about:blank",
                    "title": "Service Unavailable",
                    "status": 503,
                    "instance": path,
                    "correlationId": id,
                })
            ),
            "{what}"
        );
        let lines = cat.wait_for_log(&id);
        assert_eq!(lines.len(), 1, "{lines:#?}");
        assert!(
            lines[0].contains(&format!(
                "[catalog] 503 on {method} {path} (correlation id {id}): ServiceUnavailableException: The database is unavailable"
            )),
            "{}",
            lines[0]
        );
    }
    holder.execute("COMMIT").await.unwrap();
    drop(holder);
    assert_eq!(cat.get("/books/2").send().await.unwrap().status(), 200);
}
