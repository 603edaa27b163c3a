//! Sparse fieldsets: `fields` and `exclude` (spec, "Field selection
//! parameters").

use std::borrow::Cow;

use serde_json::{Map, Value as Json};

use crate::problem::Issue;

use super::error::{QueryError, code, issue, push_once, shorten};
use super::params::{Pairs, RawQuery, comma_list};
use super::typed::QuerySchema;

mod select;
pub(crate) use select::Selected;

/// The top-level members to keep in each item: `fields` (include) then
/// `exclude`. Both may be combined: the included members minus the excluded
/// ones. An empty `fields=` means no restriction. With a schema, a name that
/// is not selectable is `not_selectable`.
///
/// The list responses ([`Page`](super::Page), [`CursorPage`](super::CursorPage),
/// [`BareList`](super::BareList)) apply it while each item serializes, with
/// no `serde_json::Value` in between: the members are the top-level members
/// of the JSON object the item serializes to (a struct's fields as serde
/// names them, a map's entries, `#[serde(flatten)]` members included; for
/// an enum variant with data, `{"Variant": ...}`, the variant's name), and
/// any other value is written whole, as [`apply`](Self::apply) does on a
/// JSON value.
///
/// ```
/// use problem_core::query::{FieldSelection, RawQuery};
/// let sel = FieldSelection::parse(&RawQuery::parse("fields=id,title,year&exclude=year").unwrap()).unwrap();
/// let item = serde_json::json!({"id": 1, "title": "Dune", "year": 1965, "isbn": "x"});
/// assert_eq!(sel.apply(item), serde_json::json!({"id": 1, "title": "Dune"}));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldSelection {
    /// Members to include (`fields`), or `None` for every member.
    pub include: Option<Vec<Cow<'static, str>>>,
    /// Members to exclude (`exclude`).
    pub exclude: Vec<Cow<'static, str>>,
}

impl FieldSelection {
    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::FieldSelection;
    /// let f = FieldSelection::from_query_str("fields=id,title&exclude=title").unwrap();
    /// assert_eq!((f.include, f.exclude), (Some(vec!["id".into(), "title".into()]), vec!["title".into()]));
    /// ```
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses `fields` and `exclude` without a whitelist.
    ///
    /// ```
    /// use problem_core::query::{FieldSelection, RawQuery};
    /// let sel = FieldSelection::parse(&RawQuery::parse("fields=id,+title,id&exclude=").unwrap()).unwrap();
    /// assert_eq!(sel.include, Some(vec!["id".into(), "title".into()]));
    /// assert!(sel.exclude.is_empty());
    /// let err = FieldSelection::parse(&RawQuery::parse("fields=id,,title").unwrap()).unwrap_err();
    /// assert_eq!(err.issues()[0].code, "invalid_value");
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`] for empty entries (a repeated `fields` or
    /// `exclude` parameter is joined: `fields=a&fields=b` is `fields=a,b`).
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        let mut issues = Vec::new();
        let s = parse_fields(&raw.borrowed(), None, &mut issues);
        QueryError::from_issues(issues).map(|()| s)
    }

    /// Whether the selection keeps every member.
    ///
    /// ```
    /// use problem_core::query::{FieldSelection, RawQuery};
    /// assert!(FieldSelection::default().is_all());
    /// let sel = FieldSelection::parse(&RawQuery::parse("exclude=isbn").unwrap()).unwrap();
    /// assert!(!sel.is_all());
    /// ```
    pub fn is_all(&self) -> bool {
        self.include.is_none() && self.exclude.is_empty()
    }

    /// Whether the member `name` is kept.
    ///
    /// ```
    /// use problem_core::query::{FieldSelection, RawQuery};
    /// let sel = FieldSelection::parse(&RawQuery::parse("fields=id,year&exclude=year").unwrap()).unwrap();
    /// assert!(sel.keeps("id"));
    /// assert!(!sel.keeps("year"));
    /// assert!(!sel.keeps("title"));
    /// ```
    pub fn keeps(&self, name: &str) -> bool {
        self.include
            .as_ref()
            .is_none_or(|inc| inc.iter().any(|f| f == name))
            && !self.exclude.iter().any(|f| f == name)
    }

    /// Keeps the selected members of a JSON object (order kept); any other
    /// JSON value is returned unchanged.
    ///
    /// ```
    /// use problem_core::query::{FieldSelection, RawQuery};
    /// use serde_json::json;
    /// let sel = FieldSelection::parse(&RawQuery::parse("exclude=isbn").unwrap()).unwrap();
    /// assert_eq!(sel.apply(json!({"isbn": "x", "id": 7})), json!({"id": 7}));
    /// assert_eq!(sel.apply(json!([{"isbn": "x"}])), json!([{"isbn": "x"}]));
    /// ```
    pub fn apply(&self, item: Json) -> Json {
        match item {
            Json::Object(map) if !self.is_all() => Json::Object(
                map.into_iter()
                    .filter(|(k, _)| self.keeps(k))
                    .collect::<Map<String, Json>>(),
            ),
            other @ (Json::Object(_)
            | Json::Null
            | Json::Bool(_)
            | Json::Number(_)
            | Json::String(_)
            | Json::Array(_)) => other,
        }
    }
}

pub(crate) fn parse_fields(
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    issues: &mut Vec<Issue>,
) -> FieldSelection {
    let read = |name: &str, issues: &mut Vec<Issue>| -> Option<Vec<Cow<'static, str>>> {
        let value = raw.joined(name)?;
        let list = comma_list(name, &value, issues)?;
        // One entry per comma-separated piece at most: allocated once.
        let pieces = value.bytes().filter(|&b| b == b',').count() + 1;
        let mut out: Vec<Cow<'static, str>> = Vec::with_capacity(pieces);
        for f in list {
            let spec = schema.and_then(|s| s.field(f));
            if let Some(schema) = schema
                && !spec.is_some_and(|s| s.selectable)
            {
                push_once(
                    issues,
                    issue(
                        name,
                        code::NOT_SELECTABLE,
                        format!("`{}` is not a selectable field", shorten(f)),
                    )
                    .with("allowed", schema.selectable_fields()),
                );
                continue;
            }
            if !out.iter().any(|o| o == f) {
                // A whitelisted name is the schema's own (no copy).
                out.push(match spec {
                    Some(spec) => Cow::Borrowed(spec.name),
                    None => Cow::Owned(f.to_owned()),
                });
            }
        }
        Some(out)
    };
    let include = read("fields", issues);
    let exclude = read("exclude", issues).unwrap_or_default();
    FieldSelection { include, exclude }
}
