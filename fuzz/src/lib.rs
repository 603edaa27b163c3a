//! Shared pieces of the fuzz targets: the catalog's collection query, a
//! fixed cursor key, a serializer from a parsed query back to a query string,
//! and real cursors issued by the query runtime.
//!
//! Run the targets with `scripts/fuzz.sh [seconds]` (see RELIABILITY.md).

use std::sync::OnceLock;

use problem_core::CollectionQuery;
use problem_core::query::{
    Direction, Operand, Operator, QueryConfig, QueryError, TypedQuery, FieldValue,
};
use serde_json::{Value as Json, json};
use time::Date;

/// The catalog's `BookQuery` (examples/src/catalog/list.rs), field for
/// field: the fuzz crate does not depend on `examples` (sqlx, SQLite) to
/// keep its instrumented build small. Keep the two in step.
#[derive(Debug, CollectionQuery)]
#[query(key = "id", default_sort = "id", max_page_size = 100)]
#[allow(dead_code)]
pub struct BookQuery {
    #[query(filter(eq, ne, in, not_in, gt, gte, lt, lte), sort)]
    id: i64,
    #[query(filter(eq, in))]
    isbn: String,
    #[query(filter(eq, contains, starts_with, ends_with), sort, search)]
    title: String,
    #[query(filter(eq, ne, in, not_in, contains, starts_with), sort, search)]
    author: String,
    #[query(filter(eq, ne, in, not_in))]
    genre: String,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    year: i32,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    price: f64,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    rating: f64,
    #[query(filter(is_null, is_not_null, contains), search)]
    subtitle: Option<String>,
    #[query(filter(eq, gt, gte, lt, lte), sort)]
    published_at: Date,
    #[query(filter(eq))]
    in_stock: bool,
}

/// The cursor key every target uses (32 bytes).
pub const CURSOR_KEY: [u8; 32] = *b"fuzz-cursor-key-0123456789abcdef";
/// A second key that verifies too (rotation).
pub const OLD_CURSOR_KEY: [u8; 40] = *b"fuzz-old-cursor-key-0123456789abcdef0123";

/// The strict configuration (the catalog's), with both keys.
pub fn config() -> &'static QueryConfig {
    static CONFIG: OnceLock<QueryConfig> = OnceLock::new();
    CONFIG.get_or_init(|| {
        QueryConfig::default()
            .cursor_keys([CURSOR_KEY.to_vec(), OLD_CURSOR_KEY.to_vec()])
            .expect("valid keys")
    })
}

/// The lenient configuration (unknown parameters ignored).
pub fn lenient_config() -> &'static QueryConfig {
    static CONFIG: OnceLock<QueryConfig> = OnceLock::new();
    CONFIG.get_or_init(|| config().clone().lenient(true))
}

/// Parses a query string as the catalog does.
pub fn parse(qs: &str, config: &QueryConfig) -> Result<TypedQuery<BookQuery>, QueryError> {
    TypedQuery::<BookQuery>::from_query_str(qs, config)
}

fn value_text(v: &FieldValue) -> String {
    match v {
        FieldValue::Null => "null".into(),
        FieldValue::Integer(i) => i.to_string(),
        // `Display` of f64 is the shortest text that parses back exactly.
        FieldValue::Float(f) => f.to_string(),
        FieldValue::Boolean(b) => b.to_string(),
        FieldValue::Text(s) => s.to_string(),
        // Dates, date-times and any kind added later (`FieldValue` is
        // `#[non_exhaustive]`): their JSON text.
        _ => match v.to_json() {
            Json::String(s) => s,
            other => other.to_string(),
        },
    }
}

/// Writes a parsed query back as a query string: every part explicit
/// (`page`, `per_page`, `sort`, one `field__op` per condition, `q`,
/// `search_fields`, `fields`, `exclude`, `cursor`).
pub fn to_query_string(q: &TypedQuery<BookQuery>) -> String {
    let p = q.params();
    let mut out = form_urlencoded::Serializer::new(String::new());
    if p.cursor.is_none() {
        out.append_pair("page", &p.pagination.page.to_string());
    }
    out.append_pair("per_page", &p.pagination.per_page.to_string());
    if !p.sort.is_empty() {
        out.append_pair("sort", &p.sort.to_string());
    }
    // A parameter repeated with another value is `conflicting_parameters`:
    // a second condition with the same operator uses the other spelling
    // (`f=v` for `f__eq=v`, `f__is_not_null=false` for `f__is_null=true`).
    let mut used: Vec<String> = Vec::new();
    for c in p.filter.conditions() {
        let first = format!("{}__{}", c.field, c.op);
        let again = used.contains(&first);
        used.push(first);
        let (name, value) = match (&c.op, &c.operand) {
            (Operator::IsNull, _) if again => {
                (format!("{}__is_not_null", c.field), "false".to_owned())
            }
            (Operator::IsNotNull, _) if again => {
                (format!("{}__is_null", c.field), "false".to_owned())
            }
            (Operator::Eq, Operand::One(v)) if again => (c.field.to_string(), value_text(v)),
            (Operator::IsNull | Operator::IsNotNull, _) => {
                (format!("{}__{}", c.field, c.op), "true".to_owned())
            }
            (op, Operand::One(v)) => (format!("{}__{op}", c.field), value_text(v)),
            (op, Operand::List(vs)) => (
                format!("{}__{op}", c.field),
                vs.iter().map(value_text).collect::<Vec<_>>().join(","),
            ),
            // `Operand::None` and any shape added later (`#[non_exhaustive]`).
            (op, _) => (format!("{}__{op}", c.field), String::new()),
        };
        out.append_pair(&name, &value);
    }
    if let Some(s) = &p.search {
        out.append_pair("q", &s.query);
        if let Some(fields) = &s.fields
            && !fields.is_empty()
        {
            out.append_pair("search_fields", &fields.join(","));
        }
    }
    if let Some(include) = &p.fields.include
        && !include.is_empty()
    {
        out.append_pair("fields", &include.join(","));
    }
    if !p.fields.exclude.is_empty() {
        out.append_pair("exclude", &p.fields.exclude.join(","));
    }
    if let Some(cursor) = &p.cursor {
        out.append_pair("cursor", cursor);
    }
    out.finish()
}

/// Whether two parsed queries mean the same: every part equal (filter
/// conditions compared by field, operator and operand, not by the parameter
/// spelling), the same effective order and the same cursor position.
pub fn same_query(a: &TypedQuery<BookQuery>, b: &TypedQuery<BookQuery>) -> Result<(), String> {
    let (pa, pb) = (a.params(), b.params());
    let mut diffs = Vec::new();
    if pa.pagination != pb.pagination {
        diffs.push(format!(
            "pagination {:?} != {:?}",
            pa.pagination, pb.pagination
        ));
    }
    if pa.sort != pb.sort {
        diffs.push(format!("sort {:?} != {:?}", pa.sort, pb.sort));
    }
    let conds = |p: &problem_core::query::CollectionParams| {
        p.filter
            .conditions()
            .iter()
            .map(|c| (c.field.clone(), c.op, c.operand.clone()))
            .fold(Vec::new(), |mut out, c| {
                // A repeated identical condition is the same filter.
                if !out.contains(&c) {
                    out.push(c);
                }
                out
            })
    };
    if conds(pa) != conds(pb) {
        diffs.push(format!("filter {:?} != {:?}", conds(pa), conds(pb)));
    }
    // An empty `search_fields` list cannot be written back; it means the
    // same as naming none.
    let search = |p: &problem_core::query::CollectionParams| {
        p.search.clone().map(|mut s| {
            if s.fields.as_ref().is_some_and(Vec::is_empty) {
                s.fields = None;
            }
            s
        })
    };
    if search(pa) != search(pb) {
        diffs.push(format!("search {:?} != {:?}", pa.search, pb.search));
    }
    let fields = |p: &problem_core::query::CollectionParams| {
        let mut f = p.fields.clone();
        if f.include.as_ref().is_some_and(Vec::is_empty) {
            f.include = None;
        }
        f
    };
    if fields(pa) != fields(pb) {
        diffs.push(format!("fields {:?} != {:?}", pa.fields, pb.fields));
    }
    if pa.cursor != pb.cursor {
        diffs.push(format!("cursor {:?} != {:?}", pa.cursor, pb.cursor));
    }
    if a.order() != b.order() {
        diffs.push(format!("order {} != {}", a.order(), b.order()));
    }
    if a.after() != b.after() {
        diffs.push(format!("after {:?} != {:?}", a.after(), b.after()));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

/// Forty deterministic books, as the catalog serializes them.
pub fn books() -> &'static [Json] {
    static BOOKS: OnceLock<Vec<Json>> = OnceLock::new();
    BOOKS.get_or_init(|| {
        let genres = ["fiction", "poetry", "history", "science"];
        (1..=40i64)
            .map(|id| {
                let year = 1950 + (id * 7) % 70;
                json!({
                    "id": id,
                    "isbn": format!("978-{id:010}"),
                    "title": format!("The Book {}", (id * 13) % 17),
                    "author": format!("Author {}", id % 9),
                    "genre": genres[(id % 4) as usize],
                    "year": year,
                    "price": ((id * 37) % 50) as f64 + 0.99,
                    "rating": ((id * 3) % 11) as f64 / 2.0,
                    "subtitle": if id % 3 == 0 { Json::Null } else { json!(format!("Part {}", id % 5)) },
                    "published_at": format!("{year}-{:02}-{:02}", 1 + id % 12, 1 + id % 28),
                    "in_stock": id % 2 == 0,
                })
            })
            .collect()
    })
}

/// A first cursor page's query and the `next_cursor` it issued, with the
/// position (sort-key values) that cursor stands for.
#[derive(Debug, Clone)]
pub struct RealCursor {
    /// The query string of the listing (without `cursor`).
    pub query: &'static str,
    /// The token the runtime issued for its second page.
    pub token: String,
    /// What the token decodes to when used with `query`.
    pub after: Vec<FieldValue>,
}

/// Listings whose sorts or filters all differ, so that a cursor of one is a
/// `cursor_mismatch` on every other.
pub const CURSOR_LISTINGS: [&str; 6] = [
    "limit=3",
    "limit=3&sort=-year,title",
    "limit=3&sort=price&genre=fiction",
    "limit=3&sort=-rating&q=book",
    "limit=4&sort=-published_at,author&year__gte=1990",
    "limit=2&sort=title&subtitle__is_null=false&id__in=1,2,4,5,7,8,10,11",
];

/// The real cursors of [`CURSOR_LISTINGS`] (second page of each).
pub fn real_cursors() -> &'static [RealCursor] {
    static CURSORS: OnceLock<Vec<RealCursor>> = OnceLock::new();
    CURSORS.get_or_init(|| {
        CURSOR_LISTINGS
            .iter()
            .map(|query| {
                let first = parse(query, config()).expect("listing parses");
                let page = first
                    .cursor_page_in_memory(books().iter())
                    .expect("first page");
                let token = page.meta.next_cursor.expect("a second page");
                let qs = format!("{query}&cursor={}", encode(&token));
                let second = parse(&qs, config()).expect("real cursor accepted");
                RealCursor {
                    query,
                    token,
                    after: second.after().expect("position").to_vec(),
                }
            })
            .collect()
    })
}

/// Percent-encodes a query value (form encoding), so that the decoded
/// value is exactly `text`.
pub fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The issue codes of a query error.
pub fn codes(err: &QueryError) -> Vec<&str> {
    err.issues().iter().map(|i| i.code.as_ref()).collect()
}

/// Checks what every refused query must satisfy: at least one issue (or
/// the 1000-parameter limit), answered as a 400 problem.
pub fn check_error(err: &QueryError) {
    if !matches!(err, QueryError::TooManyParameters) {
        assert!(!err.issues().is_empty(), "an Invalid error without issues");
    }
    let status = err
        .clone()
        .into_actix_error()
        .as_response_error()
        .status_code();
    assert_eq!(status.as_u16(), 400, "query errors are 400: {err:?}");
}

/// Direction of a sort entry as its query prefix.
pub fn prefix(d: Direction) -> &'static str {
    match d {
        Direction::Asc => "",
        Direction::Desc => "-",
    }
}
