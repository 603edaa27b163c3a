//! [`QueryError`]: why a collection query was refused, and the stable issue
//! codes of its `issues` list.

use crate::problem::{BadRequestException, Issue, IssueLocation, ValidationException};

use crate::spec::{TOO_MANY_QUERY_PARAMETERS, VALIDATION_FAILED};

use super::value::ValueKind;

/// The stable `code` of each query issue (`issues[].code`).
///
/// ```
/// use problem_core::query::{CollectionParams, code};
/// let err = CollectionParams::from_query_str("page=0&per_page=x").unwrap_err();
/// let codes: Vec<&str> = err.issues().iter().map(|i| i.code.as_ref()).collect();
/// assert_eq!(codes, [code::INVALID_VALUE, code::OUT_OF_RANGE]);
/// assert_eq!(code::OUT_OF_RANGE, "out_of_range");
/// ```
pub mod code {
    /// `unknown_parameter`: a parameter that is neither reserved nor a whitelisted filter.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::UNKNOWN_PARAMETER, "unknown_parameter");
    /// ```
    pub const UNKNOWN_PARAMETER: &str = "unknown_parameter";
    /// `unknown_field`: a filter (`field__op`) on a field that is not filterable; in a
    /// request body, a member the type refuses
    /// (`#[serde(deny_unknown_fields)]`; `name` is the member's JSON
    /// pointer).
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::UNKNOWN_FIELD, "unknown_field");
    /// ```
    pub const UNKNOWN_FIELD: &str = "unknown_field";
    /// `operator_not_allowed`: an operator that does not exist or is not allowed on that field.
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let err = CollectionParams::from_query_str("year__around=2000").unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::OPERATOR_NOT_ALLOWED);
    /// assert_eq!(code::OPERATOR_NOT_ALLOWED, "operator_not_allowed");
    /// ```
    pub const OPERATOR_NOT_ALLOWED: &str = "operator_not_allowed";
    /// `invalid_value`: a value that does not parse (member `expected` names the type).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let err = CollectionParams::from_query_str("per_page=x").unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::INVALID_VALUE);
    /// assert_eq!(code::INVALID_VALUE, "invalid_value");
    /// ```
    pub const INVALID_VALUE: &str = "invalid_value";
    /// `not_sortable`: a `sort` entry naming a field that is not sortable.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::NOT_SORTABLE, "not_sortable");
    /// ```
    pub const NOT_SORTABLE: &str = "not_sortable";
    /// `not_searchable`: a `search_fields` entry naming a field that is not searchable.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::NOT_SEARCHABLE, "not_searchable");
    /// ```
    pub const NOT_SEARCHABLE: &str = "not_searchable";
    /// `not_selectable`: a `fields`/`exclude` entry naming a field that is not selectable.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::NOT_SELECTABLE, "not_selectable");
    /// ```
    pub const NOT_SELECTABLE: &str = "not_selectable";
    /// `conflicting_parameters`: parameters that contradict each other (`per_page` and `limit`, `q`
    /// and `search`, `cursor` and `page`, a repeated parameter).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let err = CollectionParams::from_query_str("per_page=10&limit=20").unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::CONFLICTING_PARAMETERS);
    /// assert_eq!(code::CONFLICTING_PARAMETERS, "conflicting_parameters");
    /// ```
    pub const CONFLICTING_PARAMETERS: &str = "conflicting_parameters";
    /// `out_of_range`: a number outside its range (`page` below 1, page size below 1).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let err = CollectionParams::from_query_str("page=0").unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::OUT_OF_RANGE);
    /// assert_eq!(code::OUT_OF_RANGE, "out_of_range");
    /// ```
    pub const OUT_OF_RANGE: &str = "out_of_range";
    /// `too_many_values`: a list longer than allowed (member `max`: `__in` and `__not_in`
    /// take 100 values, `q` 20 search terms), as the other size limits
    /// ([`TOO_MANY_FILTERS`], [`TOO_LONG`]) give `max`.
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let ids = vec!["1"; 101].join(",");
    /// let err = CollectionParams::from_query_str(&format!("id__in={ids}")).unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::TOO_MANY_VALUES);
    /// assert_eq!(code::TOO_MANY_VALUES, "too_many_values");
    /// ```
    pub const TOO_MANY_VALUES: &str = "too_many_values";
    /// `too_many_filters`: more filter conditions than allowed (member `max`; default 64).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let filters: Vec<String> = (0..65).map(|i| format!("f{i}=1")).collect();
    /// let err = CollectionParams::from_query_str(&filters.join("&")).unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::TOO_MANY_FILTERS);
    /// assert_eq!(code::TOO_MANY_FILTERS, "too_many_filters");
    /// ```
    pub const TOO_MANY_FILTERS: &str = "too_many_filters";
    /// `too_long`: a filter value, list item or search term longer than allowed
    /// (member `max`, in characters; default 256).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, code};
    /// let err = CollectionParams::from_query_str(&format!("title={}", "a".repeat(257))).unwrap_err();
    /// assert_eq!(err.issues()[0].code, code::TOO_LONG);
    /// assert_eq!(code::TOO_LONG, "too_long");
    /// ```
    pub const TOO_LONG: &str = "too_long";
    /// `invalid_cursor`: a cursor that is tampered, truncated or was not issued here.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::INVALID_CURSOR, "invalid_cursor");
    /// ```
    pub const INVALID_CURSOR: &str = "invalid_cursor";
    /// `cursor_mismatch`: a cursor used with a different sort, filter or search.
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::CURSOR_MISMATCH, "cursor_mismatch");
    /// ```
    pub const CURSOR_MISMATCH: &str = "cursor_mismatch";
    /// `required`: a required member or parameter that is missing (body issues too:
    /// `name` is the member's JSON pointer).
    ///
    /// ```
    /// assert_eq!(problem_core::query::code::REQUIRED, "required");
    /// ```
    pub const REQUIRED: &str = "required";
}

/// Why a collection query was refused.
///
/// Converts into an `actix_web::Error` carrying the problem:
/// - [`TooManyParameters`](Self::TooManyParameters): 400 [`BadRequestException`]
///   with detail `The query string has more than 1000 parameters.`;
/// - [`Invalid`](Self::Invalid): 400 [`ValidationException`] (detail
///   `Request validation failed`) whose `issues` list holds **every** issue of
///   the request, each with location `query`, the parameter `name` as sent, a
///   stable [`code`] and a message.
///
/// ```
/// use problem_core::query::{QueryError, RawQuery};
/// let qs = "a=1&".repeat(1001);
/// let err = RawQuery::parse(&qs).unwrap_err();
/// assert_eq!(err, QueryError::TooManyParameters);
/// assert_eq!(err.to_string(), "The query string has more than 1000 parameters.");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// More than [`MAX_PARAMETERS`](crate::spec::MAX_PARAMETERS) parameters.
    #[error("{}", TOO_MANY_QUERY_PARAMETERS.detail)]
    TooManyParameters,
    /// One or more issues; never empty when produced by this crate.
    #[error("{}", VALIDATION_FAILED.detail)]
    Invalid(Vec<Issue>),
}

impl QueryError {
    /// The issues (empty for [`TooManyParameters`](Self::TooManyParameters)).
    ///
    /// ```
    /// use problem_core::query::{CollectionParams, QueryError};
    /// let err = CollectionParams::from_query_str("page=0").unwrap_err();
    /// let issue = &err.issues()[0];
    /// assert_eq!((issue.name.as_str(), issue.code.as_ref()), ("page", "out_of_range"));
    /// assert_eq!(issue.message, "`page` must be 1 or more, got 0");
    /// assert!(QueryError::TooManyParameters.issues().is_empty());
    /// ```
    pub fn issues(&self) -> &[Issue] {
        match self {
            Self::TooManyParameters => &[],
            Self::Invalid(issues) => issues,
        }
    }

    /// The problem this error is answered with, as an `actix_web::Error`.
    ///
    /// ```
    /// use problem_core::query::CollectionParams;
    /// # actix_web::rt::System::new().block_on(async {
    /// let err = CollectionParams::from_query_str("page=0").unwrap_err().into_actix_error();
    /// let res = err.error_response();
    /// assert_eq!(res.status(), 400);
    /// let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    /// assert_eq!(
    ///     body,
    ///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"","issues":[{"location":"query","name":"page","code":"out_of_range","message":"`page` must be 1 or more, got 0","minimum":1}]}"#
    /// );
    /// # });
    /// ```
    pub fn into_actix_error(self) -> actix_web::Error {
        match self {
            Self::TooManyParameters => BadRequestException::new()
                .with_detail(TOO_MANY_QUERY_PARAMETERS.detail)
                .into(),
            Self::Invalid(issues) => ValidationException::new(issues).into(),
        }
    }

    pub(crate) fn from_issues(issues: Vec<Issue>) -> Result<(), Self> {
        if issues.is_empty() {
            Ok(())
        } else {
            Err(Self::Invalid(issues))
        }
    }
}

impl From<QueryError> for actix_web::Error {
    fn from(err: QueryError) -> Self {
        err.into_actix_error()
    }
}

/// A query issue with location `query`.
pub(crate) fn issue(name: &str, code: &'static str, message: impl Into<String>) -> Issue {
    Issue::new(IssueLocation::Query, name, code, message)
}

/// Adds `issue` unless an equal one is already there: a comma list naming
/// one wrong entry many times (`sort=-id,-id,...`) is one issue, not one
/// per entry.
pub(crate) fn push_once(issues: &mut Vec<Issue>, issue: Issue) {
    if !issues.contains(&issue) {
        issues.push(issue);
    }
}

/// The `invalid_value` issue of a query or path parameter whose name or
/// value holds U+0000 (raw or percent-encoded; hostile-input rule "NUL
/// characters"), with the `expected` member. The NUL is shown as `\0`.
pub(crate) fn nul_issue(location: IssueLocation, name: &str) -> Issue {
    Issue::new(
        location,
        name,
        code::INVALID_VALUE,
        format!(
            "`{}` must not contain NUL characters (U+0000)",
            shorten(&name.replace('\0', "\\0"))
        ),
    )
    .with("expected", "text without NUL characters")
}

/// `too_many_values` on a list parameter longer than `max` entries
/// (`what`: `values` or `terms`), with the `max` member.
pub(crate) fn too_many_values(name: &str, max: usize, what: &str) -> Issue {
    issue(
        name,
        code::TOO_MANY_VALUES,
        format!("`{}` takes at most {max} {what}", shorten(name)),
    )
    .with("max", max)
}

/// `invalid_value` of a filter value that `kind` does not parse: the
/// `expected` member, and for [`ValueKind::OneOf`] the `allowed` names.
/// An integer outside the field's range says the range (members `minimum`
/// and `maximum`), and an RFC 3339 date-time no column holds says why.
pub(crate) fn invalid_filter_value(name: &str, value: &str, kind: ValueKind) -> Issue {
    if let ValueKind::Integer { min, max } = kind
        && matches!(
            super::params::parse_int(value),
            super::params::Int::Value(_)
        )
    {
        return issue(
            name,
            code::INVALID_VALUE,
            format!("`{}` is not an integer from {min} to {max}", shorten(value)),
        )
        .with("expected", kind.expected())
        .with("minimum", min)
        .with("maximum", max);
    }
    if let ValueKind::DateTime = kind
        && let Some(reason) = super::value::date_time_refusal(value)
    {
        return issue(
            name,
            code::INVALID_VALUE,
            format!(
                "`{}` is an RFC 3339 date-time no filter can compare: {reason}",
                shorten(value)
            ),
        )
        .with("expected", kind.expected());
    }
    match kind {
        ValueKind::OneOf(names) => issue(
            name,
            code::INVALID_VALUE,
            if value.is_empty() {
                "an empty value is not one of the allowed values".to_owned()
            } else {
                format!("`{}` is not one of the allowed values", shorten(value))
            },
        )
        .with("expected", kind.expected())
        .with("allowed", names),
        ValueKind::Integer { .. }
        | ValueKind::Float
        | ValueKind::Float32
        | ValueKind::Boolean
        | ValueKind::Text
        | ValueKind::Date
        | ValueKind::DateTime
        | ValueKind::Opaque => invalid_value(name, value, kind.expected()),
    }
}

/// `invalid_value` with the `expected` member.
pub(crate) fn invalid_value(name: &str, value: &str, expected: &str) -> Issue {
    let message = if value.is_empty() {
        format!("an empty value is not a valid {expected}")
    } else {
        format!("`{}` is not a valid {expected}", shorten(value))
    };
    issue(name, code::INVALID_VALUE, message).with("expected", expected)
}

/// `conflicting_parameters` between the named parameters.
pub(crate) fn conflict(name: &str, parameters: &[&str], message: impl Into<String>) -> Issue {
    issue(name, code::CONFLICTING_PARAMETERS, message).with("parameters", parameters)
}

/// `conflicting_parameters` for a single-valued parameter given more than
/// once with different values (the name echoed at most 64 characters).
pub(crate) fn repeated_parameter(name: &str) -> Issue {
    conflict(
        name,
        &[name],
        format!(
            "`{}` is given more than once with different values: send it once",
            shorten(name)
        ),
    )
}

/// Echoes at most 64 characters of a client value in a message.
pub(crate) fn shorten(value: &str) -> String {
    const MAX: usize = 64;
    match value.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &value[..at]),
        None => value.to_owned(),
    }
}

/// A server-side failure while applying a query or building a page (not the
/// client's fault): answered as a 500 problem by the error pipeline.
///
/// ```
/// use problem_core::query::ApplyError;
/// let err = ApplyError::FieldType { index: 3, field: "year", expected: "integer" };
/// assert_eq!(err.to_string(), "member `year` of item #3 is not a valid integer");
/// let err: actix_web::Error = ApplyError::NoCursorKey.into();
/// assert_eq!(err.as_response_error().status_code(), 500);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// A cursor page was built but `QueryConfig` has no cursor key.
    #[error("cursor pagination needs a cursor key: set QueryConfig::cursor_keys")]
    NoCursorKey,
    /// An item could not be read as JSON: its serialization failed, or (for
    /// the in-memory filters and sorts, which read its members) it is not a
    /// JSON object.
    #[error("item #{index} does not serialize to a JSON object: {message}")]
    NotAnObject {
        /// Position of the item.
        index: usize,
        /// Why.
        message: String,
    },
    /// An item's member does not have the field's type, or holds a value
    /// the type cannot hold (an integer outside `i64`, such as a `u64`
    /// above `i64::MAX`).
    #[error("member `{field}` of item #{index} is not a valid {expected}")]
    FieldType {
        /// Position of the item.
        index: usize,
        /// The field.
        field: &'static str,
        /// The expected type (`integer`, `RFC 3339 date`, ...).
        expected: &'static str,
    },
    /// An item has no member for a non-nullable query field: the query
    /// field's name (or `rename`) does not match the item's serialized
    /// member, so a filter on it could never match. A setup mistake,
    /// answered as a 500 whose log line names the field.
    #[error(
        "item #{index} has no member `{field}`: name the query field (or its `rename`) as the item serializes it"
    )]
    MissingMember {
        /// Position of the item.
        index: usize,
        /// The field.
        field: &'static str,
    },
    /// The sort-key values of the row a page's cursor starts from make a
    /// token longer than [`MAX_CURSOR_LENGTH`](super::MAX_CURSOR_LENGTH),
    /// which no request may carry: the page is not sent with a cursor that
    /// the next request would refuse as `invalid_cursor`. The values go
    /// into the token whole (a keyset position is exact), so the sortable
    /// text of one row must stay under about 3,000 bytes in all.
    #[error(
        "the sort-key values of a page's edge row make a cursor of {length} characters, more than the {max} a request may carry: sort by shorter values (the sortable text of one row must stay under about 3,000 bytes)",
        max = super::MAX_CURSOR_LENGTH
    )]
    CursorTooLong {
        /// Length of the token that would have been issued, in characters.
        length: usize,
    },
}

impl From<ApplyError> for actix_web::Error {
    fn from(err: ApplyError) -> Self {
        crate::problem::InternalServerErrorException::new()
            .with_detail(err.to_string())
            .with_cause(err)
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::{ValueKind, invalid_filter_value, invalid_value};

    /// An integer outside the field's range, and a date-time that parses
    /// but is refused, say why instead of "not a valid".
    #[test]
    fn refused_numbers_and_date_times_say_why() {
        let small = ValueKind::Integer {
            min: -32768,
            max: 32767,
        };
        let issue = invalid_filter_value("year", "99999", small);
        assert_eq!(
            issue.message,
            "`99999` is not an integer from -32768 to 32767"
        );
        assert_eq!(
            serde_json::to_value(&issue).unwrap(),
            serde_json::json!({
                "location": "query", "name": "year", "code": "invalid_value",
                "message": "`99999` is not an integer from -32768 to 32767",
                "expected": "integer", "minimum": -32768, "maximum": 32767,
            })
        );
        let id = ValueKind::Integer {
            min: 0,
            max: i64::MAX,
        };
        assert_eq!(
            invalid_filter_value("id", "9223372036854775808", id).message,
            "`9223372036854775808` is not an integer from 0 to 9223372036854775807"
        );
        assert_eq!(
            invalid_filter_value("id", "1.5", id).message,
            "`1.5` is not a valid integer"
        );
        let at = |v| invalid_filter_value("at", v, ValueKind::DateTime).message;
        assert_eq!(
            at("2024-01-01T00:00:00.1234567Z"),
            "`2024-01-01T00:00:00.1234567Z` is an RFC 3339 date-time no filter can compare: its fraction is finer than microseconds (write at most six fraction digits)"
        );
        assert_eq!(
            at("9999-12-31T23:00:00-05:00"),
            "`9999-12-31T23:00:00-05:00` is an RFC 3339 date-time no filter can compare: it falls outside the years 0000 to 9999 in UTC"
        );
        assert_eq!(
            at("2024-13-01T00:00:00Z"),
            "`2024-13-01T00:00:00Z` is not a valid RFC 3339 date-time"
        );
    }

    /// An empty value is named as such, never quoted as ``.
    #[test]
    fn empty_values_are_named_empty() {
        let messages = [
            invalid_value("page", "", "integer").message,
            invalid_filter_value("status", "", ValueKind::OneOf(&["draft"])).message,
            invalid_filter_value("status", "x", ValueKind::OneOf(&["draft"])).message,
        ];
        assert_eq!(
            messages.map(|m| m.to_string()),
            [
                "an empty value is not a valid integer",
                "an empty value is not one of the allowed values",
                "`x` is not one of the allowed values",
            ]
        );
    }
}
