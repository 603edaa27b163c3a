//! Logging of errors under correlation ids (spec, "Logging and correlation ids").

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use uuid::Uuid;

use crate::problem::redact::{redact, redact_value};
use crate::problem::{Extensions, Problem};

pub use crate::spec::LOGGED_MESSAGE_LENGTH;

/// The level of a log entry: `error` (every 5xx) or `warn`.
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, ErrorLog, LogLevel, MemoryLogger};
/// use std::sync::Arc;
/// assert_eq!(LogLevel::default(), LogLevel::Error);
/// let logger = Arc::new(MemoryLogger::default());
/// ErrorLog::new(logger.clone(), false).log("[app] Slow", &ErrorInfo::new("Warning", "3 s"), LogLevel::Warn);
/// assert_eq!(logger.entries()[0].level, LogLevel::Warn);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LogLevel {
    /// `error`, the default.
    #[default]
    Error,
    /// `warn`.
    Warn,
}

/// One log entry, already redacted.
///
/// ```
/// use problem_core::pipeline::{LogLevel, LogRecord, LogSink, MemoryLogger};
/// let logger = MemoryLogger::default();
/// logger.log(&LogRecord {
///     level: LogLevel::Warn,
///     message: "[app] Listening on 0.0.0.0:8080",
///     error: None,
///     correlation_id: uuid::Uuid::nil(),
/// });
/// assert_eq!(logger.entries()[0].message, "[app] Listening on 0.0.0.0:8080");
/// assert_eq!(logger.entries()[0].correlation_id, uuid::Uuid::nil());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct LogRecord<'a> {
    /// The level.
    pub level: LogLevel,
    /// The log line, e.g.
    /// `[catalog] 503 on GET /books (correlation id <uuid>): ServiceUnavailableException: Maintenance window`.
    pub message: &'a str,
    /// In development, the whole error as a redacted JSON value (`name`,
    /// `message`, `stack`, `cause`, `properties`); outside development `None`.
    pub error: Option<&'a Value>,
    /// The correlation id in the line.
    pub correlation_id: Uuid,
}

/// Where the pipeline's log entries go. Redaction happens before `log` is
/// called, so any logger receives redacted data.
///
/// ```
/// use problem_core::pipeline::{LogRecord, LogSink};
/// struct Stderr;
/// impl LogSink for Stderr {
///     fn log(&self, record: &LogRecord<'_>) { eprintln!("{}", record.message); }
/// }
/// ```
pub trait LogSink: Send + Sync + 'static {
    /// Writes one entry.
    ///
    /// ```
    /// use problem_core::pipeline::{LogLevel, LogRecord, LogSink, MemoryLogger};
    /// let logger = MemoryLogger::default();
    /// let record = LogRecord { level: LogLevel::Warn, message: "[app] slow", error: None, correlation_id: uuid::Uuid::nil() };
    /// logger.log(&record);
    /// assert_eq!((logger.entries()[0].level, logger.entries()[0].message.as_str()), (LogLevel::Warn, "[app] slow"));
    /// ```
    fn log(&self, record: &LogRecord<'_>);
}

/// A shared logger is a logger: `.logger(Arc::clone(&memory))` keeps a
/// handle to read the entries from (as `shared_logger` does).
///
/// ```
/// use std::sync::Arc;
/// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, MemoryLogger, log_error};
/// let memory = Arc::new(MemoryLogger::default());
/// let shared = Arc::clone(&memory);
/// log_error(LogOptions { logger: &shared, development: false }, "[app] Job", &ErrorInfo::new("E", "m"), LogLevel::Error);
/// assert_eq!(memory.entries().len(), 1);
/// ```
impl<T: LogSink + ?Sized> LogSink for Arc<T> {
    fn log(&self, record: &LogRecord<'_>) {
        (**self).log(record);
    }
}

/// The default logger: `tracing` events at `error` or `warn`, target
/// `problem_core`, with the line as the message and, in development, the
/// error as the field `error`.
///
/// When no `tracing` subscriber has been set (neither a global default nor
/// a scoped one), an event would be lost; the line is then written to
/// stderr instead, as [`stderr_line`] formats it:
/// `ERROR problem_core: <line>` (and ` error=<json>` in development).
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, TracingLogger, log_error};
/// # use std::sync::{Arc, Mutex};
/// # use tracing::{Event, Metadata, field::{Field, Visit}, span};
/// # #[derive(Clone, Default)]
/// # struct Capture(Arc<Mutex<Vec<String>>>);
/// # impl Visit for Capture {
/// #     fn record_debug(&mut self, f: &Field, v: &dyn std::fmt::Debug) {
/// #         if f.name() == "message" { self.0.lock().unwrap().push(format!("{v:?}")); }
/// #     }
/// # }
/// # impl tracing::Subscriber for Capture {
/// #     fn enabled(&self, _: &Metadata<'_>) -> bool { true }
/// #     fn new_span(&self, _: &span::Attributes<'_>) -> span::Id { span::Id::from_u64(1) }
/// #     fn record(&self, _: &span::Id, _: &span::Record<'_>) {}
/// #     fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}
/// #     fn event(&self, e: &Event<'_>) {
/// #         let m = e.metadata();
/// #         self.0.lock().unwrap().push(format!("{} {}", m.level(), m.target()));
/// #         e.record(&mut self.clone());
/// #     }
/// #     fn enter(&self, _: &span::Id) {}
/// #     fn exit(&self, _: &span::Id) {}
/// # }
/// // `Capture`: a `tracing` subscriber keeping each event's level, target and message.
/// let events = Capture::default();
/// let id = tracing::subscriber::with_default(events.clone(), || {
///     let options = LogOptions { logger: &TracingLogger, development: false };
///     log_error(options, "[app] Boot", &ErrorInfo::new("DbError", "refused"), LogLevel::Error)
/// });
/// assert_eq!(
///     *events.0.lock().unwrap(),
///     ["ERROR problem_core".to_owned(), format!("[app] Boot (correlation id {id}): DbError: refused")]
/// );
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TracingLogger;

/// The stderr line of the default logger when no `tracing` subscriber is
/// set: `ERROR problem_core: <line>` or `WARN problem_core: <line>`,
/// followed in development by ` error=<the error as JSON>`.
///
/// ```
/// use problem_core::pipeline::{LogLevel, LogRecord, stderr_line};
/// let record = LogRecord {
///     level: LogLevel::Error,
///     message: "[app] 500 on GET /x (correlation id 00000000-0000-0000-0000-000000000000): Error: boom",
///     error: None,
///     correlation_id: uuid::Uuid::nil(),
/// };
/// assert_eq!(
///     stderr_line(&record),
///     "ERROR problem_core: [app] 500 on GET /x (correlation id 00000000-0000-0000-0000-000000000000): Error: boom"
/// );
/// ```
pub fn stderr_line(record: &LogRecord<'_>) -> String {
    let level = match record.level {
        LogLevel::Error => "ERROR",
        LogLevel::Warn => "WARN",
    };
    match record.error {
        Some(e) => format!("{level} problem_core: {} error={e}", record.message),
        None => format!("{level} problem_core: {}", record.message),
    }
}

/// Whether a `tracing` subscriber receives events on this thread (a
/// global default, or a scoped default set with `with_default`).
fn has_subscriber() -> bool {
    tracing::dispatcher::get_default(|d| !d.is::<tracing::subscriber::NoSubscriber>())
}

impl LogSink for TracingLogger {
    fn log(&self, record: &LogRecord<'_>) {
        if !has_subscriber() {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr().lock(), "{}", stderr_line(record));
            return;
        }
        match (record.level, record.error) {
            (LogLevel::Error, Some(e)) => {
                tracing::error!(target: "problem_core", error = %e, "{}", record.message)
            }
            (LogLevel::Error, None) => {
                tracing::error!(target: "problem_core", "{}", record.message)
            }
            (LogLevel::Warn, Some(e)) => {
                tracing::warn!(target: "problem_core", error = %e, "{}", record.message)
            }
            (LogLevel::Warn, None) => tracing::warn!(target: "problem_core", "{}", record.message),
        }
    }
}

/// A logger that keeps every entry in memory, for tests.
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, ErrorLog, LogLevel, MemoryLogger};
/// use std::sync::Arc;
/// let logger = Arc::new(MemoryLogger::default());
/// let log = ErrorLog::new(logger.clone(), false);
/// let id = log.log("[app] Job failed", &ErrorInfo::new("Error", "disk full"), LogLevel::Warn);
/// let entries = logger.entries();
/// assert_eq!(entries[0].message, format!("[app] Job failed (correlation id {id}): Error: disk full"));
/// assert_eq!(entries[0].level, LogLevel::Warn);
/// ```
#[derive(Debug, Default)]
pub struct MemoryLogger {
    entries: Mutex<Vec<LoggedEntry>>,
}

/// An entry kept by [`MemoryLogger`].
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, LoggedEntry, MemoryLogger, log_error};
/// let logger = MemoryLogger::default();
/// let options = LogOptions { logger: &logger, development: true };
/// let id = log_error(options, "[app] Boot", &ErrorInfo::new("DbError", "refused"), LogLevel::Error);
/// assert_eq!(
///     logger.entries(),
///     [LoggedEntry {
///         level: LogLevel::Error,
///         message: format!("[app] Boot (correlation id {id})"),
///         error: Some(serde_json::json!({"name": "DbError", "message": "refused"})),
///         correlation_id: id,
///     }]
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEntry {
    /// The level.
    pub level: LogLevel,
    /// The line.
    pub message: String,
    /// The redacted error argument (development only).
    pub error: Option<Value>,
    /// The correlation id.
    pub correlation_id: Uuid,
}

impl MemoryLogger {
    /// A copy of every entry so far, oldest first.
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, MemoryLogger, log_error};
    /// let logger = MemoryLogger::default();
    /// let options = LogOptions { logger: &logger, development: false };
    /// log_error(options, "[app] First", &ErrorInfo::new("E", "a"), LogLevel::Error);
    /// log_error(options, "[app] Second", &ErrorInfo::new("E", "b"), LogLevel::Warn);
    /// let entries = logger.entries();
    /// assert_eq!(entries.len(), 2);
    /// assert!(entries[0].message.starts_with("[app] First (correlation id "));
    /// assert!(entries[1].message.ends_with("): E: b"));
    /// ```
    pub fn entries(&self) -> Vec<LoggedEntry> {
        self.entries.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// Removes every entry.
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, MemoryLogger, log_error};
    /// let logger = MemoryLogger::default();
    /// let options = LogOptions { logger: &logger, development: false };
    /// log_error(options, "[app] Boot", &ErrorInfo::new("E", "a"), LogLevel::Error);
    /// assert_eq!(logger.entries().len(), 1);
    /// logger.clear();
    /// assert!(logger.entries().is_empty());
    /// ```
    pub fn clear(&self) {
        if let Ok(mut e) = self.entries.lock() {
            e.clear();
        }
    }
}

impl LogSink for MemoryLogger {
    fn log(&self, record: &LogRecord<'_>) {
        if let Ok(mut e) = self.entries.lock() {
            e.push(LoggedEntry {
                level: record.level,
                message: record.message.to_owned(),
                error: record.error.cloned(),
                correlation_id: record.correlation_id,
            });
        }
    }
}

/// What is logged of an error: its name, message, and, for unknown errors,
/// its stack (the error chain) and properties.
///
/// ```
/// use problem_core::pipeline::ErrorInfo;
/// let io = std::io::Error::other("disk full");
/// let info = ErrorInfo::from_error(&io);
/// assert_eq!(info.name(), "Error");
/// assert_eq!(info.message(), "disk full");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorInfo {
    name: Cow<'static, str>,
    message: String,
    stack: Option<String>,
    properties: Option<Extensions>,
}

impl ErrorInfo {
    /// An error with a name and message only.
    ///
    /// ```
    /// use problem_core::pipeline::ErrorInfo;
    /// let info = ErrorInfo::new("DbError", "connection refused");
    /// assert_eq!((info.name(), info.message(), info.stack()), ("DbError", "connection refused", None));
    /// ```
    pub fn new(name: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            message: message.into(),
            stack: None,
            properties: None,
        }
    }

    /// Any error: its type name without the path (e.g. `Error` for
    /// `std::io::Error`), its `Display`, and its `source()` chain as the stack.
    ///
    /// ```
    /// use problem_core::pipeline::ErrorInfo;
    /// #[derive(Debug, thiserror::Error)]
    /// #[error("cannot load config")]
    /// struct ConfigError(#[source] std::io::Error);
    ///
    /// let info = ErrorInfo::from_error(&ConfigError(std::io::Error::other("disk full")));
    /// assert_eq!(info.name(), "ConfigError");
    /// assert_eq!(info.message(), "cannot load config");
    /// assert_eq!(info.stack(), Some("ConfigError: cannot load config\n    caused by: disk full"));
    /// ```
    pub fn from_error<E: StdError + ?Sized>(error: &E) -> Self {
        let name = short_type_name(std::any::type_name::<E>());
        let mut info = Self::new(name, error.to_string());
        info.stack = Some(error_chain(&info.name, error));
        info
    }

    /// A problem: its [`Problem::name`], its message (`Display`) and its
    /// extensions as properties. Its cause is not included (spec, logging
    /// rule 8: a 5xx HTTP exception's cause is not logged).
    ///
    /// ```
    /// use problem_core::HttpException;
    /// use problem_core::pipeline::ErrorInfo;
    /// let err = HttpException::new(503)?
    ///     .with_detail("Maintenance window")
    ///     .with_extension("window", "02:00-03:00")
    ///     .with_cause(std::io::Error::other("db down"));
    /// let info = ErrorInfo::from_problem(&err);
    /// assert_eq!(
    ///     info.to_redacted_value(),
    ///     serde_json::json!({
    ///         "name": "HttpException", "message": "Maintenance window",
    ///         "properties": {"window": "02:00-03:00"}
    ///     })
    /// );
    /// # Ok::<(), problem_core::StatusRangeError>(())
    /// ```
    pub fn from_problem(problem: &dyn Problem) -> Self {
        Self {
            name: Cow::Borrowed(problem.name()),
            message: problem.to_string(),
            stack: None,
            properties: problem.extensions().ok().filter(|e| !e.is_empty()),
        }
    }

    /// Sets the stack.
    ///
    /// ```
    /// use problem_core::pipeline::ErrorInfo;
    /// let info = ErrorInfo::new("Panic", "boom").with_stack("Panic: boom\n    at src/main.rs:3:5");
    /// assert_eq!(info.stack(), Some("Panic: boom\n    at src/main.rs:3:5"));
    /// ```
    pub fn with_stack(mut self, stack: impl Into<String>) -> Self {
        self.stack = Some(stack.into());
        self
    }

    /// The name, e.g. `NotFoundException`.
    ///
    /// ```
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::ErrorInfo;
    /// assert_eq!(ErrorInfo::from_problem(&NotFoundException::new()).name(), "NotFoundException");
    /// assert_eq!(ErrorInfo::from_error(&std::fmt::Error).name(), "Error");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The message.
    ///
    /// ```
    /// use problem_core::NotFoundException;
    /// use problem_core::pipeline::ErrorInfo;
    /// let err = NotFoundException::new().with_detail("Book 7 not found");
    /// assert_eq!(ErrorInfo::from_problem(&err).message(), "Book 7 not found");
    /// assert_eq!(ErrorInfo::from_problem(&NotFoundException::new()).message(), "Not Found");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The stack, if any.
    ///
    /// ```
    /// use problem_core::pipeline::ErrorInfo;
    /// assert_eq!(ErrorInfo::new("E", "boom").stack(), None);
    /// let io = std::io::Error::other("disk full");
    /// assert_eq!(ErrorInfo::from_error(&io).stack(), Some("Error: disk full"));
    /// ```
    pub fn stack(&self) -> Option<&str> {
        self.stack.as_deref()
    }

    /// The whole error as a JSON value, redacted: the development log
    /// entry's argument.
    ///
    /// ```
    /// use problem_core::pipeline::ErrorInfo;
    /// let io = std::io::Error::other("redis://app:hunter2@cache:6379 refused");
    /// assert_eq!(
    ///     ErrorInfo::from_error(&io).to_redacted_value(),
    ///     serde_json::json!({
    ///         "name": "Error",
    ///         "message": "redis://***@cache:6379 refused",
    ///         "stack": "Error: redis://***@cache:6379 refused"
    ///     })
    /// );
    /// ```
    pub fn to_redacted_value(&self) -> Value {
        let mut v = json!({ "name": self.name, "message": self.message });
        if let (Some(stack), Value::Object(map)) = (&self.stack, &mut v) {
            map.insert("stack".into(), Value::String(stack.clone()));
        }
        if let (Some(props), Value::Object(map)) = (&self.properties, &mut v) {
            map.insert("properties".into(), Value::Object(props.clone()));
        }
        redact_value(&mut v);
        v
    }
}

/// `Name: message` followed by one `caused by: ...` line per source.
pub(crate) fn error_chain<E: StdError + ?Sized>(name: &str, error: &E) -> String {
    let mut out = format!("{name}: {error}");
    let mut source = error.source();
    let mut depth = 0;
    while let Some(s) = source {
        let _ = write!(out, "\n    caused by: {s}");
        source = s.source();
        depth += 1;
        if depth >= 32 {
            break;
        }
    }
    out
}

/// `a::b::Name<T>` → `Name`; a trait object, `dyn a::Error + Send + Sync`,
/// → its first trait, `Error` (never a marker trait).
pub(crate) fn short_type_name(full: &'static str) -> &'static str {
    let full = full
        .strip_prefix("dyn ")
        .map_or(full, |traits| traits.split(" + ").next().unwrap_or(traits));
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base)
}

/// The logger and mode of [`log_error`] (the spec's `{ logger, development }`).
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, LogLevel, LogOptions, MemoryLogger, log_error};
/// let logger = MemoryLogger::default();
/// let options = LogOptions { logger: &logger, development: true };
/// let info = ErrorInfo::new("DbError", "postgres://u:pw@db:5432 refused");
/// let id = log_error(options, "[app] Boot", &info, LogLevel::Error);
/// let entry = &logger.entries()[0];
/// assert_eq!(entry.message, format!("[app] Boot (correlation id {id})"));
/// assert_eq!(
///     entry.error,
///     Some(serde_json::json!({"name": "DbError", "message": "postgres://***@db:5432 refused"}))
/// );
/// ```
#[derive(Clone, Copy)]
pub struct LogOptions<'a> {
    /// Where entries go.
    pub logger: &'a dyn LogSink,
    /// Development mode: the line drops the `: <Name>: <message>` suffix and
    /// the redacted error is the entry's argument.
    pub development: bool,
}

impl std::fmt::Debug for LogOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogOptions")
            .field("development", &self.development)
            .finish_non_exhaustive()
    }
}

/// Logs an error the way the pipeline does and returns its new correlation
/// id (a random UUID v4) (spec, `logError(options, message, error, level?)`).
///
/// `level` is optional as in the spec: a [`LogLevel`], or `None` for the
/// default, [`LogLevel::Error`].
///
/// Outside development the line is
/// `<message> (correlation id <uuid>): <Name>: <error message>`, `message`
/// redacted and on one line, the error
/// message redacted and capped at [`LOGGED_MESSAGE_LENGTH`] characters, with
/// no stack, cause or properties. In development the line is
/// `<message> (correlation id <uuid>)` and the whole error, redacted, is the
/// entry's argument.
///
/// ```
/// use problem_core::pipeline::{log_error, ErrorInfo, LogLevel, LogOptions, MemoryLogger};
/// let logger = MemoryLogger::default();
/// let info = ErrorInfo::new("DbError", "postgres://u:pw@db:5432 refused");
/// let id = log_error(LogOptions { logger: &logger, development: false }, "[app] Boot", &info, LogLevel::Error);
/// assert_eq!(
///     logger.entries()[0].message,
///     format!("[app] Boot (correlation id {id}): DbError: postgres://***@db:5432 refused")
/// );
/// ```
///
/// Without a level, the entry is logged at `error`:
///
/// ```
/// use problem_core::pipeline::{log_error, ErrorInfo, LogLevel, LogOptions, MemoryLogger};
/// let logger = MemoryLogger::default();
/// let info = ErrorInfo::new("Error", "disk full");
/// log_error(LogOptions { logger: &logger, development: false }, "[app] Job", &info, None);
/// assert_eq!(logger.entries()[0].level, LogLevel::Error);
/// ```
pub fn log_error<E: LoggedError + ?Sized>(
    options: LogOptions<'_>,
    message: &str,
    error: &E,
    level: impl Into<Option<LogLevel>>,
) -> Uuid {
    let level = level.into().unwrap_or_default();
    let id = Uuid::new_v4();
    // The application's own text is redacted and kept on one line as the
    // error's is (spec, logging rule 6: the logger receives redacted data).
    let message = one_line(&redact(message)).into_owned();
    write_log(options, &message, &error.error_info(), level, id);
    id
}

/// An error [`log_error`] and [`ErrorLog::log`] take: an [`ErrorInfo`], or
/// any `std::error::Error` (read by [`ErrorInfo::from_error`]: its type
/// name without the path, its message, and its source chain as the
/// stack), `dyn Error` included. For a problem's extensions to be the
/// entry's properties, pass [`ErrorInfo::from_problem`].
///
/// ```
/// use problem_core::pipeline::{log_error, LogLevel, LogOptions, MemoryLogger};
/// let logger = MemoryLogger::default();
/// let io = std::io::Error::other("disk full");
/// let id = log_error(LogOptions { logger: &logger, development: false }, "[app] Job", &io, LogLevel::Warn);
/// assert_eq!(logger.entries()[0].message, format!("[app] Job (correlation id {id}): Error: disk full"));
/// let boxed: Box<dyn std::error::Error> = Box::new(io);
/// log_error(LogOptions { logger: &logger, development: false }, "[app] Job", &*boxed, LogLevel::Warn);
/// ```
pub trait LoggedError {
    /// The name, message, stack and properties to log.
    ///
    /// ```
    /// use problem_core::pipeline::LoggedError;
    /// let io = std::io::Error::other("disk full");
    /// let info = io.error_info();
    /// assert_eq!((info.name(), info.message()), ("Error", "disk full"));
    /// ```
    fn error_info(&self) -> Cow<'_, ErrorInfo>;
}

impl LoggedError for ErrorInfo {
    fn error_info(&self) -> Cow<'_, ErrorInfo> {
        Cow::Borrowed(self)
    }
}

impl<E: StdError + ?Sized> LoggedError for E {
    fn error_info(&self) -> Cow<'_, ErrorInfo> {
        Cow::Owned(ErrorInfo::from_error(self))
    }
}

pub(crate) fn write_log(
    options: LogOptions<'_>,
    message: &str,
    error: &ErrorInfo,
    level: LogLevel,
    id: Uuid,
) {
    if options.development {
        let line = format!("{message} (correlation id {id})");
        let value = error.to_redacted_value();
        deliver(
            options.logger,
            &LogRecord {
                level,
                message: &line,
                error: Some(&value),
                correlation_id: id,
            },
        );
    } else {
        let text = redact(&error.message);
        let line = format!(
            "{message} (correlation id {id}): {}: {}",
            one_line(&redact(&error.name)),
            capped_line(&text)
        );
        deliver(
            options.logger,
            &LogRecord {
                level,
                message: &line,
                error: None,
                correlation_id: id,
            },
        );
    }
}

/// Whether this is the first call with `flag` (it is set by the call):
/// for warnings logged once.
pub(crate) fn first_time(flag: &std::sync::atomic::AtomicBool) -> bool {
    use std::sync::atomic::Ordering;
    !flag.load(Ordering::Relaxed) && !flag.swap(true, Ordering::Relaxed)
}

/// Writes a warning that is no error's (a misconfiguration the application
/// runs with): `[<tag>] <message>` on one line, redacted, at `warn`, with
/// the nil correlation id (no response carries it).
pub(crate) fn write_warning(logger: &dyn LogSink, tag: &str, message: &str) {
    let line = format!("[{tag}] {}", one_line(&redact(message)));
    deliver(
        logger,
        &LogRecord {
            level: LogLevel::Warn,
            message: &line,
            error: None,
            correlation_id: Uuid::nil(),
        },
    );
}

/// Hands `record` to the application's logger; when the logger panics, the
/// line goes to stderr instead (the panic itself is caught and silent), so
/// a 5xx is never left without its line.
fn deliver(logger: &dyn LogSink, record: &LogRecord<'_>) {
    if super::panic_hook::catch_sync(|| logger.log(record)).is_err() {
        eprintln!("{}", record.message);
    }
}

/// `text` on one line ([`one_line`]) and at most
/// [`LOGGED_MESSAGE_LENGTH`] characters: the characters that fit whole,
/// escapes included, so a cut never splits an escape (`\u{1b}` is kept
/// whole or left out).
pub(crate) fn capped_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(breaks_line) {
        return Cow::Borrowed(match text.char_indices().nth(LOGGED_MESSAGE_LENGTH) {
            Some((i, _)) => text.get(..i).unwrap_or(text),
            None => text,
        });
    }
    let mut out = String::with_capacity(LOGGED_MESSAGE_LENGTH);
    let mut count = 0;
    for c in text.chars() {
        let len = escaped_len(c);
        if count + len > LOGGED_MESSAGE_LENGTH {
            break;
        }
        count += len;
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// How many characters [`one_line`] writes for `c`.
fn escaped_len(c: char) -> usize {
    match c {
        '\n' | '\r' => 2,
        c if breaks_line(c) => c.escape_unicode().count(),
        _ => 1,
    }
}

/// Writes `c` as [`one_line`] does.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if breaks_line(c) => out.extend(c.escape_unicode()),
        c => out.push(c),
    }
}

/// Whether `one_line` escapes `c`.
fn breaks_line(c: char) -> bool {
    (c.is_control() && c != '\t') || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` on one line: line breaks and other control characters (tab
/// excepted) written as escapes (`\n`, `\r`, `\u{1b}`), and U+2028/U+2029
/// too, so that a message cannot start what reads as another log line.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(breaks_line) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// An error logger bound to a logger and mode (spec, `ErrorLog.log(message,
/// error, level?)`): see [`log_error`] for the line shapes. A handler
/// takes the application's own, on its logger and mode, from
/// [`Pipeline::error_log`](super::Pipeline::error_log).
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, ErrorLog, LogLevel, MemoryLogger};
/// use std::sync::Arc;
/// let logger = Arc::new(MemoryLogger::default());
/// let log = ErrorLog::new(logger.clone(), true);
/// let id = log.log("[app] Job failed", &ErrorInfo::new("Error", "disk full"), LogLevel::Error);
/// let entry = &logger.entries()[0];
/// assert_eq!(entry.message, format!("[app] Job failed (correlation id {id})"));
/// assert_eq!(entry.error, Some(serde_json::json!({"name": "Error", "message": "disk full"})));
/// ```
#[derive(Clone)]
pub struct ErrorLog {
    logger: Arc<dyn LogSink>,
    development: bool,
}

impl ErrorLog {
    /// A logger for the given mode.
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorLog, MemoryLogger};
    /// use std::sync::Arc;
    /// let log = ErrorLog::new(Arc::new(MemoryLogger::default()), false);
    /// assert!(!log.development());
    /// assert_eq!(format!("{log:?}"), "ErrorLog { development: false, .. }");
    /// ```
    pub fn new(logger: Arc<dyn LogSink>, development: bool) -> Self {
        Self {
            logger,
            development,
        }
    }

    /// Logs `error` (an [`ErrorInfo`] or any `std::error::Error`:
    /// [`LoggedError`]) under a new correlation id and returns the id.
    /// `level` is a [`LogLevel`], or `None` for [`LogLevel::Error`] (spec,
    /// `ErrorLog.log(message, error, level?)`).
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorInfo, ErrorLog, LogLevel, MemoryLogger};
    /// use std::sync::Arc;
    /// let logger = Arc::new(MemoryLogger::default());
    /// let log = ErrorLog::new(logger.clone(), false);
    /// let id = log.log("[app] Job failed", &ErrorInfo::new("Error", "token=abc"), LogLevel::Error);
    /// let id2 = log.log("[app] Job failed", &ErrorInfo::new("Error", "again"), LogLevel::Error);
    /// assert_ne!(id, id2);
    /// assert_eq!(logger.entries()[0].message, format!("[app] Job failed (correlation id {id}): Error: token=***"));
    /// assert_eq!(logger.entries()[1].correlation_id, id2);
    /// log.log("[app] Job failed", &ErrorInfo::new("Error", "third"), None);
    /// assert_eq!(logger.entries()[2].level, LogLevel::Error);
    /// ```
    pub fn log<E: LoggedError + ?Sized>(
        &self,
        message: &str,
        error: &E,
        level: impl Into<Option<LogLevel>>,
    ) -> Uuid {
        log_error(self.options(), message, error, level)
    }

    /// The logger and mode as [`LogOptions`].
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorInfo, ErrorLog, LogLevel, MemoryLogger, log_error};
    /// use std::sync::Arc;
    /// let logger = Arc::new(MemoryLogger::default());
    /// let log = ErrorLog::new(logger.clone(), true);
    /// assert!(log.options().development);
    /// let id = log_error(log.options(), "[app] Boot", &ErrorInfo::new("E", "x"), LogLevel::Warn);
    /// assert_eq!(logger.entries()[0].message, format!("[app] Boot (correlation id {id})"));
    /// ```
    pub fn options(&self) -> LogOptions<'_> {
        LogOptions {
            logger: &*self.logger,
            development: self.development,
        }
    }

    /// Whether development mode is on.
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorLog, MemoryLogger};
    /// use std::sync::Arc;
    /// assert!(ErrorLog::new(Arc::new(MemoryLogger::default()), true).development());
    /// assert!(!ErrorLog::new(Arc::new(MemoryLogger::default()), false).development());
    /// ```
    pub fn development(&self) -> bool {
        self.development
    }

    /// The logger.
    ///
    /// ```
    /// use problem_core::pipeline::{ErrorLog, LogLevel, LogRecord, MemoryLogger};
    /// use std::sync::Arc;
    /// let memory = Arc::new(MemoryLogger::default());
    /// let log = ErrorLog::new(memory.clone(), false);
    /// let record = LogRecord { level: LogLevel::Warn, message: "[app] hi", error: None, correlation_id: uuid::Uuid::nil() };
    /// log.logger().log(&record);
    /// assert_eq!(memory.entries()[0].message, "[app] hi");
    /// ```
    pub fn logger(&self) -> &Arc<dyn LogSink> {
        &self.logger
    }
}

impl std::fmt::Debug for ErrorLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorLog")
            .field("development", &self.development)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_is_500_chars_on_a_char_boundary() {
        let long = "é".repeat(600);
        assert_eq!(capped_line(&long).chars().count(), 500);
        assert_eq!(capped_line("short"), "short");
    }

    /// The logged message is at most 500 characters, escapes included, and
    /// a cut never leaves half an escape (`\u` without its digits), as an
    /// audit found when the escaped text was cut.
    #[test]
    fn the_cut_comes_before_the_escapes() {
        let logged = |msg: String| {
            let logger = MemoryLogger::default();
            let options = LogOptions {
                logger: &logger,
                development: false,
            };
            let id = log_error(options, "[t] X", &ErrorInfo::new("E", msg), LogLevel::Error);
            let prefix = format!("[t] X (correlation id {id}): E: ");
            let message = logger.entries()[0].message.clone();
            message.strip_prefix(&prefix).unwrap().to_owned()
        };
        // 498 + 6 > 500: the first escape does not fit, and is left out.
        let msg = format!("{}\u{1b}\u{1b}\n{}", "a".repeat(498), "b".repeat(50));
        assert_eq!(logged(msg), "a".repeat(498));
        // 494 + 6 = 500: it fits, the next does not.
        let msg = format!("{}\u{1b}\u{1b}{}", "a".repeat(494), "b".repeat(50));
        let line = format!("{}\\u{{1b}}", "a".repeat(494));
        assert_eq!(line.chars().count(), 500);
        assert_eq!(logged(msg), line);
    }

    #[test]
    fn production_line_is_capped_and_redacted() {
        let logger = MemoryLogger::default();
        let msg = format!("mysql://root:toor@h {}", "x".repeat(600));
        let info = ErrorInfo::new("E", msg);
        let id = log_error(
            LogOptions {
                logger: &logger,
                development: false,
            },
            "[t] Unhandled error on GET /",
            &info,
            LogLevel::Error,
        );
        let line = &logger.entries()[0].message;
        let prefix = format!("[t] Unhandled error on GET / (correlation id {id}): E: ");
        assert!(line.starts_with(&prefix));
        let rest = &line[prefix.len()..];
        assert_eq!(rest.chars().count(), 500);
        assert!(rest.starts_with("mysql://***@h xxx"));
        assert!(!line.contains("toor"));
    }

    #[test]
    fn development_entry_carries_the_redacted_error() {
        let logger = MemoryLogger::default();
        let io = std::io::Error::other("redis://a:b@c down");
        let id = log_error(
            LogOptions {
                logger: &logger,
                development: true,
            },
            "[t] Unhandled error on GET /x",
            &ErrorInfo::from_error(&io),
            LogLevel::Error,
        );
        let e = &logger.entries()[0];
        assert_eq!(
            e.message,
            format!("[t] Unhandled error on GET /x (correlation id {id})")
        );
        assert_eq!(
            e.error,
            Some(
                json!({"name": "Error", "message": "redis://***@c down", "stack": "Error: redis://***@c down"})
            )
        );
        assert_eq!(e.correlation_id, id);
        assert_eq!(id.get_version_num(), 4);
    }

    /// The application's own message is redacted and kept on one line, and
    /// a boxed `dyn Error + Send + Sync` is named `Error`, in both modes.
    #[test]
    fn error_log_redacts_the_message_and_names_a_boxed_error() {
        #[derive(Debug)]
        struct DbError;
        impl std::fmt::Display for DbError {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("refused")
            }
        }
        impl std::error::Error for DbError {}
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(DbError);
        for development in [false, true] {
            let logger = Arc::new(MemoryLogger::default());
            let log = ErrorLog::new(logger.clone(), development);
            let id = log.log(
                "[app] Sync to postgres://u:s3cret@db:5432\nfailed",
                &*boxed,
                LogLevel::Error,
            );
            let e = &logger.entries()[0];
            let line =
                format!("[app] Sync to postgres://***@db:5432\\nfailed (correlation id {id})");
            if development {
                assert_eq!(e.message, line);
                assert_eq!(
                    e.error,
                    Some(json!({"name": "Error", "message": "refused", "stack": "Error: refused"}))
                );
            } else {
                assert_eq!(e.message, format!("{line}: Error: refused"));
            }
        }
    }

    #[test]
    fn short_names() {
        assert_eq!(short_type_name("std::io::error::Error"), "Error");
        assert_eq!(short_type_name("a::B<c::D>"), "B");
        assert_eq!(short_type_name("dyn core::error::Error"), "Error");
        assert_eq!(
            short_type_name("dyn core::error::Error + core::marker::Send + core::marker::Sync"),
            "Error"
        );
        assert_eq!(
            short_type_name(std::any::type_name::<dyn std::error::Error + Send + Sync>()),
            "Error"
        );
    }
}
