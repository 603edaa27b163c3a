//! The error pipeline: every failure becomes a problem document, 5xx are
//! masked outside development and logged under a correlation id
//! (spec, "Errors", "Request handling rules", "Limits").
//!
//! - [`Pipeline`]: the middleware (masking table, logging, panics,
//!   framework errors, host check, limits, exception filters).
//! - [`log_error`], [`ErrorLog`], [`LogSink`]: logging under correlation ids.
//! - [`redact`], [`redact_value`]: credential redaction.
//! - [`default_error_response`], [`with_headers`]: for exception filters.
//! - [`RequestContext`]: params, query and the response-header draft.
//! - [`ConditionalRequests`], [`check_if_match`], [`check_preconditions`],
//!   [`entity_tag`]: `ETag`, `If-None-Match` → 304, `If-Match` (and
//!   `If-None-Match` on writes) → 412, `HEAD` bodies (RFC 9110 §13).
//! - [`merge_vary`]: `Vary` merging (RFC 9110 §12.5.5).
//!
//! An error that is not a problem type is answered as a masked 500 and
//! logged, redacted, under the body's correlation id:
//!
//! ```
//! use actix_web::{test, web, App, HttpResponse};
//! use problem_core::pipeline::{MemoryLogger, Pipeline};
//! use std::sync::Arc;
//!
//! async fn books() -> Result<HttpResponse, std::io::Error> {
//!     Err(std::io::Error::other("postgres://app:hunter2@db refused"))
//! }
//!
//! # actix_web::rt::System::new().block_on(async {
//! let logger = Arc::new(MemoryLogger::default());
//! let pipeline = Pipeline::builder().tag("catalog").development(false).shared_logger(logger.clone());
//! let app = test::init_service(App::new().wrap(pipeline.build().unwrap()).route("/books", web::get().to(books))).await;
//! let res = test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
//! let id = logger.entries()[0].correlation_id;
//! assert_eq!(
//!     test::read_body(res).await,
//!     format!(r#"{{"type":"about:blank","title":"Internal Server Error","status":500,"instance":"/books","correlationId":"{id}"}}"#)
//! );
//! assert_eq!(
//!     logger.entries()[0].message,
//!     format!("[catalog] Unhandled error on GET /books (correlation id {id}): Error: postgres://***@db refused")
//! );
//! # });
//! ```

mod body;
mod checked;
mod conditional;
mod context;
mod deadline;
mod form_fields;
pub mod framework;
mod hosts;
mod log;
mod middleware;
mod panic_hook;
mod render;
mod scope;
mod sticky;
mod vary;

pub use crate::problem::redact::{REDACTED, is_sensitive_key, redact, redact_value};
pub use body::{Body, BodyConfig, content_type};
#[cfg(feature = "validator")]
#[cfg_attr(docsrs, doc(cfg(feature = "validator")))]
pub use body::{ValidBody, validation_issues};
pub use conditional::{
    ConditionalRequests, ConditionalService, PreconditionFailed, check_if_match,
    check_preconditions, entity_tag,
};
pub use context::{RequestContext, ResponseDraft};
pub use deadline::{BodyTimedOut, DEFAULT_BODY_TIMEOUT};
pub use framework::PayloadTooLarge;
pub use hosts::AllowedHosts;
/// [`LogSink`] under the name the spec gives the application's logger:
/// the same trait (`impl Logger for MyLogger` and `impl LogSink for
/// MyLogger` are one impl). `LogSink` is the name to import beside
/// `actix_web::middleware::Logger`.
///
/// ```
/// use problem_core::pipeline::{LogRecord, LogSink, Logger};
/// struct Quiet;
/// impl Logger for Quiet {
///     fn log(&self, _record: &LogRecord<'_>) {}
/// }
/// fn sink(_: &dyn LogSink) {}
/// sink(&Quiet);
/// ```
pub use log::LogSink as Logger;
pub(crate) use log::first_time;
pub use log::{
    ErrorInfo, ErrorLog, LOGGED_MESSAGE_LENGTH, LogLevel, LogOptions, LogRecord, LogSink,
    LoggedEntry, LoggedError, MemoryLogger, TracingLogger, log_error, stderr_line,
};
pub(crate) use middleware::Call;
pub use middleware::{Pipeline, PipelineBuilder, PipelineService, development_from_env};
pub use panic_hook::install_panic_hook;
pub(crate) use panic_hook::{Catching, catch_sync, take_panic_location};
pub use render::{
    ErrorContext, FilteredError, PanicError, UnknownError, default_error_response, with_headers,
};
pub(crate) use scope::PipelineInstalled;
pub(crate) use sticky::with_sticky_headers;
pub use sticky::{StickyHeaders, add_shared_sticky_headers, add_sticky_headers};
pub(crate) use sticky::{merge_map, merge_pairs, replace_headers};
pub use vary::merge_vary;
