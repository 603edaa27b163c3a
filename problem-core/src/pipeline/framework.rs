//! Errors raised by actix-web itself, mapped to the spec's table
//! (spec, "Errors raised by the service itself").
//!
//! actix-web's `web::Json<T>` reports a member error without its path:
//! the issue names the member when serde's message does (missing, unknown
//! and duplicate members), else the document (`""`), and only the first
//! member error is known. [`Body`](crate::pipeline::Body) reads the body
//! itself: every member error, each at its JSON pointer.
//!
//! ```
//! use actix_web::{test, web, App, HttpResponse};
//! use problem_core::pipeline::Pipeline;
//!
//! # actix_web::rt::System::new().block_on(async {
//! let pipeline = Pipeline::builder().development(false).build().unwrap();
//! let svc = test::init_service(
//!     App::new()
//!         .wrap(pipeline)
//!         .route("/b", web::post().to(|_: web::Json<serde_json::Value>| async { HttpResponse::Ok().finish() })),
//! )
//! .await;
//! let req = test::TestRequest::post().uri("/b").insert_header(("Content-Type", "application/json")).set_payload("{");
//! let res = test::call_service(&svc, req.to_request()).await;
//! assert_eq!(
//!     test::read_body(res).await,
//!     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Malformed JSON body","instance":"/b"}"#
//! );
//! # });
//! ```

use actix_web::HttpRequest;
use actix_web::error::{
    InternalError, JsonPayloadError, PathError, PayloadError, QueryPayloadError, UrlencodedError,
};
use actix_web::http::header;

use super::deadline::is_body_timeout;
use super::form_fields::is_too_many_form_fields;
use crate::problem::{
    BadRequestException, HttpException, Issue, IssueLocation, Problem,
    UnsupportedMediaTypeException, ValidationException,
};
use crate::query::code;
use crate::spec::{
    BODY_TIMEOUT, MALFORMED_JSON, MALFORMED_MULTIPART, TOO_MANY_FORM_FIELDS, UNREADABLE_BODY,
};

/// A request body over the configured limit: answered with the spec's
/// empty 413 (not a problem document), by the pipeline and on its own.
///
/// ```
/// use actix_web::ResponseError;
/// use problem_core::pipeline::PayloadTooLarge;
///
/// let err = PayloadTooLarge { limit: 1024 };
/// assert_eq!(err.to_string(), "request body is larger than 1024 bytes");
/// let res = err.error_response();
/// assert_eq!(res.status(), 413);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("request body is larger than {limit} bytes")]
pub struct PayloadTooLarge {
    /// The limit in bytes.
    pub limit: usize,
}

impl actix_web::ResponseError for PayloadTooLarge {
    fn status_code(&self) -> actix_web::http::StatusCode {
        actix_web::http::StatusCode::PAYLOAD_TOO_LARGE
    }
    fn error_response(&self) -> actix_web::HttpResponse {
        super::render::empty_413()
    }
}

/// How a framework error is answered.
pub(crate) enum Mapped {
    /// A problem.
    Problem(Box<dyn Problem>),
    /// The spec's empty 413.
    TooLarge,
    /// Not a framework error we know: an unknown error.
    Unknown,
}

/// `Unsupported content type: <content-type>` (415), the value as sent
/// (bytes that are not UTF-8 shown as U+FFFD; two or more field lines as
/// their combined value, joined by `, `, RFC 9110 §5.3); `(none)` when the
/// request has no `Content-Type`, or an empty (or blank) one.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::Problem;
/// use problem_core::pipeline::framework::unsupported_media_type;
///
/// let req = TestRequest::post().insert_header(("Content-Type", "text/csv")).to_http_request();
/// let err = unsupported_media_type(Some(&req));
/// assert_eq!((err.status().as_u16(), err.detail().as_deref()), (415, Some("Unsupported content type: text/csv")));
/// assert_eq!(unsupported_media_type(None).detail().as_deref(), Some("Unsupported content type: (none)"));
/// let req = TestRequest::post().insert_header(("Content-Type", "")).to_http_request();
/// assert_eq!(unsupported_media_type(Some(&req)).detail().as_deref(), Some("Unsupported content type: (none)"));
/// // `Content-Type` on two field lines: their combined value (RFC 9110 §5.3).
/// let req = TestRequest::post()
///     .append_header(("Content-Type", "application/json"))
///     .append_header(("Content-Type", "text/plain"))
///     .to_http_request();
/// assert_eq!(unsupported_media_type(Some(&req)).detail().as_deref(), Some("Unsupported content type: application/json, text/plain"));
/// ```
pub fn unsupported_media_type(req: Option<&HttpRequest>) -> UnsupportedMediaTypeException {
    // Every field line, as their combined value (RFC 9110 §5.3).
    let lines: Vec<_> = req
        .into_iter()
        .flat_map(|r| r.headers().get_all(header::CONTENT_TYPE))
        .map(|v| String::from_utf8_lossy(v.as_bytes().trim_ascii()))
        .filter(|v| !v.is_empty())
        .collect();
    let ct = if lines.is_empty() {
        "(none)".to_owned()
    } else {
        lines.join(", ")
    };
    UnsupportedMediaTypeException::new().with_detail(crate::spec::unsupported_content_type(&ct))
}

/// The 415 of a request whose body is under a content coding (RFC 9110
/// §8.4: `Content-Encoding` lists the codings applied to the content): a
/// body reader that does not decode it would take gzip bytes for JSON,
/// or store a body under a label that says it is compressed. `None` when
/// the request has no `Content-Encoding`, or only `identity` (in any case;
/// empty list elements ignored). Otherwise the 415 problem, detail
/// `Unsupported content encoding: <codings>` (the codings of every field
/// line, joined by `, `), with `Accept-Encoding: identity` (§12.5.3: the
/// codings the server takes). [`Body`](crate::pipeline::Body) and
/// `ValidBody` (feature `validator`) answer it before reading the
/// body; a handler reading the payload itself calls it first.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::Problem as _;
/// use problem_core::pipeline::framework::unsupported_content_encoding;
///
/// let req = TestRequest::post().insert_header(("Content-Encoding", "gzip")).to_http_request();
/// let err = unsupported_content_encoding(&req).unwrap();
/// assert_eq!(err.status().as_u16(), 415);
/// assert_eq!(err.detail().as_deref(), Some("Unsupported content encoding: gzip"));
/// assert_eq!(err.headers().unwrap().get("accept-encoding").unwrap(), "identity");
/// let plain = TestRequest::post().insert_header(("Content-Encoding", "Identity")).to_http_request();
/// assert!(unsupported_content_encoding(&plain).is_none());
/// assert!(unsupported_content_encoding(&TestRequest::post().to_http_request()).is_none());
/// ```
pub fn unsupported_content_encoding(req: &HttpRequest) -> Option<UnsupportedMediaTypeException> {
    let mut lines = req.headers().get_all(header::CONTENT_ENCODING).peekable();
    lines.peek()?;
    let text: Vec<std::borrow::Cow<'_, str>> = lines
        .map(|v| String::from_utf8_lossy(v.as_bytes()))
        .collect();
    let codings: Vec<&str> = text
        .iter()
        .flat_map(|line| line.split(','))
        .map(|coding| coding.trim_matches([' ', '\t']))
        .filter(|coding| !coding.is_empty())
        .collect();
    if codings
        .iter()
        .all(|coding| coding.eq_ignore_ascii_case("identity"))
    {
        return None;
    }
    Some(
        UnsupportedMediaTypeException::new()
            .with_detail(crate::spec::unsupported_content_encoding(
                &codings.join(", "),
            ))
            .with_header((header::ACCEPT_ENCODING, "identity")),
    )
}

fn bad_request(detail: &str) -> Mapped {
    Mapped::Problem(Box::new(BadRequestException::new().with_detail(detail)))
}

/// The 408 problem of a body not received in time; its response closes
/// the connection.
pub(crate) fn body_timeout() -> HttpException {
    HttpException::new(BODY_TIMEOUT.status)
        .unwrap_or_else(|_| BadRequestException::new().into_inner())
        .with_detail(BODY_TIMEOUT.detail)
}

/// The 413 problem of a form body with more than 1000 fields (spec,
/// "Limits").
pub(crate) fn too_many_form_fields() -> HttpException {
    HttpException::new(TOO_MANY_FORM_FIELDS.status)
        .unwrap_or_else(|_| BadRequestException::new().into_inner())
        .with_detail(TOO_MANY_FORM_FIELDS.detail)
}

#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "actix-web's PayloadError is #[non_exhaustive]: every other variant is an unreadable body"
)]
fn payload(err: &PayloadError) -> Mapped {
    match err {
        PayloadError::Overflow => Mapped::TooLarge,
        e if is_body_timeout(e) => Mapped::Problem(Box::new(body_timeout())),
        e if is_too_many_form_fields(e) => Mapped::Problem(Box::new(too_many_form_fields())),
        _ => bad_request(UNREADABLE_BODY.detail),
    }
}

/// The problem of a payload read error outside the pipeline (the body
/// extractors): the body timeout's 408, an overflow's empty 413, else 400
/// `Failed to read request body`.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "actix-web's PayloadError is #[non_exhaustive]: every other variant is an unreadable body"
)]
pub(crate) fn payload_error(err: &PayloadError, limit: usize) -> actix_web::Error {
    match err {
        PayloadError::Overflow => PayloadTooLarge { limit }.into(),
        e if is_body_timeout(e) => body_timeout().into(),
        e if is_too_many_form_fields(e) => too_many_form_fields().into(),
        _ => BadRequestException::new()
            .with_detail(UNREADABLE_BODY.detail)
            .into(),
    }
}

fn validation(location: IssueLocation, name: &str, message: String) -> Mapped {
    Mapped::Problem(Box::new(ValidationException::new(vec![value_issue(
        location, name, message,
    )])))
}

/// The issue of a value that did not deserialize, at `at` (a JSON pointer
/// for the body, else the parameter's name; empty when unknown), from
/// serde's `message`. The issue names the member that serde's message
/// names (`/title` in the body, `title` elsewhere):
/// - a missing member (serde's ``missing field `<member>` ``): code
///   `required`;
/// - a member given twice (``duplicate field `<member>` ``): code
///   `invalid_value`;
/// - a member the type refuses (``unknown field `<member>`, expected ...``,
///   `#[serde(deny_unknown_fields)]`): code `unknown_field`;
/// - anything else: code `invalid_value` at `at`.
pub(crate) fn value_issue(location: IssueLocation, at: &str, message: String) -> Issue {
    // serde_json ends its messages with the error's position (` at line 1
    // column 13`); the issue's JSON pointer says where, and a message
    // read again from the parsed document has no position to give.
    let message = match message.rfind(" at line ") {
        Some(cut)
            if message[cut + " at line ".len()..]
                .split_once(" column ")
                .is_some_and(|(line, column)| {
                    !line.is_empty()
                        && !column.is_empty()
                        && line
                            .bytes()
                            .chain(column.bytes())
                            .all(|b| b.is_ascii_digit())
                }) =>
        {
            message[..cut].to_owned()
        }
        _ => message,
    };
    /// serde's messages that name a member: the code of each, and whether
    /// `serde_path_to_error` stops at the object holding the member (the
    /// member is then added to the pointer) or at the member itself.
    const NAMING: [(&str, &str, bool); 3] = [
        ("missing field `", code::REQUIRED, true),
        ("duplicate field `", code::INVALID_VALUE, true),
        ("unknown field `", code::UNKNOWN_FIELD, false),
    ];
    let named = NAMING.iter().find_map(|&(prefix, code, at_holder)| {
        let (member, _) = message.strip_prefix(prefix)?.split_once('`')?;
        Some((member, code, at_holder))
    });
    match (named, location) {
        (Some((member, code, at_holder)), IssueLocation::Body) => {
            let mut name = at.to_owned();
            if at_holder {
                push_pointer_token(&mut name, member);
            }
            Issue::new(location, name, code, message)
        }
        (
            Some((member, code, _)),
            IssueLocation::Query | IssueLocation::Path | IssueLocation::Header,
        ) => Issue::new(location, member.to_owned(), code, message),
        (None, _) => Issue::new(location, at, code::INVALID_VALUE, message),
    }
}

/// Appends `/<token>` to a JSON pointer, `~` and `/` escaped (RFC 6901 §3).
pub(crate) fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Maps a framework error found in `err` to the spec's answer.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "actix-multipart's MultipartError is #[non_exhaustive]: every other variant is a malformed body"
)]
pub(crate) fn map(err: &actix_web::Error, req: Option<&HttpRequest>) -> Mapped {
    if err.as_error::<PayloadTooLarge>().is_some() {
        return Mapped::TooLarge;
    }
    if let Some(e) = err.as_error::<JsonPayloadError>() {
        return match e {
            JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
                Mapped::TooLarge
            }
            JsonPayloadError::ContentType => Mapped::Problem(Box::new(unsupported_media_type(req))),
            JsonPayloadError::Deserialize(de) if de.is_data() => {
                validation(IssueLocation::Body, "", de.to_string())
            }
            JsonPayloadError::Deserialize(_) => bad_request(MALFORMED_JSON.detail),
            JsonPayloadError::Payload(p) => payload(p),
            _ => Mapped::Unknown,
        };
    }
    if let Some(e) = err.as_error::<UrlencodedError>() {
        return match e {
            UrlencodedError::Overflow { .. } => Mapped::TooLarge,
            UrlencodedError::ContentType => Mapped::Problem(Box::new(unsupported_media_type(req))),
            UrlencodedError::Parse(p) => validation(IssueLocation::Body, "", p.to_string()),
            UrlencodedError::Payload(p) => payload(p),
            UrlencodedError::Serialize(_) => Mapped::Unknown,
            _ => bad_request(UNREADABLE_BODY.detail),
        };
    }
    if let Some(e) = err.as_error::<PayloadError>() {
        return payload(e);
    }
    if let Some(e) = err.as_error::<actix_multipart::MultipartError>() {
        use actix_multipart::MultipartError as M;
        return match e {
            M::ContentTypeMissing | M::ContentTypeIncompatible => {
                Mapped::Problem(Box::new(unsupported_media_type(req)))
            }
            M::Payload(p) => payload(p),
            _ => bad_request(MALFORMED_MULTIPART.detail),
        };
    }
    // actix-web's `Path` answers a value that does not deserialize with a
    // 404 wrapping the serde error (`ErrorNotFound`, when no `PathConfig`
    // error handler is set); read it as the same path issue as a
    // `PathError`.
    let path_message = match err.as_error::<PathError>() {
        Some(PathError::Deserialize(e)) => Some(e.to_string()),
        Some(_) => None,
        None => err
            .as_error::<InternalError<serde::de::value::Error>>()
            .filter(|_| {
                err.as_response_error().status_code() == actix_web::http::StatusCode::NOT_FOUND
            })
            .map(ToString::to_string),
    };
    if let Some(message) = path_message {
        let name = req
            .and_then(|r| {
                r.match_info()
                    .iter()
                    .find(|(_, value)| message.contains(&format!("\"{value}\"")))
                    .map(|(name, _)| name.to_owned())
            })
            .unwrap_or_default();
        return validation(IssueLocation::Path, &name, message);
    }
    if let Some(QueryPayloadError::Deserialize(e)) = err.as_error::<QueryPayloadError>() {
        return validation(IssueLocation::Query, "", e.to_string());
    }
    Mapped::Unknown
}

/// A problem for a bare error response (an error status with no body and
/// no error attached, e.g. from `HttpResponse::NotFound().finish()`): the
/// status with its default title.
pub(crate) fn bare(status: u16) -> Option<HttpException> {
    HttpException::new(status).ok()
}
