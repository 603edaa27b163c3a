//! Multi-field sorting: `sort=-age,name` (spec, "Sort parameters"; non-sortable fields, key tie-breaker).

use std::borrow::Cow;

use smallvec::SmallVec;
use std::fmt;

use crate::problem::Issue;

use super::error::{QueryError, code, issue, push_once, shorten};
use super::params::{Pairs, RawQuery, comma_list};
use super::typed::QuerySchema;

/// A sort direction.
///
/// ```
/// use problem_core::query::{Direction, RawQuery, Sort};
/// let sort = Sort::parse(&RawQuery::parse("sort=-year,+title").unwrap()).unwrap();
/// let dirs: Vec<Direction> = sort.fields().iter().map(|f| f.direction).collect();
/// assert_eq!(dirs, [Direction::Desc, Direction::Asc]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Ascending: `field` or `+field`.
    Asc,
    /// Descending: `-field`.
    Desc,
}

impl Direction {
    /// `asc` or `desc`, as SQL and OpenAPI write it.
    ///
    /// ```
    /// use problem_core::query::Direction;
    /// assert_eq!(Direction::Desc.as_str(), "desc");
    /// assert_eq!(Direction::Asc.to_string(), "asc");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Asc => "asc",
            Self::Desc => "desc",
        }
    }
}

impl std::fmt::Display for Direction {
    /// As [`as_str`](Self::as_str).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of a sort: a field and its direction.
///
/// ```
/// use problem_core::query::{Direction, SortField};
/// let f = SortField::desc("year");
/// assert_eq!((f.field.as_ref(), f.direction), ("year", Direction::Desc));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SortField {
    /// The field name as in the query.
    pub field: Cow<'static, str>,
    /// Its direction.
    pub direction: Direction,
}

impl SortField {
    /// An ascending entry.
    ///
    /// ```
    /// use problem_core::query::{Direction, SortField};
    /// assert_eq!(SortField::asc("title"), SortField { field: "title".into(), direction: Direction::Asc });
    /// ```
    pub fn asc(field: impl Into<Cow<'static, str>>) -> Self {
        Self {
            field: field.into(),
            direction: Direction::Asc,
        }
    }

    /// A descending entry.
    ///
    /// ```
    /// use problem_core::query::{Sort, SortField};
    /// assert_eq!(Sort::new(vec![SortField::desc("year")]).to_string(), "-year");
    /// ```
    pub fn desc(field: impl Into<Cow<'static, str>>) -> Self {
        Self {
            field: field.into(),
            direction: Direction::Desc,
        }
    }
}

/// A parsed `sort`: entries in order of precedence; empty means no sorting
/// was requested.
///
/// Each comma-separated entry is `-field` (descending), `+field` or `field`
/// (ascending); whitespace around entries is ignored (so an unencoded `+`,
/// which decodes to a space, still means ascending). An empty entry or a
/// field named twice is `invalid_value`; with a schema, a field that is not
/// sortable is `not_sortable` listing the sortable fields in `allowed`.
///
/// ```
/// use problem_core::query::{RawQuery, Sort, SortField};
/// let sort = Sort::parse(&RawQuery::parse("sort=-age,name").unwrap()).unwrap();
/// assert_eq!(sort.fields(), [SortField::desc("age"), SortField::asc("name")]);
/// assert_eq!(sort.to_string(), "-age,name");
/// assert!(Sort::parse(&RawQuery::parse("").unwrap()).unwrap().is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Sort(SortFields);

/// Up to four entries inline (no allocation for the sorts of real requests).
pub(crate) type SortFields = SmallVec<[SortField; 4]>;

impl Sort {
    /// A sort from entries.
    ///
    /// ```
    /// use problem_core::query::{Sort, SortField};
    /// let sort = Sort::new(vec![SortField::desc("year"), SortField::asc("title")]);
    /// assert_eq!(sort.to_string(), "-year,title");
    /// ```
    pub fn new(fields: Vec<SortField>) -> Self {
        Self(SmallVec::from_vec(fields))
    }

    /// The entries, to be filled in place (the effective order is built
    /// where it is kept: a `Sort` is 136 bytes, each move a copy).
    pub(crate) fn fields_mut(&mut self) -> &mut SortFields {
        &mut self.0
    }

    /// The entries, in order of precedence.
    ///
    /// ```
    /// use problem_core::query::{RawQuery, Sort, SortField};
    /// let sort = Sort::parse(&RawQuery::parse("sort=title,-id").unwrap()).unwrap();
    /// assert_eq!(sort.fields(), [SortField::asc("title"), SortField::desc("id")]);
    /// ```
    pub fn fields(&self) -> &[SortField] {
        &self.0
    }

    /// Whether no sorting was requested.
    ///
    /// ```
    /// use problem_core::query::{RawQuery, Sort};
    /// assert!(Sort::parse(&RawQuery::parse("sort=").unwrap()).unwrap().is_empty());
    /// assert!(!Sort::parse(&RawQuery::parse("sort=id").unwrap()).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `field` is one of the entries.
    ///
    /// ```
    /// use problem_core::query::{RawQuery, Sort};
    /// let sort = Sort::parse(&RawQuery::parse("sort=-year").unwrap()).unwrap();
    /// assert!(sort.contains("year"));
    /// assert!(!sort.contains("-year"));
    /// ```
    pub fn contains(&self, field: &str) -> bool {
        self.0.iter().any(|f| f.field == field)
    }

    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::{Direction, Sort};
    /// let s = Sort::from_query_str("sort=-age,name").unwrap();
    /// assert_eq!((s.fields()[0].field.as_ref(), s.fields()[0].direction), ("age", Direction::Desc));
    /// ```
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses `sort` without a whitelist (any field name).
    ///
    /// ```
    /// use problem_core::query::{RawQuery, Sort, SortField};
    /// let sort = Sort::parse(&RawQuery::parse("sort=+title, -year").unwrap()).unwrap();
    /// assert_eq!(sort.fields(), [SortField::asc("title"), SortField::desc("year")]);
    /// let err = Sort::parse(&RawQuery::parse("sort=year,-year").unwrap()).unwrap_err();
    /// assert_eq!(err.issues()[0].message, "`year` is sorted on more than once");
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] for empty entries or repeated fields (a
    /// repeated `sort` parameter is joined: `sort=a&sort=b` is `sort=a,b`).
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        let mut issues = Vec::new();
        let mut sort = Sort::default();
        parse_sort_into(&mut sort, &raw.borrowed(), None, &mut issues);
        QueryError::from_issues(issues).map(|()| sort)
    }

    /// The sort with `key` appended ascending when absent, so the order is total.
    ///
    /// ```
    /// use problem_core::query::{Sort, SortField};
    /// let sort = Sort::new(vec![SortField::desc("year")]);
    /// assert_eq!(sort.clone().with_tie_breaker("id").to_string(), "-year,id");
    /// assert_eq!(sort.with_tie_breaker("year").to_string(), "-year");
    /// ```
    pub fn with_tie_breaker(mut self, key: impl Into<Cow<'static, str>>) -> Self {
        self.add_tie_breaker(key.into());
        self
    }

    /// [`with_tie_breaker`](Self::with_tie_breaker) in place.
    pub(crate) fn add_tie_breaker(&mut self, key: Cow<'static, str>) {
        if !self.contains(&key) {
            self.0.push(SortField::asc(key));
        }
    }
}

impl fmt::Display for Sort {
    /// The query form: `-age,name`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if s.direction == Direction::Desc {
                f.write_str("-")?;
            }
            f.write_str(&s.field)?;
        }
        Ok(())
    }
}

/// Parses `sort` into `out` (empty), where the sort is kept: a `Sort` is
/// 136 bytes, and each move of it a copy.
pub(crate) fn parse_sort_into(
    out: &mut Sort,
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    issues: &mut Vec<Issue>,
) {
    let Some(value) = raw.joined("sort") else {
        return;
    };
    let Some(entries) = comma_list("sort", &value, issues) else {
        return;
    };
    let out = &mut out.0;
    for entry in entries {
        let (direction, name) = if let Some(n) = entry.strip_prefix('-') {
            (Direction::Desc, n.trim_start())
        } else if let Some(n) = entry.strip_prefix('+') {
            (Direction::Asc, n.trim_start())
        } else {
            (Direction::Asc, entry)
        };
        if name.is_empty() {
            push_once(
                issues,
                issue(
                    "sort",
                    code::INVALID_VALUE,
                    format!("`{}` names no field", shorten(entry)),
                )
                .with("expected", "comma-separated list of field names"),
            );
            continue;
        }
        let spec = schema.and_then(|s| s.field(name));
        if let Some(schema) = schema
            && !spec.is_some_and(|f| f.sortable)
        {
            push_once(
                issues,
                issue(
                    "sort",
                    code::NOT_SORTABLE,
                    format!("`{}` is not a sortable field", shorten(name)),
                )
                .with("allowed", schema.sortable_fields()),
            );
            continue;
        }
        if out.iter().any(|f| f.field == name) {
            push_once(
                issues,
                issue(
                    "sort",
                    code::INVALID_VALUE,
                    format!("`{}` is sorted on more than once", shorten(name)),
                )
                .with("expected", "comma-separated list of distinct field names"),
            );
            continue;
        }
        // A whitelisted name is the schema's own (no copy).
        let field = match spec {
            Some(spec) => Cow::Borrowed(spec.name),
            None => Cow::Owned(name.to_owned()),
        };
        out.push(SortField { field, direction });
    }
}
