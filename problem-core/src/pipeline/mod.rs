//! The error pipeline: every failure becomes a problem document, 5xx are
//! masked outside development and logged under a correlation id
//! (spec, "Errors", "Request handling rules", "Limits").
//!
//! - [`Pipeline`]: the middleware (masking table, logging, panics,
//!   framework errors, host check, limits, exception filters).
//! - [`log_error`], [`ErrorLog`], [`Logger`]: logging under correlation ids.
//! - [`redact`], [`redact_value`]: credential redaction.
//! - [`default_error_response`], [`with_headers`]: for exception filters.
//! - [`RequestContext`]: params, query and the response-header draft.

mod body;
mod context;
pub mod framework;
mod hosts;
mod log;
mod middleware;
mod redact;
mod render;
mod scope;
mod sticky;

pub use body::{Body, BodyConfig};
#[cfg(feature = "validator")]
pub use body::{ValidBody, validation_issues};
pub use context::{RequestContext, ResponseDraft};
pub use framework::PayloadTooLarge;
pub use hosts::AllowedHosts;
pub use log::{
    ErrorInfo, ErrorLog, LOGGED_MESSAGE_LENGTH, LogLevel, LogOptions, LogRecord, LoggedEntry,
    Logger, MemoryLogger, TracingLogger, log_error, stderr_line,
};
pub use middleware::{Pipeline, PipelineBuilder, PipelineService, development_from_env};
pub use redact::{REDACTED, is_sensitive_key, redact, redact_value};
pub use render::{ErrorContext, PanicError, UnknownError, default_error_response, with_headers};
pub(crate) use scope::inside_pipeline;
pub use sticky::{StickyHeaders, add_shared_sticky_headers, add_sticky_headers};
