//! `PUT /books/{id}/cover` with `If-Match` replaces only the cover the
//! precondition saw, in one statement: of two writers holding the same
//! entity tag, exactly one stores its cover (the other gets the 412). On
//! SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set (required
//! with `REQUIRE_POSTGRES=1`).

mod common;

use examples::catalog::{CoverWrite, Db, Replacing};

async fn two_writers_one_tag(db: &Db) {
    db.prepare(3).await.unwrap();
    let png = b"\x89PNG\r\n\x1a\nfirst".to_vec();
    assert_eq!(
        db.put_cover(1, "image/png", png.clone(), Replacing::Whatever)
            .await
            .unwrap(),
        CoverWrite::Created
    );
    // Both read the first cover; the first write wins, the second finds
    // another cover in place and stores nothing.
    let a = b"GIF89a-a".to_vec();
    let b = b"GIF89a-b".to_vec();
    assert_eq!(
        db.put_cover(1, "image/gif", a.clone(), Replacing::Exactly(&png))
            .await
            .unwrap(),
        CoverWrite::Replaced
    );
    assert_eq!(
        db.put_cover(1, "image/gif", b, Replacing::Exactly(&png))
            .await
            .unwrap(),
        CoverWrite::Changed
    );
    assert_eq!(
        db.cover(1).await.unwrap(),
        Some(("image/gif".into(), a.clone()))
    );
    // Without a precondition the write replaces whatever is there.
    assert_eq!(
        db.put_cover(1, "image/png", png.clone(), Replacing::Whatever)
            .await
            .unwrap(),
        CoverWrite::Replaced
    );
    assert_eq!(
        db.cover(1).await.unwrap(),
        Some(("image/png".into(), png.clone()))
    );
    // A book without a cover has nothing to swap.
    assert_eq!(
        db.put_cover(2, "image/gif", a.clone(), Replacing::Exactly(b"none"))
            .await
            .unwrap(),
        CoverWrite::Changed
    );
    assert_eq!(db.cover(2).await.unwrap(), None);
    // Only if absent: the first writer that saw no cover stores it, the
    // second finds one and stores nothing.
    assert_eq!(
        db.put_cover(2, "image/gif", a.clone(), Replacing::Nothing)
            .await
            .unwrap(),
        CoverWrite::Created
    );
    assert_eq!(
        db.put_cover(2, "image/png", png.clone(), Replacing::Nothing)
            .await
            .unwrap(),
        CoverWrite::Changed
    );
    assert_eq!(
        db.cover(2).await.unwrap(),
        Some(("image/gif".into(), a.clone()))
    );
    // A deleted book takes its cover with it, and gets no new one: a
    // cover upload that started before the delete stores nothing.
    assert!(db.delete(1).await.unwrap());
    assert_eq!(db.cover(1).await.unwrap(), None);
    for replacing in [
        Replacing::Whatever,
        Replacing::Exactly(&png),
        Replacing::Nothing,
    ] {
        assert_eq!(
            db.put_cover(1, "image/gif", a.clone(), replacing)
                .await
                .unwrap(),
            CoverWrite::NoBook
        );
    }
    assert_eq!(db.cover(1).await.unwrap(), None);
    assert_eq!(
        db.put_cover(99, "image/gif", a, Replacing::Whatever)
            .await
            .unwrap(),
        CoverWrite::NoBook
    );
}

#[tokio::test]
async fn one_of_two_writers_with_the_same_tag_wins_on_sqlite() {
    let db = Db::connect(None).await.unwrap();
    two_writers_one_tag(&db).await;
}

#[tokio::test]
async fn one_of_two_writers_with_the_same_tag_wins_on_postgres() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    common::reset_postgres(&url).await;
    let db = Db::connect(Some(&url)).await.unwrap();
    two_writers_one_tag(&db).await;
}
