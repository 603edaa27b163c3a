//! New books get the same ids on SQLite and PostgreSQL: after an empty seed
//! the first book is id 1, and a table emptied and seeded again never hands
//! out a deleted book's id (SQLite's `AUTOINCREMENT`; on PostgreSQL the
//! sequence is moved past both the seed and every id it gave).
//!
//! PostgreSQL comes from `TEST_POSTGRES_URL` (set by `.ci/run`); without it
//! that test is skipped, unless `REQUIRE_POSTGRES=1`, then it fails.

mod common;

use examples::catalog::db::Db;
use examples::catalog::model::NewBook;

fn new_book(n: u32) -> NewBook {
    serde_json::from_value(serde_json::json!({
        "isbn": format!("978000000{n:04}"),
        "title": format!("Book {n}"),
        "author": "Author",
        "year": 2000,
        "price": 10.0,
    }))
    .unwrap()
}

/// Ids across restarts of the catalog's preparation on `url`, emptied by
/// `reset` first.
async fn ids(url: &str, reset: impl AsyncFn()) {
    reset().await;
    let db = Db::connect(Some(url)).await.unwrap();
    // An empty seed: the first books are 1, 2, 3.
    db.prepare(0).await.unwrap();
    let mut given = Vec::new();
    for n in 0..3 {
        given.push(db.insert(&new_book(n)).await.unwrap().id);
    }
    assert_eq!(given, [1, 2, 3]);
    for id in given {
        assert!(db.delete(id).await.unwrap());
    }
    drop(db);
    // Started again on the emptied table: it seeds one book (id 1), and the
    // next new book comes after every id ever given.
    let db = Db::connect(Some(url)).await.unwrap();
    db.prepare(1).await.unwrap();
    assert_eq!(db.insert(&new_book(3)).await.unwrap().id, 4);
    // Started again on a table that is not empty: no seed, ids go on.
    drop(db);
    let db = Db::connect(Some(url)).await.unwrap();
    db.prepare(1).await.unwrap();
    assert_eq!(db.insert(&new_book(4)).await.unwrap().id, 5);
}

#[tokio::test]
async fn ids_on_postgres() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    ids(&url, async || common::reset_postgres(&url).await).await;
}

#[tokio::test]
async fn ids_on_a_sqlite_file() {
    let db = common::SqliteFile::new("catalog-book-ids");
    ids(&db.url(), async || db.reset()).await;
}
