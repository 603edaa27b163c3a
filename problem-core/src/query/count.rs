//! Count strategies of offset listings: the client's `Prefer: count=...`
//! (RFC 7240), answered with `Preference-Applied`, and the totals they
//! produce (exact or estimated).

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value as Json;

/// The `Prefer` request header (RFC 7240 §2); this crate reads its
/// `count` preference ([`prefer_count`]).
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::query::{CountStrategy, PREFER, prefer_count};
/// let req = TestRequest::get().insert_header((PREFER, "count=estimated")).to_http_request();
/// assert_eq!(prefer_count(req.headers()), Some(CountStrategy::Estimated));
/// ```
pub const PREFER: HeaderName = HeaderName::from_static("prefer");
/// The `Preference-Applied` response header (RFC 7240 §3): `count=exact`,
/// `count=estimated` or `count=none` on an offset listing whose request's
/// `count` preference was honoured.
///
/// ```
/// use problem_core::query::PREFERENCE_APPLIED;
/// assert_eq!(PREFERENCE_APPLIED.as_str(), "preference-applied");
/// ```
pub const PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

/// Default of [`QueryConfig::estimate_threshold`](super::QueryConfig::estimate_threshold):
/// an estimated count is exact up to 10,000 matching rows.
///
/// ```
/// use problem_core::query::{DEFAULT_ESTIMATE_THRESHOLD, QueryConfig};
/// assert_eq!(DEFAULT_ESTIMATE_THRESHOLD, 10_000);
/// assert_eq!(QueryConfig::default().count_threshold(), DEFAULT_ESTIMATE_THRESHOLD);
/// ```
pub const DEFAULT_ESTIMATE_THRESHOLD: u64 = 10_000;

/// How the total of an offset page is counted: the application's default
/// ([`QueryConfig::count_strategy`](super::QueryConfig::count_strategy)),
/// or the client's preference `Prefer: count=exact|estimated|none`.
///
/// | Strategy | `meta.total`, `meta.total_pages`, `links.last`, `X-Total-Count` |
/// |---|---|
/// | `exact` | the number of matching rows |
/// | `estimated` | exact while at most the threshold (default 10,000) rows match; above it the database's estimate, with `meta.total_is_estimate: true` and no `last` link |
/// | `none` | omitted |
///
/// ```
/// use problem_core::query::CountStrategy;
/// assert_eq!(CountStrategy::from_token("estimated"), Some(CountStrategy::Estimated));
/// assert_eq!(CountStrategy::from_token("planned"), None);
/// assert_eq!(CountStrategy::None.as_str(), "none");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CountStrategy {
    /// Count every matching row (`count=exact`; the default).
    #[default]
    Exact,
    /// Count up to the threshold, estimate above it (`count=estimated`).
    Estimated,
    /// Do not count (`count=none`).
    None,
}

impl CountStrategy {
    /// The preference value: `exact`, `estimated` or `none`.
    ///
    /// ```
    /// use problem_core::query::CountStrategy;
    /// assert_eq!(CountStrategy::Estimated.as_str(), "estimated");
    /// assert_eq!(CountStrategy::default().as_str(), "exact");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Exact => "exact",
            Self::Estimated => "estimated",
            Self::None => "none",
        }
    }

    /// The strategy named by a `count` preference value, compared
    /// ASCII-case-insensitively; `None` for any other value.
    ///
    /// ```
    /// use problem_core::query::CountStrategy;
    /// assert_eq!(CountStrategy::from_token("NONE"), Some(CountStrategy::None));
    /// assert_eq!(CountStrategy::from_token(" exact"), None);
    /// ```
    pub fn from_token(value: &str) -> Option<Self> {
        [Self::Exact, Self::Estimated, Self::None]
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(value))
    }
}

impl std::fmt::Display for CountStrategy {
    /// The preference value, as [`as_str`](Self::as_str).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value that names no [`CountStrategy`], from
/// [`CountStrategy::from_str`](std::str::FromStr::from_str).
///
/// ```
/// use problem_core::query::{CountStrategy, UnknownCountStrategy};
/// let err = "planned".parse::<CountStrategy>().unwrap_err();
/// assert_eq!(err, UnknownCountStrategy { value: "planned".into() });
/// assert_eq!(err.to_string(), "unknown count strategy `planned`; write exact, estimated or none");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown count strategy `{value}`; write exact, estimated or none")]
pub struct UnknownCountStrategy {
    /// The value given.
    pub value: String,
}

/// Parses `exact`, `estimated` or `none` as
/// [`CountStrategy::from_token`] does (ASCII case-insensitive), for
/// example from an environment variable.
///
/// ```
/// use problem_core::query::CountStrategy;
/// assert_eq!("Estimated".parse::<CountStrategy>(), Ok(CountStrategy::Estimated));
/// assert_eq!(CountStrategy::None.to_string(), "none");
/// ```
impl std::str::FromStr for CountStrategy {
    type Err = UnknownCountStrategy;
    fn from_str(value: &str) -> Result<Self, UnknownCountStrategy> {
        Self::from_token(value).ok_or_else(|| UnknownCountStrategy {
            value: value.to_owned(),
        })
    }
}

/// The total of an offset page: counted exactly, or estimated (then
/// `meta.total_is_estimate` is `true`).
///
/// ```
/// use problem_core::query::Total;
/// assert_eq!(Total::Estimate(12_345).value(), 12_345);
/// assert!(Total::Estimate(1).is_estimate() && !Total::Exact(1).is_estimate());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Total {
    /// The number of matching rows.
    Exact(u64),
    /// An estimate of the number of matching rows.
    Estimate(u64),
}

impl Total {
    /// The number, exact or estimated.
    ///
    /// ```
    /// use problem_core::query::Total;
    /// assert_eq!(Total::Exact(42).value(), 42);
    /// ```
    pub fn value(self) -> u64 {
        match self {
            Self::Exact(n) | Self::Estimate(n) => n,
        }
    }

    /// Whether it is an estimate.
    ///
    /// ```
    /// use problem_core::query::Total;
    /// assert!(Total::Estimate(10_001).is_estimate());
    /// assert!(!Total::Exact(10_001).is_estimate());
    /// ```
    pub fn is_estimate(self) -> bool {
        matches!(self, Self::Estimate(_))
    }
}

/// The `count` preference of a request's `Prefer` headers (RFC 7240 §2):
/// every `Prefer` line is read, each a comma-separated list of
/// `token [= word] *(; parameter)`, where `word` is a token or a quoted
/// string; preference names are compared case-insensitively. The first
/// `count` preference is the one considered (§2: a preference given twice
/// counts once, the first time); its value names a [`CountStrategy`]
/// (case-insensitively) or the preference is ignored (`None`), as an
/// unknown preference value is. Unreadable lines (not visible ASCII) are
/// skipped.
///
/// ```
/// use actix_web::http::header::{HeaderMap, HeaderValue};
/// use problem_core::query::{CountStrategy, PREFER, prefer_count};
/// let mut h = HeaderMap::new();
/// h.append(PREFER, HeaderValue::from_static("return=minimal"));
/// h.append(PREFER, HeaderValue::from_static(r#"Count="estimated"; x=1, count=exact"#));
/// assert_eq!(prefer_count(&h), Some(CountStrategy::Estimated));
/// h.clear();
/// h.insert(PREFER, HeaderValue::from_static("count=planned, count=exact"));
/// assert_eq!(prefer_count(&h), None);
/// ```
pub fn prefer_count(headers: &HeaderMap) -> Option<CountStrategy> {
    count_preference(headers.get_all(PREFER))
}

/// [`prefer_count`] of the `Prefer` lines already looked up.
pub(crate) fn count_preference<'a>(
    lines: impl IntoIterator<Item = &'a HeaderValue>,
) -> Option<CountStrategy> {
    for line in lines {
        let Ok(line) = line.to_str() else {
            continue;
        };
        for preference in split_outside_quotes(line, ',') {
            let head = split_outside_quotes(preference, ';')
                .next()
                .unwrap_or_default();
            let (name, value) = match head.split_once('=') {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (head.trim(), ""),
            };
            if name.eq_ignore_ascii_case("count") {
                return CountStrategy::from_token(&unquote(value));
            }
        }
    }
    None
}

/// The pieces of `s` between `sep`s that are not inside a quoted string.
fn split_outside_quotes(s: &str, sep: char) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let s = rest?;
        let (mut quoted, mut escaped) = (false, false);
        for (i, c) in s.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                c if c == sep && !quoted => {
                    rest = Some(&s[i + c.len_utf8()..]);
                    return Some(&s[..i]);
                }
                _ => {}
            }
        }
        rest = None;
        Some(s)
    })
}

/// A `word` without its quotes and escapes (RFC 9110 §5.6.4).
fn unquote(word: &str) -> String {
    match word.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
        Some(inner) => {
            let mut out = String::with_capacity(inner.len());
            let mut escaped = false;
            for c in inner.chars() {
                if escaped || c != '\\' {
                    out.push(c);
                    escaped = false;
                } else {
                    escaped = true;
                }
            }
            out
        }
        None => word.to_owned(),
    }
}

/// The row estimate of a PostgreSQL `EXPLAIN (FORMAT JSON)` result: the
/// top plan node's `Plan Rows` (`[{"Plan": {"Plan Rows": 123, ...}}]`),
/// rounded and clamped at 0; `None` for any other shape.
///
/// ```
/// use problem_core::query::explain_plan_rows;
/// let plan = serde_json::json!([{"Plan": {"Node Type": "Seq Scan", "Plan Rows": 700451}}]);
/// assert_eq!(explain_plan_rows(&plan), Some(700_451));
/// assert_eq!(explain_plan_rows(&serde_json::json!({})), None);
/// ```
pub fn explain_plan_rows(explain: &Json) -> Option<u64> {
    let rows = explain.get(0)?.get("Plan")?.get("Plan Rows")?;
    if let Some(n) = rows.as_u64() {
        return Some(n);
    }
    let f = rows.as_f64().filter(|f| f.is_finite())?;
    // PostgreSQL prints integers; a fraction or a negative is rounded and
    // clamped through text, so no lossy cast is needed.
    format!("{:.0}", f.max(0.0)).parse().ok()
}

/// What an offset listing answers about counting: the applied strategy
/// for `Preference-Applied` (when the client's preference was honoured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CountAnswer {
    /// An offset listing of a request that carried `Prefer` (then `Vary:
    /// Prefer`).
    pub varies: bool,
    /// The client's `count` preference that was honoured.
    pub applied: Option<CountStrategy>,
}

impl CountAnswer {
    /// `Preference-Applied: count=<strategy>`.
    pub(crate) fn header(self) -> Option<HeaderValue> {
        self.applied
            .map(|s| HeaderValue::from_static(preference_value(s)))
    }
}

fn preference_value(s: CountStrategy) -> &'static str {
    match s {
        CountStrategy::Exact => "count=exact",
        CountStrategy::Estimated => "count=estimated",
        CountStrategy::None => "count=none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefer(lines: &[&'static str]) -> Option<CountStrategy> {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append(PREFER, HeaderValue::from_static(l));
        }
        prefer_count(&h)
    }

    #[test]
    fn rfc_7240_forms() {
        assert_eq!(prefer(&[]), None);
        assert_eq!(prefer(&["count=none"]), Some(CountStrategy::None));
        assert_eq!(prefer(&["COUNT=EXACT"]), Some(CountStrategy::Exact));
        assert_eq!(
            prefer(&["count = estimated"]),
            Some(CountStrategy::Estimated)
        );
        assert_eq!(
            prefer(&["respond-async, wait=5, count=none"]),
            Some(CountStrategy::None)
        );
        assert_eq!(
            prefer(&["a=\"x,count=none\", count=exact"]),
            Some(CountStrategy::Exact)
        );
        assert_eq!(prefer(&["count=\"n\\one\""]), Some(CountStrategy::None));
        assert_eq!(prefer(&["count=none;foo=bar"]), Some(CountStrategy::None));
        assert_eq!(prefer(&["count"]), None);
        assert_eq!(prefer(&["count="]), None);
        assert_eq!(prefer(&["counts=none"]), None);
        assert_eq!(
            prefer(&["count=exact", "count=none"]),
            Some(CountStrategy::Exact)
        );
        assert_eq!(prefer(&["count=bogus", "count=none"]), None);
        assert_eq!(
            prefer(&["return=minimal", "count=none"]),
            Some(CountStrategy::None)
        );
    }

    #[test]
    fn plan_rows() {
        let j = serde_json::json!([{"Plan": {"Plan Rows": 12.6}}]);
        assert_eq!(explain_plan_rows(&j), Some(13));
        let j = serde_json::json!([{"Plan": {"Plan Rows": -3}}]);
        assert_eq!(explain_plan_rows(&j), Some(0));
        let j = serde_json::json!([{"Plan": {"Plan Rows": "x"}}]);
        assert_eq!(explain_plan_rows(&j), None);
    }
}
