//! The [`Problem`] trait: how the pipeline reads any problem type.

use std::borrow::Cow;
use std::error::Error as StdError;

use actix_web::http::StatusCode;
use actix_web::http::header::HeaderMap;

use super::details::{ABOUT_BLANK, Extensions, ProblemDetails};
use super::exception::ProblemBuildError;
use super::titles::status_title;

/// A type that answers as an RFC 9457 problem document.
///
/// This is the one trait the error pipeline uses to read any problem:
/// [`HttpException`](crate::HttpException), the built-in exceptions,
/// [`ValidationException`](crate::ValidationException) and every
/// `#[derive(Problem)]` type implement it. It is the Rust form of the spec's
/// exception class ("HTTP exception"): [`status`](Problem::status),
/// [`problem_type`](Problem::problem_type), [`title`](Problem::title),
/// [`detail`](Problem::detail), [`extensions`](Problem::extensions),
/// [`headers`](Problem::headers), [`name`](Problem::name) and
/// [`cause`](Problem::cause).
///
/// Every problem type is also an [`actix_web::ResponseError`], so a handler
/// returning `Result<T, E>` (or `actix_web::Error` built from `E`) answers
/// with the problem. The `Display` of a problem is its message: the detail,
/// else the title.
///
/// Derive it (`#[derive(Problem)]`). Written by hand, its
/// `ResponseError::error_response` must be
/// [`standalone_response(self)`](crate::problem::standalone_response), by
/// which the pipeline finds the problem in the error; any other response
/// is read as an unknown error (a masked 500).
///
/// ```
/// use problem_core::{NotFoundException, Problem};
///
/// let err = NotFoundException::new().with_detail("Book 7 not found");
/// assert_eq!(err.status().as_u16(), 404);
/// assert_eq!(err.name(), "NotFoundException");
/// assert_eq!(err.to_string(), "Book 7 not found");
/// let body = err.to_problem("/books/7").unwrap();
/// assert_eq!(body.instance.as_deref(), Some("/books/7"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a problem type",
    label = "not a problem type",
    note = "derive it with `#[derive(Problem)]`, or use a built-in exception such as `NotFoundException`",
    note = "a type with `#[derive(Problem)]` is a problem type only when it is `Debug + Send + Sync + 'static` (for a generic type: with these type arguments)",
    note = "an exception filter for an error type that is not a problem (`std::io::Error`, `sqlx::Error`, ...) is registered with `filter_error::<E, _>`"
)]
pub trait Problem: StdError + actix_web::ResponseError + Send + Sync + 'static {
    /// The HTTP status, always in `400..=599` (RFC 9457 §3.1.2, `status`).
    ///
    /// ```
    /// use problem_core::{HttpException, NotFoundException, Problem};
    /// assert_eq!(NotFoundException::new().status(), actix_web::http::StatusCode::NOT_FOUND);
    /// assert_eq!(HttpException::new(429)?.status().as_u16(), 429);
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    fn status(&self) -> StatusCode;

    /// The problem type URI (`type`, RFC 9457 §3.1.1). Default
    /// `about:blank`.
    ///
    /// ```
    /// use problem_core::{NotFoundException, Problem};
    /// assert_eq!(NotFoundException::new().problem_type(), "about:blank");
    /// let err = NotFoundException::new().with_type("/problems/no-such-book");
    /// assert_eq!(err.problem_type(), "/problems/no-such-book");
    /// ```
    fn problem_type(&self) -> &str {
        ABOUT_BLANK
    }

    /// The title (`title`, RFC 9457 §3.1.3). Default: [`status_title`] of
    /// the status.
    ///
    /// ```
    /// use problem_core::{HttpException, Problem, TooManyRequestsException};
    /// assert_eq!(TooManyRequestsException::new().title(), "Too Many Requests");
    /// assert_eq!(HttpException::new(499)?.title(), "Error");
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    fn title(&self) -> Cow<'_, str> {
        Cow::Borrowed(status_title(self.status().as_u16()))
    }

    /// The detail (`detail`, RFC 9457 §3.1.4), when the problem has one.
    ///
    /// ```
    /// use problem_core::{NotFoundException, Problem};
    /// assert_eq!(NotFoundException::new().detail(), None);
    /// let err = NotFoundException::new().with_detail("Book 7 not found");
    /// assert_eq!(err.detail().as_deref(), Some("Book 7 not found"));
    /// ```
    fn detail(&self) -> Option<Cow<'_, str>> {
        None
    }

    /// The extension members (RFC 9457 §3.2), in insertion order.
    ///
    /// ```
    /// use problem_core::{HttpException, NotFoundException, Problem};
    /// assert!(NotFoundException::new().extensions()?.is_empty());
    /// let err = HttpException::new(409)?.with_extension("isbn", "0441013597");
    /// assert_eq!(serde_json::Value::Object(err.extensions()?), serde_json::json!({"isbn": "0441013597"}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ProblemBuildError`] when a member could not be serialized to JSON;
    /// the pipeline then answers as for an unknown error (masked 500).
    fn extensions(&self) -> Result<Extensions, ProblemBuildError> {
        Ok(Extensions::new())
    }

    /// Headers sent with the problem response, for 4xx and 5xx alike
    /// (e.g. `Retry-After`, `WWW-Authenticate`).
    ///
    /// ```
    /// use problem_core::{Problem, ServiceUnavailableException};
    /// let err = ServiceUnavailableException::new().with_header(("Retry-After", "120"));
    /// assert_eq!(err.headers()?.get("retry-after").unwrap(), "120");
    /// # Ok::<(), problem_core::ProblemBuildError>(())
    /// ```
    ///
    /// # Errors
    /// [`ProblemBuildError`] when a header name or value was invalid.
    fn headers(&self) -> Result<HeaderMap, ProblemBuildError> {
        Ok(HeaderMap::new())
    }

    /// The type's name without its path: `HttpException`,
    /// `NotFoundException`, or a derived type's own name.
    ///
    /// ```
    /// use problem_core::{ConflictException, HttpException, Problem};
    /// assert_eq!(ConflictException::new().name(), "ConflictException");
    /// assert_eq!(HttpException::new(409)?.name(), "HttpException");
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    fn name(&self) -> &'static str;

    /// The underlying error, never sent to the client. Defaults to
    /// [`std::error::Error::source`].
    ///
    /// ```
    /// use problem_core::{InternalServerErrorException, Problem};
    /// assert!(InternalServerErrorException::new().cause().is_none());
    /// let err = InternalServerErrorException::new().with_cause(std::io::Error::other("db down"));
    /// assert_eq!(err.cause().map(|c| c.to_string()).as_deref(), Some("db down"));
    /// ```
    fn cause(&self) -> Option<&(dyn StdError + 'static)> {
        self.source()
    }

    /// The problem body for a request path (`instance`), unmasked:
    /// `type`, `title`, `status`, `detail` and the extensions, with the
    /// spec's two extension rules applied to the fields (spec, "Problem
    /// body"): an extension named `type`, `title`, `status` or `instance`
    /// is not kept; one named `detail` is not kept when the problem has a
    /// detail, and is the detail when it has none (a string). Nor is one
    /// named `correlationId` or `stack`: the body has those members only
    /// where the spec's table puts them (a logged 5xx; an unknown error in
    /// development), set by the error pipeline.
    ///
    /// ```
    /// use problem_core::{HttpException, Problem};
    /// let p = HttpException::new(409)?
    ///     .with_extension("detail", "from an extension")
    ///     .with_extension("type", "ignored")
    ///     .with_extension("correlationId", "not a log line's")
    ///     .with_extension("isbn", "0441013597")
    ///     .to_problem("/books")?;
    /// assert_eq!(p.problem_type, "about:blank");
    /// assert_eq!(p.detail.as_deref(), Some("from an extension"));
    /// assert_eq!(serde_json::Value::Object(p.extensions.clone()), serde_json::json!({"isbn": "0441013597"}));
    /// let json = serde_json::to_string(&p)?;
    /// assert_eq!(json, r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"from an extension","instance":"/books","isbn":"0441013597"}"#);
    /// assert_eq!(serde_json::from_str::<problem_core::ProblemDetails>(&json)?, p);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ProblemBuildError`] from [`extensions`](Problem::extensions).
    fn to_problem(&self, instance: &str) -> Result<ProblemDetails, ProblemBuildError> {
        Ok(ProblemDetails {
            problem_type: self.problem_type().to_owned(),
            title: self.title().into_owned(),
            status: self.status().as_u16(),
            detail: self.detail().map(Cow::into_owned),
            instance: Some(instance.to_owned()),
            correlation_id: None,
            extensions: self.extensions()?,
            stack: None,
        }
        .settled())
    }

    /// The problem document for a request path (`instance`), unmasked, as
    /// JSON bytes: exactly the bytes of serializing
    /// [`to_problem(instance)`](Problem::to_problem) (member order and
    /// rules of [`ProblemDetails`]).
    ///
    /// The error pipeline answers a 4xx outside development with these
    /// bytes. The default builds the [`ProblemDetails`] and serializes it;
    /// [`HttpException`](crate::HttpException), the built-ins and
    /// [`ValidationException`](crate::ValidationException) serialize
    /// straight from themselves, without copying their members or turning
    /// their issues into JSON values first.
    ///
    /// # Errors
    /// [`ProblemBuildError`] from [`extensions`](Problem::extensions), or
    /// [`ProblemBuildError::Extension`] when a member fails to serialize.
    ///
    /// ```
    /// use problem_core::{NotFoundException, Problem};
    /// let err = NotFoundException::new().with_detail("Book 7 not found");
    /// assert_eq!(
    ///     err.to_problem_json("/books/7").unwrap(),
    ///     serde_json::to_vec(&err.to_problem("/books/7").unwrap()).unwrap()
    /// );
    /// ```
    fn to_problem_json(&self, instance: &str) -> Result<Vec<u8>, ProblemBuildError> {
        let body = self.to_problem(instance)?;
        serde_json::to_vec(&body).map_err(ProblemBuildError::serialization)
    }

    /// Finds a value of this type in an `actix_web::Error`, for exception
    /// filters: the type itself, the type wrapped by
    /// [`ProblemExt`](crate::ProblemExt) overrides, and for
    /// `BadRequestException` also `ValidationException` (spec: "a kind of").
    ///
    /// ```
    /// use problem_core::{ConflictException, NotFoundException, Problem, ProblemExt};
    /// let err: actix_web::Error = NotFoundException::new().customize().with_detail("Book 7 not found").into();
    /// assert_eq!(NotFoundException::catch(&err).unwrap().status(), 404);
    /// assert!(ConflictException::catch(&err).is_none());
    /// ```
    fn catch(err: &actix_web::Error) -> Option<&Self>
    where
        Self: Sized,
    {
        err.as_error::<Self>()
            .or_else(|| {
                err.as_error::<super::custom::Customized<Self>>()
                    .map(|c| c.inner())
            })
            .or_else(|| err.as_error::<super::Deferred<Self>>().map(|d| &d.0))
    }

    /// [`catch`](Self::catch) on a problem already found for an error (a
    /// problem type returned by a handler, one the framework raised such as
    /// `Malformed JSON body`, a route's 404): this type or the type wrapped
    /// by [`ProblemExt`](crate::ProblemExt) overrides, and for
    /// `BadRequestException` also `ValidationException`.
    #[doc(hidden)]
    fn catch_problem(problem: &dyn Problem) -> Option<&Self>
    where
        Self: Sized,
    {
        let error: &(dyn StdError + 'static) = problem;
        error.downcast_ref::<Self>().or_else(|| {
            error
                .downcast_ref::<super::custom::Customized<Self>>()
                .map(|c| c.inner())
        })
    }
}
