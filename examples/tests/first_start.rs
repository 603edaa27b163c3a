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

use examples::catalog::db::{Books, Db};
use sea_query::Query;

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

#[tokio::test]
async fn four_first_starts_at_once_on_postgres() {
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
