//! The spec's built-in exception classes, each its own type
//! (spec, "Errors", "Built-in exception classes").

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use serde::Serialize;

use super::details::Extensions;
use super::exception::{BoxError, HttpException, ProblemBuildError, ProblemOptions};
use super::traits::Problem;

macro_rules! builtin {
    ($(#[$doc:meta])* $name:ident, $status:ident, $code:literal, $title:literal) => {
        $(#[$doc])*
        ///
        /// Constructible with an optional detail and options, like the spec's
        /// `(detail?, options?)`: [`new`](Self::new) then the `with_*`
        /// builder methods, or [`with_options`](Self::with_options).
        #[doc = concat!("Status ", stringify!($code), ", title `", $title, "`.")]
        ///
        /// ```
        #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
        #[doc = concat!("let err = ", stringify!($name), "::new().with_detail(\"why\");")]
        #[doc = concat!("assert_eq!(err.status().as_u16(), ", stringify!($code), ");")]
        #[doc = concat!("assert_eq!(err.title(), \"", $title, "\");")]
        #[doc = concat!("assert_eq!(err.name(), \"", stringify!($name), "\");")]
        /// assert_eq!(err.to_string(), "why");
        /// ```
        pub struct $name(HttpException);

        impl $name {
            #[doc = concat!("The fixed status of this exception: ", stringify!($code), " `", $title, "`")]
            /// (RFC 9110 §15).
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::STATUS.as_u16(), ", stringify!($code), ");")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new().status(), ", stringify!($name), "::STATUS);")]
            /// ```
            pub const STATUS: StatusCode = StatusCode::$status;

            /// The exception with no detail and default options.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new();")]
            #[doc = concat!("assert_eq!(err.status().as_u16(), ", stringify!($code), ");")]
            /// assert_eq!((err.problem_type(), err.detail()), ("about:blank", None));
            /// ```
            pub fn new() -> Self {
                Self(HttpException::from_status(Self::STATUS))
            }

            /// The spec's `(detail?, options?)` constructor.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem, ProblemOptions};")]
            /// let options = ProblemOptions { title: Some("Custom title".into()), ..Default::default() };
            #[doc = concat!("let err = ", stringify!($name), "::with_options(Some(\"why\"), options);")]
            /// assert_eq!((err.title().as_ref(), err.detail().as_deref()), ("Custom title", Some("why")));
            /// ```
            pub fn with_options(detail: Option<impl Into<String>>, options: ProblemOptions) -> Self {
                let mut exc = HttpException::from_status(Self::STATUS);
                if let Some(d) = detail {
                    exc = exc.with_detail(d);
                }
                exc.apply(options);
                Self(exc)
            }

            /// Sets the detail.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_detail(\"Book 7 not found\");")]
            /// assert_eq!(err.detail().as_deref(), Some("Book 7 not found"));
            /// ```
            pub fn with_detail(self, detail: impl Into<String>) -> Self {
                Self(self.0.with_detail(detail))
            }

            /// Sets the problem type URI.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_type(\"/problems/out-of-stock\");")]
            /// assert_eq!(err.problem_type(), "/problems/out-of-stock");
            /// ```
            pub fn with_type(self, problem_type: impl Into<String>) -> Self {
                Self(self.0.with_type(problem_type))
            }

            /// Overrides the title.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_title(\"Out of stock\");")]
            /// assert_eq!(err.title(), "Out of stock");
            /// ```
            pub fn with_title(self, title: impl Into<String>) -> Self {
                Self(self.0.with_title(title))
            }

            /// Adds an extension member (see [`HttpException::with_extension`]).
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_extension(\"isbn\", \"978-0441013593\");")]
            /// assert_eq!(err.extensions().unwrap()["isbn"], "978-0441013593");
            /// ```
            pub fn with_extension(self, key: impl Into<String>, value: impl Serialize) -> Self {
                Self(self.0.with_extension(key, value))
            }

            /// Adds every member of a JSON object as an extension member.
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            /// let serde_json::Value::Object(members) = serde_json::json!({"isbn": "978-0441013593", "copies": 0}) else { unreachable!() };
            #[doc = concat!("let err = ", stringify!($name), "::new().with_extensions(members);")]
            /// assert_eq!(serde_json::Value::Object(err.extensions().unwrap()), serde_json::json!({"isbn": "978-0441013593", "copies": 0}));
            /// ```
            pub fn with_extensions(self, extensions: Extensions) -> Self {
                Self(self.0.with_extensions(extensions))
            }

            /// Adds a response header (see [`HttpException::with_header`]).
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_header((\"Retry-After\", \"120\"));")]
            /// assert_eq!(err.headers().unwrap().get("retry-after").unwrap(), "120");
            /// ```
            pub fn with_header(self, header: impl TryIntoHeaderPair) -> Self {
                Self(self.0.with_header(header))
            }

            /// Adds several response headers (see [`HttpException::with_headers`]).
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_headers([(\"Retry-After\", \"120\"), (\"X-Reason\", \"quota\")]);")]
            /// assert_eq!(err.headers().unwrap().len(), 2);
            /// ```
            pub fn with_headers<H: TryIntoHeaderPair>(self, headers: impl IntoIterator<Item = H>) -> Self {
                Self(self.0.with_headers(headers))
            }

            /// Sets the underlying error.
            ///
            /// ```
            #[doc = concat!("use problem_core::", stringify!($name), ";")]
            /// use std::error::Error;
            /// let io = std::io::Error::other("disk full");
            #[doc = concat!("let err = ", stringify!($name), "::new().with_cause(io);")]
            /// assert_eq!(err.source().unwrap().to_string(), "disk full");
            /// ```
            pub fn with_cause(self, cause: impl Into<BoxError>) -> Self {
                Self(self.0.with_cause(cause))
            }

            /// The exception as a plain [`HttpException`].
            ///
            /// ```
            #[doc = concat!("use problem_core::{", stringify!($name), ", Problem};")]
            #[doc = concat!("let err = ", stringify!($name), "::new().with_detail(\"why\").into_inner();")]
            #[doc = concat!("assert_eq!((err.status().as_u16(), err.name()), (", stringify!($code), ", \"HttpException\"));")]
            /// assert_eq!(err.detail().as_deref(), Some("why"));
            /// ```
            pub fn into_inner(self) -> HttpException {
                self.0.plain()
            }

            /// Sets a fixed detail without copying it.
            #[allow(dead_code)] // used by `ValidationException` and the framework errors
            pub(crate) fn with_static_detail(self, detail: &'static str) -> Self {
                Self(self.0.with_static_detail(detail))
            }

            /// This exception as the view of a kind of it named `name`
            /// (`ValidationException` of `BadRequestException`).
            #[allow(dead_code)] // used by `ValidationException`
            pub(crate) fn standing_for(self, name: &'static str) -> Self {
                Self(self.0.standing_for(name))
            }

            /// The plain [`HttpException`] inside.
            #[allow(dead_code)] // used by `ValidationException`, a kind of `BadRequestException`
            pub(crate) fn inner(&self) -> &HttpException {
                &self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.0).finish()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl StdError for $name {
            fn source(&self) -> Option<&(dyn StdError + 'static)> {
                self.0.source()
            }
        }

        impl From<$name> for HttpException {
            fn from(value: $name) -> Self {
                value.0.plain()
            }
        }

        impl Problem for $name {
            fn status(&self) -> StatusCode {
                Self::STATUS
            }
            fn problem_type(&self) -> &str {
                self.0.problem_type()
            }
            fn title(&self) -> Cow<'_, str> {
                self.0.title()
            }
            fn detail(&self) -> Option<Cow<'_, str>> {
                self.0.detail()
            }
            fn extensions(&self) -> Result<Extensions, ProblemBuildError> {
                self.0.extensions()
            }
            fn headers(&self) -> Result<HeaderMap, ProblemBuildError> {
                self.0.headers()
            }
            fn name(&self) -> &'static str {
                self.0.kind_name().unwrap_or(stringify!($name))
            }
            fn to_problem_json(&self, instance: &str) -> Result<Vec<u8>, ProblemBuildError> {
                self.0.to_problem_json(instance)
            }
            builtin!(@catch $name);
        }

        crate::impl_response_error!($name);
    };
    (@catch BadRequestException) => {
        fn catch(err: &actix_web::Error) -> Option<&Self> {
            err.as_error::<Self>()
                .or_else(|| err.as_error::<super::custom::Customized<Self>>().map(|c| c.inner()))
                .or_else(|| err.as_error::<super::validation::ValidationException>().map(|v| v.as_bad_request()))
        }
        fn catch_problem(problem: &dyn Problem) -> Option<&Self> {
            let error: &(dyn std::error::Error + 'static) = problem;
            error.downcast_ref::<Self>()
                .or_else(|| error.downcast_ref::<super::custom::Customized<Self>>().map(|c| c.inner()))
                .or_else(|| error.downcast_ref::<super::validation::ValidationException>().map(|v| v.as_bad_request()))
        }
    };
    (@catch $name:ident) => {};
}

builtin!(
    /// 400 Bad Request: the request is malformed.
    BadRequestException, BAD_REQUEST, 400, "Bad Request"
);
builtin!(
    /// 401 Unauthorized: credentials are missing or wrong; pass a
    /// `WWW-Authenticate` header with [`with_header`](Self::with_header).
    UnauthorizedException, UNAUTHORIZED, 401, "Unauthorized"
);
builtin!(
    /// 403 Forbidden: the caller may not do this.
    ForbiddenException, FORBIDDEN, 403, "Forbidden"
);
builtin!(
    /// 404 Not Found: no such resource.
    NotFoundException, NOT_FOUND, 404, "Not Found"
);
builtin!(
    /// 405 Method Not Allowed: pass the `Allow` header.
    MethodNotAllowedException, METHOD_NOT_ALLOWED, 405, "Method Not Allowed"
);
builtin!(
    /// 409 Conflict: the request conflicts with the resource's state.
    ConflictException, CONFLICT, 409, "Conflict"
);
builtin!(
    /// 415 Unsupported Media Type: the body's content type is not accepted.
    UnsupportedMediaTypeException, UNSUPPORTED_MEDIA_TYPE, 415, "Unsupported Media Type"
);
builtin!(
    /// 422 Unprocessable Content: well-formed but semantically wrong.
    UnprocessableEntityException, UNPROCESSABLE_ENTITY, 422, "Unprocessable Content"
);
builtin!(
    /// 429 Too Many Requests: pass `Retry-After` when known.
    TooManyRequestsException, TOO_MANY_REQUESTS, 429, "Too Many Requests"
);
builtin!(
    /// 500 Internal Server Error: masked outside development.
    InternalServerErrorException, INTERNAL_SERVER_ERROR, 500, "Internal Server Error"
);
builtin!(
    /// 503 Service Unavailable: masked outside development, its headers
    /// (e.g. `Retry-After`) kept.
    ServiceUnavailableException, SERVICE_UNAVAILABLE, 503, "Service Unavailable"
);
