//! Another process holding the catalog's database locked is an outage of
//! the database, answered as one: the 503 problem `The database is
//! unavailable` with `Retry-After: 5`, within a bounded time, and the next
//! request after the lock is released is served.
//!
//! - SQLite: a file locked by another process (`BEGIN EXCLUSIVE`) answers
//!   once SQLite's busy timeout has run out. Before, a read failed as a
//!   masked 500 (`database is locked`) and a write as a 500 or a 503, by
//!   which step timed out first.
//! - PostgreSQL: a table locked by another session (`LOCK TABLE ... IN
//!   ACCESS EXCLUSIVE MODE`) answers after the catalog's `lock_timeout`
//!   (5 s), or the `lock_timeout` or `statement_timeout` the `DATABASE_URL`
//!   sets. Before, every request waited for as long as the lock was held
//!   (a 75 s lock: no answer at all within a minute), and a statement
//!   cancelled by a `statement_timeout` was a 500. These tests need
//!   `TEST_POSTGRES_URL` (skipped without it, failed with
//!   `REQUIRE_POSTGRES=1` and no URL).

mod common;

use std::time::{Duration, Instant};

use common::{Catalog, EDITOR, PROBLEM_JSON, header, json};
use sqlx::postgres::PgConnectOptions;
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection, SqliteConnection};
use tokio::sync::Mutex;

/// One catalog at a time owns the PostgreSQL `books` table.
static PG_LOCK: Mutex<()> = Mutex::const_new(());

/// Sends a read (`GET /books/2`) and a write (`POST /books`) at once and
/// checks that both are the masked 503 with `Retry-After: 5`, each logged
/// once as the database being unavailable for `reason` (`SQLSTATE 55P03`).
/// Returns the slower one's time.
async fn both_are_unavailable(cat: &Catalog, reason: &str) -> Duration {
    let new_book = serde_json::json!({
        "isbn": "9780000000017", "title": "Locked", "author": "A", "year": 2000, "price": 1.0,
    });
    let start = Instant::now();
    let read = cat.get("/books/2").timeout(Duration::from_secs(30)).send();
    let write = cat
        .request(reqwest::Method::POST, "/books")
        .header("Authorization", format!("Bearer {EDITOR}"))
        .json(&new_book)
        .timeout(Duration::from_secs(30))
        .send();
    let (read, write) = tokio::join!(read, write);
    let took = start.elapsed();
    for (method, path, res) in [("GET", "/books/2", read), ("POST", "/books", write)] {
        let (status, headers, body) = json(res.unwrap()).await;
        assert_eq!(
            header(&headers, "content-type"),
            Some(PROBLEM_JSON),
            "{method}"
        );
        assert_eq!(header(&headers, "retry-after"), Some("5"), "{method}");
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
            "{method}"
        );
        let lines = cat.wait_for_log(&id);
        assert_eq!(lines.len(), 1, "{lines:#?}");
        assert!(
            lines[0].contains(&format!(
                "[catalog] 503 on {method} {path} (correlation id {id}): ServiceUnavailableException: The database is unavailable ({reason})"
            )),
            "{}",
            lines[0]
        );
    }
    took
}

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
    both_are_unavailable(&cat, "SQLite result code 5").await;
    holder.execute("COMMIT").await.unwrap();
    drop(holder);
    assert_eq!(cat.get("/books/2").send().await.unwrap().status(), 200);
}

/// Starts the catalog on PostgreSQL with the URL parameter `param` (if not
/// empty), locks `books` from another session, and returns how long the
/// two requests of [`both_are_unavailable`] took (for `reason`); the lock
/// is released and a request served afterwards.
async fn locked_postgres_table(param: &str, reason: &str) -> Option<Duration> {
    let url = common::postgres_url()?;
    common::reset_postgres(&url).await;
    let catalog_url = if param.is_empty() {
        url.clone()
    } else {
        common::with_param(&url, param)
    };
    let cat = Catalog::start(&[("DATABASE_URL", &catalog_url), ("CATALOG_SEED_ROWS", "20")]);
    assert_eq!(cat.get("/books/1").send().await.unwrap().status(), 200);

    let mut holder = PgConnection::connect(&url).await.unwrap();
    holder.execute("BEGIN").await.unwrap();
    holder
        .execute("LOCK TABLE books IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let took = both_are_unavailable(&cat, reason).await;
    holder.execute("COMMIT").await.unwrap();
    holder.close().await.unwrap();
    assert_eq!(cat.get("/books/2").send().await.unwrap().status(), 200);
    Some(took)
}

#[tokio::test]
async fn a_locked_postgres_table_is_a_503_after_the_lock_timeout() {
    let _guard = PG_LOCK.lock().await;
    if let Some(took) = locked_postgres_table("", "SQLSTATE 55P03").await {
        // The catalog's `lock_timeout` of 5 s, not the 30 s of the client.
        assert!(
            took >= Duration::from_millis(4500) && took < Duration::from_secs(10),
            "{took:?}"
        );
    }
}

#[tokio::test]
async fn a_lock_timeout_in_the_url_is_kept() {
    let _guard = PG_LOCK.lock().await;
    if let Some(took) =
        locked_postgres_table("options=-c%20lock_timeout%3D1s", "SQLSTATE 55P03").await
    {
        assert!(took < Duration::from_millis(4000), "{took:?}");
    }
}

#[tokio::test]
async fn a_statement_cancelled_by_statement_timeout_is_a_503() {
    let _guard = PG_LOCK.lock().await;
    // `57014` before the catalog's 5 s lock timeout runs out.
    if let Some(took) =
        locked_postgres_table("options=-c%20statement_timeout%3D1s", "SQLSTATE 57014").await
    {
        assert!(took < Duration::from_millis(4000), "{took:?}");
    }
}

/// The database closed to connections (`ALTER DATABASE ... ALLOW_CONNECTIONS
/// false`) and the catalog's connections ended: reconnecting fails with the
/// `FATAL` `55000`, the 503 (it was a 500). Served again once it is open.
#[tokio::test]
async fn a_database_closed_to_connections_is_a_503() {
    let _guard = PG_LOCK.lock().await;
    let Some(url) = common::postgres_url() else {
        return;
    };
    common::reset_postgres(&url).await;
    let cat = Catalog::start(&[("DATABASE_URL", &url), ("CATALOG_SEED_ROWS", "20")]);
    assert_eq!(cat.get("/books/1").send().await.unwrap().status(), 200);

    // The test's role owns its database; it works from `postgres`.
    let options: PgConnectOptions = url.parse().unwrap();
    let db = options.get_database().unwrap().to_owned();
    let mut admin = PgConnection::connect_with(&options.clone().database("postgres"))
        .await
        .unwrap();
    let reopen = Reopen {
        options: options.database("postgres"),
        db: db.clone(),
    };
    admin
        .execute(AssertSqlSafe(format!(
            r#"ALTER DATABASE "{db}" ALLOW_CONNECTIONS false"#
        )))
        .await
        .unwrap();
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(&db)
        .execute(&mut admin)
        .await
        .unwrap();
    both_are_unavailable(&cat, "SQLSTATE 55000").await;
    drop(reopen);
    admin.close().await.unwrap();
    assert_eq!(cat.get("/books/2").send().await.unwrap().status(), 200);
}

/// Opens the database to connections again, also when the test fails.
struct Reopen {
    options: PgConnectOptions,
    db: String,
}

impl Drop for Reopen {
    fn drop(&mut self) {
        let (options, db) = (self.options.clone(), self.db.clone());
        // Its own thread and runtime: `drop` cannot await.
        std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async {
                let mut admin = PgConnection::connect_with(&options).await.unwrap();
                admin
                    .execute(AssertSqlSafe(format!(
                        r#"ALTER DATABASE "{db}" ALLOW_CONNECTIONS true"#
                    )))
                    .await
                    .unwrap();
            });
        })
        .join()
        .unwrap();
    }
}
