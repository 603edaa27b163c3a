//! `PUT /books/{id}/cover` with `If-Match` replaces only the cover the
//! precondition saw, in one statement: of two writers holding the same
//! entity tag, exactly one stores its cover (the other gets the 412). On
//! SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set (required
//! with `REQUIRE_POSTGRES=1`).

mod common;

use examples::catalog::Db;

async fn two_writers_one_tag(db: &Db) {
    db.prepare(3).await.unwrap();
    let png = b"\x89PNG\r\n\x1a\nfirst".to_vec();
    assert!(
        db.put_cover(1, "image/png", png.clone(), None)
            .await
            .unwrap()
    );
    // Both read the first cover; the first write wins, the second finds
    // another cover in place and stores nothing.
    let a = b"GIF89a-a".to_vec();
    let b = b"GIF89a-b".to_vec();
    assert!(
        db.put_cover(1, "image/gif", a.clone(), Some(&png))
            .await
            .unwrap()
    );
    assert!(!db.put_cover(1, "image/gif", b, Some(&png)).await.unwrap());
    assert_eq!(
        db.cover(1).await.unwrap(),
        Some(("image/gif".into(), a.clone()))
    );
    // Without a precondition the write replaces whatever is there.
    assert!(
        db.put_cover(1, "image/png", png.clone(), None)
            .await
            .unwrap()
    );
    assert_eq!(db.cover(1).await.unwrap(), Some(("image/png".into(), png)));
    // A book without a cover has nothing to swap.
    assert!(
        !db.put_cover(2, "image/gif", a, Some(b"none"))
            .await
            .unwrap()
    );
    assert_eq!(db.cover(2).await.unwrap(), None);
}

#[tokio::test]
async fn one_of_two_writers_with_the_same_tag_wins_on_sqlite() {
    let db = Db::connect(None).await.unwrap();
    two_writers_one_tag(&db).await;
}

#[tokio::test]
async fn one_of_two_writers_with_the_same_tag_wins_on_postgres() {
    let Ok(url) = std::env::var("TEST_POSTGRES_URL") else {
        assert!(
            std::env::var("REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "REQUIRE_POSTGRES=1 but TEST_POSTGRES_URL is not set"
        );
        eprintln!("TEST_POSTGRES_URL is not set: skipping");
        return;
    };
    common::reset_postgres(&url).await;
    let db = Db::connect(Some(&url)).await.unwrap();
    two_writers_one_tag(&db).await;
}
