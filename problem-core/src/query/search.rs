//! Search: `q` / `search` and `search_fields` (spec, "Search parameters"; search semantics).

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::problem::Issue;

use super::error::{QueryError, code, conflict, issue, push_once, shorten, too_many_values};
use super::params::{
    MAX_SEARCH_TERMS, Pairs, QueryLimits, RawQuery, absent_when_blank, comma_list,
};
use super::text::QueryText;
use super::typed::QuerySchema;

/// A parsed search: the terms of `q` (or `search`) and the fields to search.
///
/// Semantics: the value is split on whitespace; every term must match at
/// least one searched field (AND across terms, OR across fields), as a
/// case-insensitive substring. `q` and `search` are synonyms; both given
/// with different values is `conflicting_parameters`. At most 20 terms
/// (`too_many_values`), each at most 256 characters (`too_long`; see
/// [`QueryLimits`]). A blank value means no search.
///
/// `search_fields` narrows the search to a subset of the searchable fields
/// (with a schema, a field that is not searchable is `not_searchable`);
/// without it every searchable field is searched. `search_fields` without a
/// search is accepted and has no effect.
///
/// ```
/// use problem_core::query::{RawQuery, Search};
/// let s = Search::parse(&RawQuery::parse("q=rust++async&search_fields=title").unwrap()).unwrap().unwrap();
/// assert_eq!(s.terms, ["rust", "async"]);
/// assert_eq!(s.fields, Some(vec!["title".into()]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Search {
    /// The search value as sent.
    pub query: QueryText,
    /// The whitespace-separated terms (never empty).
    pub terms: Vec<QueryText>,
    /// The fields named by `search_fields`, or `None` for every searchable field.
    pub fields: Option<Vec<Cow<'static, str>>>,
}

impl Search {
    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::Search;
    /// let s = Search::from_query_str("q=dune+herbert").unwrap().unwrap();
    /// assert_eq!(s.terms.len(), 2);
    /// assert_eq!(s.terms[0].as_str(), "dune");
    /// assert_eq!(Search::from_query_str("page=2").unwrap(), None);
    /// ```
    pub fn from_query_str(query: &str) -> Result<Option<Self>, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses `q`/`search` and `search_fields` without a whitelist;
    /// `Ok(None)` when no search was requested.
    ///
    /// ```
    /// use problem_core::query::{RawQuery, Search};
    /// let parse = |q| Search::parse(&RawQuery::parse(q).unwrap());
    /// assert_eq!(parse("q=+++").unwrap(), None);
    /// let s = parse("search=Rust").unwrap().unwrap();
    /// assert_eq!((s.query.as_str(), s.fields), ("Rust", None));
    /// let err = parse("q=a&search=b").unwrap_err();
    /// assert_eq!(err.issues()[0].code, "conflicting_parameters");
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] for conflicting values or too many terms.
    pub fn parse(raw: &RawQuery) -> Result<Option<Self>, QueryError> {
        let mut issues = Vec::new();
        let s = parse_search(&raw.borrowed(), None, &QueryLimits::default(), &mut issues);
        QueryError::from_issues(issues).map(|()| s)
    }
}

pub(crate) fn parse_search(
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    limits: &QueryLimits,
    issues: &mut Vec<Issue>,
) -> Option<Search> {
    // A blank `q` or `search` is not given: it conflicts with no other.
    let q = raw
        .single("q", issues)
        .filter(|v| !absent_when_blank("q", v))
        .map(|v| ("q", v));
    let search = raw
        .single("search", issues)
        .filter(|v| !absent_when_blank("search", v))
        .map(|v| ("search", v));
    let search_fields = raw.joined("search_fields");
    let fields = search_fields
        .as_deref()
        .and_then(|v| comma_list("search_fields", v, issues));
    let mut names = Vec::new();
    let has_fields = fields.is_some();
    if let Some(list) = fields {
        for f in list {
            let spec = schema.and_then(|s| s.field(f));
            if let Some(schema) = schema
                && !spec.is_some_and(|s| s.searchable)
            {
                push_once(
                    issues,
                    issue(
                        "search_fields",
                        code::NOT_SEARCHABLE,
                        format!("`{}` is not a searchable field", shorten(f)),
                    )
                    .with("allowed", schema.searchable_fields()),
                );
                continue;
            }
            if !names.iter().any(|n| n == f) {
                // A whitelisted name is the schema's own (no copy).
                names.push(match spec {
                    Some(spec) => Cow::Borrowed(spec.name),
                    None => Cow::Owned(f.to_owned()),
                });
            }
        }
    }
    let (name, value) = match (q, search) {
        (None, None) => return None,
        (Some(v), None) | (None, Some(v)) => v,
        (Some(a), Some(b)) => {
            if a.1 != b.1 {
                issues.push(conflict(
                    "q",
                    &["q", "search"],
                    "`q` and `search` differ: send one of them",
                ));
                return None;
            }
            a
        }
    };
    // One pass over the terms, checked before anything is copied.
    let mut found: SmallVec<[&str; MAX_SEARCH_TERMS]> = SmallVec::new();
    for term in value.split_whitespace() {
        if found.len() == MAX_SEARCH_TERMS {
            issues.push(too_many_values(name, MAX_SEARCH_TERMS, "terms"));
            return None;
        }
        found.push(term);
    }
    if found.is_empty() {
        return None;
    }
    if found.iter().any(|t| limits.too_long(t)) {
        issues.push(limits.too_long_issue(name, "a term"));
        return None;
    }
    if let Some(schema) = schema
        && !schema.fields.iter().any(|f| f.searchable)
    {
        push_once(
            issues,
            issue(
                name,
                code::NOT_SEARCHABLE,
                "this collection has no searchable field",
            )
            .with("allowed", Vec::<&str>::new()),
        );
        return None;
    }
    let terms = found.iter().map(|t| QueryText::from(*t)).collect();
    Some(Search {
        query: QueryText::from(value),
        terms,
        fields: has_fields.then_some(names),
    })
}
