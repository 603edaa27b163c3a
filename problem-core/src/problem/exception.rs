//! [`HttpException`]: a problem built at run time.

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use serde::Serialize;

use super::additions::Additions;
use super::details::{ABOUT_BLANK, BodyRef, Extensions, ExtraMembers, NoMembers, Source};
use super::titles::status_title;
use super::traits::Problem;

/// A boxed error usable as a problem's cause (`with_cause` takes any
/// `impl Into<BoxError>`); the cause is never sent to the client.
///
/// ```
/// use problem_core::{BoxError, HttpException, Problem};
/// let cause: BoxError = Box::new(std::io::Error::other("db down"));
/// let err = HttpException::new(503)?.with_cause(cause);
/// assert_eq!(err.cause().map(|c| c.to_string()).as_deref(), Some("db down"));
/// # Ok::<(), problem_core::StatusRangeError>(())
/// ```
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// The status given to [`HttpException::new`] is outside `400..=599`
/// (the spec's `RangeError`; spec "Limits": HTTP exception status range).
///
/// ```
/// let err = problem_core::HttpException::new(302).unwrap_err();
/// assert_eq!(err.to_string(), "HTTP exception status must be 400 to 599, got 302");
/// ```
///
/// It converts into an `actix_web::Error` as an unknown error (a masked
/// 500, logged as `StatusRangeError: ...`; it is a bug, not the client's
/// fault), so `?` works in a handler returning `actix_web::Error`:
///
/// ```
/// use actix_web::HttpResponse;
/// use problem_core::HttpException;
///
/// async fn gone(status: u16) -> Result<HttpResponse, actix_web::Error> {
///     Err(HttpException::new(status)?.with_detail("This edition was withdrawn").into())
/// }
/// # actix_web::rt::System::new().block_on(async {
/// assert_eq!(gone(410).await.unwrap_err().as_response_error().status_code(), 410);
/// assert_eq!(gone(700).await.unwrap_err().as_response_error().status_code(), 500);
/// # });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("HTTP exception status must be 400 to 599, got {status}")]
pub struct StatusRangeError {
    /// The rejected status.
    pub status: i64,
}

/// A problem could not be turned into a body or headers: an extension value
/// failed to serialize, or a header was invalid. The pipeline answers such a
/// problem as an unknown error (masked 500).
///
/// ```
/// use std::collections::HashMap;
/// use problem_core::{HttpException, Problem, ProblemBuildError};
///
/// let bad: HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
/// let err = HttpException::new(400).unwrap().with_extension("bad", &bad);
/// assert!(matches!(err.extensions(), Err(ProblemBuildError::Extension { .. })));
///
/// // Each kind keeps its own first failure: a bad header does not hide a
/// // bad extension member, nor the other way round.
/// let both = HttpException::new(400).unwrap().with_header(("Bad Name", "1")).with_extension("bad", &bad);
/// assert!(matches!(both.extensions(), Err(ProblemBuildError::Extension { key, .. }) if key == "bad"));
/// assert!(matches!(both.headers(), Err(ProblemBuildError::Header { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemBuildError {
    /// An extension value could not be serialized to JSON.
    #[error("extension member `{key}` cannot be serialized: {message}")]
    Extension {
        /// The extension's name.
        key: String,
        /// The serializer's message.
        message: String,
    },
    /// A header name or value was invalid.
    #[error("invalid problem header: {message}")]
    Header {
        /// Why the header was rejected.
        message: String,
    },
}

impl From<StatusRangeError> for actix_web::Error {
    fn from(error: StatusRangeError) -> Self {
        crate::pipeline::UnknownError::from(error).into()
    }
}

/// Answered as an unknown error (a masked 500, logged as
/// `ProblemBuildError: ...`), as the pipeline answers a problem that
/// cannot be built.
impl From<ProblemBuildError> for actix_web::Error {
    fn from(error: ProblemBuildError) -> Self {
        crate::pipeline::UnknownError::from(error).into()
    }
}

impl ProblemBuildError {
    /// A body that failed to serialize as a whole (no single member to
    /// blame): `Extension` with an empty key.
    pub(crate) fn serialization(err: serde_json::Error) -> Self {
        Self::Extension {
            key: String::new(),
            message: err.to_string(),
        }
    }
}

/// Options of an exception, as the spec's `options` argument
/// (spec, "HTTP exception": `type`, `title`, `extensions`, `headers`, `cause`).
///
/// ```
/// use problem_core::{HttpException, Problem, ProblemOptions};
///
/// let options = ProblemOptions { problem_type: Some("/problems/quota".into()), ..Default::default() };
/// let err = HttpException::with_options(429, Some("Slow down"), options).unwrap();
/// assert_eq!(err.problem_type(), "/problems/quota");
/// ```
#[derive(Debug, Default)]
pub struct ProblemOptions {
    /// `type`; default `about:blank`.
    pub problem_type: Option<String>,
    /// `title`; default [`status_title`](crate::status_title).
    pub title: Option<String>,
    /// Extension members.
    pub extensions: Extensions,
    /// Headers of the problem response.
    pub headers: HeaderMap,
    /// The underlying error.
    pub cause: Option<BoxError>,
}

/// An HTTP exception: a status in `400..=599` with optional detail, type,
/// title, extensions, headers and cause (spec, "HTTP exception").
///
/// Build it with [`HttpException::new`] (fails with [`StatusRangeError`]
/// outside `400..=599`, never panics) and the `with_*` builder methods. Its
/// `Display` is its message (detail, else title), [`Problem::name`] is
/// `"HttpException"`, [`std::error::Error::source`] its cause, and
/// [`Problem::to_problem`] its body.
///
/// ```
/// use problem_core::{HttpException, Problem};
///
/// let err = HttpException::new(503)?
///     .with_detail("Maintenance window")
///     .with_extension("window", "02:00-03:00")
///     .with_header(("Retry-After", "120"));
/// assert_eq!(err.to_string(), "Maintenance window");
/// assert_eq!(
///     serde_json::to_string(&err.to_problem("/books")?)?,
///     r#"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Maintenance window","instance":"/books","window":"02:00-03:00"}"#
/// );
/// assert_eq!(err.headers()?.get("retry-after").unwrap(), "120");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct HttpException {
    status: StatusCode,
    /// Borrowed for the library's own fixed details (no allocation).
    detail: Option<Cow<'static, str>>,
    problem_type: Cow<'static, str>,
    title: Option<String>,
    /// Extension members and headers, with what failed to be added.
    added: Additions,
    cause: Option<BoxError>,
    /// The name of the problem type this exception is a view of, when it
    /// stands for another one: an exception filter for `HttpException`
    /// (or for `BadRequestException`, of a `ValidationException`) is handed
    /// such a view, whose `name()` is the thrown type's, as the spec's
    /// subclass instance would be.
    kind: Option<&'static str>,
}

impl HttpException {
    /// A new exception with the given status: any integer, so that a
    /// negative or oversized value is an error value too (the spec's
    /// `RangeError`), never a compile error or a panic.
    ///
    /// # Errors
    /// [`StatusRangeError`] when `status` is not in `400..=599`.
    ///
    /// ```
    /// assert!(problem_core::HttpException::new(599).is_ok());
    /// assert!(problem_core::HttpException::new(600).is_err());
    /// assert!(problem_core::HttpException::new(-1).is_err());
    /// assert!(problem_core::HttpException::new(70_000).is_err());
    /// ```
    pub fn new(status: impl Into<i64>) -> Result<Self, StatusRangeError> {
        let status = status.into();
        let code = u16::try_from(status)
            .ok()
            .filter(|s| (400..=599).contains(s))
            .and_then(|s| StatusCode::from_u16(s).ok());
        match code {
            Some(code) => Ok(Self::from_status(code)),
            None => Err(StatusRangeError { status }),
        }
    }

    /// The spec's full constructor `HttpException(status, detail?, options?)`.
    ///
    /// # Errors
    /// [`StatusRangeError`] when `status` is not in `400..=599`.
    ///
    /// ```
    /// use problem_core::{HttpException, ProblemOptions};
    /// let err = HttpException::with_options(404, None::<&str>, ProblemOptions::default()).unwrap();
    /// assert_eq!(err.to_string(), "Not Found");
    /// ```
    pub fn with_options(
        status: impl Into<i64>,
        detail: Option<impl Into<String>>,
        options: ProblemOptions,
    ) -> Result<Self, StatusRangeError> {
        let mut exc = Self::new(status)?;
        exc.detail = detail.map(|d| Cow::Owned(d.into()));
        exc.apply(options);
        Ok(exc)
    }

    /// An exception for a status already known to be in range
    /// (used by the built-ins and derived types).
    pub(crate) fn from_status(status: StatusCode) -> Self {
        Self {
            status,
            detail: None,
            problem_type: Cow::Borrowed(ABOUT_BLANK),
            title: None,
            added: Additions::default(),
            cause: None,
            kind: None,
        }
    }

    /// This exception as a view of a problem type named `name`.
    pub(crate) fn standing_for(mut self, name: &'static str) -> Self {
        self.kind = Some(name);
        self
    }

    /// This exception as itself, no longer a view of another type.
    pub(crate) fn plain(mut self) -> Self {
        self.kind = None;
        self
    }

    /// The name of the type this exception is a view of, if any.
    pub(crate) fn kind_name(&self) -> Option<&'static str> {
        self.kind
    }

    pub(crate) fn apply(&mut self, options: ProblemOptions) {
        if let Some(t) = options.problem_type {
            self.problem_type = Cow::Owned(t);
        }
        if options.title.is_some() {
            self.title = options.title;
        }
        self.added.extensions.extend(options.extensions);
        for (name, value) in options.headers {
            self.added.headers.append(name, value);
        }
        if options.cause.is_some() {
            self.cause = options.cause;
        }
    }

    /// Sets the detail, a message for the client.
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// let err = HttpException::new(409)?.with_detail("Duplicate ISBN");
    /// assert_eq!(err.detail().as_deref(), Some("Duplicate ISBN"));
    /// assert_eq!(err.to_string(), "Duplicate ISBN");
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(Cow::Owned(detail.into()));
        self
    }

    /// Every problem is a kind of `HttpException` (the spec's class model:
    /// the built-ins and user subclasses extend it): `problem` as an
    /// `HttpException` with the same status, type, title, detail, extension
    /// members and headers, for an exception filter registered for
    /// `HttpException`. The cause stays with the original (the filter's
    /// context holds it); what fails to build is left out.
    pub(crate) fn kind_of(problem: &dyn Problem) -> Self {
        let mut exc = Self::from_status(problem.status());
        exc.problem_type = Cow::Owned(problem.problem_type().to_owned());
        exc.title = Some(problem.title().into_owned());
        exc.detail = problem.detail().map(|d| Cow::Owned(d.into_owned()));
        exc.added.extensions = problem.extensions().unwrap_or_default();
        exc.added.headers = problem.headers().unwrap_or_default();
        exc.kind = Some(problem.name());
        exc
    }

    /// Sets a fixed detail without copying it.
    pub(crate) fn with_static_detail(mut self, detail: &'static str) -> Self {
        self.detail = Some(Cow::Borrowed(detail));
        self
    }

    /// Sets the problem type URI (default `about:blank`).
    ///
    /// A problem document's `type` is always a URI reference (RFC 9457
    /// §3.1.1): characters a URI cannot hold (a space, `"`, `{`, non-ASCII,
    /// ...) are percent-encoded in the document, and a `%` that does not
    /// start a `%XX` triplet is written `%25`. [`problem_type`] returns
    /// the value as given.
    ///
    /// [`problem_type`]: crate::Problem::problem_type
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// assert_eq!(HttpException::new(409)?.problem_type(), "about:blank");
    /// let err = HttpException::new(409)?.with_type("/problems/duplicate-isbn");
    /// assert_eq!(err.problem_type(), "/problems/duplicate-isbn");
    ///
    /// let odd = HttpException::new(409)?.with_type("/problems/duplicate isbn");
    /// let doc: serde_json::Value = serde_json::from_slice(&odd.to_problem_json("/books")?)?;
    /// assert_eq!(doc["type"], "/problems/duplicate%20isbn");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_type(mut self, problem_type: impl Into<String>) -> Self {
        self.problem_type = Cow::Owned(problem_type.into());
        self
    }

    /// Sets the title (default from [`status_title`](crate::status_title)).
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// assert_eq!(HttpException::new(409)?.title(), "Conflict");
    /// let err = HttpException::new(409)?.with_title("Duplicate book");
    /// assert_eq!(err.title(), "Duplicate book");
    /// assert_eq!(err.to_string(), "Duplicate book");
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Adds an extension member; any `Serialize` value. A value that fails
    /// to serialize makes [`Problem::extensions`] return
    /// [`ProblemBuildError::Extension`] (never a panic).
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// let err = HttpException::new(409)?.with_extension("isbn", "0441013597").with_extension("copies", [1, 2]);
    /// assert_eq!(
    ///     serde_json::to_string(&err.to_problem("/books")?)?,
    ///     r#"{"type":"about:blank","title":"Conflict","status":409,"instance":"/books","isbn":"0441013597","copies":[1,2]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_extension(mut self, key: impl Into<String>, value: impl Serialize) -> Self {
        self.added.add_extension(key.into(), value);
        self
    }

    /// Adds every member of a JSON object as an extension member.
    ///
    /// ```
    /// use problem_core::{Extensions, HttpException, Problem};
    /// let mut ext = Extensions::new();
    /// ext.insert("limit".into(), 100.into());
    /// ext.insert("window".into(), "1m".into());
    /// let err = HttpException::new(429)?.with_extension("limit", 50).with_extensions(ext);
    /// assert_eq!(
    ///     serde_json::Value::Object(err.extensions()?),
    ///     serde_json::json!({"limit": 100, "window": "1m"})
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_extensions(mut self, extensions: Extensions) -> Self {
        self.added.extensions.extend(extensions);
        self
    }

    /// Adds a response header, e.g. `("Retry-After", "120")`. An invalid
    /// name or value makes [`Problem::headers`] return
    /// [`ProblemBuildError::Header`].
    ///
    /// ```
    /// use problem_core::{HttpException, Problem, ProblemBuildError};
    /// let err = HttpException::new(503)?.with_header(("Retry-After", "120"));
    /// assert_eq!(err.headers()?.get("retry-after").unwrap(), "120");
    /// let bad = HttpException::new(503)?.with_header(("Retry After", "120"));
    /// assert!(matches!(bad.headers(), Err(ProblemBuildError::Header { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_header(mut self, header: impl TryIntoHeaderPair) -> Self {
        self.added.add_header(header);
        self
    }

    /// Adds several response headers at once: the spec's `headers` option
    /// (a list of name/value pairs, or an owned `HeaderMap`), each
    /// as [`with_header`](Self::with_header).
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// let err = HttpException::new(401)?
    ///     .with_headers([("WWW-Authenticate", r#"Bearer realm="catalog""#), ("Cache-Control", "no-store")]);
    /// let headers = err.headers()?;
    /// assert_eq!(headers.get("www-authenticate").unwrap(), r#"Bearer realm="catalog""#);
    /// assert_eq!(headers.get("cache-control").unwrap(), "no-store");
    /// let again = HttpException::new(401)?.with_headers(headers);
    /// assert_eq!(again.headers()?.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_headers<H: TryIntoHeaderPair>(
        mut self,
        headers: impl IntoIterator<Item = H>,
    ) -> Self {
        for header in headers {
            self.added.add_header(header);
        }
        self
    }

    /// Sets the underlying error; kept as [`std::error::Error::source`],
    /// never sent to the client.
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// use std::error::Error as _;
    /// let err = HttpException::new(502)?.with_cause(std::io::Error::other("upstream reset"));
    /// assert_eq!(err.source().unwrap().to_string(), "upstream reset");
    /// assert_eq!(
    ///     serde_json::to_string(&err.to_problem("/books")?)?,
    ///     r#"{"type":"about:blank","title":"Bad Gateway","status":502,"instance":"/books"}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_cause(mut self, cause: impl Into<BoxError>) -> Self {
        self.cause = Some(cause.into());
        self
    }
}

impl HttpException {
    /// The problem document for `instance` with `members` written after
    /// the extensions, serialized straight from the exception (see
    /// [`Problem::to_problem_json`]).
    pub(crate) fn problem_json_with<X: ExtraMembers>(
        &self,
        instance: &str,
        members: X,
    ) -> Result<Vec<u8>, ProblemBuildError> {
        self.added.extension_failure()?;
        let members_capacity = 128
            + self.detail.as_ref().map_or(0, |d| d.len())
            + instance.len()
            + 64 * self.added.extensions.len()
            + members.size_hint();
        BodyRef {
            problem_type: &self.problem_type,
            title: self
                .title
                .as_deref()
                .unwrap_or_else(|| status_title(self.status.as_u16())),
            status: self.status.as_u16(),
            detail: self.detail.as_deref(),
            instance: Some(instance),
            correlation_id: None,
            extensions: &self.added.extensions,
            members,
            stack: None,
            source: Source::Problem,
        }
        .to_vec(members_capacity)
        .map_err(ProblemBuildError::serialization)
    }
}

impl fmt::Debug for HttpException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpException")
            .field("status", &self.status.as_u16())
            .field("type", &self.problem_type)
            .field("title", &self.title())
            .field("detail", &self.detail)
            .field("extensions", &self.added.extensions)
            .field("headers", &self.added.headers)
            .field("cause", &self.cause)
            .finish()
    }
}

impl fmt::Display for HttpException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.detail {
            Some(d) => f.write_str(d),
            None => f.write_str(&self.title()),
        }
    }
}

impl StdError for HttpException {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause
            .as_deref()
            .map(|c| c as &(dyn StdError + 'static))
    }
}

impl Problem for HttpException {
    fn status(&self) -> StatusCode {
        self.status
    }
    fn problem_type(&self) -> &str {
        &self.problem_type
    }
    fn title(&self) -> Cow<'_, str> {
        match &self.title {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Borrowed(status_title(self.status.as_u16())),
        }
    }
    fn detail(&self) -> Option<Cow<'_, str>> {
        self.detail.as_deref().map(Cow::Borrowed)
    }
    fn extensions(&self) -> Result<Extensions, ProblemBuildError> {
        self.added.extension_failure()?;
        Ok(self.added.extensions.clone())
    }
    fn headers(&self) -> Result<HeaderMap, ProblemBuildError> {
        self.added.header_failure()?;
        Ok(self.added.headers.clone())
    }
    fn name(&self) -> &'static str {
        self.kind.unwrap_or("HttpException")
    }
    fn to_problem_json(&self, instance: &str) -> Result<Vec<u8>, ProblemBuildError> {
        self.problem_json_with(instance, NoMembers)
    }
}

crate::impl_response_error!(HttpException);
