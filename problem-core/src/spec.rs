//! Every fixed detail and limit of the service spec, in one place: each
//! fixed answer with its status beside its text (as axum's
//! `extract/rejection.rs` keeps a rejection's status and message
//! together), each limit defined, and counted, once. The modules that
//! answer with them (pipeline, routing, versioning, queries) read them
//! from here; changing one here changes it everywhere.
//!
//! Sources: the spec's "Errors raised by the service itself", "Request
//! handling rules", "Limits" and "Versioning" sections, and the crate's
//! HTTP rules (RFC 9110 §13.1.1 for `412`, RFC 9112 §3.2 and §3.2.2 for the
//! host's `400` and `421`, RFC 9112 §3.2.3 and §3.2.4 for the request
//! target's `400`).
//!
//! ```
//! use problem_core::spec;
//! assert_eq!((spec::MALFORMED_JSON.status, spec::MALFORMED_JSON.detail), (400, "Malformed JSON body"));
//! assert_eq!(spec::no_route("GET", "/nope"), "No route for GET /nope");
//! assert_eq!(spec::MAX_PARAMETERS, 1000);
//! ```

use std::time::Duration;

/// A fixed answer: its HTTP status and its problem `detail`, together.
///
/// ```
/// use problem_core::spec::{Fixed, PRECONDITION_FAILED};
/// assert_eq!(PRECONDITION_FAILED, Fixed { status: 412, detail: "The resource has changed since it was read" });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixed {
    /// The HTTP status of the answer.
    pub status: u16,
    /// The problem document's `detail`.
    pub detail: &'static str,
}

impl Fixed {
    const fn new(status: u16, detail: &'static str) -> Self {
        Self { status, detail }
    }
}

// ---- Fixed answers -------------------------------------------------------

/// 400 `Malformed JSON body`: a JSON body that does not parse (trailing data included).
///
/// ```
/// use problem_core::spec::MALFORMED_JSON;
/// assert_eq!((MALFORMED_JSON.status, MALFORMED_JSON.detail), (400, "Malformed JSON body"));
/// ```
pub const MALFORMED_JSON: Fixed = Fixed::new(400, "Malformed JSON body");
/// 400 `Malformed multipart body`: a multipart body that does not parse.
///
/// ```
/// use problem_core::spec::MALFORMED_MULTIPART;
/// assert_eq!((MALFORMED_MULTIPART.status, MALFORMED_MULTIPART.detail), (400, "Malformed multipart body"));
/// ```
pub const MALFORMED_MULTIPART: Fixed = Fixed::new(400, "Malformed multipart body");
/// 400 `Failed to read request body`: a request body that cannot be read.
///
/// ```
/// use problem_core::spec::UNREADABLE_BODY;
/// assert_eq!((UNREADABLE_BODY.status, UNREADABLE_BODY.detail), (400, "Failed to read request body"));
/// ```
pub const UNREADABLE_BODY: Fixed = Fixed::new(400, "Failed to read request body");
/// 400 `The query string has more than 1000 parameters.`: a query string with more than [`MAX_PARAMETERS`] parameters.
///
/// ```
/// use problem_core::{query::CollectionParams, spec::TOO_MANY_QUERY_PARAMETERS};
/// assert_eq!((TOO_MANY_QUERY_PARAMETERS.status, TOO_MANY_QUERY_PARAMETERS.detail), (400, "The query string has more than 1000 parameters."));
/// let err = CollectionParams::from_query_str(&"a=1&".repeat(1001)).unwrap_err();
/// assert_eq!(err.to_string(), TOO_MANY_QUERY_PARAMETERS.detail);
/// ```
pub const TOO_MANY_QUERY_PARAMETERS: Fixed =
    Fixed::new(400, "The query string has more than 1000 parameters.");
/// 413 `The request body has more than 1000 fields.`: a form body with more than [`MAX_PARAMETERS`] fields.
///
/// ```
/// use problem_core::spec::TOO_MANY_FORM_FIELDS;
/// assert_eq!((TOO_MANY_FORM_FIELDS.status, TOO_MANY_FORM_FIELDS.detail), (413, "The request body has more than 1000 fields."));
/// ```
pub const TOO_MANY_FORM_FIELDS: Fixed =
    Fixed::new(413, "The request body has more than 1000 fields.");
/// 421 `This server does not serve the requested host.`: a request whose `Host` (or absolute-form authority) is not allowed.
///
/// ```
/// use problem_core::spec::HOST_NOT_ALLOWED;
/// assert_eq!((HOST_NOT_ALLOWED.status, HOST_NOT_ALLOWED.detail), (421, "This server does not serve the requested host."));
/// ```
pub const HOST_NOT_ALLOWED: Fixed =
    Fixed::new(421, "This server does not serve the requested host.");
/// 400 `The requested host is not valid.`: with allowed hosts configured, a
/// request whose `Host` value (or absolute-form authority) is not a host and
/// port as RFC 3986 §3.2.2 and §3.2.3 write them (`localhost:abc`,
/// `u@localhost`, `::1` without brackets, a space), or an absolute-form
/// target with user information (RFC 9112 §3.2: "A server MUST respond with
/// a 400 (Bad Request) status code to any request message that contains
/// ... a Host header field with an invalid field value"; RFC 9110 §4.2.4).
///
/// ```
/// use problem_core::spec::HOST_INVALID;
/// assert_eq!((HOST_INVALID.status, HOST_INVALID.detail), (400, "The requested host is not valid."));
/// ```
pub const HOST_INVALID: Fixed = Fixed::new(400, "The requested host is not valid.");
/// 400 `The request target * is only valid for OPTIONS.`: a request whose
/// target is in asterisk-form (`GET *`) with another method than `OPTIONS`
/// (RFC 9112 §3.2.4; §3: an invalid request-line gets a 400).
///
/// ```
/// use problem_core::spec::ASTERISK_TARGET;
/// assert_eq!((ASTERISK_TARGET.status, ASTERISK_TARGET.detail), (400, "The request target * is only valid for OPTIONS."));
/// ```
pub const ASTERISK_TARGET: Fixed =
    Fixed::new(400, "The request target * is only valid for OPTIONS.");
/// 400 `A request target of a host and port alone is only valid for CONNECT.`:
/// a request whose target is in authority-form (`GET localhost:80`) with
/// another method than `CONNECT` (RFC 9112 §3.2.3; §3: an invalid
/// request-line gets a 400).
///
/// ```
/// use problem_core::spec::AUTHORITY_TARGET;
/// assert_eq!(
///     (AUTHORITY_TARGET.status, AUTHORITY_TARGET.detail),
///     (400, "A request target of a host and port alone is only valid for CONNECT.")
/// );
/// ```
pub const AUTHORITY_TARGET: Fixed = Fixed::new(
    400,
    "A request target of a host and port alone is only valid for CONNECT.",
);
/// 408 `The request body was not received in time`: a body not received within the body timeout (hostile-input rule
/// "Slow bodies").
///
/// ```
/// use problem_core::spec::BODY_TIMEOUT;
/// assert_eq!((BODY_TIMEOUT.status, BODY_TIMEOUT.detail), (408, "The request body was not received in time"));
/// ```
pub const BODY_TIMEOUT: Fixed = Fixed::new(408, "The request body was not received in time");
/// 412 `The resource has changed since it was read`: an `If-Match` that does not match the current `ETag`
/// (RFC 9110 §13.1.1).
///
/// ```
/// use problem_core::spec::PRECONDITION_FAILED;
/// assert_eq!((PRECONDITION_FAILED.status, PRECONDITION_FAILED.detail), (412, "The resource has changed since it was read"));
/// ```
pub const PRECONDITION_FAILED: Fixed =
    Fixed::new(412, "The resource has changed since it was read");
/// 400 `Request validation failed`: a request that failed validation (the
/// default detail of a `ValidationException`, and of every query error
/// with issues).
///
/// ```
/// use problem_core::{Problem, ValidationException, spec::VALIDATION_FAILED};
/// assert_eq!((VALIDATION_FAILED.status, VALIDATION_FAILED.detail), (400, "Request validation failed"));
/// let err = ValidationException::new(Vec::new());
/// assert_eq!(err.detail().as_deref(), Some(VALIDATION_FAILED.detail));
/// ```
pub const VALIDATION_FAILED: Fixed = Fixed::new(400, "Request validation failed");
/// 400 `API version is required`: `require_version` and the request carries no version.
///
/// ```
/// use problem_core::spec::VERSION_REQUIRED;
/// assert_eq!((VERSION_REQUIRED.status, VERSION_REQUIRED.detail), (400, "API version is required"));
/// ```
pub const VERSION_REQUIRED: Fixed = Fixed::new(400, "API version is required");

/// 404: `No route for <METHOD> <path>` (the path as received).
///
/// ```
/// assert_eq!(problem_core::spec::no_route("DELETE", "/v2/books/7"), "No route for DELETE /v2/books/7");
/// ```
pub fn no_route(method: &str, path: &str) -> String {
    // Sized once, without the formatting machinery: every unrouted request
    // builds this text.
    concat(&["No route for ", method, " ", path])
}

/// 405: `<METHOD> is not allowed on <path>` (the path as received; sent
/// with `Allow`).
///
/// ```
/// assert_eq!(problem_core::spec::method_not_allowed("PUT", "/books"), "PUT is not allowed on /books");
/// ```
pub fn method_not_allowed(method: &str, path: &str) -> String {
    concat(&[method, " is not allowed on ", path])
}

/// The pieces joined into one `String` of exactly their length.
fn concat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for p in pieces {
        out.push_str(p);
    }
    out
}

/// 415: `Unsupported content type: <content type>`, the text as given:
/// the pipeline and the body extractors pass `(none)` when the request has
/// no `Content-Type`, and so should a caller.
///
/// ```
/// assert_eq!(problem_core::spec::unsupported_content_type("text/csv"), "Unsupported content type: text/csv");
/// assert_eq!(problem_core::spec::unsupported_content_type("(none)"), "Unsupported content type: (none)");
/// ```
pub fn unsupported_content_type(content_type: &str) -> String {
    format!("Unsupported content type: {content_type}")
}

/// 415: `Unsupported content encoding: <codings>`, a request body under a
/// content coding the body readers do not decode (the crate's HTTP rule,
/// RFC 9110 §8.4 and §12.5.3; the answer carries `Accept-Encoding:
/// identity`).
///
/// ```
/// assert_eq!(problem_core::spec::unsupported_content_encoding("gzip"), "Unsupported content encoding: gzip");
/// ```
pub fn unsupported_content_encoding(codings: &str) -> String {
    format!("Unsupported content encoding: {codings}")
}

/// 400: `Invalid API version "<raw>"`: the raw value as carried, clipped
/// to [`MAX_ECHOED_INPUT`](crate::version::MAX_ECHOED_INPUT) characters
/// followed by `…` when longer (a value clipped already is kept as it is).
///
/// ```
/// use problem_core::spec::invalid_version;
/// assert_eq!(invalid_version("v2.x"), r#"Invalid API version "v2.x""#);
/// let long = "w".repeat(100);
/// assert_eq!(invalid_version(&long), format!("Invalid API version \"{}…\"", "w".repeat(64)));
/// assert_eq!(invalid_version(&format!("{}…", "w".repeat(64))), invalid_version(&long));
/// ```
pub fn invalid_version(raw: &str) -> String {
    format!("Invalid API version \"{}\"", crate::version::clip(raw))
}

/// 400: `API version <v> is not supported` (sent with `supportedVersions`).
/// `<v>` is written as given: the answers write a version in its short
/// form (`7`, `2.1`), so pass [`ApiVersion::short`](crate::version::ApiVersion::short),
/// not the `ApiVersion`, which displays as `7.0`.
///
/// ```
/// use problem_core::version::ApiVersion;
/// assert_eq!(problem_core::spec::unsupported_version(7), "API version 7 is not supported");
/// let v = ApiVersion::new(7, 0);
/// assert_eq!(problem_core::spec::unsupported_version(v.short()), "API version 7 is not supported");
/// assert_eq!(problem_core::spec::unsupported_version(v), "API version 7.0 is not supported");
/// ```
pub fn unsupported_version(version: impl std::fmt::Display) -> String {
    format!("API version {version} is not supported")
}

/// 410: `API version <v> is no longer supported` (sent with `Sunset` when
/// set). `<v>` is written as given: pass
/// [`ApiVersion::short`](crate::version::ApiVersion::short), as the
/// answers do (`1`, not `1.0`).
///
/// ```
/// use problem_core::version::V1;
/// assert_eq!(problem_core::spec::removed_version(1), "API version 1 is no longer supported");
/// assert_eq!(problem_core::spec::removed_version(V1.short()), "API version 1 is no longer supported");
/// ```
pub fn removed_version(version: impl std::fmt::Display) -> String {
    format!("API version {version} is no longer supported")
}

// ---- Limits --------------------------------------------------------------

/// The most parameters of a query string, and fields of a form body
/// (spec, "Limits"); counted once, by the query parser's counter, for the
/// pipeline's early check and the parser alike.
///
/// ```
/// use problem_core::query::{QueryError, RawQuery};
/// use problem_core::spec::MAX_PARAMETERS;
/// assert_eq!(MAX_PARAMETERS, 1000);
/// assert_eq!(RawQuery::parse(&"a=1&".repeat(MAX_PARAMETERS)).unwrap().len(), 1000);
/// assert_eq!(RawQuery::parse(&"a=1&".repeat(MAX_PARAMETERS + 1)).unwrap_err(), QueryError::TooManyParameters);
/// ```
pub const MAX_PARAMETERS: usize = 1000;
/// At most this many (100) values in one `__in` / `__not_in` list, and
/// entries in `sort`, `fields`, `exclude` or `search_fields`
/// (comma-separated and exploded repeats together); more is the issue
/// `too_many_values` (member `max`).
///
/// ```
/// use problem_core::query::{CollectionParams, MAX_LIST_VALUES, code};
/// assert_eq!(MAX_LIST_VALUES, 100);
/// let ids = vec!["1"; MAX_LIST_VALUES + 1].join(",");
/// let err = CollectionParams::from_query_str(&format!("id__in={ids}")).unwrap_err();
/// assert_eq!(err.issues()[0].code, code::TOO_MANY_VALUES);
/// ```
pub const MAX_LIST_VALUES: usize = 100;
/// At most this many (20) whitespace-separated search terms in
/// `q`/`search`; more is the issue `too_many_values` (member `max`).
///
/// ```
/// use problem_core::query::{CollectionParams, MAX_SEARCH_TERMS, code};
/// assert_eq!(MAX_SEARCH_TERMS, 20);
/// let q = vec!["ann"; MAX_SEARCH_TERMS + 1].join("+");
/// let err = CollectionParams::from_query_str(&format!("q={q}")).unwrap_err();
/// assert_eq!(err.issues()[0].code, code::TOO_MANY_VALUES);
/// ```
pub const MAX_SEARCH_TERMS: usize = 20;
/// Default page size of offset and cursor pagination, in items: 20
/// (spec, "Limits"), used when the request has neither `per_page` nor
/// `limit`.
///
/// ```
/// use problem_core::query::{DEFAULT_PAGE_SIZE, Pagination};
/// assert_eq!(DEFAULT_PAGE_SIZE, 20);
/// assert_eq!(Pagination::from_query_str("page=2").unwrap().limit(), DEFAULT_PAGE_SIZE);
/// ```
pub const DEFAULT_PAGE_SIZE: u64 = 20;
/// Default maximum page size, in items: 100 (spec, "Limits"); larger
/// requested sizes (`per_page`, `limit`) are clamped to it.
///
/// ```
/// use problem_core::query::{DEFAULT_MAX_PAGE_SIZE, Pagination};
/// assert_eq!(DEFAULT_MAX_PAGE_SIZE, 100);
/// assert_eq!(Pagination::from_query_str("per_page=500").unwrap().limit(), DEFAULT_MAX_PAGE_SIZE);
/// ```
pub const DEFAULT_MAX_PAGE_SIZE: u64 = 100;
/// Default of `QueryLimits::max_filters`: at most 64 filter conditions per
/// request; more is the issue `too_many_filters` (member `max`).
///
/// ```
/// use problem_core::query::{DEFAULT_MAX_FILTERS, QueryLimits};
/// assert_eq!(DEFAULT_MAX_FILTERS, 64);
/// assert_eq!(QueryLimits::default().max_filters, DEFAULT_MAX_FILTERS);
/// ```
pub const DEFAULT_MAX_FILTERS: usize = 64;
/// Default of `QueryLimits::max_value_length`: each filter value, list item
/// and search term at most 256 characters (Unicode scalar values, not
/// bytes); longer is the issue `too_long` (member `max`).
///
/// ```
/// use problem_core::query::{DEFAULT_MAX_VALUE_LENGTH, QueryLimits};
/// assert_eq!(DEFAULT_MAX_VALUE_LENGTH, 256);
/// let limits = QueryLimits::default();
/// assert!(!limits.too_long(&"é".repeat(DEFAULT_MAX_VALUE_LENGTH)));
/// assert!(limits.too_long(&"é".repeat(DEFAULT_MAX_VALUE_LENGTH + 1)));
/// ```
pub const DEFAULT_MAX_VALUE_LENGTH: usize = query_operators::DEFAULT_MAX_VALUE_LENGTH;
/// The cap on the error message in a log line outside development, in
/// characters: 500 (spec, `LOGGED_MESSAGE_LENGTH`), counted after control
/// characters are escaped (`\n`); the rest is cut off, never half an
/// escape.
///
/// ```
/// use problem_core::pipeline::{ErrorInfo, LOGGED_MESSAGE_LENGTH, LogOptions, MemoryLogger, log_error};
/// let logger = MemoryLogger::default();
/// let info = ErrorInfo::new("E", "x".repeat(600));
/// log_error(LogOptions { logger: &logger, development: false }, "[app] Job", &info, None);
/// assert!(logger.entries()[0].message.ends_with(&format!("): E: {}", "x".repeat(LOGGED_MESSAGE_LENGTH))));
/// ```
pub const LOGGED_MESSAGE_LENGTH: usize = 500;
/// The default body timeout of the pipeline and of `ProblemApp`: 30
/// seconds; a body not received in time is the 408 [`BODY_TIMEOUT`].
///
/// ```
/// use std::time::Duration;
/// assert_eq!(problem_core::pipeline::DEFAULT_BODY_TIMEOUT, Duration::from_secs(30));
/// ```
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest `Link` header value a list response sends, in bytes: 2 KiB.
/// Links repeat the request's query (up to five times in an offset list),
/// so a long query would make a header that clients refuse (Node.js reads at
/// most 16 KiB of headers, Python's `http.client` 64 KiB a line) and that
/// overflows a proxy's header buffer: nginx reads a response's whole
/// header block into one `proxy_buffer_size` buffer, 4 KiB by default, and
/// with `proxy_cache` the cache key (the request URI) shares it, so a
/// larger header is nginx's 502 "upstream sent too big header". Over it,
/// the header keeps only `prev` and `next`; when those two are still over
/// it, the link the client walks on alone (`next`, or `prev` on a keyset
/// page reached with a previous cursor), else the other, and it is left
/// out when each alone is over it. The body's `links` member always has
/// every link.
///
/// ```
/// assert_eq!(problem_core::spec::MAX_LINK_HEADER_LENGTH, 2048);
/// ```
pub const MAX_LINK_HEADER_LENGTH: usize = 2 * 1024;
/// The default `max_request_body_size` of a `ProblemApp`, in bytes: 1 MiB
/// (1,048,576); a larger body is answered 413 with an empty body.
///
/// ```
/// assert_eq!(problem_core::server::DEFAULT_MAX_REQUEST_BODY_SIZE, 1_048_576);
/// ```
pub const DEFAULT_MAX_REQUEST_BODY_SIZE: usize = 1024 * 1024;
/// The default header of the header versioning strategy: `X-API-Version`.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{DEFAULT_VERSION_HEADER, V2, header_version};
/// let req = TestRequest::get().insert_header((DEFAULT_VERSION_HEADER, "2")).to_http_request();
/// assert_eq!(header_version(&req, DEFAULT_VERSION_HEADER), Some(V2));
/// ```
pub const DEFAULT_VERSION_HEADER: &str = "X-API-Version";
/// The default parameter of the query versioning strategy, `api-version`;
/// also the query parameter collection queries ignore by default.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{DEFAULT_VERSION_QUERY, V2, query_version};
/// let req = TestRequest::get().uri("/books?api-version=2").to_http_request();
/// assert_eq!(query_version(&req, DEFAULT_VERSION_QUERY), Some(V2));
/// ```
pub const DEFAULT_VERSION_QUERY: &str = "api-version";
