//! Turning any failure into the response the service sends
//! (spec, "Masking rules", "Logging and correlation ids").

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use actix_web::http::Method;
use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use actix_web::{HttpMessage, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::framework::{self, Mapped};
use super::log::{ErrorInfo, LogLevel, LogOptions, LogSink, one_line, write_log};
use super::sticky::StickyHeaders;
use crate::problem::redact::redact;
use crate::problem::{
    Problem, ProblemDetails, ProblemSource, fallback_response, find_route_problem, finish_document,
    render_document,
};

/// A panic caught in a handler, carried as an error so the pipeline answers
/// it as an unknown error named `Panic` (masked 500).
///
/// ```
/// use problem_core::pipeline::PanicError;
/// let err = PanicError::new("index out of bounds");
/// assert_eq!(err.to_string(), "index out of bounds");
/// let actix: actix_web::Error = err.into();
/// assert_eq!(actix.as_response_error().status_code(), 500);
/// ```
#[derive(Debug)]
pub struct PanicError {
    message: String,
    location: Option<String>,
}

impl PanicError {
    /// A panic with its message (the payload when it is a string).
    ///
    /// ```
    /// use problem_core::pipeline::PanicError;
    /// let err = PanicError::new("boom");
    /// assert_eq!(err.to_string(), "boom");
    /// assert_eq!(err.location(), None);
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            location: None,
        }
    }

    /// The message from a `catch_unwind` payload, and the panic's location
    /// when the pipeline's panic hook recorded it on this thread.
    ///
    /// ```
    /// use problem_core::pipeline::PanicError;
    /// use std::any::Any;
    /// let payload: Box<dyn Any + Send> = Box::new(format!("item {} missing", 7));
    /// assert_eq!(PanicError::from_payload(&*payload).to_string(), "item 7 missing");
    /// let payload: Box<dyn Any + Send> = Box::new("boom");
    /// assert_eq!(PanicError::from_payload(&*payload).to_string(), "boom");
    /// let payload: Box<dyn Any + Send> = Box::new(42);
    /// assert_eq!(PanicError::from_payload(&*payload).to_string(), "panic with a non-string payload");
    /// ```
    pub fn from_payload(panic: &(dyn std::any::Any + Send)) -> Self {
        let message = if let Some(s) = panic.downcast_ref::<&str>() {
            (*s).to_owned()
        } else if let Some(s) = panic.downcast_ref::<String>() {
            s.clone()
        } else {
            "panic with a non-string payload".to_owned()
        };
        Self {
            message,
            location: super::take_panic_location(),
        }
    }

    /// Where the panic happened (`file:line:column`), when known: recorded
    /// by the pipeline's panic hook for a panic it catches; `None` for a
    /// [`PanicError::new`] or a panic caught elsewhere.
    ///
    /// ```
    /// use problem_core::pipeline::PanicError;
    /// assert_eq!(PanicError::new("boom").location(), None);
    /// let payload = std::panic::catch_unwind(|| panic!("boom")).unwrap_err();
    /// let err = PanicError::from_payload(&*payload);
    /// assert_eq!((err.to_string().as_str(), err.location()), ("boom", None));
    /// ```
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }

    pub(crate) fn info(&self) -> ErrorInfo {
        let stack = match &self.location {
            Some(at) => format!("Panic: {}\n    at {at}", self.message),
            None => format!("Panic: {}", self.message),
        };
        ErrorInfo::new("Panic", self.message.clone()).with_stack(stack)
    }
}

impl std::fmt::Display for PanicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PanicError {}

impl actix_web::ResponseError for PanicError {}

/// Any error that is not a problem type, kept with its type name and
/// `source()` chain: the log line names it (`<Name>: <message>`; outside
/// development that is all, with no cause, as the spec's "Logging and
/// correlation ids" says), and in development the log entry and the
/// `stack` member also carry its `source()` chain (`caused by: ...`).
/// Answers as an unknown error: masked 500.
///
/// Every `std::error::Error` converts into it, so `?` works in a handler
/// returning `Result<_, UnknownError>`; to mix it with problem types,
/// return `actix_web::Error` and convert with `UnknownError::from(e).into()`.
/// (A plain foreign error such as `std::io::Error`, or a type of your own
/// that implements `ResponseError`, turned straight into an
/// `actix_web::Error` is an unknown error too, but named `Error`, and its
/// `source()` chain is not in the log entry or the development `stack`:
/// actix-web keeps only its `Display` and `Debug`.)
///
/// ```
/// use problem_core::pipeline::UnknownError;
/// #[derive(Debug, thiserror::Error)]
/// #[error("connection refused")]
/// struct DatabaseError;
/// let err = UnknownError::from(DatabaseError);
/// assert_eq!(err.to_string(), "connection refused");
/// assert_eq!(err.name(), "DatabaseError");
/// ```
#[derive(Debug)]
pub struct UnknownError {
    info: ErrorInfo,
    /// The error it was made from, for exception filters.
    error: Box<dyn std::error::Error + Send + Sync>,
}

impl UnknownError {
    /// The error it was made from.
    ///
    /// ```
    /// use problem_core::pipeline::UnknownError;
    /// let err = UnknownError::from(std::io::Error::other("disk full"));
    /// assert_eq!(err.get_ref().to_string(), "disk full");
    /// ```
    pub fn get_ref(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.error
    }

    /// The error it was made from, when it is an `E`: how an exception
    /// filter for `UnknownError` tells a foreign error apart (one whose
    /// type does not implement `ResponseError`, such as `sqlx::Error`,
    /// which a handler returns as an `UnknownError`).
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::{Pipeline, UnknownError};
    ///
    /// #[derive(Debug, thiserror::Error)]
    /// #[error("pool timed out")]
    /// struct PoolTimedOut;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter_error::<UnknownError, _>(|err, ctx| match err.downcast_ref::<PoolTimedOut>() {
    ///         Some(_) => HttpResponse::ServiceUnavailable().insert_header(("Retry-After", "5")).finish(),
    ///         None => ctx.default_response(),
    ///     })
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(UnknownError::from(PoolTimedOut))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await;
    /// assert_eq!(res.status(), 503);
    /// assert_eq!(res.headers().get("retry-after").unwrap(), "5");
    /// assert!(UnknownError::from(PoolTimedOut).downcast_ref::<std::io::Error>().is_none());
    /// # });
    /// ```
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.error.downcast_ref::<E>()
    }

    /// The error's type name without its path.
    ///
    /// ```
    /// use problem_core::pipeline::UnknownError;
    /// assert_eq!(UnknownError::from(std::io::Error::other("disk full")).name(), "Error");
    /// assert_eq!(UnknownError::from(std::fmt::Error).name(), "Error");
    /// let parse = "x".parse::<u8>().unwrap_err();
    /// assert_eq!(UnknownError::from(parse).name(), "ParseIntError");
    /// ```
    pub fn name(&self) -> &str {
        self.info.name()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for UnknownError {
    fn from(error: E) -> Self {
        Self {
            info: ErrorInfo::from_error(&error),
            error: Box::new(error),
        }
    }
}

impl std::fmt::Display for UnknownError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.info.message())
    }
}

impl actix_web::ResponseError for UnknownError {}

/// Marker on the spec's empty 413 response, so no later step turns it into a
/// problem document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EmptyTooLarge;

/// The empty 413 answered to a body over `max_request_body_size`.
pub(crate) fn empty_413() -> HttpResponse {
    let mut res = HttpResponse::PayloadTooLarge().finish();
    res.extensions_mut().insert(EmptyTooLarge);
    res
}

/// What the pipeline knows about the request an error belongs to, handed to
/// exception filters and [`default_error_response`].
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::NotFoundException;
/// use problem_core::pipeline::Pipeline;
///
/// # actix_web::rt::System::new().block_on(async {
/// let pipeline = Pipeline::builder()
///     .tag("catalog")
///     .development(false)
///     .filter::<NotFoundException, _>(|_err, ctx| {
///         HttpResponse::NotFound().body(format!("{ctx:?}"))
///     })
///     .build()
///     .unwrap();
/// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::get().to(|| async {
///     Err::<HttpResponse, _>(NotFoundException::new())
/// })))
/// .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7?fields=title").to_request()).await;
/// assert_eq!(
///     test::read_body(res).await,
///     r#"ErrorContext { method: GET, instance: "/books/7", tag: "catalog", .. }"#
/// );
/// # });
/// ```
pub struct ErrorContext<'a> {
    request: Option<HttpRequest>,
    method: Method,
    instance: &'a str,
    tag: Arc<str>,
    source: Option<ProblemSource>,
    /// The correlation id the failure was logged under, once it was.
    logged: Cell<Option<Uuid>>,
    error: Option<&'a actix_web::Error>,
    /// The address of what a filter was handed for `error`: its problem,
    /// or a view of it (a `ValidationException` handed as its
    /// `BadRequestException`, any problem as an `HttpException`), which
    /// [`default_error_response`] renders as `error` itself. Compared,
    /// never dereferenced; 0 outside a filter.
    view: Cell<usize>,
    logger: Arc<dyn LogSink>,
    development: bool,
}

impl<'a> ErrorContext<'a> {
    pub(crate) fn new(
        request: Option<HttpRequest>,
        method: Method,
        instance: &'a str,
        tag: Arc<str>,
        source: Option<ProblemSource>,
        logger: Arc<dyn LogSink>,
        development: bool,
    ) -> Self {
        Self {
            request,
            method,
            instance,
            tag,
            source,
            logged: Cell::new(None),
            error: None,
            view: Cell::new(0),
            logger,
            development,
        }
    }

    pub(crate) fn with_error(mut self, error: &'a actix_web::Error) -> Self {
        self.error = Some(error);
        self
    }

    /// Records `view` as what a filter is handed for the context's error,
    /// for the duration of `filter`.
    pub(crate) fn handing<E: ?Sized, R>(&self, view: &E, filter: impl FnOnce(&E) -> R) -> R {
        let before = self
            .view
            .replace(std::ptr::from_ref(view).cast::<()>().addr());
        let out = filter(view);
        self.view.set(before);
        out
    }

    /// Whether `error` is the view of the context's error a filter holds.
    fn is_view<E: ?Sized>(&self, error: &E) -> bool {
        let at = self.view.get();
        at != 0 && std::ptr::from_ref(error).cast::<()>().addr() == at
    }

    /// The response the service would send for this error, with masking
    /// and logging (the spec's `defaultErrorResponse`), for an exception
    /// filter to adjust.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::{Pipeline, with_headers};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter::<NotFoundException, _>(|_err, ctx| with_headers(ctx.default_response(), [("X-Filtered", "1")]))
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(NotFoundException::new().with_detail("Book 7 not found"))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7").to_request()).await;
    /// assert_eq!(res.headers().get("x-filtered").unwrap(), "1");
    /// assert_eq!(res.headers().get("content-type").unwrap(), "application/problem+json; charset=utf-8");
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/books/7"}"#
    /// );
    /// # });
    /// ```
    pub fn default_response(&self) -> HttpResponse {
        match self.error {
            Some(error) => default_error_response(error, self, &*self.logger, self.development),
            None => fallback_response(Some(self.instance)),
        }
    }

    /// Whether development mode is on.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(true)
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body(format!("development: {}", ctx.development())))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "development: true");
    /// # });
    /// ```
    pub fn development(&self) -> bool {
        self.development
    }

    /// The pipeline's logger.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    /// use problem_core::pipeline::{LogLevel, LogRecord, MemoryLogger};
    /// use std::sync::Arc;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let logger = Arc::new(MemoryLogger::default());
    /// let pipeline = Pipeline::builder()
    ///     .development(false).shared_logger(logger.clone())
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body({
    ///         let record = LogRecord { level: LogLevel::Warn, message: "[app] filtered", error: None, correlation_id: uuid::Uuid::nil() };
    ///         ctx.logger().log(&record);
    ///         "filtered"
    ///     }))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "filtered");
    /// assert_eq!(logger.entries()[0].message, "[app] filtered");
    /// # });
    /// ```
    pub fn logger(&self) -> &dyn LogSink {
        &*self.logger
    }

    /// The request; `None` for an error that escaped the routed service as
    /// `Err`, and for a panic the pipeline itself caught (in a plain actix-web
    /// `App`, a panic in a handler too; [`ProblemApp`](crate::server::ProblemApp)'s
    /// route table catches handler panics with the request at hand).
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body(ctx.request().map(|r| r.query_string().to_owned()).unwrap_or_default()))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7?sort=title").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "sort=title");
    /// # });
    /// ```
    pub fn request(&self) -> Option<&HttpRequest> {
        self.request.as_ref()
    }

    /// The request method.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body(ctx.method().to_string()))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::delete().uri("/books/7").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "DELETE");
    /// # });
    /// ```
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The `instance`: the request path as received, without the query.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body(ctx.instance().to_owned()))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7?sort=title").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "/books/7");
    /// # });
    /// ```
    pub fn instance(&self) -> &str {
        self.instance
    }

    /// The log tag, e.g. `catalog`.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .tag("catalog")
    ///     .filter::<NotFoundException, _>(|_err, ctx| HttpResponse::NotFound().body(ctx.tag().to_owned()))
    ///     .build()
    ///     .unwrap();
    /// let missing = || async { Err::<HttpResponse, _>(NotFoundException::new()) };
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::to(missing))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "catalog");
    /// # });
    /// ```
    pub fn tag(&self) -> &str {
        &self.tag
    }

    pub(crate) fn was_logged(&self) -> bool {
        self.logged.get().is_some()
    }
}

impl std::fmt::Debug for ErrorContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorContext")
            .field("method", &self.method)
            .field("instance", &self.instance)
            .field("tag", &self.tag)
            .finish_non_exhaustive()
    }
}

/// A failure, classified.
pub(crate) enum Failure<'e> {
    /// A problem found in the error.
    Problem(&'e dyn Problem),
    /// A problem the pipeline made (a mapped framework error).
    Mapped(Box<dyn Problem>),
    /// Any other error or a panic.
    Unknown(ErrorInfo),
    /// The spec's empty 413.
    TooLarge,
}

impl<'e> Failure<'e> {
    /// Classifies an `actix_web::Error`.
    pub(crate) fn of(
        err: &'e actix_web::Error,
        source: Option<ProblemSource>,
        req: Option<&HttpRequest>,
    ) -> Self {
        if let Some(p) = source
            .and_then(|s| s.find(err))
            .or_else(|| find_route_problem(err))
        {
            return Failure::Problem(p);
        }
        if let Some(panic) = err.as_error::<PanicError>() {
            return Failure::Unknown(panic.info());
        }
        if let Some(unknown) = err.as_error::<UnknownError>() {
            return Failure::Unknown(unknown.info.clone());
        }
        match framework::map(err, req) {
            Mapped::Problem(p) => Failure::Mapped(p),
            Mapped::TooLarge => Failure::TooLarge,
            Mapped::Unknown => Failure::Unknown(ErrorInfo::new("Error", err.to_string())),
        }
    }
}

/// Renders a failure: masking by mode, logging every 5xx under a fresh
/// correlation id through `logger`, and adding the request's sticky headers.
pub(crate) fn render(
    failure: &Failure<'_>,
    ctx: &ErrorContext,
    logger: &dyn LogSink,
    development: bool,
) -> HttpResponse {
    let mut res = match failure {
        Failure::TooLarge => return empty_413(),
        Failure::Problem(p) => render_problem(*p, ctx, logger, development),
        Failure::Mapped(p) => render_problem(&**p, ctx, logger, development),
        Failure::Unknown(info) => render_unknown(info, ctx, logger, development),
    };
    if let Some(req) = &ctx.request
        && let Some(sticky) = req.extensions().get::<StickyHeaders>()
    {
        sticky.apply_to(res.headers_mut());
    }
    res
}

/// The start of a 5xx log line (`what`: `Unhandled error`, or the status a
/// filter answered). The path is redacted like the message: one holding a
/// credential (`/reset/token=…`, also percent-encoded: `token%3D…`) is
/// logged without it, percent-decoded then, and kept on one line as the
/// message is (a decoded `%0A` is written `\n`), so a path cannot start
/// what reads as another log line.
pub(crate) fn log_line(ctx: &ErrorContext, what: &str) -> String {
    let path = ctx.instance();
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let shown = match redact(&decoded) {
        Cow::Owned(hidden) => Cow::Owned(one_line(&hidden).into_owned()),
        Cow::Borrowed(_) => redact(path),
    };
    format!("[{}] {what} on {} {shown}", ctx.tag, ctx.method)
}

/// Logs the request's failure under a new correlation id, once: a filter
/// that builds the default response twice gets the same id again, and one
/// line (spec: the id in the response is the one in the log line).
fn log_failure(
    ctx: &ErrorContext,
    logger: &dyn LogSink,
    development: bool,
    what: &str,
    info: &ErrorInfo,
) -> Uuid {
    if let Some(id) = ctx.logged.get() {
        return id;
    }
    let id = Uuid::new_v4();
    write_log(
        LogOptions {
            logger,
            development,
        },
        &log_line(ctx, what),
        info,
        LogLevel::Error,
        id,
    );
    ctx.logged.set(Some(id));
    id
}

fn render_problem(
    problem: &dyn Problem,
    ctx: &ErrorContext,
    logger: &dyn LogSink,
    development: bool,
) -> HttpResponse {
    let logged = |status: u16| {
        let info = ErrorInfo::from_problem(problem);
        let id = log_failure(ctx, logger, development, &status.to_string(), &info);
        Some(id.to_string())
    };
    match render_document(problem, ctx.instance, development, logged) {
        Ok(res) => res,
        Err(e) => {
            let info = ErrorInfo::new(problem.name(), e.to_string());
            render_unknown(&info, ctx, logger, development)
        }
    }
}

fn render_unknown(
    info: &ErrorInfo,
    ctx: &ErrorContext,
    logger: &dyn LogSink,
    development: bool,
) -> HttpResponse {
    // An error with no stack of its own (one that reached the pipeline
    // only as an `actix_web::Error`) gets `<Name>: <message>`, in the
    // development body and in the log entry alike.
    let filled;
    let info = match info.stack() {
        Some(_) => info,
        None => {
            filled = info
                .clone()
                .with_stack(format!("{}: {}", info.name(), info.message()));
            &filled
        }
    };
    let id = log_failure(ctx, logger, development, "Unhandled error", info);
    let mut body = ProblemDetails::new(500);
    body.instance = Some(ctx.instance.to_owned());
    if development {
        body.detail = Some(info.message().to_owned());
        body.stack = info.stack().map(str::to_owned);
    }
    finish_document(body, &HeaderMap::new(), development, Some(id.to_string()))
}

/// Builds the response the service would send for `error`, with masking and
/// logging, so that an exception filter can adjust it (spec,
/// `defaultErrorResponse(error, ctx, logger, development)`).
///
/// `error` is what the filter received (`&E` for `filter::<E, _>`, any
/// problem type: [`Problem`]), another problem to answer instead, or an
/// `actix_web::Error` (see [`FilteredError`]). What a filter for a base
/// type received (a `ValidationException` as its `BadRequestException`,
/// any problem as an `HttpException`) is rendered as the thrown error
/// itself, `issues` and name included. The request's method,
/// instance, tag and version headers come from `ctx`; a 5xx is logged
/// through `logger` under a new correlation id, and masked unless
/// `development`. [`ErrorContext::default_response`] is the same call with
/// the context's own error, logger and mode.
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::pipeline::{Pipeline, default_error_response, with_headers};
/// use problem_core::{ConflictException, Problem};
///
/// # actix_web::rt::System::new().block_on(async {
/// let pipeline = Pipeline::builder()
///     .development(false)
///     .filter::<ConflictException, _>(|err, ctx| {
///         let res = default_error_response(err, ctx, ctx.logger(), ctx.development());
///         with_headers(res, [("X-Conflict", "1")])
///     })
///     .build()
///     .unwrap();
/// let taken = || async { Err::<HttpResponse, _>(ConflictException::new().with_detail("ISBN taken")) };
/// let app = test::init_service(App::new().wrap(pipeline).route("/books", web::post().to(taken))).await;
/// let res = test::call_service(&app, test::TestRequest::post().uri("/books").to_request()).await;
/// assert_eq!(res.status(), 409);
/// assert_eq!(res.headers().get("x-conflict").unwrap(), "1");
/// assert_eq!(
///     test::read_body(res).await,
///     r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"ISBN taken","instance":"/books"}"#
/// );
/// # });
/// ```
pub fn default_error_response<E: FilteredError + ?Sized>(
    error: &E,
    ctx: &ErrorContext,
    logger: &dyn LogSink,
    development: bool,
) -> HttpResponse {
    // The view a filter was handed stands for the error itself: its
    // `issues`, its name in the log line, its own members.
    if ctx.is_view(error)
        && let Some(original) = ctx.error
    {
        return default_error_response(original, ctx, logger, development);
    }
    let failure = match error.classify() {
        Ok(problem) => Failure::Problem(problem),
        Err(error) => {
            let source = ctx.source.or_else(|| {
                error
                    .as_response_error()
                    .error_response()
                    .extensions()
                    .get::<ProblemSource>()
                    .copied()
            });
            Failure::of(error, source, ctx.request.as_ref())
        }
    };
    render(&failure, ctx, logger, development)
}

/// What [`default_error_response`] renders: any problem type (what an
/// exception filter receives), `dyn Problem`, or an `actix_web::Error`
/// (classified as the pipeline does: a problem inside it, a framework
/// error mapped to its problem, anything else the masked 500). Sealed.
///
/// ```
/// use problem_core::NotFoundException;
/// use problem_core::pipeline::FilteredError;
/// fn renders<E: FilteredError + ?Sized>(_: &E) {}
/// renders(&NotFoundException::new());
/// renders(&actix_web::Error::from(NotFoundException::new()));
/// renders(&NotFoundException::new() as &dyn problem_core::Problem);
/// ```
pub trait FilteredError: sealed::Sealed {}

impl<P: Problem> FilteredError for P {}
impl FilteredError for dyn Problem {}
impl FilteredError for actix_web::Error {}

mod sealed {
    use super::Problem;

    pub trait Sealed {
        /// The problem itself, or the error to classify as the pipeline
        /// does.
        fn classify(&self) -> Result<&dyn Problem, &actix_web::Error>;
    }

    impl<P: Problem> Sealed for P {
        fn classify(&self) -> Result<&dyn Problem, &actix_web::Error> {
            Ok(self)
        }
    }

    impl Sealed for dyn Problem {
        fn classify(&self) -> Result<&dyn Problem, &actix_web::Error> {
            Ok(self)
        }
    }

    impl Sealed for actix_web::Error {
        fn classify(&self) -> Result<&dyn Problem, &actix_web::Error> {
            Err(self)
        }
    }
}

/// Returns `response` with `headers` added (spec, `withHeaders(response,
/// headers)`): a name given once replaces the response's values of that
/// name (`Retry-After`, `Content-Type`); a name given several times keeps
/// every value given, in order (`Set-Cookie`, `Link`), as
/// [`HttpException::with_headers`](crate::HttpException::with_headers)
/// does. A header that is not valid is skipped.
///
/// ```
/// use actix_web::HttpResponse;
/// use problem_core::pipeline::with_headers;
/// let res = HttpResponse::Ok().insert_header(("Retry-After", "1")).finish();
/// let res = with_headers(res, [("Retry-After", "5"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]);
/// assert_eq!(res.headers().get("retry-after").unwrap(), "5");
/// let cookies: Vec<_> = res.headers().get_all("set-cookie").collect();
/// assert_eq!(cookies, ["a=1", "b=2"]);
/// ```
pub fn with_headers<H: TryIntoHeaderPair>(
    mut response: HttpResponse,
    headers: impl IntoIterator<Item = H>,
) -> HttpResponse {
    let mut given = HeaderMap::new();
    for (name, value) in headers.into_iter().filter_map(|h| h.try_into_pair().ok()) {
        given.append(name, value);
    }
    super::replace_headers(response.headers_mut(), &given);
    response
}
