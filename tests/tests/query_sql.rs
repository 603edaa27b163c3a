//! Typed collection queries against real databases: for random data and
//! random valid queries, the in-memory result equals the SQL result, and
//! walking every cursor page yields each matching row exactly once, in
//! order (mixed directions, duplicate and null sort values).
//!
//! SQLite (in memory, sqlx) always runs. PostgreSQL runs when
//! `TEST_POSTGRES_URL` is set (see `.ci/postgres.sh`); when it is not set
//! the PostgreSQL tests are skipped, unless `REQUIRE_POSTGRES=1`, then
//! they fail.
#![deny(warnings)]

use problem_core::CollectionQuery;
use problem_core::query::{QueryConfig, TypedQuery};
use proptest::prelude::*;
use sea_query::{
    Alias, Asterisk, PostgresQueryBuilder, Query, SelectStatement, SqliteQueryBuilder,
};
use sea_query_sqlx::SqlxBinder;
use serde::{Serialize, Serializer};
use sqlx::{Pool, Postgres, Sqlite};
use time::Date;

#[derive(CollectionQuery)]
#[query(key = "id", max_page_size = 100)]
#[allow(dead_code)]
struct ItemQuery {
    #[query(filter(eq, ne, gt, gte, lt, lte, in, not_in), sort)]
    id: i64,
    #[query(
        filter(eq, ne, gt, lt, in, not_in, contains, starts_with, ends_with),
        sort,
        search
    )]
    name: String,
    #[query(filter(eq, ne, gt, gte, lt, lte, in, not_in), sort)]
    score: i32,
    #[query(filter(eq, gt, lt, is_null, is_not_null), sort)]
    rank: Option<i64>,
    #[query(filter(eq, ne), sort)]
    flag: bool,
    #[query(
        filter(eq, contains, starts_with, ends_with, is_null, is_not_null),
        sort,
        search
    )]
    note: Option<String>,
    #[query(filter(eq, gt, gte, lt), sort, column = "day_col")]
    day: Date,
    #[query(filter(gt, lt), sort)]
    weight: f64,
}

fn ser_date<S: Serializer>(d: &Date, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!(
        "{:04}-{:02}-{:02}",
        d.year(),
        d.month() as u8,
        d.day()
    ))
}

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
struct Item {
    id: i64,
    name: String,
    score: i32,
    rank: Option<i64>,
    flag: bool,
    note: Option<String>,
    #[serde(serialize_with = "ser_date")]
    #[sqlx(rename = "day_col")]
    day: Date,
    weight: f64,
}

const TEXT_CHARS: &[char] = &['a', 'b', 'A', 'B', '%', '_', '\\', '\'', ' '];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TEXT_CHARS), 0..4)
        .prop_map(|c| c.into_iter().collect())
}

fn word() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&TEXT_CHARS[..8]), 1..2)
        .prop_map(|c| c.into_iter().collect())
}

fn day() -> impl Strategy<Value = Date> {
    (0i32..6).prop_map(|d| Date::from_ordinal_date(2024, 1 + d as u16 * 3).unwrap_or(Date::MIN))
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(
        (
            text(),
            -3i32..4,
            prop::option::of(0i64..4),
            any::<bool>(),
            prop::option::of(text()),
            day(),
            (-4i32..5).prop_map(|w| f64::from(w) * 0.5),
        ),
        0..30,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, (name, score, rank, flag, note, day, weight))| Item {
                id: i as i64 + 1,
                name,
                score,
                rank,
                flag,
                note,
                day,
                weight,
            })
            .collect()
    })
}

fn enc(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn filter() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            prop::sample::select(&["eq", "ne", "gt", "gte", "lt", "lte"][..]),
            -1i64..26
        )
            .prop_map(|(o, v)| format!("id__{o}={v}")),
        prop::collection::vec(-3i32..4, 1..4).prop_map(|v| format!(
            "score__{}={}",
            if v[0] % 2 == 0 { "in" } else { "not_in" },
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )),
        (
            prop::sample::select(&["eq", "ne", "gt", "gte", "lt", "lte"][..]),
            -3i32..4
        )
            .prop_map(|(o, v)| format!("score__{o}={v}")),
        (
            prop::sample::select(
                &[
                    "eq",
                    "ne",
                    "gt",
                    "lt",
                    "contains",
                    "starts_with",
                    "ends_with"
                ][..]
            ),
            text()
        )
            .prop_map(|(o, v)| format!("name__{o}={}", enc(&v))),
        (
            prop::sample::select(&["contains", "starts_with", "ends_with", "eq"][..]),
            text()
        )
            .prop_map(|(o, v)| format!("note__{o}={}", enc(&v))),
        (
            prop::sample::select(&["is_null", "is_not_null"][..]),
            any::<bool>(),
            prop::sample::select(&["rank", "note"][..])
        )
            .prop_map(|(o, b, f)| format!("{f}__{o}={b}")),
        (prop::sample::select(&["eq", "gt", "lt"][..]), 0i64..4)
            .prop_map(|(o, v)| format!("rank__{o}={v}")),
        any::<bool>().prop_map(|b| format!("flag={b}")),
        (prop::sample::select(&["eq", "gt", "gte", "lt"][..]), day())
            .prop_map(|(o, d)| format!("day__{o}={d}")),
        (prop::sample::select(&["gt", "lt"][..]), -4i32..5)
            .prop_map(|(o, w)| format!("weight__{o}={}", f64::from(w) * 0.5)),
    ]
}

const SORTABLE: [&str; 8] = [
    "id", "name", "score", "rank", "flag", "note", "day", "weight",
];

fn query() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(filter(), 0..2),
        prop::sample::subsequence(&SORTABLE[1..], 0..4).prop_shuffle(),
        prop::collection::vec(any::<bool>(), 4),
        prop::option::weighted(0.3, prop::collection::vec(word(), 1..3)),
        prop::option::of(prop::sample::select(&["name", "note", "name,note"][..])),
    )
        .prop_map(|(filters, sort, desc, search, fields)| {
            let mut parts = filters;
            if !sort.is_empty() {
                let s: Vec<String> = sort
                    .iter()
                    .zip(&desc)
                    .map(|(f, d)| format!("{}{f}", if *d { "-" } else { "" }))
                    .collect();
                parts.push(format!("sort={}", s.join(",")));
            }
            if let Some(terms) = search {
                parts.push(format!("q={}", enc(&terms.join(" "))));
                if let Some(f) = fields {
                    parts.push(format!("search_fields={f}"));
                }
            }
            parts.join("&")
        })
}

fn config() -> QueryConfig {
    QueryConfig::default()
        .cursor_keys([b"an-example-cursor-key-of-32-bytes".to_vec()])
        .unwrap()
}

fn parse(qs: &str) -> TypedQuery<ItemQuery> {
    TypedQuery::<ItemQuery>::from_query_str(qs, &config()).unwrap_or_else(|e| panic!("{qs}: {e:?}"))
}

fn ids_of(items: &[serde_json::Value]) -> Vec<i64> {
    items
        .iter()
        .map(|v| v["id"].as_i64().unwrap_or(-1))
        .collect()
}

fn base() -> SelectStatement {
    Query::select()
        .column(Asterisk)
        .from(Alias::new("items"))
        .to_owned()
}

/// A database under test.
trait Db {
    fn fetch(&self, stmt: &SelectStatement) -> Vec<Item>;
    fn count(&self, stmt: &SelectStatement) -> i64;
    fn load(&self, items: &[Item]);
}

struct Engine<DB: sqlx::Database> {
    rt: tokio::runtime::Runtime,
    pool: Pool<DB>,
}

macro_rules! engine {
    ($db:ty, $builder:expr, $ddl:expr, $insert:expr) => {
        impl Db for Engine<$db> {
            fn fetch(&self, stmt: &SelectStatement) -> Vec<Item> {
                let (sql, values) = stmt.build_sqlx($builder);
                self.rt
                    .block_on(
                        sqlx::query_as_with::<_, Item, _>(sqlx::AssertSqlSafe(sql.clone()), values)
                            .fetch_all(&self.pool),
                    )
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }
            fn count(&self, stmt: &SelectStatement) -> i64 {
                let (sql, values) = stmt.build_sqlx($builder);
                self.rt
                    .block_on(
                        sqlx::query_scalar_with::<_, i64, _>(
                            sqlx::AssertSqlSafe(sql.clone()),
                            values,
                        )
                        .fetch_one(&self.pool),
                    )
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }
            fn load(&self, items: &[Item]) {
                self.rt.block_on(async {
                    sqlx::query("DELETE FROM items")
                        .execute(&self.pool)
                        .await
                        .unwrap();
                    for it in items {
                        sqlx::query($insert)
                            .bind(it.id)
                            .bind(&it.name)
                            .bind(it.score)
                            .bind(it.rank)
                            .bind(it.flag)
                            .bind(&it.note)
                            .bind(it.day)
                            .bind(it.weight)
                            .execute(&self.pool)
                            .await
                            .unwrap();
                    }
                })
            }
        }
        impl Engine<$db> {
            fn create(&self) {
                self.rt.block_on(async {
                    sqlx::query($ddl).execute(&self.pool).await.unwrap();
                })
            }
        }
    };
}

engine!(
    Sqlite,
    SqliteQueryBuilder,
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER, flag BOOLEAN NOT NULL, note TEXT, day_col DATE NOT NULL, weight REAL NOT NULL)",
    "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
);
engine!(
    Postgres,
    PostgresQueryBuilder,
    "CREATE TEMPORARY TABLE items (id BIGINT PRIMARY KEY, name TEXT COLLATE \"C\" NOT NULL, score INTEGER NOT NULL, rank BIGINT, flag BOOLEAN NOT NULL, note TEXT COLLATE \"C\", day_col DATE NOT NULL, weight DOUBLE PRECISION NOT NULL)",
    "INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn sqlite() -> Engine<Sqlite> {
    let rt = runtime();
    let pool = rt.block_on(
        sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:"),
    );
    let e = Engine {
        pool: pool.unwrap(),
        rt,
    };
    e.create();
    e
}

/// `None` when PostgreSQL is not configured and not required.
fn postgres() -> Option<Engine<Postgres>> {
    let url = match std::env::var("TEST_POSTGRES_URL") {
        Ok(u) if !u.is_empty() => u,
        _ => {
            assert!(
                std::env::var("REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "REQUIRE_POSTGRES=1 but TEST_POSTGRES_URL is not set (run .ci/postgres.sh)"
            );
            eprintln!("TEST_POSTGRES_URL not set: PostgreSQL tests skipped");
            return None;
        }
    };
    let rt = runtime();
    let pool = rt
        .block_on(
            sqlx::postgres::PgPoolOptions::new()
                .max_connections(1)
                .connect(&url),
        )
        .unwrap_or_else(|e| panic!("cannot connect to TEST_POSTGRES_URL: {e}"));
    let e = Engine { pool, rt };
    e.create();
    Some(e)
}

/// Memory == SQL for an offset page and its count.
fn check_offset(
    db: &impl Db,
    items: &[Item],
    qs: &str,
    page: u32,
    per_page: u32,
) -> Result<(), TestCaseError> {
    let q = parse(&format!("{qs}&page={page}&per_page={per_page}"));
    let mem = q.page_in_memory(items).unwrap();
    let mut stmt = base();
    q.apply_to(&mut stmt);
    let rows = db.fetch(&stmt);
    let sql_ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    prop_assert_eq!(ids_of(&mem.data), sql_ids, "query {}", qs);
    let total = db.count(&q.count_statement(&base()));
    prop_assert_eq!(mem.meta.total, Some(total as u64), "count of {}", qs);
    Ok(())
}

/// Walking every cursor page (memory and SQL) gives the full order once.
fn check_cursor(db: &impl Db, items: &[Item], qs: &str, limit: u32) -> Result<(), TestCaseError> {
    let all = ids_of(
        &parse(&format!("{qs}&per_page=100"))
            .page_in_memory(items)
            .unwrap()
            .data,
    );
    let mut mem_ids = Vec::new();
    let mut sql_ids = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..=all.len() + 1 {
        let full = match &cursor {
            Some(c) => format!("{qs}&limit={limit}&cursor={c}"),
            None => format!("{qs}&limit={limit}"),
        };
        let q = parse(&full);
        let mem = q.cursor_page_in_memory(items).unwrap();
        mem_ids.extend(ids_of(&mem.data));
        let mut stmt = base();
        q.apply_cursor_to(&mut stmt);
        let page = q.cursor_page(db.fetch(&stmt)).unwrap();
        sql_ids.extend(page.data.iter().map(|r| r.id));
        prop_assert_eq!(&page.meta.next_cursor, &mem.meta.next_cursor, "{}", full);
        match page.meta.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    prop_assert_eq!(&mem_ids, &all, "memory walk of {}", qs);
    prop_assert_eq!(&sql_ids, &all, "SQL walk of {}", qs);
    Ok(())
}

fn run_properties(db: &impl Db, cases: u32) {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                items(),
                prop::collection::vec((query(), 1u32..4, 1u32..6), 1..4),
            ),
            |(items, queries)| {
                db.load(&items);
                for (qs, page, size) in &queries {
                    check_offset(db, &items, qs, *page, *size)?;
                    check_cursor(db, &items, qs, *size)?;
                }
                Ok(())
            },
        )
        .unwrap();
}

fn fixed_rows() -> Vec<Item> {
    let d = Date::from_ordinal_date(2024, 1).unwrap();
    let mk = |id, name: &str, note: Option<&str>| Item {
        id,
        name: name.into(),
        score: 1,
        rank: None,
        flag: false,
        note: note.map(Into::into),
        day: d,
        weight: 0.0,
    };
    vec![
        mk(1, "' OR 1=1 --", Some("100%")),
        mk(2, "plain", Some("100 percent")),
        mk(3, "a_b", Some("aXb")),
        mk(4, "ABC", None),
        mk(5, "back\\slash", Some("Ab_c")),
    ]
}

/// Literal matching: SQL text and `LIKE` wildcards in values match only themselves.
fn check_literals(db: &impl Db) {
    let items = fixed_rows();
    db.load(&items);
    for (qs, expected) in [
        ("name=%27+OR+1%3D1+--", vec![1]),
        ("name__contains=%27+OR+1%3D1+--", vec![1]),
        ("name__ne=%27+OR+1%3D1+--", vec![2, 3, 4, 5]),
        ("note__contains=%25", vec![1]),
        ("note__ends_with=%25", vec![1]),
        ("name__contains=_", vec![3]),
        ("note__contains=b_", vec![5]),
        ("name__contains=%5C", vec![5]),
        ("name__starts_with=a", vec![3]),
        ("name__contains=abc", vec![]),
        ("q=abc", vec![4]),
        ("q=%25", vec![1]),
        ("q=AB", vec![4, 5]),
        ("q=%27+1%3D1", vec![1]),
        ("name__in=ABC,plain", vec![2, 4]),
    ] {
        let q = parse(qs);
        let mut stmt = base();
        q.apply_to(&mut stmt);
        let sql: Vec<i64> = db.fetch(&stmt).iter().map(|r| r.id).collect();
        let mem = ids_of(&q.page_in_memory(&items).unwrap().data);
        assert_eq!(sql, expected, "SQL {qs}");
        assert_eq!(mem, expected, "memory {qs}");
    }
}

#[test]
fn sqlite_literal_matching() {
    check_literals(&sqlite());
}

#[test]
fn sqlite_memory_equals_sql_and_cursor_walks() {
    run_properties(&sqlite(), 96);
}

#[test]
fn postgres_literal_matching() {
    if let Some(db) = postgres() {
        check_literals(&db);
    }
}

#[test]
fn postgres_memory_equals_sql_and_cursor_walks() {
    if let Some(db) = postgres() {
        run_properties(&db, 48);
    }
}

#[test]
fn generated_sql_uses_only_whitelisted_columns_and_binds_values() {
    let q = parse("name__contains=x%27%22&day__gt=2024-01-01&sort=-rank,day&q=a&limit=3");
    let mut stmt = base();
    q.apply_to(&mut stmt);
    let (sql, values) = stmt.build(SqliteQueryBuilder);
    assert_eq!(
        sql,
        r#"SELECT * FROM "items" WHERE "name" LIKE ? ESCAPE '\' AND REPLACE("name", ?, ?) <> "name" AND "day_col" > ? AND (LOWER("name") LIKE LOWER(?) ESCAPE '\' OR LOWER("note") LIKE LOWER(?) ESCAPE '\') ORDER BY "rank" DESC NULLS LAST, "day_col" ASC, "id" ASC LIMIT ? OFFSET ?"#
    );
    assert_eq!(values.0.len(), 8);
    let (pg, _) = stmt.build(PostgresQueryBuilder);
    assert!(pg.contains(r#""name" LIKE $1 ESCAPE"#), "{pg}");
}
