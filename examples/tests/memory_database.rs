//! The catalog's default database, in-memory SQLite, outlives the pool's
//! connection to it. sqlx closes a connection whose query was abandoned
//! (a client that hung up mid-request) and the pool opens a replacement;
//! an in-memory database lives only while some connection to it is open,
//! so the replacement found an empty database, and every later request
//! was a 500 (`no such table: books`) until a restart.

mod common;

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

/// The same through HTTP, as RELIABILITY row 25 found it: clients that
/// send a list query and hang up within 10 ms, for 2 s, leave the catalog
/// answering `/books/1` and `/books` with 200 (after 503s while the
/// abandoned queries drain, never a 500).
#[tokio::test]
async fn clients_hanging_up_mid_query_leave_the_database_in_place() {
    use tokio::io::AsyncWriteExt;
    let cat = common::Catalog::start(&[("CATALOG_SEED_ROWS", "3000")]);
    let addr = cat.addr;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    let clients: Vec<_> = (0..10)
        .map(|i| {
            tokio::spawn(async move {
                let mut sent = 0u32;
                while std::time::Instant::now() < deadline {
                    let Ok(mut stream) = tokio::net::TcpStream::connect(addr).await else {
                        continue;
                    };
                    let request = format!(
                        "GET /books?q=a+e&sort=-title,price&per_page=100&page={} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                        1 + (sent + i) % 20
                    );
                    if stream.write_all(request.as_bytes()).await.is_ok() {
                        sent += 1;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                    // Dropped: the client hangs up before the answer.
                }
                sent
            })
        })
        .collect();
    let mut sent = 0;
    for client in clients {
        sent += client.await.unwrap();
    }
    assert!(sent >= 10, "the clients sent {sent} requests");
    // The abandoned queries still run (actix-web does not cancel a handler
    // whose client left), one at a time on the one in-memory connection:
    // until that backlog drains, a request may wait past the pool's acquire
    // timeout and get the 503. What must never come is the 500 of a lost
    // database. Bounded: 120 tries, 0.5 s apart.
    let mut answers = Vec::new();
    let (status, body) = loop {
        let (status, _, body) = cat.get_json("/books/1").await;
        answers.push(status);
        if status != 503 || answers.len() == 120 {
            break (status, body);
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    };
    assert_eq!(
        (status, &body["id"]),
        (200, &serde_json::json!(1)),
        "{body} after {answers:?}"
    );
    let (status, _, body) = cat.get_json("/books?per_page=1").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"]["total"], serde_json::json!(3000));
}
