//! Every fixed detail and limit of the service spec, in one place: each
//! fixed answer with its status beside its text (as axum's
//! `extract/rejection.rs` keeps a rejection's status and message
//! together), each limit defined, and counted, once. The modules that
//! answer with them (pipeline, routing, versioning, queries) read them
//! from here; changing one here changes it everywhere.
//!
//! Sources: the spec's "Errors raised by the service itself", "Request
//! handling rules", "Limits" and "Versioning" sections, and the crate's
//! HTTP rules (RFC 9110 §13.1.1 for `412`, RFC 9112 §3.2.2 for `421`).
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

/// 400: a JSON body that does not parse (trailing data included).
pub const MALFORMED_JSON: Fixed = Fixed::new(400, "Malformed JSON body");
/// 400: a multipart body that does not parse.
pub const MALFORMED_MULTIPART: Fixed = Fixed::new(400, "Malformed multipart body");
/// 400: a request body that cannot be read.
pub const UNREADABLE_BODY: Fixed = Fixed::new(400, "Failed to read request body");
/// 400: a query string with more than [`MAX_PARAMETERS`] parameters.
pub const TOO_MANY_QUERY_PARAMETERS: Fixed =
    Fixed::new(400, "The query string has more than 1000 parameters.");
/// 413: a form body with more than [`MAX_PARAMETERS`] fields.
pub const TOO_MANY_FORM_FIELDS: Fixed =
    Fixed::new(413, "The request body has more than 1000 fields.");
/// 421: a request whose `Host` (or absolute-form authority) is not allowed.
pub const HOST_NOT_ALLOWED: Fixed =
    Fixed::new(421, "This server does not serve the requested host.");
/// 408: a body not received within the body timeout (hostile-input rule
/// "Slow bodies").
pub const BODY_TIMEOUT: Fixed = Fixed::new(408, "The request body was not received in time");
/// 412: an `If-Match` that does not match the current `ETag`
/// (RFC 9110 §13.1.1).
pub const PRECONDITION_FAILED: Fixed =
    Fixed::new(412, "The resource has changed since it was read");
/// 400: request validation failed (the default detail of a
/// `ValidationException`, and of every query error with issues).
pub const VALIDATION_FAILED: Fixed = Fixed::new(400, "Request validation failed");
/// 400: `require_version` and the request carries no version.
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
    format!(
        "Invalid API version \"{}\"",
        crate::version::clip(raw)
    )
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
pub const MAX_PARAMETERS: usize = 1000;
/// At most this many values in one `__in` / `__not_in` list, and entries
/// in `sort`, `fields`, `exclude` or `search_fields` (comma-separated and
/// exploded repeats together); more is the issue `too_many_values`.
pub const MAX_LIST_VALUES: usize = 100;
/// At most this many whitespace-separated search terms in `q`/`search`.
pub const MAX_SEARCH_TERMS: usize = 20;
/// Default page size of offset and cursor pagination (spec, "Limits").
pub const DEFAULT_PAGE_SIZE: u64 = 20;
/// Default maximum page size; larger requested sizes are clamped to it.
pub const DEFAULT_MAX_PAGE_SIZE: u64 = 100;
/// Default of `QueryLimits::max_filters`: at most 64 filter conditions per
/// request.
pub const DEFAULT_MAX_FILTERS: usize = 64;
/// Default of `QueryLimits::max_value_length`: each filter value, list item
/// and search term at most 256 characters.
pub const DEFAULT_MAX_VALUE_LENGTH: usize = query_operators::DEFAULT_MAX_VALUE_LENGTH;
/// The cap on the error message in a log line outside development, in
/// characters (spec, `LOGGED_MESSAGE_LENGTH`).
pub const LOGGED_MESSAGE_LENGTH: usize = 500;
/// The default body timeout of the pipeline and of `ProblemApp`: 30 seconds.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest `Link` header value a list response sends, in bytes: 8 KiB.
/// Links repeat the request's query (up to five times in an offset list),
/// so a long query would make a header that clients refuse (Node.js reads at
/// most 16 KiB of headers, Python's `http.client` 64 KiB a line) and that
/// overflows a proxy's header buffer. Over it, the header keeps only `next`
/// and `prev`, and is left out when those alone are over it; the body's
/// `links` member always has every link.
pub const MAX_LINK_HEADER_LENGTH: usize = 8 * 1024;
/// The default `max_request_body_size` of a `ProblemApp`: 1 MiB.
pub const DEFAULT_MAX_REQUEST_BODY_SIZE: usize = 1024 * 1024;
/// The default header of the header versioning strategy: `X-API-Version`.
pub const DEFAULT_VERSION_HEADER: &str = "X-API-Version";
/// The default parameter of the query versioning strategy, `api-version`;
/// also the query parameter collection queries ignore by default.
pub const DEFAULT_VERSION_QUERY: &str = "api-version";
