//! [`ValidationException`] and its [`Issue`] list (an RFC 9457 §3.2 extension member).

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::builtin::BadRequestException;
use super::details::{Extensions, ExtraMembers};
use super::exception::{BoxError, ProblemBuildError};
use super::json::{MemberSink, field};
use super::traits::Problem;

/// Where the value an [`Issue`] is about was found; serialized in lower
/// case.
///
/// ```
/// use problem_core::IssueLocation;
/// assert_eq!(serde_json::to_string(&IssueLocation::Query).unwrap(), r#""query""#);
/// assert_eq!(serde_json::from_str::<IssueLocation>(r#""header""#).unwrap(), IssueLocation::Header);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
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
    ///
    /// ```
    /// use problem_core::IssueLocation;
    /// assert_eq!(IssueLocation::Body.as_str(), "body");
    /// assert_eq!(IssueLocation::Header.to_string(), "header");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Query => "query",
            Self::Body => "body",
            Self::Path => "path",
            Self::Header => "header",
        }
    }
}

impl std::fmt::Display for IssueLocation {
    /// As [`as_str`](Self::as_str).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of the `issues` extension member:
/// `{"location", "name", "code", "message"}` plus code-specific members such
/// as `allowed` or `expected` (RFC 9457 §3.2 extension member).
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
    pub extra: IssueMembers,
}

impl Issue {
    /// An issue with no code-specific members.
    ///
    /// ```
    /// use problem_core::{Issue, IssueLocation};
    /// let issue = Issue::new(IssueLocation::Path, "id", "invalid_value", "`x` is not an integer");
    /// assert!(issue.extra.is_empty());
    /// assert_eq!(
    ///     serde_json::to_string(&issue).unwrap(),
    ///     r#"{"location":"path","name":"id","code":"invalid_value","message":"`x` is not an integer"}"#
    /// );
    /// ```
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
            extra: IssueMembers::new(),
        }
    }

    /// Adds a code-specific member (replacing one of the same name, in its
    /// place); a value that does not serialize is stored as `null`, and a
    /// `key` naming one of the issue's own members (`location`, `name`,
    /// `code`, `message`) is ignored.
    ///
    /// ```
    /// use problem_core::{Issue, IssueLocation};
    /// let issue = Issue::new(IssueLocation::Query, "limit", "out_of_range", "limit must be at most 100")
    ///     .with("max", 50)
    ///     .with("min", 1)
    ///     .with("max", 100);
    /// assert_eq!(
    ///     serde_json::to_string(&issue).unwrap(),
    ///     r#"{"location":"query","name":"limit","code":"out_of_range","message":"limit must be at most 100","max":100,"min":1}"#
    /// );
    /// ```
    pub fn with(mut self, key: impl AsRef<str>, value: impl Serialize) -> Self {
        self.extra.insert(key.as_ref(), &value);
        self
    }
}

/// The members every [`Issue`] has, which [`IssueMembers`] never holds.
const ISSUE_MEMBERS: [&str; 4] = ["location", "name", "code", "message"];

/// The code-specific members of an [`Issue`] (`expected`, `allowed`, ...),
/// in insertion order, each name once, serialized inline in the issue
/// object after `message`.
///
/// Kept as their JSON text (`"expected":"integer","allowed":["id"]`, the
/// bytes `serde_json` writes for them): an issue is built once and written
/// once, so the members are serialized when they are added, into one
/// buffer, and copied as they are into the problem document. Reading a
/// member back ([`get`](Self::get), [`iter`](Self::iter)) parses it.
///
/// ```
/// use problem_core::problem::IssueMembers;
/// use serde_json::json;
///
/// let mut m = IssueMembers::new();
/// m.insert("expected", &"integer");
/// m.insert("allowed", &["id"]);
/// m.insert("expected", &"string"); // replaces, in its place
/// assert_eq!(m.get("expected"), Some(json!("string")));
/// assert_eq!(m.as_json(), r#""expected":"string","allowed":["id"]"#);
/// assert_eq!(m.len(), 2);
/// assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"expected":"string","allowed":["id"]}"#);
/// ```
#[derive(Clone, Default)]
pub struct IssueMembers {
    /// `"k":v` pairs joined by commas (UTF-8: what `serde_json` writes);
    /// empty for no member.
    json: Vec<u8>,
}

impl IssueMembers {
    /// No members.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let m = IssueMembers::new();
    /// assert!(m.is_empty());
    /// assert_eq!(m.as_json(), "");
    /// ```
    pub fn new() -> Self {
        Self { json: Vec::new() }
    }

    /// Sets member `key` (replacing its value, in its place, if it was
    /// there); a value that does not serialize is stored as `null`. The
    /// issue's own members (`location`, `name`, `code`, `message`) are
    /// not extras: such a `key` is ignored, so an issue never has a member
    /// twice.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// use std::collections::HashMap;
    /// let mut m = IssueMembers::new();
    /// m.insert("allowed", &["id", "title"]);
    /// m.insert("expected", &"integer");
    /// m.insert("allowed", &["id"]);
    /// let unserializable: HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
    /// m.insert("bad", &unserializable);
    /// m.insert("code", &"other");
    /// assert_eq!(m.as_json(), r#""allowed":["id"],"expected":"integer","bad":null"#);
    /// ```
    pub fn insert(&mut self, key: &str, value: &(impl Serialize + ?Sized)) {
        if ISSUE_MEMBERS.contains(&key) {
            return;
        }
        if self.json.is_empty() {
            // Most issues have one member: room for it in one allocation.
            self.json.reserve(32 + key.len());
        } else if self.may_contain(key) {
            let mut members = self.to_vec();
            let value = serde_json::to_value(value).unwrap_or(Value::Null);
            match members.iter_mut().find(|(k, _)| k == key) {
                Some((_, old)) => *old = value,
                None => members.push((key.to_owned(), value)),
            }
            *self = members.into_iter().collect();
            return;
        } else {
            self.json.push(b',');
        }
        let start = self.json.len();
        if super::json::write_key(&mut self.json, key).is_err() {
            self.json.truncate(start.saturating_sub(1));
            return;
        }
        let value_start = self.json.len();
        if serde_json::to_writer(&mut self.json, value).is_err() {
            self.json.truncate(value_start);
            self.json.extend_from_slice(b"null");
        }
    }

    /// Whether `"key"` may be a member name (a cheap text search; may say
    /// yes for a value that contains it).
    fn may_contain(&self, key: &str) -> bool {
        match serde_json::to_vec(key) {
            Ok(quoted) => self.json.windows(quoted.len()).any(|w| w == quoted),
            Err(_) => true,
        }
    }

    /// The members, parsed.
    fn to_vec(&self) -> Vec<(String, Value)> {
        let text = format!("{{{}}}", self.as_json());
        match serde_json::from_str::<serde_json::Map<String, Value>>(&text) {
            Ok(map) => map.into_iter().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The value of member `key`, parsed.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// m.insert("allowed", &["id", "title"]);
    /// assert_eq!(m.get("allowed"), Some(serde_json::json!(["id", "title"])));
    /// assert_eq!(m.get("id"), None);
    /// ```
    pub fn get(&self, key: &str) -> Option<Value> {
        if !self.may_contain(key) {
            return None;
        }
        self.to_vec()
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Removes member `key`, returning its value.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// m.insert("expected", &"integer");
    /// m.insert("max", &100);
    /// assert_eq!(m.remove("expected"), Some(serde_json::json!("integer")));
    /// assert_eq!(m.remove("expected"), None);
    /// assert_eq!(m.as_json(), r#""max":100"#);
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        if !self.may_contain(key) {
            return None;
        }
        let mut members = self.to_vec();
        let i = members.iter().position(|(k, _)| k == key)?;
        let (_, value) = members.remove(i);
        *self = members.into_iter().collect();
        Some(value)
    }

    /// Whether member `key` is there.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// m.insert("expected", &"max");
    /// assert!(m.contains_key("expected"));
    /// assert!(!m.contains_key("max"));
    /// ```
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The number of members.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// assert_eq!(m.len(), 0);
    /// m.insert("min", &1);
    /// m.insert("max", &100);
    /// m.insert("min", &0);
    /// assert_eq!(m.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.to_vec().len()
    }

    /// Whether there is no member.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// assert!(m.is_empty());
    /// m.insert("min", &1);
    /// assert!(!m.is_empty());
    /// m.remove("min");
    /// assert!(m.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.json.is_empty()
    }

    /// The members in order, parsed.
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// use serde_json::json;
    /// let mut m = IssueMembers::new();
    /// m.insert("max", &100);
    /// m.insert("allowed", &["id"]);
    /// let members: Vec<_> = m.iter().collect();
    /// assert_eq!(members, [("max".to_owned(), json!(100)), ("allowed".to_owned(), json!(["id"]))]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (String, Value)> {
        self.to_vec().into_iter()
    }

    /// The members' JSON text: `"name":value` pairs joined by commas, as
    /// they are written inside the issue object (empty for none).
    ///
    /// ```
    /// use problem_core::problem::IssueMembers;
    /// let mut m = IssueMembers::new();
    /// m.insert("expected", &"a \"quoted\" word");
    /// m.insert("max", &1.5);
    /// assert_eq!(m.as_json(), r#""expected":"a \"quoted\" word","max":1.5"#);
    /// ```
    pub fn as_json(&self) -> &str {
        std::str::from_utf8(&self.json).unwrap_or_default()
    }

    /// [`as_json`](Self::as_json) as bytes.
    pub(crate) fn as_json_bytes(&self) -> &[u8] {
        &self.json
    }
}

impl fmt::Debug for IssueMembers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.to_vec()).finish()
    }
}

/// Equal when both have the same members, in any order (as a JSON object).
impl PartialEq for IssueMembers {
    fn eq(&self, other: &Self) -> bool {
        if self.json == other.json {
            return true;
        }
        let mine = self.to_vec();
        let theirs = other.to_vec();
        mine.len() == theirs.len()
            && mine
                .iter()
                .all(|(k, v)| theirs.iter().any(|(k2, v2)| k == k2 && v == v2))
    }
}

impl<K: AsRef<str>> FromIterator<(K, Value)> for IssueMembers {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut m = Self::new();
        for (k, v) in iter {
            m.insert(k.as_ref(), &v);
        }
        m
    }
}

impl Serialize for IssueMembers {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let members = self.to_vec();
        let mut map = serializer.serialize_map(Some(members.len()))?;
        for (k, v) in &members {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for IssueMembers {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = IssueMembers;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the code-specific members of an issue")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<IssueMembers, A::Error> {
                let mut m = IssueMembers::new();
                while let Some((k, v)) = map.next_entry::<String, Value>()? {
                    m.insert(&k, &v);
                }
                Ok(m)
            }
        }
        deserializer.deserialize_map(Members)
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
    ///
    /// ```
    /// use problem_core::{Issue, IssueLocation, Problem, ValidationException};
    /// let err = ValidationException::new(vec![Issue::new(IssueLocation::Query, "page", "invalid_value", "not a number")]);
    /// assert_eq!(err.to_string(), "Request validation failed");
    /// assert_eq!(err.status(), 400);
    /// assert_eq!(err.issues()[0].name, "page");
    /// ```
    pub fn new(issues: Vec<Issue>) -> Self {
        Self {
            base: BadRequestException::new()
                .with_static_detail(crate::spec::VALIDATION_FAILED.detail)
                .standing_for("ValidationException"),
            issues,
        }
    }

    /// Replaces the detail.
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_detail("The book is invalid");
    /// assert_eq!(err.detail().as_deref(), Some("The book is invalid"));
    /// ```
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.base = self.base.with_detail(detail);
        self
    }

    /// Replaces the problem type URI.
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_type("/problems/invalid-book");
    /// assert_eq!(
    ///     serde_json::to_string(&err.to_problem("/books").unwrap()).unwrap(),
    ///     r#"{"type":"/problems/invalid-book","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/books","issues":[]}"#
    /// );
    /// ```
    pub fn with_type(mut self, problem_type: impl Into<String>) -> Self {
        self.base = self.base.with_type(problem_type);
        self
    }

    /// Replaces the title (default `Bad Request`).
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_title("Invalid book");
    /// assert_eq!(err.title(), "Invalid book");
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.base = self.base.with_title(title);
        self
    }

    /// Adds an extension member (written before `issues`; one named
    /// `issues` is replaced by the issues).
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_extension("book", 7);
    /// assert_eq!(
    ///     serde_json::to_string(&err.to_problem("/books").unwrap()).unwrap(),
    ///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/books","book":7,"issues":[]}"#
    /// );
    /// ```
    pub fn with_extension(mut self, key: impl Into<String>, value: impl Serialize) -> Self {
        self.base = self.base.with_extension(key, value);
        self
    }

    /// Adds a response header.
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_header(("X-Request-Schema", "book-v3"));
    /// assert_eq!(err.headers().unwrap().get("x-request-schema").unwrap(), "book-v3");
    /// ```
    pub fn with_header(mut self, header: impl TryIntoHeaderPair) -> Self {
        self.base = self.base.with_header(header);
        self
    }

    /// Sets the cause (`std::error::Error::source`; never sent).
    ///
    /// ```
    /// use problem_core::{Problem, ValidationException};
    /// let err = ValidationException::new(vec![]).with_cause(std::io::Error::other("schema file missing"));
    /// assert_eq!(err.cause().unwrap().to_string(), "schema file missing");
    /// ```
    pub fn with_cause(mut self, cause: impl Into<BoxError>) -> Self {
        self.base = self.base.with_cause(cause);
        self
    }

    /// The issues.
    ///
    /// ```
    /// use problem_core::{Issue, IssueLocation, ValidationException};
    /// let title = Issue::new(IssueLocation::Body, "/title", "length", "must not be empty");
    /// let year = Issue::new(IssueLocation::Body, "/year", "range", "must be at least 1450").with("min", 1450);
    /// let err = ValidationException::new(vec![title.clone(), year.clone()]);
    /// assert_eq!(err.issues(), [title, year]);
    /// ```
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The exception seen as the [`BadRequestException`] it is a kind of,
    /// as an exception filter for `BadRequestException` receives it. Its
    /// `name()` is still `ValidationException` (the spec's subclass
    /// instance keeps its class name); its issues are not part of the
    /// view's own document, but
    /// [`default_error_response`](crate::pipeline::default_error_response)
    /// of the view a filter holds renders the whole exception, issues
    /// included.
    ///
    /// ```
    /// use problem_core::{Issue, IssueLocation, Problem, ValidationException};
    /// let err = ValidationException::new(vec![Issue::new(IssueLocation::Query, "q", "required", "q is required")]);
    /// let base = err.as_bad_request();
    /// assert_eq!(base.name(), "ValidationException");
    /// assert_eq!(
    ///     serde_json::to_string(&base.to_problem("/search").unwrap()).unwrap(),
    ///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/search"}"#
    /// );
    /// ```
    pub fn as_bad_request(&self) -> &BadRequestException {
        &self.base
    }
}

/// The same problem as an [`HttpException`](crate::HttpException) (a
/// handler returning `Result<_, HttpException>` can `?` it): the 400 with
/// its detail and headers, the issues as the `issues` extension member.
impl From<ValidationException> for crate::HttpException {
    fn from(value: ValidationException) -> Self {
        crate::HttpException::from(value.base).with_extension("issues", value.issues)
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
        sink.field(field!("issues"), self.0)
    }
}

crate::impl_response_error!(ValidationException);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{HttpException, NotFoundException};
    use serde_json::json;

    /// As an `HttpException`, a validation error is the same document.
    #[test]
    fn into_http_exception_keeps_the_document() {
        let err = ValidationException::new(vec![Issue::new(
            IssueLocation::Query,
            "q",
            "required",
            "q is required",
        )]);
        let direct = err.to_problem("/s").unwrap();
        let converted = HttpException::from(err).to_problem("/s").unwrap();
        assert_eq!(
            serde_json::to_value(&converted).unwrap(),
            serde_json::to_value(&direct).unwrap()
        );
        assert_eq!(
            serde_json::to_value(&converted).unwrap(),
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/s",
                   "issues": [{"location": "query", "name": "q", "code": "required", "message": "q is required"}]})
        );
    }

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
    fn issue_members_replace_in_place_and_round_trip() {
        let bad: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let issue = Issue::new(IssueLocation::Query, "q", "c", "m")
            .with("expected", "integer")
            .with("a\"b", [1, 2])
            .with("bad", bad)
            .with("nan", f64::NAN)
            .with("expected", json!({"k": "\"integer\""}))
            .with("late", "x");
        assert_eq!(
            issue.extra.as_json(),
            r#""expected":{"k":"\"integer\""},"a\"b":[1,2],"bad":null,"nan":null,"late":"x""#
        );
        assert_eq!(issue.extra.len(), 5);
        assert_eq!(issue.extra.get("a\"b"), Some(json!([1, 2])));
        assert_eq!(
            issue.extra.get("k"),
            None,
            "a name inside a value is not a member"
        );
        assert!(!issue.extra.contains_key("missing"));
        let text = serde_json::to_string(&issue).unwrap();
        assert_eq!(
            text,
            r#"{"location":"query","name":"q","code":"c","message":"m","expected":{"k":"\"integer\""},"a\"b":[1,2],"bad":null,"nan":null,"late":"x"}"#
        );
        let back: Issue = serde_json::from_str(&text).unwrap();
        assert_eq!(back, issue);
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        let mut members = back.extra.clone();
        assert_eq!(members.remove("bad"), Some(Value::Null));
        assert_eq!(members.remove("bad"), None);
        assert_eq!(
            members.as_json(),
            r#""expected":{"k":"\"integer\""},"a\"b":[1,2],"nan":null,"late":"x""#
        );
        // Equality does not depend on the order of the members.
        let one: IssueMembers = [("a", json!(1)), ("b", json!(2))].into_iter().collect();
        let two: IssueMembers = [("b", json!(2)), ("a", json!(1))].into_iter().collect();
        assert_eq!(one, two);
        assert_ne!(one, IssueMembers::new());
        assert_eq!(format!("{one:?}"), r#"{"a": Number(1), "b": Number(2)}"#);
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
