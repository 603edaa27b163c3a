//! [`Pipeline`]: the error pipeline as actix-web middleware
//! (`Transform` + `Service`).

use std::future::{Future, Ready, ready};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::Payload;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::error::InternalError;
use actix_web::http::{ConnectionType, Method, StatusCode, Uri, header};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpMessage, HttpRequest, HttpResponse};
use futures_util::future::CatchUnwind;
use futures_util::{FutureExt, StreamExt};

use super::context::apply_draft;
use super::deadline::{DEFAULT_BODY_TIMEOUT, Deadline, ParkedPayload, hold_payload};
use super::framework::bare;
use super::hosts::{AllowedHosts, HostCheck};
use super::log::{ErrorInfo, LogLevel, LogOptions, LogSink, TracingLogger, write_log};
use super::panic_hook::{Catching, catch_sync, install_panic_hook};
use super::render::{
    EmptyTooLarge, ErrorContext, Failure, PanicError, empty_413, log_line, render,
};
use super::scope::PipelineInstalled;
use crate::HttpConfigError;
use crate::problem::{
    BadRequestException, HttpException, Problem, ProblemSource, ValidationException,
};
use crate::spec::{
    ASTERISK_TARGET, AUTHORITY_TARGET, Fixed, HOST_INVALID, HOST_NOT_ALLOWED,
    TOO_MANY_QUERY_PARAMETERS,
};
use std::any::{Any, TypeId};

/// An exception filter: the error, the problem found for it (when it is
/// one), the context; `None` when the filter does not catch it.
type FilterFn = Box<
    dyn Fn(&actix_web::Error, Option<&dyn Problem>, &ErrorContext<'_>) -> Option<HttpResponse>
        + Send
        + Sync,
>;

pub(crate) struct PipelineInner {
    pub(crate) tag: Arc<str>,
    pub(crate) development: bool,
    pub(crate) logger: Arc<dyn LogSink>,
    filters: Vec<FilterFn>,
    allowed_hosts: Option<AllowedHosts>,
    max_request_body_size: Option<usize>,
    body_timeout: Duration,
    /// Set when the middleware is built: the route table given this flag
    /// leaves its 404 and 405 documents to the pipeline.
    pub(crate) installed: PipelineInstalled,
    /// The versioning installed inside this pipeline (by `ProblemApp`):
    /// the problems the pipeline answers before it runs get its headers.
    versioning: Option<crate::version::Versioning>,
    /// Set once the random-cursor-key warning went to this pipeline's
    /// logger ([`Pipeline::warn_random_cursor_key`]).
    random_cursor_key_warned: std::sync::atomic::AtomicBool,
}

/// The error pipeline: install it as the outermost middleware of an
/// actix-web `App` (or let [`ProblemApp`](crate::server::ProblemApp) do it).
///
/// After it, every error the application raises is answered as a problem
/// document (spec, "Errors"), except the spec's empty 413:
/// - errors returned by handlers, extractors, guards, middleware and
///   services: problem types answer as themselves, actix-web's own errors as
///   the spec's table ([`framework`](super::framework)), anything else as an
///   unknown error (masked 500). An error a middleware returns instead of
///   calling on (its request is gone) leaves the pipeline as an
///   `actix_web::Error` whose response is that problem, with the version
///   headers and `Vary` of the versioning layer it passed: the server
///   writes it, and `actix_web::test::try_call_service` gives it as `Err`;
/// - a 4xx or 5xx response a handler builds without a body and without
///   `Content-Type` (`HttpResponse::NotFound().finish()`): the problem of
///   its status. One built with a body of its own is the handler's answer
///   and passes as it is (not masked, and a 5xx so built is not logged):
///   return an error instead to have it answered and logged;
/// - a panic in a handler: an unknown error, and the worker goes on serving;
/// - every 5xx is logged once at `error` under a fresh correlation id equal
///   to the body's `correlationId`; outside development a 5xx keeps only
///   `type`, `title`, `status`, `instance`, `correlationId` (and its headers);
/// - `allowed_hosts`: another `Host` gets 421, and one that is no valid
///   host and port (`localhost:abc`, `u@localhost`; RFC 9112 §3.2) the 400
///   `The requested host is not valid.`; a request target in a form its
///   method cannot take (`GET *`, `GET localhost:80`; RFC 9112 §3.2.3,
///   §3.2.4) gets 400; more than 1000 query
///   parameters get 400; a query parameter whose name or value holds
///   U+0000 (`%00`) gets the 400 validation problem with an
///   `invalid_value` issue on it, on every route, whether or not the route
///   reads its query; a body over `max_request_body_size` (by
///   `Content-Length`, or while buffering a chunked body) gets an empty 413
///   before any extractor or handler runs;
/// - a body not fully received within the body timeout (default 30 s) gets
///   a 408 problem, detail `The request body was not received in time`,
///   and the connection is closed;
/// - a panic writes exactly the one log line of an unknown error (the
///   default panic hook's output is suppressed for the panics it catches;
///   see [`install_panic_hook`](super::install_panic_hook));
/// - exception filters, most recently registered first.
///
/// ```
/// use actix_web::{App, web, HttpResponse};
/// use problem_core::{NotFoundException, pipeline::Pipeline};
///
/// let pipeline = Pipeline::builder().tag("catalog").development(false).build().unwrap();
/// let app = App::new()
///     .wrap(pipeline)
///     .route("/books/{id}", web::get().to(|| async {
///         Err::<HttpResponse, _>(NotFoundException::new().with_detail("Book 7 not found"))
///     }));
/// ```
#[derive(Clone)]
pub struct Pipeline {
    pub(crate) inner: Arc<PipelineInner>,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("tag", &self.inner.tag)
            .field("development", &self.inner.development)
            .field("filters", &self.inner.filters.len())
            .field("allowed_hosts", &self.inner.allowed_hosts)
            .field("max_request_body_size", &self.inner.max_request_body_size)
            .finish()
    }
}

impl std::fmt::Debug for PipelineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineBuilder")
            .field("tag", &self.tag)
            .field("development", &self.development)
            .field("filters", &self.filters.len())
            .field("allowed_hosts", &self.allowed_hosts)
            .field("max_request_body_size", &self.max_request_body_size)
            .field("body_timeout", &self.body_timeout)
            .field("versioning", &self.versioning)
            .finish_non_exhaustive()
    }
}

/// Builds a [`Pipeline`].
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::ServiceUnavailableException;
/// use problem_core::pipeline::{MemoryLogger, Pipeline};
/// use std::sync::Arc;
///
/// # actix_web::rt::System::new().block_on(async {
/// let logger = Arc::new(MemoryLogger::default());
/// let pipeline = Pipeline::builder()
///     .tag("catalog")
///     .development(false)
///     .shared_logger(logger.clone())
///     .build()
///     .unwrap();
/// let app = test::init_service(App::new().wrap(pipeline).route("/books", web::get().to(|| async {
///     Err::<HttpResponse, _>(ServiceUnavailableException::new().with_detail("Maintenance window"))
/// })))
/// .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
/// let id = logger.entries()[0].correlation_id;
/// assert_eq!(
///     test::read_body(res).await,
///     format!(r#"{{"type":"about:blank","title":"Service Unavailable","status":503,"instance":"/books","correlationId":"{id}"}}"#)
/// );
/// assert_eq!(
///     logger.entries()[0].message,
///     format!("[catalog] 503 on GET /books (correlation id {id}): ServiceUnavailableException: Maintenance window")
/// );
/// # });
/// ```
pub struct PipelineBuilder {
    tag: String,
    development: Option<bool>,
    logger: Arc<dyn LogSink>,
    filters: Vec<FilterFn>,
    allowed_hosts: Option<Vec<String>>,
    max_request_body_size: Option<usize>,
    body_timeout: Duration,
    versioning: Option<crate::version::Versioning>,
}

/// Whether `NODE_ENV` equals `development` (the spec's default for the
/// development flag).
///
/// ```standalone_crate
/// use problem_core::pipeline::development_from_env;
/// // SAFETY: this test's process has no other thread reading the environment.
/// unsafe { std::env::set_var("NODE_ENV", "development") };
/// assert!(development_from_env());
/// unsafe { std::env::set_var("NODE_ENV", "production") };
/// assert!(!development_from_env());
/// ```
pub fn development_from_env() -> bool {
    std::env::var("NODE_ENV").is_ok_and(|v| v == "development")
}

impl Pipeline {
    /// A builder with tag `app`, development from `NODE_ENV`, the
    /// [`TracingLogger`], no filters, every host allowed, no body limit and
    /// a body timeout of [`DEFAULT_BODY_TIMEOUT`] (30 s).
    ///
    /// ```
    /// use problem_core::pipeline::Pipeline;
    /// let pipeline = Pipeline::builder().build().unwrap();
    /// assert_eq!(pipeline.tag(), "app");
    /// assert_eq!(
    ///     format!("{pipeline:?}"),
    ///     format!(
    ///         "Pipeline {{ tag: \"app\", development: {}, filters: 0, allowed_hosts: None, max_request_body_size: None }}",
    ///         pipeline.development()
    ///     )
    /// );
    /// ```
    pub fn builder() -> PipelineBuilder {
        PipelineBuilder {
            tag: "app".into(),
            development: None,
            logger: Arc::new(TracingLogger),
            filters: Vec::new(),
            allowed_hosts: None,
            max_request_body_size: None,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            versioning: None,
        }
    }

    /// Whether development mode is on.
    ///
    /// ```
    /// use problem_core::pipeline::Pipeline;
    /// assert!(Pipeline::builder().development(true).build().unwrap().development());
    /// assert!(!Pipeline::builder().development(false).build().unwrap().development());
    /// ```
    pub fn development(&self) -> bool {
        self.inner.development
    }

    /// The logger.
    ///
    /// ```
    /// use problem_core::pipeline::{LogLevel, LogRecord, MemoryLogger, Pipeline};
    /// use std::sync::Arc;
    /// let memory = Arc::new(MemoryLogger::default());
    /// let pipeline = Pipeline::builder().shared_logger(memory.clone()).build().unwrap();
    /// let record = LogRecord { level: LogLevel::Warn, message: "[app] hi", error: None, correlation_id: uuid::Uuid::nil() };
    /// pipeline.logger().log(&record);
    /// assert_eq!(memory.entries()[0].message, "[app] hi");
    /// ```
    pub fn logger(&self) -> &Arc<dyn LogSink> {
        &self.inner.logger
    }

    /// The log tag.
    ///
    /// ```
    /// use problem_core::pipeline::Pipeline;
    /// assert_eq!(Pipeline::builder().tag("catalog").build().unwrap().tag(), "catalog");
    /// ```
    pub fn tag(&self) -> &str {
        &self.inner.tag
    }

    /// An [`ErrorLog`](super::ErrorLog) on this pipeline's logger and
    /// mode: how a handler logs an error it handles itself, as the
    /// pipeline logs a 5xx (spec, `ErrorLog.log(message, error, level?)`).
    /// Under a [`ProblemApp`](crate::server::ProblemApp) the pipeline is
    /// application data, so a handler reaches it through its request.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::{test, App, HttpRequest, HttpResponse};
    /// use problem_core::pipeline::{ErrorInfo, LogLevel, MemoryLogger, Pipeline};
    /// use problem_core::server::ProblemApp;
    ///
    /// async fn import(req: HttpRequest) -> HttpResponse {
    ///     let Some(pipeline) = req.app_data::<Pipeline>() else {
    ///         return HttpResponse::InternalServerError().finish();
    ///     };
    ///     let log = pipeline.error_log();
    ///     let line = format!("[{}] Import skipped a row", pipeline.tag());
    ///     let id = log.log(&line, &ErrorInfo::new("RowError", "bad ISBN"), LogLevel::Warn);
    ///     HttpResponse::Accepted().body(id.to_string())
    /// }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let memory = Arc::new(MemoryLogger::default());
    /// let app = ProblemApp::builder()
    ///     .tag("catalog")
    ///     .development(false)
    ///     .shared_logger(memory.clone())
    ///     .routes(|r| r.post("/imports", import))
    ///     .build()
    ///     .unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.pipeline())).await;
    /// let res = test::call_service(&svc, test::TestRequest::post().uri("/imports").to_request()).await;
    /// assert_eq!(res.status(), 202);
    /// let id = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    /// assert_eq!(
    ///     memory.entries()[0].message,
    ///     format!("[catalog] Import skipped a row (correlation id {id}): RowError: bad ISBN")
    /// );
    /// # });
    /// ```
    pub fn error_log(&self) -> super::ErrorLog {
        super::ErrorLog::new(Arc::clone(&self.inner.logger), self.inner.development)
    }

    /// Logs [`RANDOM_CURSOR_KEY_WARNING`](crate::query::RANDOM_CURSOR_KEY_WARNING)
    /// at `warn` through the pipeline's logger, the first time only: the
    /// `Collection` extractor of an application with no cursor key calls
    /// it on every extraction.
    pub(crate) fn warn_random_cursor_key(&self) {
        if super::log::first_time(&self.inner.random_cursor_key_warned) {
            self.warn(crate::query::RANDOM_CURSOR_KEY_WARNING);
        }
    }

    /// Logs `message` at `warn` through the pipeline's logger, as
    /// `[<tag>] <message>` (used by `listen()` for its non-loopback warning
    /// and by the `Collection` extractor's random-cursor-key warning).
    pub(crate) fn warn(&self, message: &str) {
        super::log::write_warning(&*self.inner.logger, &self.inner.tag, message);
    }
}

impl PipelineBuilder {
    /// The tag in square brackets that starts every log line, e.g. `catalog`.
    /// One with a control character (a line break would start what reads as
    /// another log entry) is an [`HttpConfigError::InvalidListenOption`]
    /// from [`build`](Self::build).
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::{MemoryLogger, Pipeline};
    /// use std::sync::Arc;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let logger = Arc::new(MemoryLogger::default());
    /// let pipeline = Pipeline::builder().tag("catalog").development(false).shared_logger(logger.clone());
    /// let app = test::init_service(App::new().wrap(pipeline.build().unwrap()).route("/books", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(std::io::Error::other("disk full"))
    /// })))
    /// .await;
    /// test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
    /// let id = logger.entries()[0].correlation_id;
    /// assert_eq!(
    ///     logger.entries()[0].message,
    ///     format!("[catalog] Unhandled error on GET /books (correlation id {id}): Error: disk full")
    /// );
    /// # });
    /// ```
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tag = tag.into();
        self
    }

    /// Sets development mode; default: `NODE_ENV == "development"`, read at build.
    ///
    /// In development a 5xx body keeps its detail and extensions:
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::ServiceUnavailableException;
    /// use problem_core::pipeline::{MemoryLogger, Pipeline};
    /// use std::sync::Arc;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let logger = Arc::new(MemoryLogger::default());
    /// let pipeline = Pipeline::builder().development(true).shared_logger(logger.clone());
    /// let app = test::init_service(App::new().wrap(pipeline.build().unwrap()).route("/books", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(ServiceUnavailableException::new().with_detail("Maintenance window"))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
    /// let id = logger.entries()[0].correlation_id;
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     format!(r#"{{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Maintenance window","instance":"/books","correlationId":"{id}"}}"#)
    /// );
    /// # });
    /// ```
    pub fn development(mut self, on: bool) -> Self {
        self.development = Some(on);
        self
    }

    /// Installs a logger (default [`TracingLogger`]).
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::{LogRecord, LogSink, Pipeline};
    /// use std::sync::{Arc, Mutex};
    ///
    /// #[derive(Clone, Default)]
    /// struct Lines(Arc<Mutex<Vec<String>>>);
    /// impl LogSink for Lines {
    ///     fn log(&self, record: &LogRecord<'_>) {
    ///         self.0.lock().unwrap().push(record.message.to_owned());
    ///     }
    /// }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let lines = Lines::default();
    /// let pipeline = Pipeline::builder().development(false).logger(lines.clone()).build().unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(std::io::Error::other("disk full"))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await;
    /// let body: serde_json::Value = test::read_body_json(res).await;
    /// let id = body["correlationId"].as_str().unwrap();
    /// assert_eq!(
    ///     *lines.0.lock().unwrap(),
    ///     [format!("[app] Unhandled error on GET / (correlation id {id}): Error: disk full")]
    /// );
    /// # });
    /// ```
    pub fn logger(mut self, logger: impl LogSink) -> Self {
        self.logger = Arc::new(logger);
        self
    }

    /// Installs a shared logger.
    ///
    /// ```
    /// use problem_core::pipeline::{LogSink, MemoryLogger, Pipeline};
    /// use std::sync::Arc;
    /// let memory = Arc::new(MemoryLogger::default());
    /// let shared: Arc<dyn LogSink> = memory.clone();
    /// let pipeline = Pipeline::builder().shared_logger(shared.clone()).build().unwrap();
    /// assert!(Arc::ptr_eq(pipeline.logger(), &shared));
    /// ```
    pub fn shared_logger(mut self, logger: Arc<dyn LogSink>) -> Self {
        self.logger = logger;
        self
    }

    /// Only these hosts are served; others get 421 (see [`AllowedHosts`]).
    /// A `Host` value (or absolute-form authority) that is no host and port
    /// as RFC 3986 writes them (`localhost:abc`, `u@localhost`, `::1`
    /// without brackets, a space inside), or an absolute-form target with
    /// user information, is the 400 problem `The requested host is not
    /// valid.` (RFC 9112 §3.2 requires a 400 for an invalid `Host`). A
    /// request without `Host` gets the 421.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder().development(false).allowed_hosts(["books.example"]).build().unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/", web::get().to(HttpResponse::Ok))).await;
    /// let req = test::TestRequest::get().uri("/").insert_header(("Host", "evil.example"));
    /// let res = test::call_service(&app, req.to_request()).await;
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     r#"{"type":"about:blank","title":"Misdirected Request","status":421,"detail":"This server does not serve the requested host.","instance":"/"}"#
    /// );
    /// let req = test::TestRequest::get().uri("/").insert_header(("Host", "books.example:8080"));
    /// assert_eq!(test::call_service(&app, req.to_request()).await.status(), 200);
    /// let req = test::TestRequest::get().uri("/").insert_header(("Host", "books.example:http"));
    /// assert_eq!(
    ///     test::read_body(test::call_service(&app, req.to_request()).await).await,
    ///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"The requested host is not valid.","instance":"/"}"#
    /// );
    /// # });
    /// ```
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// Bodies over `bytes` get an empty 413 before any extractor runs.
    ///
    /// ```
    /// use actix_web::{test, web, App};
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder().development(false).max_request_body_size(10).build().unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/", web::post().to(|body: String| async move { body }))).await;
    /// let res = test::call_service(&app, test::TestRequest::post().uri("/").set_payload("0123456789A").to_request()).await;
    /// assert_eq!(res.status(), 413);
    /// assert!(test::read_body(res).await.is_empty());
    /// let res = test::call_service(&app, test::TestRequest::post().uri("/").set_payload("0123456789").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "0123456789");
    /// # });
    /// ```
    pub fn max_request_body_size(mut self, bytes: usize) -> Self {
        self.max_request_body_size = Some(bytes);
        self
    }

    /// A request body not fully received within `timeout` of its first
    /// read (an extractor's, or the pipeline's own buffering; a handler
    /// that awaits something else before reading does not spend the
    /// client's time) is answered with a 408 problem (detail `The request
    /// body was not received in time`) and the connection is closed. Default
    /// [`DEFAULT_BODY_TIMEOUT`] (30 s); zero is an [`HttpConfigError`].
    ///
    /// ```
    /// use problem_core::pipeline::Pipeline;
    /// use std::time::Duration;
    /// assert!(Pipeline::builder().body_timeout(Duration::from_secs(5)).build().is_ok());
    /// let err = Pipeline::builder().body_timeout(Duration::ZERO).build().unwrap_err();
    /// assert_eq!(err.to_string(), "invalid listen option: body_timeout must be more than zero");
    /// ```
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// Registers an exception filter for problem type `E` (and its kinds:
    /// a filter for `BadRequestException` also catches
    /// `ValidationException`; a filter for
    /// [`HttpException`](crate::HttpException) catches every problem, the
    /// built-ins and `#[derive(Problem)]` types included, each handed to it
    /// as an `HttpException` with the same members). Such a view of a kind
    /// keeps the thrown type's `name()` (`ValidationException`,
    /// `NotFoundException`, ...), and
    /// [`default_error_response`](super::default_error_response) of it
    /// renders the thrown error itself (its `issues` included, logged under
    /// its own name), as the spec's filter holding the thrown object would. It catches the
    /// problems the framework raises too (`Malformed JSON body` is a
    /// `BadRequestException`; so are the answers the pipeline gives before
    /// routing: more than 1000 query parameters a `BadRequestException`, a
    /// NUL in the query a `ValidationException`, a host not allowed the
    /// `421` [`HttpException`](crate::HttpException); with [`ProblemApp`](crate::server::ProblemApp)'s
    /// route table, a path no route matches is a `NotFoundException`; on a
    /// plain `App`, actix-web's own 404 has no error to filter and is
    /// answered as the default 404 problem, as is a bodiless error response
    /// a handler builds). The filter returns the response; it may start
    /// from [`ErrorContext::default_response`]. Filters registered later are
    /// tried first.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::Pipeline;
    /// use problem_core::{BadRequestException, Issue, IssueLocation, ValidationException};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter::<BadRequestException, _>(|err, ctx| {
    ///         HttpResponse::BadRequest().body(format!("{err} on {}", ctx.instance()))
    ///     })
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books", web::post().to(|| async {
    ///     let issue = Issue::new(IssueLocation::Body, "/title", "required", "title is required");
    ///     Err::<HttpResponse, _>(ValidationException::new(vec![issue]))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::post().uri("/books").to_request()).await;
    /// assert_eq!(res.status(), 400);
    /// assert_eq!(test::read_body(res).await, "Request validation failed on /books");
    /// # });
    /// ```
    pub fn filter<E, F>(mut self, filter: F) -> Self
    where
        E: Problem,
        F: Fn(&E, &ErrorContext<'_>) -> HttpResponse + Send + Sync + 'static,
    {
        self.filters.push(Box::new(move |err, found, ctx| {
            if let Some(e) = E::catch(err).or_else(|| found.and_then(E::catch_problem)) {
                return Some(ctx.handing(e, |e| filter(e, ctx)));
            }
            // Every problem is a kind of `HttpException`: a filter for it
            // receives the others as one.
            if TypeId::of::<E>() == TypeId::of::<HttpException>() {
                let kind = HttpException::kind_of(found?);
                let e = (&kind as &dyn Any).downcast_ref::<E>()?;
                return Some(ctx.handing(e, |e| filter(e, ctx)));
            }
            None
        }));
        self
    }

    /// Registers an exception filter for a foreign error type `E` (one that
    /// is not a problem type, e.g. `std::io::Error`).
    ///
    /// `E` implements actix-web's `ResponseError`, as every error a handler
    /// returns as an `actix_web::Error` does; the filter gets the error a
    /// handler returned by downcasting it. An error type without
    /// `ResponseError` (`sqlx::Error`, an error of another crate) reaches
    /// the pipeline wrapped in an [`UnknownError`](super::UnknownError)
    /// (`UnknownError::from(e)`): filter `UnknownError` and tell the
    /// errors apart with [`UnknownError::downcast_ref`](super::UnknownError::downcast_ref).
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::Pipeline;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder()
    ///     .development(false)
    ///     .filter_error::<std::io::Error, _>(|err, _ctx| {
    ///         HttpResponse::ServiceUnavailable().body(format!("storage: {err}"))
    ///     })
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/", web::get().to(|| async {
    ///     Err::<HttpResponse, _>(std::io::Error::other("disk full"))
    /// })))
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await;
    /// assert_eq!(res.status(), 503);
    /// assert_eq!(test::read_body(res).await, "storage: disk full");
    /// # });
    /// ```
    pub fn filter_error<E, F>(mut self, filter: F) -> Self
    where
        E: actix_web::ResponseError + 'static,
        F: Fn(&E, &ErrorContext<'_>) -> HttpResponse + Send + Sync + 'static,
    {
        self.filters.push(Box::new(move |err, _, ctx| {
            err.as_error::<E>().map(|e| filter(e, ctx))
        }));
        self
    }

    /// The versioning installed inside this pipeline, whose headers the
    /// problems the pipeline answers before it runs get (more than 1000
    /// query parameters, a NUL in the query, a chunked body that cannot be
    /// read or arrives too slowly). [`ProblemApp`](crate::server::ProblemApp)
    /// sets it.
    pub(crate) fn versioning(mut self, versioning: Option<crate::version::Versioning>) -> Self {
        self.versioning = versioning;
        self
    }

    /// Builds the pipeline.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidListenOption`] for an invalid allowed host,
    /// a zero body limit or body timeout, or a [`tag`](Self::tag) with a
    /// control character (a line break would start what reads as another
    /// log entry).
    ///
    /// ```
    /// use problem_core::pipeline::Pipeline;
    /// assert!(Pipeline::builder().allowed_hosts(["books.example"]).build().is_ok());
    /// let err = Pipeline::builder().allowed_hosts(["http://books.example"]).build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: allowed host `http://books.example` must be a host name or address, optionally with `:port`"
    /// );
    /// let err = Pipeline::builder().max_request_body_size(0).build().unwrap_err();
    /// assert_eq!(err.to_string(), "invalid listen option: max_request_body_size must be at least 1 byte");
    /// let err = Pipeline::builder().tag("app\n[app").build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: the log tag \"app\\n[app\" has a control character: remove it (a log line is one line)"
    /// );
    /// ```
    pub fn build(self) -> Result<Pipeline, HttpConfigError> {
        if self.tag.chars().any(char::is_control) {
            return Err(HttpConfigError::InvalidListenOption(format!(
                "the log tag {:?} has a control character: remove it (a log line is one line)",
                self.tag
            )));
        }
        let allowed_hosts = match self.allowed_hosts {
            Some(h) => Some(AllowedHosts::new(h)?),
            None => None,
        };
        if self.max_request_body_size == Some(0) {
            return Err(HttpConfigError::InvalidListenOption(
                "max_request_body_size must be at least 1 byte".into(),
            ));
        }
        if self.body_timeout.is_zero() {
            return Err(HttpConfigError::InvalidListenOption(
                "body_timeout must be more than zero".into(),
            ));
        }
        install_panic_hook();
        Ok(Pipeline {
            inner: Arc::new(PipelineInner {
                tag: self.tag.into(),
                development: self.development.unwrap_or_else(development_from_env),
                logger: self.logger,
                filters: self.filters,
                allowed_hosts,
                max_request_body_size: self.max_request_body_size,
                body_timeout: self.body_timeout,
                installed: PipelineInstalled::default(),
                versioning: self.versioning,
                random_cursor_key_warned: std::sync::atomic::AtomicBool::new(false),
            }),
        })
    }
}

impl Pipeline {
    /// The flag set when this pipeline's middleware is built, for the
    /// route table registered behind it.
    pub(crate) fn installed(&self) -> PipelineInstalled {
        self.inner.installed.clone()
    }
}

impl<S, B> Transform<S, ServiceRequest> for Pipeline
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Transform = PipelineService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        self.inner.installed.set();
        ready(Ok(PipelineService {
            service: Rc::new(service),
            inner: self.inner.clone(),
        }))
    }
}

/// The service of [`Pipeline`] (built by actix-web when the `App` is
/// built; not used directly). A panic in a handler is answered as an
/// unknown error:
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::pipeline::{MemoryLogger, Pipeline};
/// use std::sync::Arc;
///
/// async fn boom() -> HttpResponse {
///     panic!("boom")
/// }
///
/// # actix_web::rt::System::new().block_on(async {
/// let logger = Arc::new(MemoryLogger::default());
/// let pipeline = Pipeline::builder().development(false).shared_logger(logger.clone()).build().unwrap();
/// let app = test::init_service(App::new().wrap(pipeline).route("/boom", web::get().to(boom))).await;
/// // The panic escaped the routed service: the pipeline answers with an
/// // `Err` that carries the problem response, which actix-web sends.
/// let err = test::try_call_service(&app, test::TestRequest::get().uri("/boom").to_request()).await.unwrap_err();
/// let res = err.error_response();
/// let id = logger.entries()[0].correlation_id;
/// assert_eq!(
///     actix_web::body::to_bytes(res.into_body()).await.unwrap(),
///     format!(r#"{{"type":"about:blank","title":"Internal Server Error","status":500,"instance":"/boom","correlationId":"{id}"}}"#)
/// );
/// assert_eq!(
///     logger.entries()[0].message,
///     format!("[app] Unhandled error on GET /boom (correlation id {id}): Panic: boom")
/// );
/// # });
/// ```
pub struct PipelineService<S> {
    service: Rc<S>,
    inner: Arc<PipelineInner>,
}

fn is_chunked(req: &ServiceRequest) -> bool {
    req.headers()
        .get(header::TRANSFER_ENCODING)
        .is_some_and(|v| {
            v.as_bytes()
                .windows(7)
                .any(|w| w.eq_ignore_ascii_case(b"chunked"))
        })
}

fn declared_length(req: &ServiceRequest) -> Option<u64> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

type BoxFut<T> = Pin<Box<dyn Future<Output = T>>>;

impl<S, B> Service<ServiceRequest> for PipelineService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Future = PipelineFuture<S, B>;

    forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let inner = self.inner.clone();

        // Answered before routing, whatever the route reads: a host that
        // is not valid (400) or that this server does not serve (421), a
        // request target in a form its method cannot take (400), more
        // than 1000 query parameters, and a query parameter holding U+0000
        // (hostile-input rule "NUL characters": an `invalid_value` issue on
        // it, on every route).
        let host = match inner.allowed_hosts.as_ref().map(|h| h.check_request(&req)) {
            None | Some(HostCheck::Allowed) => None,
            Some(HostCheck::NotAllowed) => Some(HOST_NOT_ALLOWED),
            Some(HostCheck::Invalid) => Some(HOST_INVALID),
        };
        if let Some(fixed) = host.or_else(|| target_form_error(&req)) {
            if let Ok(e) = HttpException::new(fixed.status) {
                return answer_early(&inner, req, e.with_detail(fixed.detail));
            }
        } else if crate::query::over_parameter_limit(req.query_string()) {
            let problem = BadRequestException::new().with_detail(TOO_MANY_QUERY_PARAMETERS.detail);
            return answer_early(&inner, req, problem);
        } else {
            let nul = crate::query::query_nul_issues(req.query_string());
            if !nul.is_empty() {
                return answer_early(&inner, req, ValidationException::new(nul));
            }
        }

        let declared = declared_length(&req);
        let chunked = is_chunked(&req);
        if chunked || declared.is_some_and(|n| n > 0) {
            let payload = req.take_payload();
            let parked = ParkedPayload::default();
            req.extensions_mut().insert(parked.clone());
            req.set_payload(Payload::Stream {
                payload: Box::pin(Deadline::new(payload, inner.body_timeout, parked)),
            });
        }
        let mut buffer_limit = None;
        if let Some(max) = inner.max_request_body_size {
            match declared {
                Some(len) if len > max as u64 => {
                    return PipelineFuture::Answered {
                        res: Some(req.into_response(empty_413()).map_into_right_body()),
                    };
                }
                Some(_) => {}
                None if chunked => buffer_limit = Some(max),
                None => {}
            }
        }

        // The instance is the path as received: versioning may rewrite it.
        // A `Uri` clone shares its buffer; the path is copied only on error.
        let uri = req.uri().clone();
        let method = req.method().clone();
        let service = self.service.clone();
        if let Some(max) = buffer_limit {
            return PipelineFuture::Buffering {
                fut: Box::pin(buffered(service, req, max, method, uri, inner)),
            };
        }
        if chunked || declared.is_some_and(|n| n > 0) {
            super::form_fields::count_form_fields(&mut req);
        }
        // The request cannot be cloned before routing, so an `Err` or a
        // panic that escapes the routed service is answered without it:
        // the rendered problem travels in an `InternalError`, which
        // actix-web turns into exactly that response.
        PipelineFuture::Routed {
            routed: AssertUnwindSafe(Call::Start {
                start: Some((service, req)),
            })
            .catch_unwind(),
            after: Some(After { method, uri, inner }),
        }
    }
}

/// The pipeline's answer before routing: `problem` answered for `req` as
/// an error a handler returned is (the exception filters, else the default
/// rendering), with the version headers every problem response carries
/// (the 421 of a host this server does not serve included: those of the
/// request's version, or the general ones). Out of line: the rare path.
#[cold]
#[inline(never)]
/// The 400 of a request target in a form its method cannot take (RFC 9112
/// §3.2.3, §3.2.4): asterisk-form (`*`) other than for `OPTIONS`,
/// authority-form (`localhost:80`) other than for `CONNECT`; `None` for
/// every other request (origin-form and absolute-form targets).
fn target_form_error(req: &ServiceRequest) -> Option<Fixed> {
    let uri = req.uri();
    if uri.path() == "*" && req.method() != Method::OPTIONS {
        Some(ASTERISK_TARGET)
    } else if uri.scheme().is_none() && uri.authority().is_some() && req.method() != Method::CONNECT
    {
        Some(AUTHORITY_TARGET)
    } else {
        None
    }
}

fn answer_early<S, B, P>(
    inner: &PipelineInner,
    req: ServiceRequest,
    problem: P,
) -> PipelineFuture<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
    P: Problem + actix_web::ResponseError,
{
    if let Some(versioning) = &inner.versioning {
        versioning.record_early(&req);
    }
    let err = actix_web::Error::from(problem);
    let res = respond_to_error(
        &err,
        Some(ProblemSource::of::<P>()),
        Some(req.request()),
        req.method().clone(),
        req.path(),
        inner,
    );
    PipelineFuture::Answered {
        res: Some(req.into_response(res).map_into_right_body()),
    }
}

/// A chunked body buffered up to `max` bytes (an empty 413 beyond), then
/// the request routed as by [`PipelineFuture::Routed`] (boxed: the rare path).
async fn buffered<S, B>(
    service: Rc<S>,
    mut req: ServiceRequest,
    max: usize,
    method: Method,
    uri: Uri,
    inner: Arc<PipelineInner>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    let mut payload = req.take_payload();
    let mut buf = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        match chunk {
            Ok(bytes) if buf.len() + bytes.len() <= max => buf.extend_from_slice(&bytes),
            Ok(_) => {
                // The connection closes after the 413: the rest of the body
                // is never read (actix-http drains a dropped chunked payload
                // for as long as the client sends, with no limit).
                let mut res = empty_413();
                res.head_mut().set_connection_type(ConnectionType::Close);
                let res = hold_payload(res, payload);
                return Ok(req.into_response(res).map_into_right_body());
            }
            Err(e) => {
                if let Some(versioning) = &inner.versioning {
                    versioning.record_early(&req);
                }
                let err = actix_web::Error::from(e);
                let res =
                    respond_to_error(&err, None, Some(req.request()), method, uri.path(), &inner);
                return Ok(req.into_response(res).map_into_right_body());
            }
        }
    }
    req.set_payload(Payload::from(Bytes::from(buf)));
    // Counted as the handler reads it: after routing, as for a body of a
    // declared length.
    super::form_fields::count_form_fields(&mut req);
    let routed = std::pin::pin!(
        AssertUnwindSafe(Call::Start {
            start: Some((service, req)),
        })
        .catch_unwind()
    );
    let outcome = Catching(routed).await;
    After { method, uri, inner }.answer(outcome)
}

pin_project_lite::pin_project! {
    /// `service.call(req)` made on the first poll (inside the pipeline's
    /// `catch_unwind`, so a panic in the call itself is caught too), then
    /// the call's future.
    #[project = CallProj]
    pub enum Call<S: Service<ServiceRequest>> {
        /// Not polled yet.
        Start { start: Option<(Rc<S>, ServiceRequest)> },
        /// The inner service's future.
        Running { #[pin] fut: S::Future },
    }
}

impl<S: Service<ServiceRequest>> Future for Call<S> {
    type Output = Result<S::Response, S::Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let CallProj::Start { start } = self.as_mut().project()
            && let Some((service, req)) = start.take()
        {
            let fut = service.call(req);
            self.set(Call::Running { fut });
        }
        match self.project() {
            CallProj::Running { fut } => fut.poll(cx),
            // Polled after a panic of the call: nothing more to answer.
            CallProj::Start { .. } => Poll::Pending,
        }
    }
}

/// What the pipeline needs once the routed service has answered.
pub struct After {
    method: Method,
    uri: Uri,
    inner: Arc<PipelineInner>,
}

type Outcome<B> =
    Result<Result<ServiceResponse<B>, actix_web::Error>, Box<dyn std::any::Any + Send + 'static>>;

impl After {
    fn answer<B: MessageBody>(
        self,
        outcome: Outcome<B>,
    ) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
        let Self { method, uri, inner } = self;
        match outcome {
            Ok(Ok(res)) => Ok(finish(res, method, &uri, &inner)),
            Ok(Err(e)) => {
                // An error from a middleware inside the versioning one
                // comes with its request's version headers: rendered as
                // the error it holds, then given them.
                // (One per versioning layer it passed, outermost first.)
                let mut versioned = Vec::new();
                let mut e = &e;
                while let Some(v) = e.as_error::<crate::version::VersionedError>() {
                    versioned.push(v);
                    e = &v.error;
                }
                // `error_response` is the application's code: a panic in
                // it is caught again by `respond_to_error`.
                let source = catch_sync(|| {
                    e.error_response()
                        .extensions()
                        .get::<ProblemSource>()
                        .copied()
                })
                .unwrap_or(None);
                let mut res = respond_to_error(e, source, None, method, uri.path(), &inner);
                for v in versioned.iter().rev() {
                    v.add_headers(res.headers_mut());
                }
                Err(InternalError::from_response("problem response", res).into())
            }
            Err(panic) => {
                let err = actix_web::Error::from(PanicError::from_payload(&*panic));
                let res = respond_to_error(&err, None, None, method, uri.path(), &inner);
                Err(InternalError::from_response("problem response", res).into())
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`PipelineService`] (no allocation of its own except
    /// while buffering a chunked body under a body limit).
    #[project = PipelineProj]
    pub enum PipelineFuture<S: Service<ServiceRequest>, B> {
        /// Answered before routing (host check, parameter limit, 413).
        Answered { res: Option<ServiceResponse<EitherBody<B>>> },
        /// Buffering a chunked body, then routing.
        Buffering { fut: BoxFut<Result<ServiceResponse<EitherBody<B>>, actix_web::Error>> },
        /// Routed, panics caught.
        Routed {
            #[pin] routed: CatchUnwind<AssertUnwindSafe<Call<S>>>,
            after: Option<After>,
        },
    }
}

impl<S, B> Future for PipelineFuture<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Output = Result<ServiceResponse<EitherBody<B>>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            PipelineProj::Answered { res } => match res.take() {
                Some(res) => Poll::Ready(Ok(res)),
                None => Poll::Pending,
            },
            PipelineProj::Buffering { fut } => fut.as_mut().poll(cx),
            PipelineProj::Routed { routed, after } => {
                let outcome = match Pin::new(&mut Catching(routed)).poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(outcome) => outcome,
                };
                match after.take() {
                    Some(after) => Poll::Ready(after.answer(outcome)),
                    None => Poll::Pending,
                }
            }
        }
    }
}

impl PipelineInner {
    fn context<'a>(
        &self,
        request: Option<HttpRequest>,
        method: Method,
        instance: &'a str,
        source: Option<ProblemSource>,
    ) -> ErrorContext<'a> {
        ErrorContext::new(
            request,
            method,
            instance,
            self.tag.clone(),
            source,
            self.logger.clone(),
            self.development,
        )
    }
}

impl Pipeline {
    /// The response this pipeline answers `err` of `req` with (filters,
    /// masking, logging of a 5xx, the request's sticky headers), `instance`
    /// the path as received: for a layer installed outside the pipeline
    /// that answers a problem of its own.
    #[cold]
    #[inline(never)]
    pub(crate) fn respond(
        &self,
        err: &actix_web::Error,
        req: &HttpRequest,
        instance: &str,
    ) -> HttpResponse {
        let source = err
            .error_response()
            .extensions()
            .get::<ProblemSource>()
            .copied();
        respond_to_error(
            err,
            source,
            Some(req),
            req.method().clone(),
            instance,
            &self.inner,
        )
    }
}

/// Runs the filters, else the default rendering, for an error. The
/// application's code that runs here (the error's `Display` and
/// `error_response`, a filter, a problem's extensions, the logger) is
/// caught as a handler is: a panic in it is answered as the unknown error
/// `Panic` (a masked 500 and its one log line), rendered without the
/// filters.
fn respond_to_error(
    err: &actix_web::Error,
    source: Option<ProblemSource>,
    http_req: Option<&HttpRequest>,
    method: Method,
    instance: &str,
    inner: &PipelineInner,
) -> HttpResponse {
    let filters = &inner.filters[..];
    let caught = catch_sync(|| {
        respond_with(
            err,
            source,
            http_req,
            method.clone(),
            instance,
            inner,
            filters,
        )
    });
    match caught {
        Ok(res) => res,
        Err(panic) => {
            let err = actix_web::Error::from(PanicError::from_payload(&*panic));
            respond_with(&err, None, http_req, method, instance, inner, &[])
        }
    }
}

/// [`respond_to_error`] without the catch, with these filters.
fn respond_with(
    err: &actix_web::Error,
    source: Option<ProblemSource>,
    http_req: Option<&HttpRequest>,
    method: Method,
    instance: &str,
    inner: &PipelineInner,
    filters: &[FilterFn],
) -> HttpResponse {
    let ctx = inner
        .context(http_req.cloned(), method, instance, source)
        .with_error(err);
    let failure = Failure::of(err, source, http_req);
    let found: Option<&dyn Problem> = match &failure {
        Failure::Problem(p) => Some(*p),
        Failure::Mapped(p) => Some(&**p),
        Failure::TooLarge | Failure::Unknown(_) => None,
    };
    for filter in filters.iter().rev() {
        if let Some(res) = filter(err, found, &ctx) {
            if res.status().is_server_error() && !ctx.was_logged() {
                let name = found.map_or("Error", |p| p.name());
                let info = ErrorInfo::new(name, err.to_string());
                write_log(
                    LogOptions {
                        logger: &*inner.logger,
                        development: inner.development,
                    },
                    &log_line(&ctx, res.status().as_str()),
                    &info,
                    LogLevel::Error,
                    uuid::Uuid::new_v4(),
                );
            }
            return close_after_timeout(res, http_req);
        }
    }
    let res = render(&failure, &ctx, &*inner.logger, inner.development);
    close_after_timeout(res, http_req)
}

/// A 408, and an answer given with the rest of the body set aside unread
/// (the 413 of a form with more than 1000 fields), close the connection:
/// the rest of the body is never read. The parked payload goes with the
/// response's body, so that actix-http sees it unfinished and closes
/// rather than draining a chunked body (`deadline.rs`).
fn close_after_timeout(mut res: HttpResponse, req: Option<&HttpRequest>) -> HttpResponse {
    let parked = req.and_then(|r| r.extensions().get::<ParkedPayload>().cloned());
    if res.status() != StatusCode::REQUEST_TIMEOUT && !parked.as_ref().is_some_and(|p| p.holds()) {
        return res;
    }
    res.head_mut().set_connection_type(ConnectionType::Close);
    match parked {
        Some(parked) => parked.hold_in(res),
        None => res,
    }
}

fn finish<B: MessageBody>(
    res: ServiceResponse<B>,
    method: Method,
    uri: &Uri,
    inner: &PipelineInner,
) -> ServiceResponse<EitherBody<B>> {
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        let (req, mut response) = res.into_parts();
        apply_draft(&req, response.headers_mut());
        return ServiceResponse::new(req, response).map_into_left_body();
    }
    if let Some(err) = res.response().error() {
        let source = res.response().extensions().get::<ProblemSource>().copied();
        let new = respond_to_error(err, source, Some(res.request()), method, uri.path(), inner);
        return res.into_response(new).map_into_right_body();
    }
    let bare_body = matches!(
        res.response().body().size(),
        BodySize::None | BodySize::Sized(0)
    ) && !res.headers().contains_key(header::CONTENT_TYPE);
    // A resource registered straight on the `App` (not through the route
    // table) answers a method it lacks with an empty 405 and `Allow`:
    // `OPTIONS` is answered `204`, any other method gets the spec's detail,
    // both with actix-web's `Allow` and `OPTIONS` (answered here).
    let allow = (bare_body && status == StatusCode::METHOD_NOT_ALLOWED)
        .then(|| res.headers().get(header::ALLOW).cloned())
        .flatten()
        .and_then(|allow| {
            let listed = allow.to_str().unwrap_or("");
            if listed
                .split(',')
                .any(|m| m.trim() == Method::OPTIONS.as_str())
            {
                return Some(allow);
            }
            let methods = [listed, Method::OPTIONS.as_str()].join(", ");
            header::HeaderValue::from_str(methods.trim_start_matches(", ")).ok()
        });
    if let Some(allow) = &allow
        && method == Method::OPTIONS
    {
        let (req, old) = res.into_parts();
        let mut response = HttpResponse::NoContent().finish();
        for (name, value) in old.headers() {
            if name != header::CONTENT_LENGTH {
                response.headers_mut().append(name.clone(), value.clone());
            }
        }
        response.headers_mut().insert(header::ALLOW, allow.clone());
        apply_draft(&req, response.headers_mut());
        return ServiceResponse::new(req, response).map_into_right_body();
    }
    if bare_body
        && res.response().extensions().get::<EmptyTooLarge>().is_none()
        && let Some(mut problem) = bare(status.as_u16())
    {
        if let Some(allow) = allow {
            problem = problem
                .with_detail(crate::spec::method_not_allowed(method.as_str(), uri.path()))
                .with_header((header::ALLOW, allow));
        }
        let ctx = inner.context(Some(res.request().clone()), method, uri.path(), None);
        let mut new = render(
            &Failure::Problem(&problem),
            &ctx,
            &*inner.logger,
            inner.development,
        );
        for (name, value) in res.headers().iter() {
            if !new.headers().contains_key(name) {
                new.headers_mut().append(name.clone(), value.clone());
            }
        }
        drop(ctx);
        return res.into_response(new).map_into_right_body();
    }
    res.map_into_left_body()
}
