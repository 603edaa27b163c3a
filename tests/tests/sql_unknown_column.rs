//! A query field whose column does not exist is an error on SQLite, never
//! a silently empty result: the workspace builds the bundled SQLite with
//! `SQLITE_DQS=0` (`.cargo/config.toml`), so the double-quoted identifier
//! sea-query writes for `customer_name` is "no such column", not the
//! string literal `'customer_name'`. The in-memory half (a missing member
//! is `ApplyError::MissingMember`, a logged 500) is in problem-core's
//! `issue15.rs`.
#![deny(warnings)]

use problem_core::CollectionQuery;
use problem_core::query::{QueryConfig, TypedQuery};
use sea_query::{Alias, Query, SqliteQueryBuilder};
use sea_query_sqlx::SqlxBinder;
use sqlx::sqlite::SqlitePoolOptions;
use sqlx::{Pool, Row, Sqlite};

/// The column is `customer`; the field (and so its column) says
/// `customer_name`.
#[derive(CollectionQuery)]
#[query(key = "id")]
#[allow(dead_code)]
struct OrderQuery {
    #[query(filter(eq), sort)]
    id: i64,
    #[query(filter(eq), sort)]
    customer_name: String,
}

async fn orders() -> Pool<Sqlite> {
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap();
    sqlx::query("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO orders (id, customer) VALUES (1, 'ada'), (2, 'customer_name')")
        .execute(&pool)
        .await
        .unwrap();
    pool
}

/// The error of running `query` against `orders`, as the database gives it.
async fn error_of(pool: &Pool<Sqlite>, query: &str) -> String {
    let q = TypedQuery::<OrderQuery>::from_query_str(query, &QueryConfig::default()).unwrap();
    let mut stmt = Query::select();
    stmt.column(Alias::new("id")).from(Alias::new("orders"));
    q.apply_to(&mut stmt);
    let (sql, values) = stmt.build_sqlx(SqliteQueryBuilder);
    match sqlx::query_with(sqlx::AssertSqlSafe(sql.clone()), values)
        .fetch_all(pool)
        .await
    {
        Ok(rows) => panic!(
            "{query}: {sql} gave {} rows instead of an error",
            rows.len()
        ),
        Err(e) => e.to_string(),
    }
}

#[actix_web::test]
async fn a_field_that_names_no_column_is_an_error_on_sqlite() {
    let pool = orders().await;
    let no_such_column = "error returned from database: (code: 1) no such column: \"customer_name\" \
                          - should this be a string literal in single-quotes?";
    // A filter: with double-quoted string literals on, `"customer_name" = ?`
    // compared the text 'customer_name' and matched row 2 or nothing.
    assert_eq!(error_of(&pool, "customer_name=ada").await, no_such_column);
    assert_eq!(
        error_of(&pool, "customer_name=customer_name").await,
        no_such_column
    );
    // A sort: `ORDER BY "customer_name"` was a constant, the rows unsorted.
    assert_eq!(error_of(&pool, "sort=customer_name").await, no_such_column);
    // The build flag itself, as SQLite reports it.
    let options: Vec<String> = sqlx::query("PRAGMA compile_options")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect();
    assert!(options.iter().any(|o| o == "DQS=0"), "{options:?}");
}
