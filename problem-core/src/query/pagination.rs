//! Offset pagination: `page`, `per_page` / `limit` (spec, "Offset pagination
//! parameters"; conflicting sizes, clamping, ranges).

use crate::problem::Issue;

use super::error::{QueryError, code, conflict, invalid_value, issue};
use super::params::{DEFAULT_MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, Int, Pairs, RawQuery, parse_int};

/// The page size bounds: `default` when the request gives none, `max` to
/// clamp larger requests to.
///
/// ```
/// use problem_core::query::{PageSizeLimits, Pagination, RawQuery};
/// assert_eq!(PageSizeLimits::default(), PageSizeLimits { default: 20, max: 100 });
/// let limits = PageSizeLimits { default: 10, max: 25 };
/// let p = Pagination::parse_with(&RawQuery::parse("per_page=40").unwrap(), limits).unwrap();
/// assert_eq!(p.per_page, 25);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSizeLimits {
    /// Page size when neither `per_page` nor `limit` is given (spec: 20).
    pub default: u64,
    /// Largest page size; a larger request is clamped to it (default 100).
    pub max: u64,
}

impl Default for PageSizeLimits {
    fn default() -> Self {
        Self {
            default: DEFAULT_PAGE_SIZE,
            max: DEFAULT_MAX_PAGE_SIZE,
        }
    }
}

/// Offset pagination: the 1-based `page` and the effective page size.
///
/// Rules:
/// - `page` defaults to 1; below 1 is `out_of_range`, not an integer is `invalid_value`;
/// - the size comes from `per_page` or `limit` (default 20); both may be
///   given when equal, different values are `conflicting_parameters`;
/// - a size over the maximum (default 100) is clamped; 0 and negatives are
///   `out_of_range`, non-integers `invalid_value`.
///
/// ```
/// use problem_core::query::{Pagination, RawQuery};
/// let p = Pagination::parse(&RawQuery::parse("page=2&per_page=50").unwrap()).unwrap();
/// assert_eq!((p.page, p.per_page, p.offset(), p.limit()), (2, 50, 50, 50));
/// let p = Pagination::parse(&RawQuery::parse("").unwrap()).unwrap();
/// assert_eq!((p.page, p.per_page, p.offset()), (1, 20, 0));
/// let p = Pagination::parse(&RawQuery::parse("limit=500").unwrap()).unwrap();
/// assert_eq!(p.per_page, 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pagination {
    /// The page number, from 1.
    pub page: u64,
    /// The effective page size (after clamping).
    pub per_page: u64,
}

impl Default for Pagination {
    fn default() -> Self {
        Self {
            page: 1,
            per_page: DEFAULT_PAGE_SIZE,
        }
    }
}

impl Pagination {
    /// `(page - 1) * per_page`: the number of items skipped.
    ///
    /// ```
    /// use problem_core::query::Pagination;
    /// assert_eq!(Pagination { page: 3, per_page: 25 }.offset(), 50);
    /// assert_eq!(Pagination::default().offset(), 0);
    /// ```
    pub fn offset(&self) -> u64 {
        self.page.saturating_sub(1).saturating_mul(self.per_page)
    }

    /// The number of items on the page: `per_page`.
    ///
    /// ```
    /// use problem_core::query::Pagination;
    /// assert_eq!(Pagination { page: 3, per_page: 25 }.limit(), 25);
    /// ```
    pub fn limit(&self) -> u64 {
        self.per_page
    }

    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::Pagination;
    /// let p = Pagination::from_query_str("page=2&per_page=50").unwrap();
    /// assert_eq!((p.offset(), p.limit()), (50, 50));
    /// assert!(Pagination::from_query_str("page=0").is_err());
    /// ```
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses `page`, `per_page` and `limit` with the default limits.
    ///
    /// ```
    /// use problem_core::query::{Pagination, RawQuery};
    /// let p = Pagination::parse(&RawQuery::parse("page=3&limit=10&per_page=10").unwrap()).unwrap();
    /// assert_eq!(p, Pagination { page: 3, per_page: 10 });
    /// let err = Pagination::parse(&RawQuery::parse("per_page=10&limit=20").unwrap()).unwrap_err();
    /// let issue = &err.issues()[0];
    /// assert_eq!((issue.name.as_str(), issue.code.as_ref()), ("per_page", "conflicting_parameters"));
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] with every issue found.
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        Self::parse_with(raw, PageSizeLimits::default())
    }

    /// Parses with explicit page size limits.
    ///
    /// ```
    /// use problem_core::query::{PageSizeLimits, Pagination, RawQuery};
    /// let limits = PageSizeLimits { default: 50, max: 200 };
    /// let p = Pagination::parse_with(&RawQuery::parse("page=2").unwrap(), limits).unwrap();
    /// assert_eq!((p.per_page, p.offset()), (50, 50));
    /// let p = Pagination::parse_with(&RawQuery::parse("per_page=500").unwrap(), limits).unwrap();
    /// assert_eq!(p.per_page, 200);
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] with every issue found.
    pub fn parse_with(raw: &RawQuery, limits: PageSizeLimits) -> Result<Self, QueryError> {
        let mut issues = Vec::new();
        let p = parse_pagination(&raw.borrowed(), limits, &mut issues);
        QueryError::from_issues(issues).map(|()| p)
    }
}

/// Largest accepted offset, so that it fits a signed 64-bit SQL integer.
const MAX_OFFSET: i128 = i64::MAX as i128;

/// The largest page whose offset (`(page - 1) * per_page`) is at most
/// [`MAX_OFFSET`]; `u64`, as one item per page allows `i64::MAX + 1`.
fn max_page(per_page: u64) -> u64 {
    (MAX_OFFSET / i128::from(per_page.max(1)) + 1) as u64
}

pub(crate) fn parse_pagination(
    raw: &Pairs<'_>,
    limits: PageSizeLimits,
    issues: &mut Vec<Issue>,
) -> Pagination {
    let per_page = parse_page_size(raw, limits, issues);
    let mut page = 1;
    if let Some(v) = raw.single("page", issues) {
        match parse_int(v) {
            Int::Value(n) if n < 1 => issues.push(
                issue(
                    "page",
                    code::OUT_OF_RANGE,
                    format!("`page` must be 1 or more, got {n}"),
                )
                .with("minimum", 1),
            ),
            Int::Value(n) if (n - 1).saturating_mul(i128::from(per_page)) > MAX_OFFSET => issues
                .push(
                    issue("page", code::OUT_OF_RANGE, "`page` is too large")
                        .with("minimum", 1)
                        .with("maximum", max_page(per_page)),
                ),
            Int::Value(n) => page = n as u64,
            Int::NotInteger => issues.push(invalid_value("page", v, "integer")),
        }
    }
    Pagination { page, per_page }
}

/// The most rows a statement may ask for or count: a cursor page asks for
/// one row more than its size, and SQL binds `LIMIT` as a signed 64-bit
/// integer (PostgreSQL's `bigint`, SQLite's `INTEGER`), so a page size or
/// count threshold above this (`u64::MAX` for "unbounded") is read as it.
pub(crate) const MAX_ROWS: u64 = i64::MAX as u64 - 1;

/// A page size given as `name=value`: its integer, or `None` after its
/// issue (`out_of_range` below 1 with the `minimum` and `maximum`,
/// `invalid_value` for no integer).
fn checked_page_size<'a>(
    (name, value): (&'static str, &'a str),
    max: u64,
    issues: &mut Vec<Issue>,
) -> Option<(i128, &'a str)> {
    match parse_int(value) {
        Int::Value(n) if n < 1 => {
            issues.push(
                issue(
                    name,
                    code::OUT_OF_RANGE,
                    format!("`{name}` must be 1 or more, got {n}"),
                )
                .with("minimum", 1)
                .with("maximum", max),
            );
            None
        }
        Int::Value(n) => Some((n, value)),
        Int::NotInteger => {
            issues.push(invalid_value(name, value, "integer"));
            None
        }
    }
}

/// The page size from `per_page` / `limit` (shared by offset and cursor
/// pagination). The limits are first bounded to what SQL can bind: `max`
/// to 1..=[`MAX_ROWS`], `default` to 1..=`max` (a hand-written
/// [`QuerySchema`](super::QuerySchema) is not checked by the derive).
pub(crate) fn parse_page_size(
    raw: &Pairs<'_>,
    limits: PageSizeLimits,
    issues: &mut Vec<Issue>,
) -> u64 {
    let max = limits.max.clamp(1, MAX_ROWS);
    let limits = PageSizeLimits {
        max,
        default: limits.default.clamp(1, max),
    };
    let before = issues.len();
    let per_page = raw.single("per_page", issues).map(|v| ("per_page", v));
    let limit = raw.single("limit", issues).map(|v| ("limit", v));
    if issues.len() > before {
        return limits.default;
    }
    // Each given value checked on its own (every problem at once), then
    // the two compared: different values are the conflict.
    let per_page = per_page.map(|p| checked_page_size(p, limits.max, issues));
    let limit = limit.map(|l| checked_page_size(l, limits.max, issues));
    let size = match (per_page, limit) {
        (None, None) => return limits.default,
        (Some(p), None) => p,
        (None, Some(l)) => l,
        (Some(Some(p)), Some(Some(l))) if p.0 != l.0 => {
            issues.push(conflict(
                "per_page",
                &["per_page", "limit"],
                format!(
                    "`per_page` ({}) and `limit` ({}) differ: send one of them",
                    super::error::shorten(p.1),
                    super::error::shorten(l.1)
                ),
            ));
            None
        }
        (Some(p), Some(l)) => p.and(l),
    };
    size.map_or(limits.default, |(n, _)| {
        u64::try_from(n).unwrap_or(u64::MAX).min(limits.max)
    })
}

#[cfg(test)]
mod tests {
    use crate::query::CollectionParams;
    use serde_json::json;

    /// `per_page` and `limit` are each checked, and compared only when both
    /// are page sizes: every problem of the two is reported.
    #[test]
    fn per_page_and_limit_report_every_problem() {
        let codes = |q: &str| -> Vec<(String, String)> {
            let mut c: Vec<(String, String)> = CollectionParams::from_query_str(q)
                .unwrap_err()
                .issues()
                .iter()
                .map(|i| (i.name.clone(), i.code.to_string()))
                .collect();
            c.sort();
            c
        };
        let pair = |n: &str, c: &str| (n.to_owned(), c.to_owned());
        assert_eq!(
            codes("page=0&per_page=0&limit=x"),
            [
                pair("limit", "invalid_value"),
                pair("page", "out_of_range"),
                pair("per_page", "out_of_range")
            ]
        );
        assert_eq!(
            codes("per_page=0&limit=0"),
            [
                pair("limit", "out_of_range"),
                pair("per_page", "out_of_range")
            ]
        );
        assert_eq!(
            codes("per_page=10&limit=20"),
            [pair("per_page", "conflicting_parameters")]
        );
        assert_eq!(
            codes("per_page=x&limit=20"),
            [pair("per_page", "invalid_value")]
        );
        // Equal values, over the maximum: clamped once.
        let p = CollectionParams::from_query_str("per_page=500&limit=500").unwrap();
        assert_eq!(p.pagination.per_page, 100);
        assert!(CollectionParams::from_query_str("per_page=200&limit=300").is_err());
    }

    /// The `maximum` of a too-large `page` is the largest page accepted.
    #[test]
    fn the_largest_page_is_the_maximum() {
        for (per_page, max) in [
            (1u64, 9_223_372_036_854_775_808u64),
            (20, 461_168_601_842_738_791),
        ] {
            let ok = CollectionParams::from_query_str(&format!("per_page={per_page}&page={max}"));
            assert_eq!(ok.map(|p| p.pagination.page).ok(), Some(max), "{per_page}");
            let err =
                CollectionParams::from_query_str(&format!("per_page={per_page}&page={}", max + 1))
                    .unwrap_err();
            let issue = serde_json::to_value(&err.issues()[0]).unwrap();
            assert_eq!(
                issue,
                json!({"location": "query", "name": "page", "code": "out_of_range",
                       "message": "`page` is too large", "minimum": 1, "maximum": max}),
                "{per_page}"
            );
        }
    }

    /// Limits SQL cannot bind (a page size or a limit past `i64::MAX - 1`)
    /// or that serve nothing (a default of 0, a default over the maximum)
    /// are bounded before a request's size is read.
    #[test]
    fn page_sizes_are_bounded_to_what_sql_binds() {
        use super::{MAX_ROWS, PageSizeLimits, Pagination, RawQuery};
        let size = |query: &str, default: u64, max: u64| {
            let raw = RawQuery::parse(query).unwrap();
            Pagination::parse_with(&raw, PageSizeLimits { default, max })
                .unwrap()
                .per_page
        };
        assert_eq!(size("limit=99999999999999999999", 20, u64::MAX), MAX_ROWS);
        assert_eq!(size("per_page=9223372036854775807", 20, u64::MAX), MAX_ROWS);
        assert_eq!(size("", u64::MAX, u64::MAX), MAX_ROWS);
        assert_eq!(size("", 0, 100), 1);
        assert_eq!(size("", 5, 2), 2);
        assert_eq!(size("", 0, 0), 1);
        assert_eq!(size("limit=7", 20, 100), 7);
    }
}
