//! The catalog's default database, in-memory SQLite, outlives the pool's
//! connection to it. sqlx closes a connection whose query was abandoned
//! (a client that hung up mid-request) and the pool opens a replacement;
//! an in-memory database lives only while some connection to it is open,
//! so the replacement found an empty database, and every later request
//! was a 500 (`no such table: books`) until a restart.

use examples::catalog::db::{Books, Db};
use sea_query::Query;

#[tokio::test]
async fn the_in_memory_database_outlives_the_pool_s_connection() {
    let db = Db::connect(None).await.unwrap();
    db.prepare(30).await.unwrap();
    let Db::Sqlite(pool, _) = &db else {
        panic!("Db::connect(None) is SQLite");
    };
    for round in 0..3 {
        // The pool's one connection is closed; the next query gets a new one.
        pool.acquire().await.unwrap().close().await.unwrap();
        let count = db
            .count(Query::select().from(Books::Table).to_owned())
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(count, 30, "round {round}");
    }
    // Two databases in one process stay apart.
    let other = Db::connect(None).await.unwrap();
    other.prepare(5).await.unwrap();
    let count = |db: &Db| {
        let db = db.clone();
        async move {
            db.count(Query::select().from(Books::Table).to_owned())
                .await
                .unwrap()
        }
    };
    assert_eq!((count(&db).await, count(&other).await), (30, 5));
}
