//! Caller overrides on any problem value: [`ProblemExt`] and [`Customized`]
//! (spec: a subclass "lets the caller override options").

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use serde::Serialize;

use super::additions::Additions;
use super::details::Extensions;
use super::exception::{BoxError, ProblemBuildError};
use super::traits::Problem;

/// Overrides options (the spec's `type`, `title`, `extensions`, `headers`
/// and `cause`, and the detail) of any problem value, typically a
/// `#[derive(Problem)]` type.
///
/// The result is a [`Customized`] problem that keeps the inner type's
/// status and name, and its type, title, detail and cause unless
/// overridden; an exception filter for the inner type still catches it.
///
/// ```
/// use problem_core::{NotFoundException, Problem, ProblemExt};
///
/// #[derive(Debug)]
/// struct Gone;
/// # impl std::fmt::Display for Gone { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("gone") } }
/// # impl std::error::Error for Gone {}
/// let err = NotFoundException::new().customize().with_detail("Book 7 not found").with_header(("X-Trace", "1"));
/// assert_eq!(err.detail().as_deref(), Some("Book 7 not found"));
/// assert_eq!(err.name(), "NotFoundException");
/// ```
pub trait ProblemExt: Problem + Sized {
    /// Wraps the problem so its options can be overridden.
    ///
    /// ```
    /// use problem_core::{ConflictException, Problem, ProblemExt};
    /// let err = ConflictException::new().customize().with_detail("ISBN 0441013597 exists");
    /// assert_eq!((err.status().as_u16(), err.name()), (409, "ConflictException"));
    /// assert_eq!(err.detail().as_deref(), Some("ISBN 0441013597 exists"));
    /// ```
    fn customize(self) -> Customized<Self> {
        Customized {
            inner: self,
            detail: None,
            problem_type: None,
            title: None,
            cause: None,
            added: Additions::default(),
        }
    }
}

impl<P: Problem> ProblemExt for P {}

/// A problem with caller overrides; see [`ProblemExt::customize`].
///
/// ```
/// use problem_core::{Problem, ProblemExt, ServiceUnavailableException};
/// let err = ServiceUnavailableException::new()
///     .customize()
///     .with_detail("Maintenance window")
///     .with_extension("window", "02:00-03:00");
/// assert_eq!(err.name(), "ServiceUnavailableException");
/// assert_eq!(
///     serde_json::to_string(&err.to_problem("/books")?)?,
///     r#"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Maintenance window","instance":"/books","window":"02:00-03:00"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Customized<P> {
    inner: P,
    detail: Option<String>,
    problem_type: Option<String>,
    title: Option<String>,
    cause: Option<BoxError>,
    /// The extension members and headers that override the inner problem's.
    added: Additions,
}

impl<P: Problem> Customized<P> {
    /// Replaces the detail.
    ///
    /// ```
    /// use problem_core::{NotFoundException, Problem, ProblemExt};
    /// let err = NotFoundException::new().with_detail("Book 7 not found").customize().with_detail("Book 8 not found");
    /// assert_eq!(err.to_string(), "Book 8 not found");
    /// assert_eq!(err.inner().to_string(), "Book 7 not found");
    /// ```
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Replaces the problem type (a URI reference; default the inner
    /// problem's).
    ///
    /// ```
    /// use problem_core::{ConflictException, Problem, ProblemExt};
    /// let err = ConflictException::new().customize().with_type("/problems/duplicate-isbn");
    /// assert_eq!(err.problem_type(), "/problems/duplicate-isbn");
    /// assert_eq!(err.inner().problem_type(), "about:blank");
    /// ```
    pub fn with_type(mut self, problem_type: impl Into<String>) -> Self {
        self.problem_type = Some(problem_type.into());
        self
    }

    /// Replaces the title (default the inner problem's); without a detail
    /// it is also the message (`Display`).
    ///
    /// ```
    /// use problem_core::{ConflictException, Problem, ProblemExt};
    /// let err = ConflictException::new().customize().with_title("Duplicate book");
    /// assert_eq!(err.title(), "Duplicate book");
    /// assert_eq!(err.to_string(), "Duplicate book");
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Replaces the cause (`std::error::Error::source`; never sent to the
    /// client).
    ///
    /// ```
    /// use problem_core::{Problem, ProblemExt, ServiceUnavailableException};
    /// let io = std::io::Error::other("connection refused");
    /// let err = ServiceUnavailableException::new().customize().with_cause(io);
    /// assert_eq!(err.cause().unwrap().to_string(), "connection refused");
    /// assert_eq!(std::error::Error::source(&err).unwrap().to_string(), "connection refused");
    /// ```
    pub fn with_cause(mut self, cause: impl Into<BoxError>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    /// Adds or replaces an extension member.
    ///
    /// ```
    /// use problem_core::{ConflictException, Problem, ProblemExt};
    /// let err = ConflictException::new()
    ///     .with_extension("isbn", "0441013597")
    ///     .customize()
    ///     .with_extension("isbn", "0441172717")
    ///     .with_extension("copies", 2);
    /// assert_eq!(
    ///     serde_json::Value::Object(err.extensions()?),
    ///     serde_json::json!({"isbn": "0441172717", "copies": 2})
    /// );
    /// # Ok::<(), problem_core::ProblemBuildError>(())
    /// ```
    pub fn with_extension(mut self, key: impl Into<String>, value: impl Serialize) -> Self {
        self.added.add_extension(key.into(), value);
        self
    }

    /// Adds a response header; replaces the inner problem's headers of that name.
    ///
    /// ```
    /// use problem_core::{Problem, ProblemExt, TooManyRequestsException};
    /// let err = TooManyRequestsException::new()
    ///     .with_header(("Retry-After", "60"))
    ///     .customize()
    ///     .with_header(("Retry-After", "120"));
    /// let headers = err.headers()?;
    /// assert_eq!(headers.get_all("retry-after").collect::<Vec<_>>(), ["120"]);
    /// assert!(err.customize().with_header(("Bad Name", "1")).headers().is_err());
    /// # Ok::<(), problem_core::ProblemBuildError>(())
    /// ```
    pub fn with_header(mut self, header: impl TryIntoHeaderPair) -> Self {
        self.added.add_header(header);
        self
    }

    /// The wrapped problem.
    ///
    /// ```
    /// use problem_core::{NotFoundException, Problem, ProblemExt};
    /// let err = NotFoundException::new().customize().with_detail("Book 7 not found");
    /// assert_eq!(err.inner().detail(), None);
    /// assert_eq!(err.detail().as_deref(), Some("Book 7 not found"));
    /// ```
    pub fn inner(&self) -> &P {
        &self.inner
    }

    /// Unwraps the problem, dropping the overrides.
    ///
    /// ```
    /// use problem_core::{NotFoundException, ProblemExt};
    /// let err = NotFoundException::new().customize().with_detail("Book 7 not found");
    /// let inner: NotFoundException = err.into_inner();
    /// assert_eq!(inner.to_string(), "Not Found");
    /// ```
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: Problem> fmt::Debug for Customized<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Customized")
            .field("inner", &self.inner)
            .field("detail", &self.detail)
            .field("problem_type", &self.problem_type)
            .field("title", &self.title)
            .field("cause", &self.cause)
            .field("extensions", &self.added.extensions)
            .field("headers", &self.added.headers)
            .finish()
    }
}

impl<P: Problem> fmt::Display for Customized<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.detail, &self.title) {
            (Some(d), _) => f.write_str(d),
            // The inner detail, else the overriding title.
            (None, title) => match (self.inner.detail(), title) {
                (Some(d), _) => f.write_str(&d),
                (None, Some(t)) => f.write_str(t),
                (None, None) => fmt::Display::fmt(&self.inner, f),
            },
        }
    }
}

impl<P: Problem> StdError for Customized<P> {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Problem::cause(self)
    }
}

impl<P: Problem> Problem for Customized<P> {
    fn status(&self) -> StatusCode {
        self.inner.status()
    }
    fn problem_type(&self) -> &str {
        self.problem_type
            .as_deref()
            .unwrap_or_else(|| self.inner.problem_type())
    }
    fn title(&self) -> Cow<'_, str> {
        match &self.title {
            Some(t) => Cow::Borrowed(t),
            None => self.inner.title(),
        }
    }
    fn cause(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.cause {
            Some(c) => Some(&**c as &(dyn StdError + 'static)),
            None => Problem::cause(&self.inner),
        }
    }
    fn detail(&self) -> Option<Cow<'_, str>> {
        match &self.detail {
            Some(d) => Some(Cow::Borrowed(d)),
            None => self.inner.detail(),
        }
    }
    fn extensions(&self) -> Result<Extensions, ProblemBuildError> {
        self.added.extension_failure()?;
        let mut ext = self.inner.extensions()?;
        for (k, v) in &self.added.extensions {
            ext.insert(k.clone(), v.clone());
        }
        Ok(ext)
    }
    fn headers(&self) -> Result<HeaderMap, ProblemBuildError> {
        self.added.header_failure()?;
        let mut headers = self.inner.headers()?;
        crate::pipeline::replace_headers(&mut headers, &self.added.headers);
        Ok(headers)
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

impl<P: Problem> actix_web::ResponseError for Customized<P> {
    fn status_code(&self) -> StatusCode {
        Problem::status(self)
    }
    fn error_response(&self) -> actix_web::HttpResponse {
        super::response::standalone_response(self)
    }
}
