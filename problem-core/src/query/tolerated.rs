//! Tolerated parameters: names and `prefix*` patterns that strict parsing
//! accepts and ignores (cache busters such as `_`, tracking parameters
//! such as `utm_source`), set with
//! [`QueryConfig::tolerate`](super::QueryConfig::tolerate). A tolerated
//! parameter whose name or value holds U+0000 is refused all the same
//! (400 `invalid_value`, hostile-input rule "NUL characters").

use std::fmt;
use std::sync::Arc;

use crate::config::HttpConfigError;

use super::params::RESERVED_PARAMETERS;
use super::typed::QuerySchema;

/// One tolerated name or prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    /// The parameter with exactly this name.
    Exact(String),
    /// Every parameter whose name starts with this (non-empty) prefix.
    Prefix(String),
}

impl Pattern {
    fn matches(&self, name: &str) -> bool {
        match self {
            Self::Exact(n) => n == name,
            Self::Prefix(p) => name.starts_with(p.as_str()),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exact(n) => f.write_str(n),
            Self::Prefix(p) => write!(f, "{p}*"),
        }
    }
}

/// Query parameters that strict parsing accepts and ignores: exact names
/// (`_`) and prefixes written `prefix*` (`utm_*` tolerates `utm_source`,
/// `utm_medium`, ...). A tolerated parameter is not a filter, is not bound
/// into cursors and is left out of every link (`links` and the `Link`
/// header); it still counts toward the limit of 1000 parameters
/// ([`MAX_PARAMETERS`](crate::spec::MAX_PARAMETERS)).
///
/// Names are compared after percent-decoding, case-sensitively, like every
/// other parameter name. Reserved parameters are never tolerated (a pattern
/// that matches one is refused). A tolerated name never hides a filter: on
/// a collection that filters on `ref`, `ref=1`, `ref__in=1,2` and every
/// other `ref__<operator>` are that filter even when `ref` or `r*` is
/// tolerated, so an operator `ref` does not allow is refused
/// (`operator_not_allowed`), not ignored (the configuration is shared by
/// every collection; it tolerates what a collection does not read).
///
/// ```
/// use problem_core::query::ToleratedParameters;
/// let t = ToleratedParameters::new(["_", "utm_*"]).unwrap();
/// assert!(t.matches("_") && t.matches("utm_source") && t.matches("utm_"));
/// assert!(!t.matches("__") && !t.matches("utm") && !t.matches("title"));
/// assert_eq!(t.to_string(), "_, utm_*");
/// for bad in ["", "*", "a*b", "utm_**", "sort", "p*", "api-version"] {
///     assert!(ToleratedParameters::new([bad]).is_err(), "{bad}");
/// }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToleratedParameters(Arc<[Pattern]>);

impl ToleratedParameters {
    /// Checks and keeps the names and `prefix*` patterns.
    ///
    /// ```
    /// use problem_core::query::ToleratedParameters;
    /// let t = ToleratedParameters::new(["fbclid", "utm_*", "fbclid"]).unwrap();
    /// assert_eq!(t.patterns(), ["fbclid", "utm_*"]);
    /// let err = ToleratedParameters::new(["s*"]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid query configuration: tolerated parameter `s*`: matches the reserved parameter `sort`"
    /// );
    /// ```
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidQueryConfig`] for an empty entry, a `*`
    /// alone (it would tolerate every parameter: use
    /// [`QueryConfig::lenient`](super::QueryConfig::lenient)), a `*`
    /// anywhere but at the end or more than one, and an entry that matches
    /// a reserved parameter ([`RESERVED_PARAMETERS`], e.g. `sort` or `p*`,
    /// which matches `page`) or `api-version` (the versioning parameter,
    /// ignored already).
    pub fn new<I, S>(patterns: I) -> Result<Self, HttpConfigError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut out = Vec::new();
        for raw in patterns {
            let raw: String = raw.into();
            let bad = |why: &str| {
                Err(HttpConfigError::InvalidQueryConfig(format!(
                    "tolerated parameter `{raw}`: {why}"
                )))
            };
            let pattern = match raw.find('*') {
                None if raw.is_empty() => return bad("empty name"),
                None => Pattern::Exact(raw.clone()),
                Some(0) if raw.len() == 1 => {
                    return bad("`*` alone tolerates every parameter; use lenient mode instead");
                }
                Some(i) if i + 1 != raw.len() => {
                    return bad("`*` is only allowed once, at the end (`prefix*`)");
                }
                Some(i) => Pattern::Prefix(raw[..i].to_owned()),
            };
            if let Some(reserved) = RESERVED_PARAMETERS
                .iter()
                .chain(&["api-version"])
                .find(|r| pattern.matches(r))
            {
                return bad(&format!("matches the reserved parameter `{reserved}`"));
            }
            if !out.contains(&pattern) {
                out.push(pattern);
            }
        }
        Ok(Self(out.into()))
    }

    /// Whether the parameter `name` is tolerated.
    ///
    /// ```
    /// use problem_core::query::ToleratedParameters;
    /// let t = ToleratedParameters::new(["_", "utm_*"]).unwrap();
    /// assert!(t.matches("utm_campaign"));
    /// assert!(!t.matches("UTM_campaign"));
    /// ```
    pub fn matches(&self, name: &str) -> bool {
        self.0.iter().any(|p| p.matches(name))
    }

    /// Whether nothing is tolerated.
    ///
    /// ```
    /// use problem_core::query::ToleratedParameters;
    /// assert!(ToleratedParameters::default().is_empty());
    /// assert!(!ToleratedParameters::new(["_"]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries as configured (`_`, `utm_*`), in order, duplicates dropped.
    ///
    /// ```
    /// use problem_core::query::ToleratedParameters;
    /// let t = ToleratedParameters::new(["utm_*", "_", "utm_*"]).unwrap();
    /// assert_eq!(t.patterns(), ["utm_*", "_"]);
    /// ```
    pub fn patterns(&self) -> Vec<String> {
        self.0.iter().map(ToString::to_string).collect()
    }
}

impl fmt::Display for ToleratedParameters {
    /// The entries, comma-separated: `_, utm_*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// One collection's view of the tolerated parameters: a tolerated name
/// that is one of its filter parameters is that filter, not dropped.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tolerance<'a> {
    pub patterns: &'a ToleratedParameters,
    /// The collection's whitelist; `None`: every tolerated name is dropped.
    pub schema: Option<&'a QuerySchema>,
}

impl Tolerance<'_> {
    /// Whether nothing is tolerated.
    pub(crate) fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether the parameter `name` is dropped as tolerated.
    pub(crate) fn drops(&self, name: &str) -> bool {
        self.patterns.matches(name)
            && !self
                .schema
                .is_some_and(|s| super::filter::is_filter_parameter(s, name))
    }
}
