//! Typed collection queries against real databases: for random data and
//! random valid queries, the in-memory result equals the SQL result, and
//! walking every cursor page, forward with the next cursors and back with
//! the previous ones, yields each matching row exactly once, in order
//! (mixed directions, duplicate and null sort values).
//!
//! Two tables: `items` (integers, ASCII text with `LIKE` wildcards, nulls,
//! dates, floats) and `wide` (date-times at UTC offsets, `u64` near
//! `i64::MAX`, `i8`/`u8`, `f32`, signed zeros, Unicode text searched
//! through folded columns: simple case folding of `ß`/`ẞ`, `Σ`/`σ`/`ς`,
//! `İ`/`ı`, the Kelvin sign, emoji).
//!
//! SQLite (in memory, sqlx) always runs. PostgreSQL runs when
//! `TEST_POSTGRES_URL` is set (see `.ci/postgres.sh`); when it is not set
//! the PostgreSQL tests are skipped, unless `REQUIRE_POSTGRES=1`, then
//! they fail.
#![deny(warnings)]

use std::fmt::Debug;

use problem_core::CollectionQuery;
use problem_core::query::{QueryConfig, TypedQuery, fold_case};
use proptest::prelude::*;
use sea_query::{
    Alias, Asterisk, PostgresQueryBuilder, Query, SelectStatement, SqliteQueryBuilder,
};
use sea_query_sqlx::SqlxBinder;
use serde::{Serialize, Serializer};
use sqlx::{Pool, Postgres, Sqlite};
use time::format_description::well_known::Rfc3339;
use time::macros::datetime;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

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
    #[query(filter(eq, ne, in, not_in), sort)]
    shelf: Shelf,
}

/// A unit-variant enum stored as its serde name in a text column
/// (`ValueKind::OneOf`): filtered and sorted as text alike in memory, on
/// SQLite and on PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Shelf {
    Draft,
    InPrint,
    OutOfPrint,
}

const SHELVES: [&str; 3] = ["draft", "in_print", "out_of_print"];

impl problem_core::query::QueryValue for Shelf {
    const KIND: problem_core::query::ValueKind = problem_core::query::ValueKind::OneOf(&SHELVES);
}

impl Shelf {
    fn name(self) -> &'static str {
        SHELVES[self as usize]
    }
}

impl TryFrom<String> for Shelf {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "draft" => Ok(Self::Draft),
            "in_print" => Ok(Self::InPrint),
            "out_of_print" => Ok(Self::OutOfPrint),
            _ => Err(format!("no shelf {s}")),
        }
    }
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
    #[sqlx(try_from = "String")]
    shelf: Shelf,
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
            prop::sample::select(&[Shelf::Draft, Shelf::InPrint, Shelf::OutOfPrint][..]),
        ),
        0..30,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(
                |(i, (name, score, rank, flag, note, day, weight, shelf))| Item {
                    id: i as i64 + 1,
                    name,
                    score,
                    rank,
                    flag,
                    note,
                    day,
                    weight,
                    shelf,
                },
            )
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
        (
            prop::sample::select(&["eq", "ne"][..]),
            prop::sample::select(&SHELVES[..])
        )
            .prop_map(|(o, v)| format!("shelf__{o}={v}")),
        (
            prop::sample::select(&["in", "not_in"][..]),
            prop::sample::subsequence(&SHELVES[..], 1..3)
        )
            .prop_map(|(o, v)| format!("shelf__{o}={}", v.join(","))),
    ]
}

const SORTABLE: [&str; 9] = [
    "id", "name", "score", "rank", "flag", "note", "day", "weight", "shelf",
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

/// The second table: the value kinds `items` does not have.
#[derive(CollectionQuery)]
#[query(key = "id", max_page_size = 100)]
#[allow(dead_code)]
struct WideQuery {
    #[query(filter(eq, gt), sort)]
    id: i64,
    #[query(filter(eq, ne, gt, gte, lt, lte, in, not_in), sort)]
    stamp: OffsetDateTime,
    #[query(filter(eq, ne, gt, gte, lt, lte, in, not_in), sort)]
    big: u64,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    tiny: i8,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    small: u8,
    #[query(filter(eq, ne, gt, gte, lt, lte), sort)]
    ratio: f32,
    #[query(filter(eq, ne, gt, gte, lt, lte), sort)]
    zero: f64,
    #[query(
        filter(eq, ne, gt, lt, in, contains, starts_with, ends_with),
        sort,
        search,
        folded_column = "title_folded"
    )]
    title: String,
    #[query(
        filter(eq, contains, starts_with, ends_with, is_null),
        sort,
        search,
        folded_column = "body_folded"
    )]
    body: Option<String>,
}

fn rfc3339(t: &OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

fn ser_rfc3339<S: Serializer>(t: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&rfc3339(t))
}

/// A row of `wide`. The columns `title_folded` and `body_folded` (what
/// search reads in SQL) hold `fold_case` of `title` and `body`; they are
/// not members: memory folds the members themselves. (Without a
/// `folded_column` SQL search falls back to `LOWER(col) LIKE LOWER(?)`,
/// which folds ASCII only on SQLite and on a `COLLATE "C"` column of
/// PostgreSQL, and never maps `ς` to `σ`: `q=é` misses `É` there while
/// memory finds it. So every searched field of `wide` has one.)
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
struct Wide {
    id: i64,
    #[serde(serialize_with = "ser_rfc3339")]
    stamp: OffsetDateTime,
    #[sqlx(try_from = "i64")]
    big: u64,
    // sqlx maps `i8` to PostgreSQL's `"CHAR"` and has no `u8` there: both
    // are read as `i16` (SMALLINT on PostgreSQL, INTEGER on SQLite).
    #[sqlx(try_from = "i16")]
    tiny: i8,
    #[sqlx(try_from = "i16")]
    small: u8,
    ratio: f32,
    zero: f64,
    title: String,
    body: Option<String>,
}

/// What a backend stores faithfully; the strategies stay inside it.
#[derive(Debug, Clone, Copy)]
struct Profile {
    /// Stored date-times keep their UTC offset and sub-second part. False
    /// on SQLite: narrowed there to date-times stored in UTC and whole
    /// seconds, the limit the `query::sql` docs state for SQLite: sqlx
    /// stores an `OffsetDateTime` on SQLite as RFC 3339 text
    /// (`2024-02-28T19:00:00-05:30`, `2024-02-28T22:00:00.000001Z`) and the
    /// library binds its filter and cursor values (converted to UTC) as that
    /// text too, so SQLite compares and sorts date-times as text: a row
    /// stored at another offset, or a stored fractional second against a
    /// whole one (`...00Z` sorts after `...00.5Z`), is in the wrong order
    /// and matches the wrong filters (`stamp__eq=2024-02-29T00:30:00Z`
    /// misses the row stored as `2024-02-28T19:00:00-05:30`; `sort=stamp`
    /// puts `2024-02-29T02:30:00Z` before `2024-02-29T03:45:00+05:45`).
    /// Filter values have sub-seconds on every backend: the library also
    /// compares such a value with its whole second, which SQLite's text
    /// comparison gets right against whole-second rows.
    faithful_stamps: bool,
    /// `-0.0` reads back as `-0.0`. False on SQLite, which stores it as
    /// `0`: the rows match and sort alike (`-0.0 = 0.0`), but a cursor
    /// signed from such a row differs from memory's in the sign bit, so
    /// only the walks, not the cursor texts, are compared there.
    keeps_negative_zero: bool,
}

const SQLITE: Profile = Profile {
    faithful_stamps: false,
    keeps_negative_zero: false,
};
const POSTGRES: Profile = Profile {
    faithful_stamps: true,
    keeps_negative_zero: true,
};

/// UTC offsets (hours, minutes) of date-times: both signs, half and
/// quarter hours, and the extremes, so the local date differs from UTC's.
const OFFSETS: &[(i8, i8)] = &[(0, 0), (-12, 0), (-5, -30), (1, 0), (5, 45), (14, 0)];
/// Sub-second parts (microseconds: PostgreSQL's precision).
const MICROS: &[i64] = &[0, 0, 1, 500_000];

/// Five instants 90 minutes apart around 2024-02-29 (UTC), at an offset.
fn instant(offsets: bool, subseconds: bool) -> impl Strategy<Value = OffsetDateTime> {
    (
        0i64..5,
        prop::sample::select(OFFSETS),
        prop::sample::select(MICROS),
    )
        .prop_map(move |(k, (h, m), us)| {
            let utc = datetime!(2024-02-28 22:00 UTC)
                + Duration::minutes(90 * k)
                + Duration::microseconds(if subseconds { us } else { 0 });
            let (h, m) = if offsets { (h, m) } else { (0, 0) };
            utc.to_offset(UtcOffset::from_hms(h, m, 0).unwrap_or(UtcOffset::UTC))
        })
}

/// A filter value: any offset (`Z` or `+00:00` for UTC), sub-seconds on every
/// backend, sometimes the first or last instant a filter
/// accepts. At most six fractional digits: PostgreSQL (through sqlx)
/// truncates a bound date-time to microseconds, so
/// `stamp__eq=2024-02-29T00:00:00.0000001Z` would match a row at
/// `2024-02-29T00:00:00Z` there (not in memory); the parser refuses such a
/// value (`invalid_value`; `check_wide_literals` pins it).
fn stamp_value() -> impl Strategy<Value = String> {
    let edges: &[&str] = &[
        "0000-01-01T00:59:00-01:00",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59.999999Z",
    ];
    prop_oneof![
        9 => (instant(true, true), any::<bool>()).prop_map(|(t, plus)| {
            let s = rfc3339(&t);
            match s.strip_suffix('Z') {
                Some(utc) if plus => format!("{utc}+00:00"),
                _ => s,
            }
        }),
        1 => prop::sample::select(edges).prop_map(str::to_owned),
    ]
}

/// `u64` values: 2^53 + 1 is the first integer an `f64` cannot hold.
const BIG: &[u64] = &[
    0,
    1,
    1 << 53,
    (1 << 53) + 1,
    i64::MAX as u64 - 1,
    i64::MAX as u64,
];
const TINY: &[i8] = &[i8::MIN, -1, 0, 1, i8::MAX];
const SMALL: &[u8] = &[0, 1, 127, 128, u8::MAX];
/// `f32` values, most with no short exact decimal form (`0.1f32` is
/// 0.100000001490116...: memory reads the widened `f64`, as the databases
/// compare it), the extremes and the smallest subnormal.
const RATIO: &[f32] = &[
    -1.5,
    0.1,
    0.3,
    0.0,
    3.0,
    16_777_216.0,
    f32::MAX,
    f32::MIN_POSITIVE,
    1e-45,
];
const RATIO_TEXT: &[&str] = &[
    "-1.5",
    "0",
    "0.1",
    "0.10000000149011612",
    "0.3",
    "3",
    "16777216",
    "3.4028235e38",
    "1e-45",
];
/// `f64` values: both zeros (`-0.0` twice as often), the smallest
/// subnormal, a large power of ten.
const ZERO: &[f64] = &[-0.0, 0.0, -0.0, 5e-324, -1.5, 1e308];
const ZERO_TEXT: &[&str] = &[
    "-0", "0", "-0.0", "0e0", "+0", "5e-324", "-5e-324", "-1.5", "1e308", "1E308",
];

/// Letters whose case folds differently: `ß`/`ẞ` (simple folding keeps
/// one letter), final and medial sigma, dotted and dotless i, the Kelvin
/// sign (folds to `k`), long s (folds to `s`), the titlecase `ǅ`, a
/// combining accent, an emoji (four UTF-8 bytes), the replacement
/// character and the noncharacters U+FFFE and U+FFFF (SQLite's `LIKE`
/// reads the last two as the first), `LIKE` wildcards.
const UNICODE_CHARS: &[char] = &[
    'a', 'A', 'e', 'é', 'É', '\u{301}', 'i', 'I', 'İ', 'ı', 'k', 'K', '\u{212A}', 's', 'S', 'ſ',
    'ß', 'ẞ', 'Σ', 'σ', 'ς', 'ǅ', 'ǆ', '😀', '\u{FFFD}', '\u{FFFE}', '\u{FFFF}', '%', '_', ' ',
];

fn utext() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(UNICODE_CHARS), 0..5)
        .prop_map(|c| c.into_iter().collect())
}

/// A search term: mostly one letter, so that terms often match.
fn uword() -> impl Strategy<Value = String> {
    let letter = || prop::sample::select(&UNICODE_CHARS[..UNICODE_CHARS.len() - 1]);
    prop_oneof![
        3 => letter().prop_map(String::from),
        1 => (letter(), letter()).prop_map(|(a, b)| format!("{a}{b}")),
    ]
}

fn wide_items(p: Profile) -> impl Strategy<Value = Vec<Wide>> {
    prop::collection::vec(
        (
            instant(p.faithful_stamps, p.faithful_stamps),
            prop::sample::select(BIG),
            prop::sample::select(TINY),
            prop::sample::select(SMALL),
            prop::sample::select(RATIO),
            prop::sample::select(ZERO),
            utext(),
            prop::option::of(utext()),
        ),
        0..30,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(
                |(i, (stamp, big, tiny, small, ratio, zero, title, body))| Wide {
                    id: i as i64 + 1,
                    stamp,
                    big,
                    tiny,
                    small,
                    ratio,
                    zero,
                    title,
                    body,
                },
            )
            .collect()
    })
}

const ALL_ORDER_OPS: &[&str] = &["eq", "ne", "gt", "gte", "lt", "lte"];

fn ordered<T: Debug + Clone + std::fmt::Display + 'static>(
    field: &'static str,
    values: &'static [T],
) -> impl Strategy<Value = String> {
    (
        prop::sample::select(ALL_ORDER_OPS),
        prop::sample::select(values),
    )
        .prop_map(move |(o, v)| format!("{field}__{o}={}", enc(&v.to_string())))
}

fn wide_filter() -> impl Strategy<Value = String> {
    prop_oneof![
        (prop::sample::select(ALL_ORDER_OPS), stamp_value())
            .prop_map(|(o, v)| format!("stamp__{o}={}", enc(&v))),
        (
            prop::sample::select(&["in", "not_in"][..]),
            prop::collection::vec(stamp_value(), 1..4)
        )
            .prop_map(|(o, v)| format!("stamp__{o}={}", enc(&v.join(",")))),
        ordered("big", BIG),
        (
            prop::sample::select(&["in", "not_in"][..]),
            prop::collection::vec(prop::sample::select(BIG), 1..4)
        )
            .prop_map(|(o, v)| format!(
                "big__{o}={}",
                v.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            )),
        ordered("tiny", TINY),
        ordered("small", SMALL),
        prop::collection::vec(prop::sample::select(SMALL), 1..3).prop_map(|v| format!(
            "small__in={}",
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )),
        ordered("ratio", RATIO_TEXT),
        ordered("zero", ZERO_TEXT),
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
            utext()
        )
            .prop_map(|(o, v)| format!("title__{o}={}", enc(&v))),
        (
            prop::sample::select(&["contains", "starts_with", "ends_with", "eq"][..]),
            utext()
        )
            .prop_map(|(o, v)| format!("body__{o}={}", enc(&v))),
        any::<bool>().prop_map(|b| format!("body__is_null={b}")),
    ]
}

const WIDE_SORTABLE: [&str; 9] = [
    "id", "stamp", "big", "tiny", "small", "ratio", "zero", "title", "body",
];

fn wide_query() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(wide_filter(), 0..3),
        prop::sample::subsequence(&WIDE_SORTABLE[1..], 0..4).prop_shuffle(),
        prop::collection::vec(any::<bool>(), 4),
        prop::option::weighted(0.4, prop::collection::vec(uword(), 1..3)),
        prop::option::of(prop::sample::select(&["title", "body", "title,body"][..])),
    )
        .prop_map(|(filters, sort, desc, search, fields)| {
            // One condition per parameter (a repeated one with another
            // value is `conflicting_parameters`).
            let mut parts: Vec<String> = Vec::new();
            for f in filters {
                let name = f.split('=').next().unwrap_or_default();
                if !parts.iter().any(|p| p.split('=').next() == Some(name)) {
                    parts.push(f);
                }
            }
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

fn parse_as<Q: problem_core::query::CollectionQuery>(qs: &str) -> TypedQuery<Q> {
    TypedQuery::<Q>::from_query_str(qs, &config()).unwrap_or_else(|e| panic!("{qs}: {e:?}"))
}

fn parse(qs: &str) -> TypedQuery<ItemQuery> {
    parse_as(qs)
}

fn ids_of(items: &[serde_json::Value]) -> Vec<i64> {
    items
        .iter()
        .map(|v| v["id"].as_i64().unwrap_or(-1))
        .collect()
}

/// A table under test: its row type, query and name.
trait Table: Serialize + Clone + PartialEq + Debug {
    type Query: problem_core::query::CollectionQuery;
    const NAME: &'static str;
    fn id(&self) -> i64;
}

impl Table for Item {
    type Query = ItemQuery;
    const NAME: &'static str = "items";
    fn id(&self) -> i64 {
        self.id
    }
}

impl Table for Wide {
    type Query = WideQuery;
    const NAME: &'static str = "wide";
    fn id(&self) -> i64 {
        self.id
    }
}

fn select_all<R: Table>() -> SelectStatement {
    Query::select()
        .column(Asterisk)
        .from(Alias::new(R::NAME))
        .to_owned()
}

fn base() -> SelectStatement {
    select_all::<Item>()
}

/// A database under test, holding rows of type `R`.
trait Db<R> {
    fn fetch(&self, stmt: &SelectStatement) -> Vec<R>;
    fn count(&self, stmt: &SelectStatement) -> i64;
    fn load(&self, rows: &[R]);
}

struct Engine<DB: sqlx::Database> {
    rt: tokio::runtime::Runtime,
    pool: Pool<DB>,
}

macro_rules! engine {
    ($db:ty, $builder:expr, $ddl:expr, $insert:expr, $wide_ddl:expr, $wide_insert:expr) => {
        impl Engine<$db> {
            fn fetch_rows<R>(&self, stmt: &SelectStatement) -> Vec<R>
            where
                R: for<'r> sqlx::FromRow<'r, <$db as sqlx::Database>::Row> + Send + Unpin,
            {
                let (sql, values) = stmt.build_sqlx($builder);
                self.rt
                    .block_on(
                        sqlx::query_as_with::<_, R, _>(sqlx::AssertSqlSafe(sql.clone()), values)
                            .fetch_all(&self.pool),
                    )
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }
            fn count_rows(&self, stmt: &SelectStatement) -> i64 {
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
            fn clear(&self, table: &str) {
                self.rt.block_on(async {
                    sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))
                        .execute(&self.pool)
                        .await
                        .unwrap();
                })
            }
            fn create(&self) {
                self.rt.block_on(async {
                    sqlx::query($ddl).execute(&self.pool).await.unwrap();
                    sqlx::query($wide_ddl).execute(&self.pool).await.unwrap();
                })
            }
        }
        impl Db<Item> for Engine<$db> {
            fn fetch(&self, stmt: &SelectStatement) -> Vec<Item> {
                self.fetch_rows(stmt)
            }
            fn count(&self, stmt: &SelectStatement) -> i64 {
                self.count_rows(stmt)
            }
            fn load(&self, items: &[Item]) {
                self.clear("items");
                self.rt.block_on(async {
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
                            .bind(it.shelf.name())
                            .execute(&self.pool)
                            .await
                            .unwrap();
                    }
                })
            }
        }
        impl Db<Wide> for Engine<$db> {
            fn fetch(&self, stmt: &SelectStatement) -> Vec<Wide> {
                self.fetch_rows(stmt)
            }
            fn count(&self, stmt: &SelectStatement) -> i64 {
                self.count_rows(stmt)
            }
            fn load(&self, rows: &[Wide]) {
                self.clear("wide");
                self.rt.block_on(async {
                    for it in rows {
                        sqlx::query($wide_insert)
                            .bind(it.id)
                            .bind(it.stamp)
                            .bind(i64::try_from(it.big).unwrap())
                            .bind(i16::from(it.tiny))
                            .bind(i16::from(it.small))
                            .bind(it.ratio)
                            .bind(it.zero)
                            .bind(&it.title)
                            .bind(fold_case(&it.title).into_owned())
                            .bind(&it.body)
                            .bind(it.body.as_deref().map(|b| fold_case(b).into_owned()))
                            .execute(&self.pool)
                            .await
                            .unwrap();
                    }
                })
            }
        }
    };
}

engine!(
    Sqlite,
    SqliteQueryBuilder,
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER, flag BOOLEAN NOT NULL, note TEXT, day_col DATE NOT NULL, weight REAL NOT NULL, shelf TEXT NOT NULL)",
    "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "CREATE TABLE wide (id INTEGER PRIMARY KEY, stamp TEXT NOT NULL, big INTEGER NOT NULL, tiny INTEGER NOT NULL, small INTEGER NOT NULL, ratio REAL NOT NULL, zero REAL NOT NULL, title TEXT NOT NULL, title_folded TEXT NOT NULL, body TEXT, body_folded TEXT)",
    "INSERT INTO wide VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
);
engine!(
    Postgres,
    PostgresQueryBuilder,
    "CREATE TEMPORARY TABLE items (id BIGINT PRIMARY KEY, name TEXT COLLATE \"C\" NOT NULL, score INTEGER NOT NULL, rank BIGINT, flag BOOLEAN NOT NULL, note TEXT COLLATE \"C\", day_col DATE NOT NULL, weight DOUBLE PRECISION NOT NULL, shelf TEXT COLLATE \"C\" NOT NULL)",
    "INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    "CREATE TEMPORARY TABLE wide (id BIGINT PRIMARY KEY, stamp TIMESTAMPTZ NOT NULL, big BIGINT NOT NULL, tiny SMALLINT NOT NULL, small SMALLINT NOT NULL, ratio REAL NOT NULL, zero DOUBLE PRECISION NOT NULL, title TEXT COLLATE \"C\" NOT NULL, title_folded TEXT COLLATE \"C\" NOT NULL, body TEXT COLLATE \"C\", body_folded TEXT COLLATE \"C\")",
    "INSERT INTO wide VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
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

/// Memory == SQL for an offset page and its count; every row SQL returns
/// reads back equal to the row stored.
fn check_offset<R: Table>(
    db: &impl Db<R>,
    items: &[R],
    qs: &str,
    page: u32,
    per_page: u32,
) -> Result<(), TestCaseError> {
    let q = parse_as::<R::Query>(&format!("{qs}&page={page}&per_page={per_page}"));
    let mem = q.page_in_memory(items).unwrap();
    let mut stmt = select_all::<R>();
    q.apply_to(&mut stmt);
    let rows = db.fetch(&stmt);
    let sql_ids: Vec<i64> = rows.iter().map(R::id).collect();
    prop_assert_eq!(ids_of(&mem.data), sql_ids, "query {}", qs);
    for row in &rows {
        prop_assert_eq!(
            Some(row),
            items.iter().find(|i| i.id() == row.id()),
            "read back by {}",
            qs
        );
    }
    let total = db.count(&q.count_statement(&select_all::<R>()));
    prop_assert_eq!(mem.meta.total, Some(total as u64), "count of {}", qs);
    Ok(())
}

/// One cursor page in memory and in SQL, each reached with its own cursor:
/// the same rows, and the same cursors given (the same cursor texts when
/// `same_cursors`). The ids and the (next, previous) cursors of each.
#[allow(clippy::type_complexity)]
fn cursor_step<R: Table>(
    db: &impl Db<R>,
    items: &[R],
    qs: &str,
    limit: u32,
    cursors: (&Option<String>, &Option<String>),
    same_cursors: bool,
) -> Result<(Vec<i64>, [Option<String>; 4]), TestCaseError> {
    let url = |c: &Option<String>| match c {
        Some(c) => format!("{qs}&limit={limit}&cursor={c}"),
        None => format!("{qs}&limit={limit}"),
    };
    let full = url(cursors.0);
    let mem = parse_as::<R::Query>(&full)
        .cursor_page_in_memory(items)
        .unwrap();
    let q = parse_as::<R::Query>(&url(cursors.1));
    let mut stmt = select_all::<R>();
    q.apply_cursor_to(&mut stmt);
    let page = q.cursor_page(db.fetch(&stmt)).unwrap();
    let ids = ids_of(&mem.data);
    let sql_ids: Vec<i64> = page.data.iter().map(R::id).collect();
    prop_assert_eq!(&sql_ids, &ids, "SQL page of {}", full);
    let (m, s) = (mem.meta, page.meta);
    prop_assert_eq!(
        m.next_cursor.is_some(),
        s.next_cursor.is_some(),
        "next of {}",
        full
    );
    prop_assert_eq!(
        m.prev_cursor.is_some(),
        s.prev_cursor.is_some(),
        "prev of {}",
        full
    );
    if same_cursors {
        prop_assert_eq!(&m.next_cursor, &s.next_cursor, "next of {}", full);
        prop_assert_eq!(&m.prev_cursor, &s.prev_cursor, "prev of {}", full);
    }
    Ok((
        ids,
        [m.next_cursor, s.next_cursor, m.prev_cursor, s.prev_cursor],
    ))
}

/// Walking every cursor page forward (next cursors) gives the full order
/// once, in memory and in SQL; walking back from the last page (previous
/// cursors) gives the same pages again, in reverse, down to the first,
/// which has no previous cursor.
fn check_cursor<R: Table>(
    db: &impl Db<R>,
    items: &[R],
    qs: &str,
    limit: u32,
    same_cursors: bool,
) -> Result<(), TestCaseError> {
    let all = ids_of(
        &parse_as::<R::Query>(&format!("{qs}&per_page=100"))
            .page_in_memory(items)
            .unwrap()
            .data,
    );
    let mut pages: Vec<Vec<i64>> = Vec::new();
    let (mut mem_c, mut sql_c) = (None, None);
    let mut back = (None, None);
    for _ in 0..=all.len() + 1 {
        let (ids, [mn, sn, mp, sp]) =
            cursor_step(db, items, qs, limit, (&mem_c, &sql_c), same_cursors)?;
        prop_assert_eq!(mp.is_some(), !pages.is_empty(), "prev cursor of {}", qs);
        pages.push(ids);
        back = (mp, sp);
        match (mn, sn) {
            (Some(m), Some(s)) => (mem_c, sql_c) = (Some(m), Some(s)),
            _ => break,
        }
    }
    prop_assert_eq!(&pages.concat(), &all, "forward walk of {}", qs);
    let mut earlier: Vec<Vec<i64>> = Vec::new();
    for _ in 0..=all.len() + 1 {
        if back.0.is_none() {
            break;
        }
        let (ids, [mn, _, mp, sp]) =
            cursor_step(db, items, qs, limit, (&back.0, &back.1), same_cursors)?;
        prop_assert!(mn.is_some(), "no next cursor back from {}", qs);
        earlier.insert(0, ids);
        back = (mp, sp);
    }
    prop_assert_eq!(
        &earlier[..],
        &pages[..pages.len() - 1],
        "backward walk of {}",
        qs
    );
    Ok(())
}

fn run_properties<R: Table>(
    db: &impl Db<R>,
    cases: u32,
    items: impl Strategy<Value = Vec<R>>,
    query: impl Strategy<Value = String>,
    same_cursors: bool,
) {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                items,
                prop::collection::vec((query, 1u32..4, 1u32..6), 1..4),
            ),
            |(items, queries)| {
                db.load(&items);
                for (qs, page, size) in &queries {
                    check_offset(db, &items, qs, *page, *size)?;
                    check_cursor(db, &items, qs, *size, same_cursors)?;
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
        shelf: [Shelf::Draft, Shelf::InPrint, Shelf::OutOfPrint][id as usize % 3],
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
fn check_literals(db: &impl Db<Item>) {
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
        ("shelf=in_print", vec![1, 4]),
        ("shelf__in=draft,out_of_print", vec![2, 3, 5]),
        ("shelf__not_in=draft,out_of_print", vec![1, 4]),
        ("sort=-shelf", vec![2, 5, 1, 4, 3]),
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

fn fixed_wide(p: Profile) -> Vec<Wide> {
    let stored = |t: OffsetDateTime| {
        if p.faithful_stamps {
            t
        } else {
            t.to_offset(UtcOffset::UTC)
        }
    };
    let rows = [
        (
            datetime!(2024-02-28 19:00 -05:30),
            i64::MAX as u64,
            i8::MIN,
            u8::MAX,
            0.5,
            -0.0,
            "Straße",
            Some("ΣΊΣΥΦΟΣ"),
        ),
        (
            datetime!(2024-02-29 14:00 +14:00),
            (1 << 53) + 1,
            i8::MAX,
            0,
            -1.5,
            0.0,
            "STRAẞE",
            Some("σίσυφος"),
        ),
        (
            datetime!(2024-02-28 12:30 -12:00),
            1 << 53,
            0,
            128,
            3.0,
            5e-324,
            "İstanbul",
            None,
        ),
        (
            datetime!(2024-02-29 01:00 +01:00),
            0,
            -1,
            1,
            0.1,
            -1.5,
            "ıi",
            Some("\u{212A}elvin"),
        ),
        (
            datetime!(2024-03-01 00:00 UTC),
            1,
            1,
            127,
            16_777_216.0,
            1e308,
            "😀 é",
            Some("Kk"),
        ),
        (
            datetime!(2024-02-28 23:59:59 -00:01),
            1,
            0,
            0,
            -0.25,
            0.0,
            "e\u{301}",
            Some("ǅ"),
        ),
    ];
    rows.into_iter()
        .enumerate()
        .map(
            |(i, (stamp, big, tiny, small, ratio, zero, title, body))| Wide {
                id: i as i64 + 1,
                stamp: stored(stamp),
                big,
                tiny,
                small,
                ratio,
                zero,
                title: title.into(),
                body: body.map(Into::into),
            },
        )
        .collect()
}

/// Date-times compared as instants whatever their offsets, integers at the
/// ends of their types, signed zeros, and Unicode text: search folds case
/// by simple case folding, the `LIKE` operators are case-sensitive.
fn check_wide_literals(db: &impl Db<Wide>, p: Profile) {
    let items = fixed_wide(p);
    db.load(&items);
    for (qs, expected) in [
        // Rows 1 and 3 are the same instant at -05:30 and -12:00.
        ("stamp__eq=2024-02-29T00%3A30%3A00Z", vec![1, 3]),
        ("stamp__eq=2024-02-29T01%3A30%3A00%2B01%3A00", vec![1, 3]),
        (
            "stamp__ne=2024-02-29T00%3A30%3A00%2B00%3A00",
            vec![2, 4, 5, 6],
        ),
        ("stamp__lt=2024-02-29T00%3A30%3A00%2B00%3A00", vec![2, 4, 6]),
        ("stamp__gte=2024-02-28T19%3A00%3A00-05%3A30", vec![1, 3, 5]),
        ("stamp__lte=2024-02-29T00%3A00%3A00Z", vec![2, 4]),
        (
            "stamp__gt=2024-02-29T13%3A00%3A00%2B13%3A00",
            vec![1, 3, 5, 6],
        ),
        (
            "stamp__in=2024-02-28T14%3A00%3A00-10%3A00,2024-03-01T00%3A00%3A00Z",
            vec![2, 4, 5],
        ),
        // A fraction of a second against whole seconds (rows 2 and 4 are
        // at 00:00:00 UTC, row 6 at 00:00:59): on SQLite too.
        ("stamp__gt=2024-02-29T00%3A00%3A00.5Z", vec![1, 3, 5, 6]),
        ("stamp__gte=2024-02-29T00%3A00%3A00.5Z", vec![1, 3, 5, 6]),
        ("stamp__lt=2024-02-29T00%3A00%3A00.5Z", vec![2, 4]),
        ("stamp__lte=2024-02-29T00%3A00%3A59.999Z", vec![2, 4, 6]),
        (
            "stamp__gte=2024-02-29T00%3A00%3A59.999%2B00%3A00",
            vec![1, 3, 5],
        ),
        (
            "stamp__lte=2024-02-29T00%3A30%3A00.000001Z",
            vec![1, 2, 3, 4, 6],
        ),
        ("stamp__eq=2024-02-29T00%3A00%3A00.5Z", vec![]),
        ("sort=stamp", vec![2, 4, 6, 1, 3, 5]),
        ("sort=-stamp", vec![5, 1, 3, 6, 2, 4]),
        ("big__eq=9223372036854775807", vec![1]),
        ("big__gt=9007199254740992", vec![1, 2]),
        ("big__lt=9007199254740993", vec![3, 4, 5, 6]),
        ("big__in=9007199254740993,0", vec![2, 4]),
        ("sort=-big", vec![1, 2, 3, 5, 6, 4]),
        ("tiny__lt=0", vec![1, 4]),
        ("tiny__eq=-128", vec![1]),
        ("tiny__gte=127", vec![2]),
        ("small__gt=127", vec![1, 3]),
        ("small__in=0,255", vec![1, 2, 6]),
        ("sort=-small,tiny", vec![1, 3, 5, 4, 6, 2]),
        // An `f32` field's value is rounded to an `f32`, as the field
        // holds it: `0.1` is row 4's `0.1_f32`, neither more nor less.
        ("ratio__gt=0.1", vec![1, 3, 5]),
        ("ratio__eq=0.1", vec![4]),
        ("ratio__lte=0.1", vec![2, 4, 6]),
        ("ratio__eq=0.10000000149011612", vec![4]),
        ("ratio__lte=-0.25", vec![2, 6]),
        ("ratio__eq=16777216", vec![5]),
        ("zero__eq=-0", vec![1, 2, 6]),
        ("zero__eq=0", vec![1, 2, 6]),
        ("zero__lt=0", vec![4]),
        ("zero__gt=-0.0", vec![3, 5]),
        ("zero__lt=5e-324", vec![1, 2, 4, 6]),
        ("sort=zero", vec![4, 1, 2, 6, 3, 5]),
        ("sort=-zero", vec![5, 3, 1, 2, 6, 4]),
        // Search: simple case folding (ẞ folds to ß, not to "ss").
        ("q=stra%C3%9Fe", vec![1, 2]),
        ("q=STRA%E1%BA%9EE", vec![1, 2]),
        ("q=strasse", vec![]),
        ("q=%CF%82", vec![1, 2]),
        ("q=%CE%A3%CE%8A%CE%A3%CE%A5%CE%A6%CE%9F%CE%A3", vec![1, 2]),
        ("q=kelvin", vec![4]),
        ("q=K", vec![4, 5]),
        ("q=%E2%84%AA", vec![4, 5]),
        ("q=%C4%B0", vec![3]),
        ("q=%C4%B1", vec![4]),
        ("q=%C3%89", vec![5]),
        ("q=%F0%9F%98%80", vec![5]),
        ("q=%C7%85", vec![6]),
        ("q=s+%CF%83", vec![1, 2]),
        ("q=%C5%BF", vec![1, 2, 3]),
        ("q=%C5%BF&search_fields=body", vec![]),
        ("q=%CF%83&search_fields=title", vec![]),
        // The LIKE operators: case-sensitive, code point for code point.
        ("title__contains=%C3%9F", vec![1]),
        ("title__contains=%E1%BA%9E", vec![2]),
        ("title__starts_with=STRA", vec![2]),
        ("title__starts_with=Stra", vec![1]),
        ("title__starts_with=%C4%B0", vec![3]),
        ("title__starts_with=i", vec![]),
        ("title__ends_with=%C3%A9", vec![5]),
        ("title__ends_with=%CC%81", vec![6]),
        ("title__ends_with=E", vec![2]),
        ("title__contains=e", vec![1, 6]),
        ("title__starts_with=%F0%9F%98%80", vec![5]),
        ("title__ends_with=%F0%9F%98%80+%C3%A9", vec![5]),
        ("body__contains=%CE%A3", vec![1]),
        ("body__ends_with=%CF%82", vec![2]),
        ("body__contains=K", vec![5]),
        ("body__starts_with=%E2%84%AA", vec![4]),
        ("title__gt=z", vec![3, 4, 5]),
        ("title__eq=Stra%C3%9Fe", vec![1]),
        ("title__in=Stra%C3%9Fe,%C4%B1i", vec![1, 4]),
        ("sort=title", vec![2, 1, 6, 3, 4, 5]),
    ] {
        let q = parse_as::<WideQuery>(qs);
        let mut stmt = select_all::<Wide>();
        q.apply_to(&mut stmt);
        let sql: Vec<i64> = db.fetch(&stmt).iter().map(|r| r.id).collect();
        let mem = ids_of(&q.page_in_memory(&items).unwrap().data);
        assert_eq!(mem, expected, "memory {qs}");
        assert_eq!(sql, expected, "SQL {qs}");
    }
    // Out of the field's type, a `+` not percent-encoded (a space), or a
    // date-time finer than microseconds: 400.
    for qs in [
        "stamp__lt=2024-02-29T00:00:00.0000001Z",
        "big__eq=9223372036854775808",
        "big__eq=-1",
        "tiny__eq=128",
        "tiny__eq=-129",
        "small__eq=256",
        "small__eq=-1",
        "ratio__eq=NaN",
        // Finite as an `f64`, not as the field's `f32`.
        "ratio__eq=3.5e38",
        "ratio__gt=-1e39",
        "zero__gt=1e999",
        "stamp__eq=2024-02-29T01:30:00+01:00",
        "stamp__eq=2024-02-29",
    ] {
        assert!(
            TypedQuery::<WideQuery>::from_query_str(qs, &config()).is_err(),
            "{qs} parsed"
        );
    }
}

#[test]
fn sqlite_literal_matching() {
    check_literals(&sqlite());
}

#[test]
fn sqlite_memory_equals_sql_and_cursor_walks() {
    run_properties::<Item>(&sqlite(), 96, items(), query(), true);
}

#[test]
fn sqlite_wide_literals() {
    check_wide_literals(&sqlite(), SQLITE);
}

#[test]
fn sqlite_wide_memory_equals_sql_and_cursor_walks() {
    run_properties(
        &sqlite(),
        96,
        wide_items(SQLITE),
        wide_query(),
        SQLITE.keeps_negative_zero,
    );
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
        run_properties::<Item>(&db, 48, items(), query(), true);
    }
}

#[test]
fn postgres_wide_literals() {
    if let Some(db) = postgres() {
        check_wide_literals(&db, POSTGRES);
    }
}

#[test]
fn postgres_wide_memory_equals_sql_and_cursor_walks() {
    if let Some(db) = postgres() {
        run_properties(
            &db,
            48,
            wide_items(POSTGRES),
            wide_query(),
            POSTGRES.keeps_negative_zero,
        );
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
    // Every value bound, none in the SQL text (the `'` and `"` included).
    assert_eq!(
        format!("{:?}", values.0),
        r#"[String(Some("%x'\"%")), String(Some("x'\"")), String(Some("")), TimeDate(Some(2024-01-01)), String(Some("%a%")), String(Some("%a%")), BigUnsigned(Some(3)), BigUnsigned(Some(0))]"#
    );
    let (pg, pg_values) = stmt.build(PostgresQueryBuilder);
    assert_eq!(
        pg,
        r#"SELECT * FROM "items" WHERE "name" LIKE $1 ESCAPE E'\\' AND REPLACE("name", $2, $3) <> "name" AND "day_col" > $4 AND (LOWER("name") LIKE LOWER($5) ESCAPE E'\\' OR LOWER("note") LIKE LOWER($6) ESCAPE E'\\') ORDER BY "rank" DESC NULLS LAST, "day_col" ASC, "id" ASC LIMIT $7 OFFSET $8"#
    );
    assert_eq!(pg_values, values);
}
