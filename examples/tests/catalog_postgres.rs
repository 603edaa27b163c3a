//! The catalog's collection-query tests against a real PostgreSQL server:
//! its URL comes from `TEST_POSTGRES_URL` (set by `.ci/run`); without it
//! these tests are skipped, unless `REQUIRE_POSTGRES=1`, then they fail.

mod common;

use common::{Catalog, hostile, lists};
use tokio::sync::Mutex;

/// One catalog process at a time owns the `books` table.
static DB_LOCK: Mutex<()> = Mutex::const_new(());

async fn postgres_catalog() -> Option<Catalog> {
    let Ok(url) = std::env::var("TEST_POSTGRES_URL") else {
        assert!(
            std::env::var("REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "REQUIRE_POSTGRES=1 but TEST_POSTGRES_URL is not set"
        );
        eprintln!("TEST_POSTGRES_URL is not set: skipping the PostgreSQL catalog tests");
        return None;
    };
    // Start from an empty schema so the catalog seeds exactly the test rows.
    let pool = sqlx::PgPool::connect(&url)
        .await
        .expect("PostgreSQL is reachable");
    sqlx::query("DROP TABLE IF EXISTS books, covers")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    Some(Catalog::start(&[("DATABASE_URL", url.as_str())]))
}

macro_rules! pg_test {
    ($name:ident) => {
        #[tokio::test]
        async fn $name() {
            let _guard = DB_LOCK.lock().await;
            if let Some(cat) = postgres_catalog().await {
                lists::$name(&cat).await;
            }
        }
    };
}

pg_test!(default_page_is_the_first_20_by_id);
pg_test!(page_and_per_page_give_offset_and_limit);
pg_test!(filter_and_sort_return_exactly_the_rows_sql_would);
pg_test!(every_operator_filters_like_the_seed_data_says);
pg_test!(search_ands_terms_and_ors_fields_case_insensitively);
pg_test!(cursor_walk_returns_every_matching_row_once_in_order);
pg_test!(sparse_fieldsets);
pg_test!(values_are_matched_literally);
pg_test!(bad_queries_are_400_with_every_issue);
pg_test!(cursors_are_bound_to_their_query);

macro_rules! pg_hostile_test {
    ($name:ident) => {
        #[tokio::test]
        async fn $name() {
            let _guard = DB_LOCK.lock().await;
            if let Some(cat) = postgres_catalog().await {
                hostile::$name(&cat).await;
            }
        }
    };
}

pg_hostile_test!(non_finite_numbers_are_400_and_nothing_is_stored);
pg_hostile_test!(nul_characters_are_400);
pg_hostile_test!(query_limits_refuse_oversized_queries);
pg_hostile_test!(search_folds_case_the_same_on_every_database);
