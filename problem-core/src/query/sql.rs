//! Applying a typed query to a `sea_query::SelectStatement` (feature
//! `sea-query`).
//!
//! - Column names come only from the schema's whitelist (`column = ".."`,
//!   quoted by sea-query); every value is a bound parameter.
//! - `WHERE`: every filter condition (AND) and the search: for each term,
//!   OR-ed over the searched fields, the field's `folded_column` matched as
//!   `contains` matches (below) with the term folded by [`fold_case`] when
//!   it has one (the same rows on every database), else
//!   `LOWER(col) LIKE LOWER(?) ESCAPE '\'` (ASCII-only folding on SQLite,
//!   and on PostgreSQL under a `C` collation);
//!   the terms AND-ed.
//! - `contains` / `starts_with` / `ends_with`: `col LIKE ? ESCAPE '\'` with
//!   `%`, `_` and `\` escaped, plus a case-sensitive check that works on
//!   both SQLite (whose `LIKE` ignores ASCII case) and PostgreSQL:
//!   `REPLACE(col, ?, '') <> col`, `SUBSTR(col, 1, n) = ?`,
//!   `SUBSTR(col, LENGTH(col) - n + 1) = ?`.
//! - `iexact` / `icontains` / `istarts_with`: the field's `folded_column`
//!   `= ?`, or matched as `contains` / `starts_with` match, with the value
//!   folded by [`fold_case`], as search (the derive requires
//!   `folded_column` on a field that allows them); a hand-written
//!   [`FieldSpec`] without one compares `LOWER(col)` with `LOWER(?)`.
//! - `ORDER BY` the effective order (key last); nullable columns get
//!   `NULLS FIRST` ascending and `NULLS LAST` descending, as in memory.
//! - Keyset cursors: the lexicographic OR-expansion
//!   `(a > ?) OR (a = ? AND b < ?) OR ...`, null-aware, then `LIMIT limit + 1`.
//! - Date-times (`time::OffsetDateTime`) are bound in UTC. PostgreSQL
//!   compares `timestamptz` values as instants. SQLite has no date-time
//!   type: sqlx stores them as RFC 3339 text with their offset, and text
//!   compares as text, so on SQLite filters, sort and cursors on a date-time
//!   column are right when every stored value is UTC in whole seconds
//!   (`time` leaves a zero fraction out), or with Unix seconds in an
//!   integer column and an `i64` field. A filter value with a fraction of
//!   a second is compared with its whole second too, so it finds the same
//!   whole-second rows on SQLite as elsewhere (`created__gt=…T10:00:00.5Z`
//!   does not take `…T10:00:00Z`).
//!
//! ```
//! use problem_core::CollectionQuery;
//! use problem_core::query::{QueryConfig, TypedQuery};
//! use problem_core::sea_query::{Alias, Asterisk, Query, SqliteQueryBuilder};
//!
//! #[derive(CollectionQuery)]
//! #[allow(dead_code)]
//! struct BookQuery {
//!     #[query(filter(eq, gt), sort)]
//!     id: i64,
//!     #[query(filter(contains), search)]
//!     title: String,
//! }
//!
//! let q = TypedQuery::<BookQuery>::from_query_str("id__gt=5&q=dune&page=2&per_page=10", &QueryConfig::default()).unwrap();
//! let mut select = Query::select().column(Asterisk).from(Alias::new("books")).to_owned();
//! let count = q.count_statement(&select);
//! q.apply_to(&mut select);
//! let (sql, values) = select.build(SqliteQueryBuilder);
//! assert_eq!(
//!     sql,
//!     r#"SELECT * FROM "books" WHERE "id" > ? AND LOWER("title") LIKE LOWER(?) ESCAPE '\' ORDER BY "id" ASC LIMIT ? OFFSET ?"#
//! );
//! assert_eq!(values.0.len(), 4);
//! assert_eq!(
//!     count.build(SqliteQueryBuilder).0,
//!     r#"SELECT COUNT(*) AS "total" FROM (SELECT * FROM "books" WHERE "id" > ? AND LOWER("title") LIKE LOWER(?) ESCAPE '\') AS "collection""#
//! );
//! ```

use sea_query::{
    Alias, Asterisk, BinOper, Cond, Condition, Expr, ExprTrait, Func, LikeExpr, NullOrdering,
    Order, Query, SelectStatement,
};

use super::filter::{FilterCondition, Operand, Operator, escape_like};
use super::fold::fold_case;
use super::sort::Direction;
use super::typed::{CollectionQuery, FieldSpec, TypedQuery};
use super::value::FieldValue;

/// The escape character of every `LIKE` pattern.
const ESCAPE: char = '\\';

/// The column of a whitelisted field (`col` or `table.col`).
fn column(spec: &FieldSpec) -> Expr {
    column_named(spec.column)
}

/// A whitelisted column name (`col` or `table.col`).
fn column_named(name: &str) -> Expr {
    match name.split_once('.') {
        Some((table, col)) => Expr::col((Alias::new(table), Alias::new(col))),
        None => Expr::col(Alias::new(name)),
    }
}

/// A bound value.
pub(crate) fn bind(value: &FieldValue) -> Expr {
    match value {
        FieldValue::Null => Expr::val(sea_query::Value::String(None)),
        FieldValue::Integer(v) => Expr::val(*v),
        FieldValue::Float(v) => Expr::val(*v),
        FieldValue::Boolean(v) => Expr::val(*v),
        FieldValue::Text(v) => Expr::val(v.as_str()),
        FieldValue::Date(d) => Expr::val(*d),
        FieldValue::DateTime(d) => Expr::val(*d),
    }
}

fn like(col: Expr, pattern: String) -> Expr {
    col.like(LikeExpr::new(pattern).escape(ESCAPE))
}

fn func(name: &'static str, args: Vec<Expr>) -> Expr {
    Expr::from(Func::cust(Alias::new(name)).args(args))
}

/// The case-sensitive text matches: `col LIKE pattern ESCAPE '\'` (which
/// narrows by index and ignores ASCII case on SQLite) AND-ed with `exact`,
/// a check that is case-sensitive on every database; only the `LIKE` for
/// an empty text.
fn text_match(col: Expr, pattern: String, exact: Expr, text: &str) -> Expr {
    let l = like(col, pattern);
    if text.is_empty() { l } else { l.and(exact) }
}

/// The number of characters of `text`, as SQL's `LENGTH` counts them.
fn char_count(text: &str) -> i32 {
    i32::try_from(text.chars().count()).unwrap_or(i32::MAX)
}

/// `contains`: `col LIKE '%text%' AND REPLACE(col, text, '') <> col`.
fn contains(col: Expr, text: &str) -> Expr {
    let exact = func(
        "REPLACE",
        vec![col.clone(), Expr::val(text.to_owned()), Expr::val("")],
    )
    .ne(col.clone());
    text_match(col, format!("%{}%", escape_like(text)), exact, text)
}

/// `starts_with`: `col LIKE 'text%' AND SUBSTR(col, 1, n) = text`.
fn starts_with(col: Expr, text: &str) -> Expr {
    let exact = func(
        "SUBSTR",
        vec![col.clone(), Expr::val(1i32), Expr::val(char_count(text))],
    )
    .eq(Expr::val(text.to_owned()));
    text_match(col, format!("{}%", escape_like(text)), exact, text)
}

/// `ends_with`: `col LIKE '%text' AND SUBSTR(col, LENGTH(col) - n + 1) = text`.
fn ends_with(col: Expr, text: &str) -> Expr {
    let exact = func(
        "SUBSTR",
        vec![
            col.clone(),
            func("LENGTH", vec![col.clone()])
                .sub(Expr::val(char_count(text)))
                .add(Expr::val(1i32)),
        ],
    )
    .eq(Expr::val(text.to_owned()));
    text_match(col, format!("%{}", escape_like(text)), exact, text)
}

/// An order comparison of a column with a value.
#[derive(Clone, Copy)]
enum Ordered {
    Gt,
    Gte,
    Lt,
    Lte,
}

/// `col > value` (`>=`, `<`, `<=`). A date-time value with a fraction of a
/// second is also compared with its whole second, so that SQLite, which
/// compares the RFC 3339 text sqlx stores (`…T10:00:00Z`) with the bound
/// text (`…T10:00:00.5Z`, and `.` sorts before `Z`), finds the same rows
/// as PostgreSQL and memory do: `> v` and `>= v` also need `<> floor(v)`,
/// `< v` and `<= v` also take `= floor(v)` (the whole second is the one
/// text that compares on the wrong side of `v`; a stored fraction of the
/// same second compares right). On a database that compares instants the
/// added comparison changes nothing.
fn compare(col: Expr, value: &FieldValue, how: Ordered) -> Expr {
    let bound = bind(value);
    let exact = match how {
        Ordered::Gt => col.clone().gt(bound),
        Ordered::Gte => col.clone().gte(bound),
        Ordered::Lt => col.clone().lt(bound),
        Ordered::Lte => col.clone().lte(bound),
    };
    let FieldValue::DateTime(instant) = value else {
        return exact;
    };
    if instant.nanosecond() == 0 {
        return exact;
    }
    let whole = bind(&FieldValue::DateTime(
        instant.replace_nanosecond(0).unwrap_or(*instant),
    ));
    match how {
        Ordered::Gt | Ordered::Gte => exact.and(col.ne(whole)),
        Ordered::Lt | Ordered::Lte => exact.or(col.eq(whole)),
    }
}

/// The SQL of one condition. Every operator is named (no wildcard): a new
/// one does not compile until it has its SQL here. An operand of the wrong
/// shape (impossible for parsed queries) is `FALSE`: never widen the result.
fn condition_expr(cond: &FilterCondition, spec: &FieldSpec) -> Expr {
    let col = column(spec);
    let one = |build: &dyn Fn(Expr, Expr) -> Expr| match &cond.operand {
        Operand::One(v) => build(col.clone(), bind(v)),
        Operand::List(_) | Operand::None => Expr::val(false),
    };
    let text = |build: &dyn Fn(Expr, &str) -> Expr| {
        if let Operand::One(FieldValue::Text(t)) = &cond.operand {
            build(col.clone(), t)
        } else {
            Expr::val(false)
        }
    };
    let ordered = |how: Ordered| match &cond.operand {
        Operand::One(v) => compare(col.clone(), v, how),
        Operand::List(_) | Operand::None => Expr::val(false),
    };
    let list = |build: &dyn Fn(Expr, &[FieldValue]) -> Expr| match &cond.operand {
        Operand::List(vs) => build(col.clone(), vs),
        Operand::One(_) | Operand::None => Expr::val(false),
    };
    match cond.op {
        Operator::Eq => one(&|c, v| c.eq(v)),
        Operator::Ne => one(&|c, v| c.ne(v)),
        Operator::Gt => ordered(Ordered::Gt),
        Operator::Gte => ordered(Ordered::Gte),
        Operator::Lt => ordered(Ordered::Lt),
        Operator::Lte => ordered(Ordered::Lte),
        Operator::In => list(&|c, vs| c.is_in(vs.iter().map(bind))),
        Operator::NotIn => list(&|c, vs| c.is_not_in(vs.iter().map(bind))),
        Operator::Contains => text(&contains),
        Operator::StartsWith => text(&starts_with),
        Operator::EndsWith => text(&ends_with),
        Operator::IsNull => col.is_null(),
        Operator::IsNotNull => col.is_not_null(),
        Operator::IExact => text(&|_, t| folded_match(spec, Fold::Exact, t)),
        Operator::IContains => text(&|_, t| folded_match(spec, Fold::Contains, t)),
        Operator::IStartsWith => text(&|_, t| folded_match(spec, Fold::StartsWith, t)),
    }
}

/// The shapes of a case-insensitive match.
#[derive(Clone, Copy)]
enum Fold {
    Exact,
    Contains,
    StartsWith,
}

/// A case-insensitive match (`iexact`, `icontains`, `istarts_with`). With
/// a `folded_column`: that column against the text folded by
/// [`fold_case`] (`=`, or `LIKE` with `%`, `_` and `\` escaped), the same
/// rows on every database, as search. Without one (a hand-written
/// [`FieldSpec`]; the derive requires `folded_column` for these operators):
/// `LOWER(col)` against `LOWER(?)`, which SQLite folds for ASCII only.
fn folded_match(spec: &FieldSpec, shape: Fold, text: &str) -> Expr {
    let folded = fold_case(text);
    match (spec.folded_column, shape) {
        (Some(folded_column), Fold::Exact) => {
            column_named(folded_column).eq(Expr::val(folded.into_owned()))
        }
        // `LIKE` alone is not exact on SQLite, which reads U+FFFE and
        // U+FFFF as U+FFFD in a `LIKE`: the case-sensitive matches' exact
        // check, on the folded column, gives the same rows everywhere.
        (Some(folded_column), Fold::Contains) => contains(column_named(folded_column), &folded),
        (Some(folded_column), Fold::StartsWith) => {
            starts_with(column_named(folded_column), &folded)
        }
        (None, Fold::Exact) => Expr::from(Func::lower(column(spec)))
            .eq(Expr::from(Func::lower(Expr::val(folded.into_owned())))),
        (None, Fold::Contains) => lower_like(column(spec), format!("%{}%", escape_like(&folded))),
        (None, Fold::StartsWith) => lower_like(column(spec), format!("{}%", escape_like(&folded))),
    }
}

/// `LOWER(col) LIKE LOWER(pattern) ESCAPE '\'`.
fn lower_like(col: Expr, pattern: String) -> Expr {
    let lowered = Expr::from(Func::lower(Expr::val(pattern)))
        .binary(BinOper::Escape, Expr::Constant(ESCAPE.into()));
    Expr::from(Func::lower(col)).binary(BinOper::Like, lowered)
}

/// `direction`, flipped when `reverse`.
fn directed(direction: Direction, reverse: bool) -> Direction {
    match (direction, reverse) {
        (d, false) => d,
        (Direction::Asc, true) => Direction::Desc,
        (Direction::Desc, true) => Direction::Asc,
    }
}

/// SQL through `sea-query`; every method here needs the feature `sea-query`.
#[cfg_attr(docsrs, doc(cfg(feature = "sea-query")))]
impl<Q: CollectionQuery> TypedQuery<Q> {
    /// The `WHERE` condition of the filters and the search (no keyset).
    /// Feature `sea-query`.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq, in), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: i32,
    /// #     #[query(search)]
    /// #     title: String,
    /// # }
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    /// let q = TypedQuery::<Book>::from_query_str("year__gte=2000&id__in=1,2&q=dune&page=2", &config).unwrap();
    /// let select = Query::select().column(Alias::new("id")).from(Alias::new("books"))
    ///     .cond_where(q.sql_condition()).to_owned();
    /// assert_eq!(
    ///     select.to_string(SqliteQueryBuilder),
    ///     r#"SELECT "id" FROM "books" WHERE "year" >= 2000 AND "id" IN (1, 2) AND LOWER("title") LIKE LOWER('%dune%') ESCAPE '\'"#
    /// );
    /// ```
    pub fn sql_condition(&self) -> Condition {
        let mut all = Cond::all();
        for cond in self.filter().conditions() {
            if let Some(spec) = Q::SCHEMA.field(&cond.field) {
                all = all.add(condition_expr(cond, spec));
            }
        }
        if let Some(search) = self.search() {
            let fields: Vec<&FieldSpec> = self
                .search_fields()
                .into_iter()
                .filter_map(|f| Q::SCHEMA.field(f))
                .collect();
            for term in &search.terms {
                let folded = fold_case(term);
                let pattern = format!("%{}%", escape_like(term));
                let mut any = Cond::any();
                for spec in &fields {
                    any = any.add(match spec.folded_column {
                        // Both sides folded by `fold_case`, compared as
                        // `contains` does: the same rows on every database.
                        Some(folded_column) => contains(column_named(folded_column), &folded),
                        None => lower_like(column(spec), pattern.clone()),
                    });
                }
                all = all.add(any);
            }
        }
        all
    }

    /// The keyset condition: rows strictly after a next cursor's row in the
    /// effective order, or strictly before a previous cursor's row (the
    /// same expansion over the reversed order), that row included when
    /// [`cursor_includes_row`](Self::cursor_includes_row); `None` without
    /// a cursor. Feature `sea-query`.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq, in), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: i32,
    /// #     #[query(search)]
    /// #     title: String,
    /// # }
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    /// let books = [(1, 1965), (2, 1951), (3, 1969)].map(|(id, year)| Book { id, year, title: String::new() });
    /// let first = TypedQuery::<Book>::from_query_str("sort=-year&limit=1", &config).unwrap();
    /// assert!(first.keyset_condition().is_none());
    /// let next = first.cursor_page_in_memory(&books).unwrap().meta.next_cursor.unwrap();
    /// let second = TypedQuery::<Book>::from_query_str(&format!("sort=-year&limit=1&cursor={next}"), &config).unwrap();
    /// let select = Query::select().column(Alias::new("id")).from(Alias::new("books"))
    ///     .cond_where(second.keyset_condition().unwrap()).to_owned();
    /// assert_eq!(
    ///     select.to_string(SqliteQueryBuilder),
    ///     r#"SELECT "id" FROM "books" WHERE "year" < 1969 OR ("year" = 1969 AND "id" > 3)"#
    /// );
    /// ```
    pub fn keyset_condition(&self) -> Option<Condition> {
        let (after, reverse) = match (self.after(), self.before()) {
            (Some(after), _) => (after, false),
            (None, Some(before)) => (before, true),
            (None, None) => return None,
        };
        let order = self.order().fields();
        let at_row = self.cursor_includes_row();
        let mut any = Cond::any();
        for i in 0..order.len() {
            let mut branch = Cond::all();
            let mut possible = true;
            for (j, s) in order.iter().enumerate().take(i + 1) {
                let Some(spec) = Q::SCHEMA.field(&s.field) else {
                    return Some(Cond::all().add(Expr::val(false)));
                };
                let Some(v) = after.get(j) else {
                    return Some(Cond::all().add(Expr::val(false)));
                };
                let col = column(spec);
                if j < i {
                    branch = branch.add(if v.is_null() {
                        col.is_null()
                    } else {
                        col.eq(bind(v))
                    });
                    continue;
                }
                // The last entry of a cursor that includes its own row: at
                // or after `v` (the row itself matches the last branch).
                if at_row && i + 1 == order.len() {
                    match (directed(s.direction, reverse), v.is_null()) {
                        (Direction::Asc, true) => {}
                        (Direction::Asc, false) => branch = branch.add(col.gte(bind(v))),
                        (Direction::Desc, true) => branch = branch.add(col.is_null()),
                        (Direction::Desc, false) if spec.nullable => {
                            branch = branch
                                .add(Cond::any().add(col.clone().lte(bind(v))).add(col.is_null()));
                        }
                        (Direction::Desc, false) => branch = branch.add(col.lte(bind(v))),
                    }
                    continue;
                }
                // The i-th entry: strictly after `v` in its direction (reversed
                // for a previous cursor), nulls lowest.
                match (directed(s.direction, reverse), v.is_null()) {
                    (Direction::Asc, true) => branch = branch.add(col.is_not_null()),
                    (Direction::Asc, false) => branch = branch.add(col.gt(bind(v))),
                    (Direction::Desc, true) => possible = false,
                    (Direction::Desc, false) if spec.nullable => {
                        branch =
                            branch.add(Cond::any().add(col.clone().lt(bind(v))).add(col.is_null()));
                    }
                    (Direction::Desc, false) => branch = branch.add(col.lt(bind(v))),
                }
            }
            if possible {
                any = any.add(branch);
            }
        }
        if any.is_empty() {
            any = any.add(Expr::val(false));
        }
        Some(any)
    }

    /// `ORDER BY` the effective order, or its exact reverse (`reverse`:
    /// every direction flipped, and with it where nulls go).
    fn order_by(&self, stmt: &mut SelectStatement, reverse: bool) {
        for s in self.order().fields() {
            let Some(spec) = Q::SCHEMA.field(&s.field) else {
                continue;
            };
            let (order, nulls) = match directed(s.direction, reverse) {
                Direction::Asc => (Order::Asc, NullOrdering::First),
                Direction::Desc => (Order::Desc, NullOrdering::Last),
            };
            if spec.nullable {
                stmt.order_by_expr_with_nulls(column(spec), order, nulls);
            } else {
                stmt.order_by_expr(column(spec), order);
            }
        }
    }

    /// Offset pagination: adds the `WHERE` of filters and search, `ORDER BY`
    /// the effective order and `LIMIT per_page OFFSET (page - 1) * per_page`.
    /// A `cursor` in the request is not applied: test
    /// [`wants_cursor_page`](TypedQuery::wants_cursor_page) and use the
    /// keyset statements for it, or answer a 400. Feature `sea-query`.
    ///
    /// ```
    /// use problem_core::CollectionQuery;
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    ///
    /// #[derive(CollectionQuery)]
    /// #[query(key = "id")]
    /// #[allow(dead_code)]
    /// struct OrderQuery {
    ///     #[query(filter(eq, gt), sort)]
    ///     id: i64,
    /// }
    ///
    /// let q = TypedQuery::<OrderQuery>::from_query_str("id__gt=5&page=2&per_page=10", &QueryConfig::default()).unwrap();
    /// let mut select = Query::select().column(Alias::new("id")).from(Alias::new("orders")).to_owned();
    /// q.apply_to(&mut select);
    /// assert_eq!(
    ///     select.to_string(SqliteQueryBuilder),
    ///     r#"SELECT "id" FROM "orders" WHERE "id" > 5 ORDER BY "id" ASC LIMIT 10 OFFSET 10"#
    /// );
    /// let count = q.count_statement(&Query::select().column(Alias::new("id")).from(Alias::new("orders")).to_owned());
    /// assert_eq!(
    ///     count.to_string(SqliteQueryBuilder),
    ///     r#"SELECT COUNT(*) AS "total" FROM (SELECT "id" FROM "orders" WHERE "id" > 5) AS "collection""#
    /// );
    /// ```
    pub fn apply_to(&self, stmt: &mut SelectStatement) {
        stmt.cond_where(self.sql_condition());
        self.order_by(stmt, false);
        let p = self.pagination();
        stmt.limit(p.limit()).offset(p.offset());
    }

    /// Cursor pagination: the `WHERE` of filters and search, the keyset
    /// condition when a cursor was sent, `ORDER BY` the effective order and
    /// `LIMIT limit + 1`; pass the rows to [`TypedQuery::cursor_page`].
    /// After a previous cursor the condition and the `ORDER BY` are
    /// reversed (the rows nearest before the cursor's row come first), and
    /// [`TypedQuery::cursor_page`] puts the rows back in order.
    /// Feature `sea-query`.
    ///
    /// ```
    /// use problem_core::CollectionQuery;
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    ///
    /// #[derive(CollectionQuery, serde::Serialize)]
    /// #[query(key = "id")]
    /// struct Q {
    ///     #[query(sort)]
    ///     id: i64,
    ///     #[query(sort)]
    ///     year: Option<i32>,
    /// }
    /// let config = QueryConfig::default().cursor_keys([[7u8; 32].to_vec()]).unwrap();
    /// let first = TypedQuery::<Q>::from_query_str("sort=-year&limit=2", &config).unwrap();
    /// let rows = vec![Q { id: 4, year: Some(2001) }, Q { id: 2, year: Some(1999) }, Q { id: 3, year: None }];
    /// let next = first.cursor_page(rows).unwrap().meta.next_cursor.unwrap();
    /// let second = TypedQuery::<Q>::from_query_str(&format!("sort=-year&limit=2&cursor={next}"), &config).unwrap();
    /// let page = second.cursor_page(vec![Q { id: 5, year: Some(1990) }, Q { id: 3, year: None }]).unwrap();
    /// let prev = page.meta.prev_cursor.unwrap();
    /// let back = TypedQuery::<Q>::from_query_str(&format!("sort=-year&limit=2&cursor={prev}"), &config).unwrap();
    /// let mut select = Query::select().column(Alias::new("id")).from(Alias::new("t")).to_owned();
    /// back.apply_cursor_to(&mut select);
    /// assert_eq!(
    ///     select.to_string(SqliteQueryBuilder),
    ///     r#"SELECT "id" FROM "t" WHERE "year" > 1990 OR ("year" = 1990 AND "id" < 5) ORDER BY "year" ASC NULLS FIRST, "id" DESC LIMIT 3"#
    /// );
    /// ```
    pub fn apply_cursor_to(&self, stmt: &mut SelectStatement) {
        stmt.cond_where(self.sql_condition());
        if let Some(keyset) = self.keyset_condition() {
            stmt.cond_where(keyset);
        }
        self.order_by(stmt, self.before().is_some());
        stmt.limit(self.limit().saturating_add(1));
    }

    /// `SELECT COUNT(*) AS "total" FROM (<base> WHERE <filters and search>) AS "collection"`:
    /// the number of matching rows of `base` (whose own `ORDER BY`, `LIMIT`
    /// and `OFFSET` are dropped). Feature `sea-query`; example in
    /// [`apply_to`](Self::apply_to).
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq, in), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: i32,
    /// #     #[query(search)]
    /// #     title: String,
    /// # }
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::sea_query::{Alias, Order, Query, SqliteQueryBuilder};
    /// let q = TypedQuery::<Book>::from_query_str("q=dune&page=4", &config).unwrap();
    /// let base = Query::select().column(Alias::new("id")).from(Alias::new("books"))
    ///     .order_by(Alias::new("id"), Order::Desc).limit(5).to_owned();
    /// assert_eq!(
    ///     q.count_statement(&base).to_string(SqliteQueryBuilder),
    ///     r#"SELECT COUNT(*) AS "total" FROM (SELECT "id" FROM "books" WHERE LOWER("title") LIKE LOWER('%dune%') ESCAPE '\') AS "collection""#
    /// );
    /// ```
    pub fn count_statement(&self, base: &SelectStatement) -> SelectStatement {
        let mut inner = base.clone();
        inner.clear_order_by().reset_limit().reset_offset();
        inner.cond_where(self.sql_condition());
        Query::select()
            .expr_as(Func::count(Expr::col(Asterisk)), Alias::new("total"))
            .from_subquery(inner, Alias::new("collection"))
            .to_owned()
    }
    /// `<base> WHERE <filters and search>`, without `ORDER BY`, `LIMIT` and
    /// `OFFSET`: the rows an offset listing pages through. What a
    /// PostgreSQL row estimate is taken from (`EXPLAIN (FORMAT JSON)` of
    /// it, read with [`explain_plan_rows`](super::explain_plan_rows)).
    /// Feature `sea-query`.
    ///
    /// ```
    /// use problem_core::CollectionQuery;
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    ///
    /// #[derive(CollectionQuery)]
    /// #[allow(dead_code)]
    /// struct OrderQuery {
    ///     #[query(filter(gt), sort)]
    ///     id: i64,
    /// }
    /// let q = TypedQuery::<OrderQuery>::from_query_str("id__gt=5&page=3", &QueryConfig::default()).unwrap();
    /// let base = Query::select().column(Alias::new("id")).from(Alias::new("orders")).to_owned();
    /// assert_eq!(
    ///     q.filtered_statement(&base).to_string(SqliteQueryBuilder),
    ///     r#"SELECT "id" FROM "orders" WHERE "id" > 5"#
    /// );
    /// assert_eq!(
    ///     q.capped_count_statement(&base, 10_001).to_string(SqliteQueryBuilder),
    ///     r#"SELECT COUNT(*) AS "total" FROM (SELECT 1 FROM "orders" WHERE "id" > 5 LIMIT 10001) AS "collection""#
    /// );
    /// ```
    pub fn filtered_statement(&self, base: &SelectStatement) -> SelectStatement {
        let mut inner = base.clone();
        inner.clear_order_by().reset_limit().reset_offset();
        inner.cond_where(self.sql_condition());
        inner
    }

    /// `SELECT COUNT(*) AS "total" FROM (SELECT 1 FROM <base> WHERE <filters
    /// and search> LIMIT cap) AS "collection"`: the number of matching rows,
    /// but at most `cap`, so counting stops early on a large table. With
    /// `cap` = [`estimate_threshold`](Self::estimate_threshold) + 1, a
    /// result above the threshold means "more than the threshold" (the
    /// estimated count strategy; on SQLite that capped number is the
    /// estimate). A `cap` above `i64::MAX` is written as `i64::MAX`, the
    /// largest `LIMIT` SQLite and PostgreSQL take. Feature `sea-query`;
    /// example in [`filtered_statement`](Self::filtered_statement).
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq, in), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: i32,
    /// #     #[query(search)]
    /// #     title: String,
    /// # }
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
    /// let q = TypedQuery::<Book>::from_query_str("id=7", &config).unwrap();
    /// let base = Query::select().column(Alias::new("id")).from(Alias::new("books")).to_owned();
    /// let cap = q.estimate_threshold() + 1;
    /// assert_eq!(
    ///     q.capped_count_statement(&base, cap).to_string(SqliteQueryBuilder),
    ///     r#"SELECT COUNT(*) AS "total" FROM (SELECT 1 FROM "books" WHERE "id" = 7 LIMIT 10001) AS "collection""#
    /// );
    /// assert!(q.capped_count_statement(&base, u64::MAX).to_string(SqliteQueryBuilder).contains("LIMIT 9223372036854775807)"));
    /// ```
    pub fn capped_count_statement(&self, base: &SelectStatement, cap: u64) -> SelectStatement {
        let mut inner = self.filtered_statement(base);
        let cap = Ord::min(cap, i64::MAX.unsigned_abs());
        inner.clear_selects().expr(Expr::val(1)).limit(cap);
        Query::select()
            .expr_as(Func::count(Expr::col(Asterisk)), Alias::new("total"))
            .from_subquery(inner, Alias::new("collection"))
            .to_owned()
    }
}
