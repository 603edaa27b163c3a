//! Property: keyset pages in SQL, forward and backward, on SQLite and on
//! PostgreSQL (when `TEST_POSTGRES_URL` is set; required with
//! `REQUIRE_POSTGRES=1`). For random rows (duplicates, nulls in nullable
//! sort fields) and random sorts (1 to 3 fields, mixed directions, the key
//! `id` appended as tie-breaker):
//!
//! - walking forward with `next_cursor` gives exactly the pages (rows and
//!   cursors, token for token) the in-memory walk gives;
//! - walking backward from the last page with `prev_cursor` visits the same
//!   pages, page for page, in the same order; the first page has no
//!   previous cursor, every later page has one;
//! - the next cursor of a page reached backward leads to the page after it;
//! - with the rows after a page's last row removed, its next cursor gives
//!   an empty page whose previous cursor gives that page again (and the
//!   same before a page's first row with its previous cursor).
//!
//! Each case uses its own table (named after the process and the case), so
//! runs beside the catalog tests on a shared PostgreSQL do not interfere.

mod common;

use problem_core::CollectionQuery;
use problem_core::query::{CursorPage, QueryConfig, TypedQuery};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sea_query::{Alias, PostgresQueryBuilder, Query, SelectStatement, SqliteQueryBuilder};
use sea_query_sqlx::SqlxBinder;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, sqlx::FromRow, CollectionQuery)]
#[query(key = "id")]
struct Item {
    #[query(sort)]
    id: i64,
    #[query(sort)]
    a: Option<i32>,
    #[query(sort)]
    b: String,
    #[query(sort)]
    c: Option<String>,
}

enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl Pool {
    async fn execute(&self, sql: &str) {
        match self {
            Pool::Sqlite(p) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(p)
                .await
                .map(|_| ()),
            Pool::Postgres(p) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(p)
                .await
                .map(|_| ()),
        }
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    async fn fetch(&self, select: &SelectStatement) -> Vec<Item> {
        match self {
            Pool::Sqlite(p) => {
                let (sql, values) = select.build_sqlx(SqliteQueryBuilder);
                sqlx::query_as_with::<_, Item, _>(sqlx::AssertSqlSafe(sql), values)
                    .fetch_all(p)
                    .await
            }
            Pool::Postgres(p) => {
                let (sql, values) = select.build_sqlx(PostgresQueryBuilder);
                sqlx::query_as_with::<_, Item, _>(sqlx::AssertSqlSafe(sql), values)
                    .fetch_all(p)
                    .await
            }
        }
        .unwrap()
    }

    async fn insert(&self, table: &str, items: &[Item]) {
        let postgres = matches!(self, Pool::Postgres(_));
        let collate = if postgres { " COLLATE \"C\"" } else { "" };
        self.execute(&format!(
            "CREATE TABLE {table} (id BIGINT PRIMARY KEY, a INTEGER NULL, b TEXT{collate} NOT NULL, c TEXT{collate} NULL)"
        ))
        .await;
        if items.is_empty() {
            return;
        }
        let mut insert = Query::insert()
            .into_table(Alias::new(table))
            .columns(["id", "a", "b", "c"].map(Alias::new))
            .to_owned();
        for i in items {
            insert
                .values([
                    i.id.into(),
                    i.a.into(),
                    i.b.clone().into(),
                    i.c.clone().into(),
                ])
                .unwrap();
        }
        match self {
            Pool::Sqlite(p) => {
                let (sql, values) = insert.build_sqlx(SqliteQueryBuilder);
                sqlx::query_with(sqlx::AssertSqlSafe(sql), values)
                    .execute(p)
                    .await
                    .unwrap();
            }
            Pool::Postgres(p) => {
                let (sql, values) = insert.build_sqlx(PostgresQueryBuilder);
                sqlx::query_with(sqlx::AssertSqlSafe(sql), values)
                    .execute(p)
                    .await
                    .unwrap();
            }
        }
    }
}

fn config() -> QueryConfig {
    QueryConfig::default()
        .cursor_keys([b"0123456789abcdef0123456789abcdef".to_vec()])
        .unwrap()
}

fn parse(query: &str) -> TypedQuery<Item> {
    TypedQuery::<Item>::from_query_str(query, &config())
        .unwrap_or_else(|e| panic!("{query}: {e:?}"))
}

async fn sql_page(pool: &Pool, table: &str, query: &str) -> CursorPage<Item> {
    let q = parse(query);
    let mut select = Query::select()
        .columns(["id", "a", "b", "c"].map(Alias::new))
        .from(Alias::new(table))
        .to_owned();
    q.apply_cursor_to(&mut select);
    q.cursor_page(pool.fetch(&select).await).unwrap()
}

/// A page as compared: ids, next and previous cursors.
type Seen = (Vec<i64>, Option<String>, Option<String>);

fn seen_sql(p: &CursorPage<Item>) -> Seen {
    (
        p.data.iter().map(|i| i.id).collect(),
        p.meta.next_cursor.clone(),
        p.meta.prev_cursor.clone(),
    )
}

fn seen_memory(p: &CursorPage<serde_json::Value>) -> Seen {
    (
        p.data.iter().map(|i| i["id"].as_i64().unwrap()).collect(),
        p.meta.next_cursor.clone(),
        p.meta.prev_cursor.clone(),
    )
}

async fn check(pool: &Pool, table: &str, items: &[Item], sorts: &[(String, u64)]) {
    pool.insert(table, items).await;
    for (sort, limit) in sorts {
        let base = format!("sort={sort}&limit={limit}");
        let mut forward: Vec<Seen> = Vec::new();
        let mut query = base.clone();
        loop {
            let sql = seen_sql(&sql_page(pool, table, &query).await);
            let memory = seen_memory(&parse(&query).cursor_page_in_memory(items).unwrap());
            assert_eq!(sql, memory, "{query}: SQL and memory differ");
            assert_eq!(sql.2.is_some(), !forward.is_empty(), "{query}: prev cursor");
            let next = sql.1.clone();
            forward.push(sql);
            match next {
                Some(c) => query = format!("{base}&cursor={c}"),
                None => break,
            }
            assert!(forward.len() <= items.len() + 1, "{base}: bounded walk");
        }
        let walked: Vec<i64> = forward.iter().flat_map(|p| p.0.iter().copied()).collect();
        assert_eq!(
            walked,
            expected_order(items, sort),
            "{base}: every row once, in order"
        );

        let mut backward: Vec<Vec<i64>> = vec![forward.last().unwrap().0.clone()];
        let mut prev = forward.last().unwrap().2.clone();
        while let Some(c) = prev {
            let query = format!("{base}&cursor={c}");
            let sql = seen_sql(&sql_page(pool, table, &query).await);
            let memory = seen_memory(&parse(&query).cursor_page_in_memory(items).unwrap());
            assert_eq!(sql, memory, "{query}: SQL and memory differ backward");
            let at = forward.len() - 1 - backward.len();
            assert_eq!(sql.2.is_some(), at > 0, "{query}: prev cursor backward");
            let next = sql
                .1
                .clone()
                .expect("a page reached backward has a next page");
            let after = sql_page(pool, table, &format!("{base}&cursor={next}")).await;
            assert_eq!(
                seen_sql(&after).0,
                forward[at + 1].0,
                "{query}: next of a backward page"
            );
            prev = sql.2.clone();
            backward.push(sql.0);
            assert!(backward.len() <= forward.len(), "{base}: bounded walk back");
        }
        backward.reverse();
        assert_eq!(
            backward,
            forward.iter().map(|p| p.0.clone()).collect::<Vec<_>>(),
            "{base}: backward walk"
        );
        emptied_pages_lead_back(pool, table, items, &base, sort, &forward).await;
    }
    pool.execute(&format!("DROP TABLE {table}")).await;
}

/// Rows removed since a cursor was issued: the page after a next cursor
/// (every row after the cursor's removed) and the page before a previous
/// cursor (every row before it removed) are empty, and their cursors lead
/// back to the page that ended or began with the cursor's row, the same
/// in SQL as in memory.
async fn emptied_pages_lead_back(
    pool: &Pool,
    table: &str,
    items: &[Item],
    base: &str,
    sort: &str,
    forward: &[Seen],
) {
    let order = expected_order(items, sort);
    let position = |id: i64| order.iter().position(|&o| o == id).unwrap();
    let j = forward.len() / 2;
    let page = &forward[j];
    let cuts = [
        // Every row after page j removed: its next cursor meets nothing.
        (page.0.last().map(|&id| position(id)), page.1.clone(), true),
        // Every row before page j removed: its prev cursor meets nothing.
        (
            page.0.first().map(|&id| position(id)),
            page.2.clone(),
            false,
        ),
    ];
    for (n, (at, cursor, forward_cut)) in cuts.into_iter().enumerate() {
        let (Some(at), Some(cursor)) = (at, cursor) else {
            continue;
        };
        let kept: Vec<Item> = items
            .iter()
            .filter(|i| {
                let p = position(i.id);
                if forward_cut { p <= at } else { p >= at }
            })
            .cloned()
            .collect();
        let cut = format!("{table}_cut{n}");
        pool.insert(&cut, &kept).await;
        let query = format!("{base}&cursor={cursor}");
        let empty = seen_sql(&sql_page(pool, &cut, &query).await);
        let memory = seen_memory(&parse(&query).cursor_page_in_memory(&kept).unwrap());
        assert_eq!(
            empty, memory,
            "{query}: SQL and memory differ on an emptied page"
        );
        assert!(empty.0.is_empty(), "{query}: emptied page");
        let back = if forward_cut {
            assert_eq!(empty.1, None, "{query}: no next after the last row");
            empty
                .2
                .clone()
                .expect("an emptied page after a cursor leads back")
        } else {
            assert_eq!(empty.2, None, "{query}: no prev before the first row");
            empty
                .1
                .clone()
                .expect("an emptied page before a cursor leads on")
        };
        let query = format!("{base}&cursor={back}");
        let again = seen_sql(&sql_page(pool, &cut, &query).await);
        let memory = seen_memory(&parse(&query).cursor_page_in_memory(&kept).unwrap());
        assert_eq!(
            again, memory,
            "{query}: SQL and memory differ back from an emptied page"
        );
        assert_eq!(
            again.0, page.0,
            "{query}: the page of the cursor's row again"
        );
        pool.execute(&format!("DROP TABLE {cut}")).await;
    }
}

/// The ids of `items` in the order `sort` gives, written out here rather
/// than taken from the crate: nulls first ascending and last descending,
/// text by code point (the tables use `COLLATE "C"`), the key `id`
/// ascending as the last tie-breaker.
fn expected_order(items: &[Item], sort: &str) -> Vec<i64> {
    use std::cmp::Ordering;
    let mut sorted: Vec<&Item> = items.iter().collect();
    sorted.sort_by(|x, y| {
        for entry in sort.split(',').chain(["id"]) {
            let (desc, field) = match entry.strip_prefix('-') {
                Some(field) => (true, field),
                None => (false, entry),
            };
            let order = match field {
                "id" => x.id.cmp(&y.id),
                "a" => x.a.cmp(&y.a),
                "b" => x.b.cmp(&y.b),
                "c" => x.c.cmp(&y.c),
                other => panic!("no field {other}"),
            };
            let order = if desc { order.reverse() } else { order };
            if order != Ordering::Equal {
                return order;
            }
        }
        Ordering::Equal
    });
    sorted.into_iter().map(|i| i.id).collect()
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    proptest::collection::vec(
        (
            proptest::option::of(prop_oneof![Just(-1), Just(0), Just(7)]),
            prop_oneof![Just("x"), Just("y"), Just("Ω"), Just("")],
            proptest::option::of(prop_oneof![Just("p"), Just("q"), Just("é")]),
        ),
        0..25,
    )
    .prop_map(|v| {
        v.into_iter()
            .zip(0i64..)
            .map(|((a, b, c), i)| Item {
                id: i * 7 % 29,
                a,
                b: b.to_owned(),
                c: c.map(str::to_owned),
            })
            .collect()
    })
}

fn sorts() -> impl Strategy<Value = Vec<(String, u64)>> {
    let one = proptest::sample::subsequence(vec!["a", "b", "c", "id"], 1..=3)
        .prop_shuffle()
        .prop_flat_map(|fields| {
            let n = fields.len();
            (
                Just(fields),
                proptest::collection::vec(any::<bool>(), n..=n),
                1u64..6,
            )
        })
        .prop_map(|(fields, desc, limit)| {
            let sort: Vec<String> = fields
                .into_iter()
                .zip(desc)
                .map(|(f, d)| format!("{}{f}", if d { "-" } else { "" }))
                .collect();
            (sort.join(","), limit)
        });
    proptest::collection::vec(one, 3..=3)
}

/// Runs the property on the pool `connect` opens (on the runtime it runs on).
fn run(cases: u32, connect: impl FnOnce(&tokio::runtime::Runtime) -> Pool) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let pool = connect(&rt);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let case = std::cell::Cell::new(0u32);
    runner
        .run(&(items(), sorts()), |(items, sorts)| {
            case.set(case.get() + 1);
            let table = format!("keyset_walk_{}_{}", std::process::id(), case.get());
            rt.block_on(check(&pool, &table, &items, &sorts));
            Ok(())
        })
        .unwrap();
}

#[test]
fn forward_and_backward_keyset_walks_agree_on_sqlite() {
    run(64, |rt| {
        Pool::Sqlite(rt.block_on(async {
            sqlx::sqlite::SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect("sqlite::memory:")
                .await
                .unwrap()
        }))
    });
}

#[test]
fn forward_and_backward_keyset_walks_agree_on_postgres() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    run(24, |rt| {
        Pool::Postgres(rt.block_on(async {
            sqlx::postgres::PgPoolOptions::new()
                .max_connections(1)
                .connect(&url)
                .await
                .unwrap()
        }))
    });
}
