//! All five parts at once (spec, "Combined query object"): `pagination`,
//! `sort`, `filter`, `search`, `fields`, plus the cursor.

use crate::problem::Issue;

use super::cursor::parse_cursor_param;
use super::error::QueryError;
use super::fields::{FieldSelection, parse_fields};
use super::filter::{Filter, FilterOptions, parse_filter};
use super::pagination::{PageSizeLimits, Pagination, parse_pagination};
use super::params::{Pairs, RawQuery};
use super::search::{Search, parse_search};
use super::sort::{Sort, parse_sort_into};
use super::typed::QuerySchema;

/// The combined query object: the five parts of the spec plus `cursor`.
///
/// Parsing reports every issue of every part at once.
///
/// ```
/// use problem_core::query::{CollectionParams, Direction};
/// let p = CollectionParams::from_query_str("page=2&per_page=50&sort=-age,name&status=active&q=ann&fields=id,name").unwrap();
/// assert_eq!((p.pagination.offset(), p.pagination.limit()), (50, 50));
/// assert_eq!(p.sort.fields()[0].direction, Direction::Desc);
/// assert_eq!(p.filter.conditions().len(), 1);
/// assert_eq!(p.search.unwrap().terms, ["ann"]);
/// assert_eq!(p.fields.include, Some(vec!["id".into(), "name".into()]));
/// assert_eq!(p.cursor, None);
///
/// let err = CollectionParams::from_query_str("page=0&per_page=x&a__foo=1").unwrap_err();
/// assert_eq!(err.issues().len(), 3);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CollectionParams {
    /// Offset pagination (`page`, `per_page`/`limit`); the page size is
    /// also the cursor page size.
    pub pagination: Pagination,
    /// The requested sort (may be empty).
    pub sort: Sort,
    /// The filter conditions.
    pub filter: Filter,
    /// The search, if any.
    pub search: Option<Search>,
    /// The sparse fieldset.
    pub fields: FieldSelection,
    /// The `cursor` token, if any (never together with `page`).
    pub cursor: Option<String>,
}

impl CollectionParams {
    /// Parses a query string without a whitelist.
    ///
    /// ```
    /// use problem_core::query::CollectionParams;
    /// let p = CollectionParams::from_query_str("per_page=10&cursor=abc").unwrap();
    /// assert_eq!(p.pagination.limit(), 10);
    /// assert_eq!(p.cursor.as_deref(), Some("abc"));
    /// let err = CollectionParams::from_query_str("cursor=abc&page=2").unwrap_err();
    /// assert_eq!(err.issues()[0].code, "conflicting_parameters");
    /// ```
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue.
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses decoded pairs without a whitelist: every non-reserved
    /// parameter is a filter.
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, RawQuery};
    /// let raw = RawQuery::from_pairs([("year__gte", "2000"), ("sort", "title")]).unwrap();
    /// let p = CollectionParams::parse(&raw).unwrap();
    /// assert_eq!(p.filter.conditions()[0].field, "year");
    /// assert_eq!(p.sort.fields()[0].field, "title");
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] with every issue.
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        let mut issues = Vec::new();
        let mut p = Self::default();
        parse_all_into(
            &mut p,
            &raw.borrowed(),
            None,
            PageSizeLimits::default(),
            &FilterOptions::default(),
            &mut issues,
        );
        QueryError::from_issues(issues).map(|()| p)
    }
}

/// Parses every collection parameter into `out` (as `Default` makes it),
/// in place: the parsed parameters are 320 bytes, and the sort in them
/// 136, so they are written where they are kept rather than moved there.
pub(crate) fn parse_all_into(
    out: &mut CollectionParams,
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    limits: PageSizeLimits,
    filter_options: &FilterOptions<'_>,
    issues: &mut Vec<Issue>,
) {
    let nul = super::params::nul_issues(raw);
    if !nul.is_empty() {
        issues.extend(nul);
        return;
    }
    out.pagination = parse_pagination(raw, limits, issues);
    out.cursor = parse_cursor_param(raw, issues);
    parse_sort_into(&mut out.sort, raw, schema, issues);
    out.filter = parse_filter(raw, schema, filter_options, issues);
    out.search = parse_search(raw, schema, &filter_options.limits, issues);
    out.fields = parse_fields(raw, schema, issues);
}
