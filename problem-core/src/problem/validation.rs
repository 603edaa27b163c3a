//! [`ValidationException`] and its [`Issue`] list (`DECISIONS.md`, "Collection queries", `issues`).

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::builtin::BadRequestException;
use super::details::{Extensions, ExtraMembers};
use super::exception::ProblemBuildError;
use super::json::MemberSink;
use super::traits::Problem;

/// The default detail of a [`ValidationException`] (spec, "Errors raised by
/// the service itself": schema validation failed).
pub const VALIDATION_DETAIL: &str = "Request validation failed";

/// Where the value an [`Issue`] is about was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IssueLocation {
    /// A query parameter; `name` is the parameter name.
    Query,
    /// The request body; `name` is a JSON pointer (`/isbn`).
    Body,
    /// A path parameter; `name` is its name.
    Path,
    /// A request header; `name` is its name.
    Header,
}

impl IssueLocation {
    /// The serialized name: `query`, `body`, `path` or `header`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Query => "query",
            Self::Body => "body",
            Self::Path => "path",
            Self::Header => "header",
        }
    }
}

/// One entry of the `issues` extension member:
/// `{"location", "name", "code", "message"}` plus code-specific members such
/// as `allowed` or `expected` (`DECISIONS.md`).
///
/// ```
/// use problem_core::{Issue, IssueLocation};
/// let issue = Issue::new(IssueLocation::Query, "sort", "not_sortable", "`isbn` is not sortable")
///     .with("allowed", ["id", "title"]);
/// assert_eq!(
///     serde_json::to_string(&issue).unwrap(),
///     r#"{"location":"query","name":"sort","code":"not_sortable","message":"`isbn` is not sortable","allowed":["id","title"]}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Issue {
    /// Where the offending value is.
    pub location: IssueLocation,
    /// The parameter name, or a JSON pointer into the body.
    pub name: String,
    /// A stable snake_case code, e.g. `invalid_value`.
    pub code: Cow<'static, str>,
    /// A human-readable message.
    pub message: String,
    /// Code-specific members (`allowed`, `expected`, ...), written inline.
    #[serde(flatten)]
    pub extra: Extensions,
}

impl Issue {
    /// An issue with no code-specific members.
    pub fn new(
        location: IssueLocation,
        name: impl Into<String>,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            location,
            name: name.into(),
            code: code.into(),
            message: message.into(),
            extra: Extensions::new(),
        }
    }

    /// Adds a code-specific member; a value that does not serialize is
    /// stored as `null`.
    pub fn with(mut self, key: impl Into<String>, value: impl Serialize) -> Self {
        self.extra.insert(
            key.into(),
            serde_json::to_value(value).unwrap_or(Value::Null),
        );
        self
    }
}

/// 400 Bad Request with an `issues` extension member: the request failed
/// validation. A kind of [`BadRequestException`]: an exception filter for
/// `BadRequestException` also catches it (spec, "Built-in exception
/// classes"). Default detail: `Request validation failed`.
///
/// ```
/// use problem_core::{Issue, IssueLocation, Problem, ValidationException};
/// let err = ValidationException::new(vec![
///     Issue::new(IssueLocation::Body, "/title", "length", "must not be empty"),
/// ]);
/// assert_eq!(
///     serde_json::to_string(&err.to_problem("/books").unwrap()).unwrap(),
///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/books","issues":[{"location":"body","name":"/title","code":"length","message":"must not be empty"}]}"#
/// );
/// assert_eq!(err.name(), "ValidationException");
/// ```
pub struct ValidationException {
    base: BadRequestException,
    issues: Vec<Issue>,
}

impl ValidationException {
    /// A validation error with the given issues and the default detail.
    pub fn new(issues: Vec<Issue>) -> Self {
        Self {
            base: BadRequestException::new().with_detail(VALIDATION_DETAIL),
            issues,
        }
    }

    /// Replaces the detail.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.base = self.base.with_detail(detail);
        self
    }

    /// Replaces the problem type URI.
    pub fn with_type(mut self, problem_type: impl Into<String>) -> Self {
        self.base = self.base.with_type(problem_type);
        self
    }

    /// The issues.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The exception seen as the [`BadRequestException`] it is a kind of
    /// (its issues are not part of that view).
    pub fn as_bad_request(&self) -> &BadRequestException {
        &self.base
    }
}

impl fmt::Debug for ValidationException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidationException")
            .field("base", &self.base)
            .field("issues", &self.issues)
            .finish()
    }
}

impl fmt::Display for ValidationException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.base, f)
    }
}

impl StdError for ValidationException {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.base.source()
    }
}

impl Problem for ValidationException {
    fn status(&self) -> StatusCode {
        StatusCode::BAD_REQUEST
    }
    fn problem_type(&self) -> &str {
        self.base.problem_type()
    }
    fn title(&self) -> Cow<'_, str> {
        self.base.title()
    }
    fn detail(&self) -> Option<Cow<'_, str>> {
        self.base.detail()
    }
    fn extensions(&self) -> Result<Extensions, ProblemBuildError> {
        let mut ext = self.base.extensions()?;
        let issues =
            serde_json::to_value(&self.issues).map_err(|e| ProblemBuildError::Extension {
                key: "issues".into(),
                message: e.to_string(),
            })?;
        ext.insert("issues".into(), issues);
        Ok(ext)
    }
    fn headers(&self) -> Result<HeaderMap, ProblemBuildError> {
        self.base.headers()
    }
    fn name(&self) -> &'static str {
        "ValidationException"
    }
    fn to_problem_json(&self, instance: &str) -> Result<Vec<u8>, ProblemBuildError> {
        self.base
            .inner()
            .problem_json_with(instance, IssuesMember(&self.issues))
    }
}

/// The `issues` member, serialized straight from the issues.
struct IssuesMember<'a>(&'a [Issue]);

impl ExtraMembers for IssuesMember<'_> {
    fn contains(&self, key: &str) -> bool {
        key == "issues"
    }
    fn size_hint(&self) -> usize {
        16 + self.0.len() * 160
    }
    fn write_members<K: MemberSink>(&self, sink: &mut K) -> Result<(), K::Error> {
        sink.member("issues", self.0)
    }
}

crate::impl_response_error!(ValidationException);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{HttpException, NotFoundException};
    use serde_json::json;

    /// `to_problem_json` writes exactly the bytes of the serialized `to_problem`.
    fn same_bytes(p: &dyn Problem, instance: &str) -> String {
        let fast = p.to_problem_json(instance).unwrap();
        let slow = serde_json::to_vec(&p.to_problem(instance).unwrap()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&slow)
        );
        String::from_utf8(fast).unwrap()
    }

    #[test]
    fn problem_json_is_the_serialized_problem() {
        let issues = vec![
            Issue::new(
                IssueLocation::Query,
                "sort",
                "not_sortable",
                "`\"x\"\n` is not sortable",
            )
            .with("allowed", ["id", "title"]),
            Issue::new(IssueLocation::Header, "x-é", "c", "m\u{7}").with("expected", 1.5),
        ];
        assert_eq!(
            same_bytes(
                &ValidationException::new(issues).with_type("/p/v"),
                "/b\"ooks"
            ),
            r#"{"type":"/p/v","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/b\"ooks","issues":[{"location":"query","name":"sort","code":"not_sortable","message":"`\"x\"\n` is not sortable","allowed":["id","title"]},{"location":"header","name":"x-é","code":"c","message":"m\u0007","expected":1.5}]}"#
        );
        same_bytes(&NotFoundException::new(), "");
        let ext = HttpException::new(409)
            .unwrap()
            .with_extension("detail", "from extension")
            .with_extension("status", 1)
            .with_extension("nested", json!({"a": [1, null, true, "\\"]}));
        assert_eq!(
            same_bytes(&ext, "/x"),
            r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"from extension","instance":"/x","nested":{"a":[1,null,true,"\\"]}}"#
        );
        same_bytes(&ext.with_detail("real").with_title("Clash"), "/x");
    }

    #[test]
    fn problem_json_reports_extension_failures() {
        let bad: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let err = HttpException::new(400).unwrap().with_extension("bad", bad);
        assert!(matches!(
            err.to_problem_json("/"),
            Err(ProblemBuildError::Extension { .. })
        ));
    }
}
