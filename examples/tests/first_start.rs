//! Several catalog instances started at once on one empty database (a
//! deployment's replicas): every one prepares the database without error,
//! and the seed rows are written once. Without the preparation lock, two
//! `CREATE TABLE IF NOT EXISTS` race in PostgreSQL's catalog of types
//! (`duplicate key value violates unique constraint
//! "pg_type_typname_nsp_index"`), and two seedings insert the same ids.
//!
//! PostgreSQL comes from `TEST_POSTGRES_URL` (set by `.ci/run`); without it
//! that test is skipped, unless `REQUIRE_POSTGRES=1`, then it fails.

mod common;

use std::time::{Duration, Instant};

use examples::catalog::db::{Books, Db, PREPARE_LOCK};
use sea_query::Query;
use sqlx::{Connection, PgConnection};
use tokio::sync::Mutex;

/// Starts four instances on `url` at once, five times over an emptied
/// database (`reset`), and checks each prepared exactly `ROWS` books.
async fn four_at_once(url: &str, reset: impl AsyncFn()) {
    const ROWS: u32 = 30;
    for round in 0..5 {
        reset().await;
        let starts = (0..4).map(|_| async {
            let db = Db::connect(Some(url)).await?;
            db.prepare(ROWS).await?;
            Ok::<_, sqlx::Error>(db)
        });
        let dbs: Vec<Db> = futures_util::future::join_all(starts)
            .await
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.unwrap_or_else(|e| panic!("round {round}, start {i}: {e}")))
            .collect();
        for db in &dbs {
            let count = db
                .count(Query::select().from(Books::Table).to_owned())
                .await
                .unwrap();
            assert_eq!(count, i64::from(ROWS), "round {round}");
        }
    }
}

/// One test at a time owns the PostgreSQL `books` table.
static PG_LOCK: Mutex<()> = Mutex::const_new(());

#[tokio::test]
async fn four_first_starts_at_once_on_postgres() {
    let _guard = PG_LOCK.lock().await;
    let Some(url) = common::postgres_url() else {
        return;
    };
    four_at_once(&url, async || common::reset_postgres(&url).await).await;
}

#[tokio::test]
async fn four_first_starts_at_once_on_a_sqlite_file() {
    let db = common::SqliteFile::new("catalog-first-start");
    four_at_once(&db.url(), async || db.reset()).await;
}

/// An instance waits for the preparation lock however long another one
/// holds it (a long seeding): neither the catalog's 5 s `lock_timeout` nor
/// a `statement_timeout` of the URL (here 2 s) ends the wait and the start.
#[tokio::test]
async fn preparation_waits_past_the_lock_and_statement_timeouts() {
    let _guard = PG_LOCK.lock().await;
    let Some(url) = common::postgres_url() else {
        return;
    };
    common::reset_postgres(&url).await;
    let mut holder = PgConnection::connect(&url).await.unwrap();
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(PREPARE_LOCK)
        .execute(&mut holder)
        .await
        .unwrap();
    let timed = common::with_param(&url, "options=-c%20statement_timeout%3D2s");
    let start = Instant::now();
    let prepare = tokio::spawn(async move {
        let db = Db::connect(Some(&timed)).await?;
        db.prepare(20).await?;
        Ok::<_, sqlx::Error>(db)
    });
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert!(!prepare.is_finished(), "{:?}", prepare.await);
    sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(PREPARE_LOCK)
        .execute(&mut holder)
        .await
        .unwrap();
    let db = prepare.await.unwrap().unwrap();
    assert!(start.elapsed() >= Duration::from_secs(6));
    let count = db
        .count(Query::select().from(Books::Table).to_owned())
        .await
        .unwrap();
    assert_eq!(count, 20);
    holder.close().await.unwrap();
}
