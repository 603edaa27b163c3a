//! Body extractors: JSON or form bodies with the spec's errors, and
//! validation through the `validator` crate (spec, "Errors raised by the
//! service itself": malformed JSON, unsupported content type, more than 1000
//! form fields, schema validation).

use crate::spec::{MALFORMED_JSON, MAX_PARAMETERS, TOO_MANY_FORM_FIELDS};
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::web::BytesMut;
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::checked::{Checked, EXPECTED_FINITE, take_refused_name};
use super::framework::{
    PayloadTooLarge, payload_error, push_pointer_token, unsupported_content_encoding,
    unsupported_media_type, value_issue,
};
use crate::problem::{
    BadRequestException, HttpException, Issue, IssueLocation, ValidationException,
};
use crate::query::form_decode;

/// The largest body the body extractors read, in bytes; put it in app data.
/// [`ProblemApp`](crate::server::ProblemApp) sets it to its
/// `max_request_body_size`. Default 1 MiB.
///
/// ```
/// use actix_web::{test, web, App};
/// use problem_core::pipeline::{Body, BodyConfig};
///
/// assert_eq!(BodyConfig::default().limit, 1024 * 1024);
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(
///     App::new()
///         .app_data(BodyConfig { limit: 8 })
///         .route("/", web::post().to(|body: Body<String>| async move { body.0 })),
/// )
/// .await;
/// let req = test::TestRequest::post().insert_header(("Content-Type", "application/json"));
/// let res = test::call_service(&app, req.set_payload(r#""Dune""#).to_request()).await;
/// assert_eq!(test::read_body(res).await, "Dune");
/// let req = test::TestRequest::post().insert_header(("Content-Type", "application/json"));
/// let res = test::call_service(&app, req.set_payload(r#""Children of Dune""#).to_request()).await;
/// assert_eq!(res.status(), 413);
/// assert!(test::read_body(res).await.is_empty());
/// # });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyConfig {
    /// The limit in bytes; a larger body gets the spec's empty 413.
    pub limit: usize,
}

impl Default for BodyConfig {
    fn default() -> Self {
        Self { limit: 1024 * 1024 }
    }
}

fn problem(p: impl Into<actix_web::Error>) -> actix_web::Error {
    p.into()
}

/// RFC 6901 JSON pointer of the error of the last [`Checked::document`]
/// read on this thread, at `path`. A segment `serde_path_to_error` could
/// not name ends the pointer; when it is a member whose own name was
/// refused for holding U+0000 (while its name was read), that name ends it.
fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => push_pointer_token(&mut out, &index.to_string()),
            Segment::Map { key } => push_pointer_token(&mut out, key),
            Segment::Enum { variant } => push_pointer_token(&mut out, variant),
            Segment::Unknown => break,
        }
    }
    if let Some(name) = take_refused_name() {
        push_pointer_token(&mut out, &name);
    }
    out
}

/// At most this many issues are gathered from one body's member errors.
const MAX_BODY_ISSUES: usize = 20;
/// No further issue is gathered once the names (JSON pointers) of those
/// gathered reach this many bytes: a pointer can be twice as long as the
/// key it names (`/` is written `~1`), so twenty of them could make a 400
/// forty times the size of a 16 KiB body. The first issue is always named.
const MAX_NAMED_BYTES: usize = 16 * 1024;

/// Whether `issues` holds as many issues as one body's 400 names: the
/// count, or the bytes of their names ([`MAX_NAMED_BYTES`]).
fn issues_full(issues: &[Issue]) -> bool {
    issues.len() >= MAX_BODY_ISSUES
        || issues.iter().map(|i| i.name.len()).sum::<usize>() >= MAX_NAMED_BYTES
}

/// How many of `pointers` a 400 names: at most [`MAX_BODY_ISSUES`], and
/// no more once their bytes reach [`MAX_NAMED_BYTES`] (the first always).
fn named_within_budget(pointers: &[String]) -> usize {
    let mut bytes = 0;
    pointers
        .iter()
        .take(MAX_BODY_ISSUES)
        .take_while(|p| {
            let fits = bytes < MAX_NAMED_BYTES;
            bytes += p.len();
            fits
        })
        .count()
}
/// Every member error is gathered from a body of at most this many bytes;
/// a larger one's 400 names its first member error. Gathering holds the
/// document as a `serde_json::Value`, which can take a hundred times the
/// body's size (`[[[]]]` nests), and reads it again for each issue: bound
/// by this, a failing body costs about what a valid body of the largest
/// size does.
const MAX_GATHERED_BODY: usize = 16 * 1024;
/// At most this many reads of the document gather them (each read stops
/// at its first error), so a large body of wrong members costs a bounded
/// amount of work.
const MAX_BODY_READS: usize = 40;

/// Stand-ins tried, in order, for a member that is missing or of the wrong
/// type, so the reads after it reach the members after it.
fn stand_ins() -> [serde_json::Value; 6] {
    use serde_json::Value;
    [
        Value::String(String::new()),
        Value::from(0),
        Value::Bool(false),
        Value::Null,
        Value::Array(Vec::new()),
        Value::Object(serde_json::Map::new()),
    ]
}

/// A stand-in for a member serde read as an enum: the first variant its
/// `unknown variant` message names (`` unknown variant `jazz`, expected
/// one of `fiction`, `poetry` `` or `` expected `a` or `b` ``), as a string.
/// None of [`stand_ins`] reads as an enum's unit variant.
fn variant_stand_in(message: &str) -> Option<serde_json::Value> {
    let (_, expected) = message
        .strip_prefix("unknown variant `")?
        .split_once("`, expected ")?;
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    let (variant, _) = expected.strip_prefix('`')?.split_once('`')?;
    Some(serde_json::Value::String(variant.to_owned()))
}

/// Whether the JSON pointer `name` is one of `pointers` or below one.
fn under_any(name: &str, pointers: &[String]) -> bool {
    pointers.iter().any(|p| {
        name == p
            || name
                .strip_prefix(p.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// A JSON body read with a stand-in for each member found wrong.
#[cfg_attr(
    not(feature = "validator"),
    allow(
        dead_code,
        reason = "read by ValidBody, which needs the validator feature"
    )
)]
pub(crate) struct StoodIn<T> {
    /// The body as read.
    value: T,
    /// The pointer of each member standing in.
    stand_ins: Vec<String>,
    /// The document read (the members' names as sent).
    doc: serde_json::Value,
}

/// Every member error of a well-formed JSON body whose first error is
/// `first` (spec, "Schema validation failed": the list of issues), not
/// only the first: the document is read again with a stand-in for each
/// member found wrong (or, for an unknown member, without it) until it
/// reads or the bounds are reached. An error inside a stand-in is not the
/// client's: the next stand-in is tried.
fn member_issues<T: DeserializeOwned>(
    bytes: &[u8],
    first: (String, String),
) -> (Vec<Issue>, Option<StoodIn<T>>) {
    let issue = |(at, message): (String, String)| value_issue(IssueLocation::Body, &at, message);
    let first = issue(first);
    if bytes.len() > MAX_GATHERED_BODY {
        return (vec![first], None);
    }
    let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return (vec![first], None);
    };
    let mut issues: Vec<Issue> = Vec::new();
    // The pointer of each member standing in, the next stand-in to try,
    // and the enum variant to try first.
    let mut patched: Vec<(String, usize, Option<serde_json::Value>)> = Vec::new();
    let mut read = None;
    for _ in 0..MAX_BODY_READS {
        let (found, variant) =
            match serde_path_to_error::deserialize::<_, T>(Checked::document(&doc)) {
                Ok(value) => {
                    read = Some(value);
                    break;
                }
                Err(e) => {
                    let at = pointer(e.path());
                    let message = e.into_inner().to_string();
                    let variant = variant_stand_in(&message);
                    (issue((at, message)), variant)
                }
            };
        let name = found.name.clone();
        let inside = |p: &str| name == p || name.starts_with(&format!("{p}/"));
        let slot = patched.iter().position(|(p, _, _)| inside(p));
        let (at, next, variant) = match slot {
            // A stand-in (or what is inside it) is wrong: the next one.
            Some(i) => {
                let (at, tried, variant) = &mut patched[i];
                *tried += 1;
                (at.clone(), *tried, variant.clone())
            }
            None => {
                // The document itself, or more than the bounds allow: stop.
                if name.is_empty() || issues_full(&issues) {
                    break;
                }
                // An unknown member, or one whose name holds U+0000 (no
                // stand-in mends a name): read again without it.
                let unknown =
                    found.code == crate::query::code::UNKNOWN_FIELD || name.contains('\0');
                issues.push(found);
                if unknown {
                    if !remove(&mut doc, &name) {
                        break;
                    }
                    continue;
                }
                patched.push((name.clone(), 0, variant.clone()));
                (name, 0, variant)
            }
        };
        let Some(stand_in) = variant.into_iter().chain(stand_ins()).nth(next) else {
            break;
        };
        if !set(&mut doc, &at, stand_in) {
            break;
        }
    }
    // The first read found `first`; a read of the document that diverges
    // from it keeps `first` alone.
    // (A duplicate member is one member in the document: its read names
    // another value, and so differs.)
    if issues.first() == Some(&first) {
        let read = read.map(|value| StoodIn {
            value,
            stand_ins: patched.into_iter().map(|(p, _, _)| p).collect(),
            doc,
        });
        (issues, read)
    } else {
        (vec![first], None)
    }
}

/// The issues of a form body `T` does not read, as [`member_issues`] finds
/// them in a JSON document: `first` (serde's error of the whole form), then
/// each further field in error, found by reading the form again with a
/// stand-in value for each field already reported (an empty text, `0`,
/// `false`, or the enum variant serde names) and without the unknown
/// fields; at most [`MAX_BODY_ISSUES`], one field a time. A form that does
/// not read the same way (a read that diverges from `first`) keeps `first`
/// alone, as does a form over [`MAX_GATHERED_BODY`].
fn form_issues<T: DeserializeOwned>(bytes: &[u8], first: (String, String)) -> Vec<Issue> {
    // An error as an issue, with the enum variant its message names.
    let found_of = |(at, message): (String, String)| {
        let variant = variant_stand_in(&message);
        (value_issue(IssueLocation::Body, &at, message), variant)
    };
    let (first, first_variant) = found_of(first);
    if bytes.len() > MAX_GATHERED_BODY {
        return vec![first];
    }
    let mut pairs: Vec<(String, String)> = form_urlencoded::parse(bytes).into_owned().collect();
    // The form read again: its first error, if any.
    let read = |pairs: &[(String, String)]| {
        let form = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(form.as_bytes()));
        serde_path_to_error::deserialize::<_, T>(Checked::document(de))
            .err()
            .map(|e| found_of((pointer(e.path()), e.inner().to_string())))
    };
    let mut issues: Vec<Issue> = Vec::new();
    // Each field standing in, and the next stand-in to try.
    let mut patched: Vec<(String, usize)> = Vec::new();
    let mut found = Some((first.clone(), first_variant));
    for _ in 0..MAX_BODY_READS {
        let Some((found_issue, variant)) = found.take() else {
            break;
        };
        let field = found_issue.name.trim_start_matches('/').to_owned();
        let next = match patched.iter_mut().find(|(name, _)| *name == field) {
            // A stand-in is wrong: the next one.
            Some((_, tried)) => {
                *tried += 1;
                *tried
            }
            None => {
                if field.is_empty() || field.contains('/') || issues_full(&issues) {
                    break;
                }
                let unknown =
                    found_issue.code == crate::query::code::UNKNOWN_FIELD || field.contains('\0');
                issues.push(found_issue);
                if unknown {
                    pairs.retain(|(name, _)| *name != field);
                    found = read(&pairs);
                    continue;
                }
                patched.push((field.clone(), 0));
                0
            }
        };
        let stand_ins = variant
            .and_then(|v| v.as_str().map(str::to_owned))
            .into_iter()
            .chain(["", "0", "false"].map(str::to_owned));
        let Some(stand_in) = stand_ins.into_iter().nth(next) else {
            break;
        };
        pairs.retain(|(name, _)| *name != field);
        pairs.push((field, stand_in));
        found = read(&pairs);
    }
    if issues.first() == Some(&first) {
        issues
    } else {
        vec![first]
    }
}

/// The parent pointer and the last token (unescaped) of a JSON pointer.
fn split_pointer(pointer: &str) -> Option<(&str, String)> {
    let at = pointer.rfind('/')?;
    let token = pointer[at + 1..].replace("~1", "/").replace("~0", "~");
    Some((&pointer[..at], token))
}

/// Sets the member or element at `pointer` (adding a missing member).
fn set(doc: &mut serde_json::Value, pointer: &str, value: serde_json::Value) -> bool {
    let Some((parent, token)) = split_pointer(pointer) else {
        return false;
    };
    match doc.pointer_mut(parent) {
        Some(serde_json::Value::Object(map)) => {
            map.insert(token, value);
            true
        }
        Some(serde_json::Value::Array(items)) => {
            match token.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => {
                    *item = value;
                    true
                }
                None => false,
            }
        }
        _ => false,
    }
}

/// Removes the member at `pointer`.
fn remove(doc: &mut serde_json::Value, pointer: &str) -> bool {
    let Some((parent, token)) = split_pointer(pointer) else {
        return false;
    };
    match doc.pointer_mut(parent) {
        Some(serde_json::Value::Object(map)) => map.remove(&token).is_some(),
        _ => false,
    }
}

fn data_error(name: String, message: String) -> actix_web::Error {
    problem(ValidationException::new(vec![value_issue(
        IssueLocation::Body,
        &name,
        message,
    )]))
}

/// The request's `Content-Type` as a media type, read as RFC 9110 §8.3.1
/// writes it: `type "/" subtype *( OWS ";" OWS [ parameter ] )`, so
/// whitespace around `;` and empty parameters are allowed
/// (`application/json ; charset=utf-8`, `multipart/form-data;\tboundary=x`).
/// `None` when the header is absent or not a media type, and when it is
/// sent on more than one field line: `Content-Type` is a singleton field,
/// and two lines mean their combined value (RFC 9110 §5.3: `text/plain,
/// application/json`), which is no media type, whichever comes first.
/// Bytes beyond
/// ASCII (obs-text, §5.5) are allowed inside a quoted parameter value
/// only, where they do not change which type it is.
///
/// The `mime` crate alone refuses whitespace before `;`; the value is
/// parsed as sent first and, only when that fails, again with the optional
/// whitespace and empty parameters taken out (quoted strings kept as they
/// are).
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::pipeline::content_type;
///
/// let req = TestRequest::default()
///     .insert_header(("Content-Type", "multipart/form-data ;\tboundary=\"a ; b\""))
///     .to_http_request();
/// let mime = content_type(&req).unwrap();
/// assert_eq!(mime.essence_str(), "multipart/form-data");
/// assert_eq!(mime.get_param("boundary").unwrap(), "a ; b");
/// assert!(content_type(&TestRequest::default().to_http_request()).is_none());
/// let two_lines = TestRequest::default()
///     .append_header(("Content-Type", "application/json"))
///     .append_header(("Content-Type", "text/plain"))
///     .to_http_request();
/// assert!(content_type(&two_lines).is_none());
/// ```
pub fn content_type(req: &HttpRequest) -> Option<mime::Mime> {
    let mut lines = req.headers().get_all(header::CONTENT_TYPE);
    let raw = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let quoted_obs_text;
    let value = match raw.to_str() {
        Ok(value) => value,
        Err(_) => {
            quoted_obs_text = without_quoted_obs_text(raw.as_bytes())?;
            quoted_obs_text.as_str()
        }
    };
    value
        .parse()
        .ok()
        .or_else(|| without_ows(value).parse().ok())
}

/// Where a header value's characters stand: inside a quoted string (RFC
/// 9110 §5.6.4, with its backslash escapes) or not.
#[derive(Default)]
struct Quotes {
    quoted: bool,
    escaped: bool,
}

impl Quotes {
    /// Whether `c`, the next character, belongs to a quoted string (its
    /// opening and closing quotes included).
    fn step(&mut self, c: char) -> bool {
        if self.quoted {
            if self.escaped {
                self.escaped = false;
            } else if c == '\\' {
                self.escaped = true;
            } else if c == '"' {
                self.quoted = false;
            }
            true
        } else {
            self.quoted = c == '"';
            self.quoted
        }
    }
}

/// A header value whose bytes beyond ASCII, each inside a quoted string,
/// are replaced by `?`; `None` when one is outside a quoted string (not a
/// token character) or a control character is anywhere.
fn without_quoted_obs_text(bytes: &[u8]) -> Option<String> {
    let mut quotes = Quotes::default();
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        let c = match b {
            0x80..=0xff if quotes.quoted => '?',
            b'\t' | 0x20..=0x7e => char::from(b),
            _ => return None,
        };
        quotes.step(c);
        out.push(c);
    }
    Some(out)
}

/// `value` with the whitespace around each `;` outside quoted strings and
/// the empty parameters (`;;`, a trailing `;`) taken out.
fn without_ows(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut quotes = Quotes::default();
    let mut after_semicolon = false;
    for c in value.trim().chars() {
        if quotes.step(c) {
            after_semicolon = false;
            out.push(c);
            continue;
        }
        match c {
            ' ' | '\t' if after_semicolon => {}
            ';' => {
                out.truncate(out.trim_end_matches([' ', '\t']).len());
                if !out.ends_with(';') {
                    out.push(';');
                }
                after_semicolon = true;
            }
            c => {
                after_semicolon = false;
                out.push(c);
            }
        }
    }
    if out.ends_with(';') {
        out.pop();
    }
    out
}

/// Which body formats a request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Json,
    Form,
}

/// The format of the request's `Content-Type`: exactly `application/json`
/// or `application/x-www-form-urlencoded` (parameters such as `charset`
/// allowed). A `+json` type (`application/merge-patch+json`,
/// `application/problem+json`, a vendor type) names another document
/// format than the resource's JSON, so it is not taken for one.
pub(crate) fn format_of(req: &HttpRequest) -> Option<Format> {
    let mime = content_type(req)?;
    if mime.type_() != mime::APPLICATION || mime.suffix().is_some() {
        return None;
    }
    if mime.subtype() == mime::JSON {
        Some(Format::Json)
    } else if mime.subtype() == mime::WWW_FORM_URLENCODED {
        Some(Format::Form)
    } else {
        None
    }
}

async fn read(payload: &mut Payload, limit: usize) -> Result<BytesMut, actix_web::Error> {
    let mut buf = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| payload_error(&e, limit))?;
        if buf.len() + chunk.len() > limit {
            return Err(PayloadTooLarge { limit }.into());
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// Why a body did not read as `T`.
pub(crate) enum BodyError<T> {
    /// Answered as it is (415, 413, malformed JSON, a form's value error).
    Answer(actix_web::Error),
    /// Member errors of a well-formed JSON body: one issue each, and the
    /// body as read with stand-ins for those members (when it then reads)
    /// with their pointers, so rules of the other members can be checked.
    Members {
        issues: Vec<Issue>,
        #[cfg_attr(
            not(feature = "validator"),
            allow(
                dead_code,
                reason = "read by ValidBody, which needs the validator feature"
            )
        )]
        read: Option<StoodIn<T>>,
    },
}

impl<T> BodyError<T> {
    fn into_error(self) -> actix_web::Error {
        match self {
            Self::Answer(e) => e,
            Self::Members { issues, .. } => problem(ValidationException::new(issues)),
        }
    }
}

impl<T> From<actix_web::Error> for BodyError<T> {
    fn from(e: actix_web::Error) -> Self {
        Self::Answer(e)
    }
}

/// Parses a body of the request's content type into `T`.
pub(crate) async fn parse_body<T: DeserializeOwned>(
    req: &HttpRequest,
    payload: &mut Payload,
) -> Result<T, BodyError<T>> {
    parse_body_read(req, payload).await.map(|(value, _)| value)
}

/// [`parse_body`], with the body as read (its format and bytes).
pub(crate) async fn parse_body_read<T: DeserializeOwned>(
    req: &HttpRequest,
    payload: &mut Payload,
) -> Result<(T, ReadBody), BodyError<T>> {
    let limit = req
        .app_data::<BodyConfig>()
        .map(|c| c.limit)
        .unwrap_or_else(|| BodyConfig::default().limit);
    let Some(format) = format_of(req) else {
        return Err(problem(unsupported_media_type(Some(req))).into());
    };
    if let Some(coded) = unsupported_content_encoding(req) {
        return Err(problem(coded).into());
    }
    let bytes = read(payload, limit).await?.freeze();
    let value = match format {
        Format::Json => parse_json(&bytes),
        Format::Form => {
            if form_urlencoded::parse(&bytes).nth(MAX_PARAMETERS).is_some() {
                let too_many = HttpException::new(TOO_MANY_FORM_FIELDS.status)
                    .map(|e| e.with_detail(TOO_MANY_FORM_FIELDS.detail))
                    .map_err(|_| problem(BadRequestException::new()))?;
                return Err(problem(too_many).into());
            }
            if let Some(name) = first_non_utf8_field(&bytes) {
                return Err(data_error(
                    name,
                    "invalid value: bytes that are not UTF-8, expected a UTF-8 string".into(),
                )
                .into());
            }
            let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(&bytes));
            serde_path_to_error::deserialize(Checked::document(de)).map_err(|e| {
                let first = (pointer(e.path()), e.inner().to_string());
                BodyError::Members {
                    issues: form_issues::<T>(&bytes, first),
                    read: None,
                }
            })
        }
    }?;
    Ok((value, ReadBody { format, bytes }))
}

/// A body as [`parse_body_read`] read it.
pub(crate) struct ReadBody {
    format: Format,
    bytes: actix_web::web::Bytes,
}

impl ReadBody {
    /// The body as a JSON value: the document itself, or a form's fields
    /// as an object of strings (the first value of a repeated name);
    /// `None` for a document too large to hold as a value (see
    /// [`MAX_GATHERED_BODY`]).
    #[cfg_attr(
        not(feature = "validator"),
        allow(
            dead_code,
            reason = "read by ValidBody, which needs the validator feature"
        )
    )]
    pub(crate) fn value(&self) -> Option<serde_json::Value> {
        if self.bytes.len() > MAX_GATHERED_BODY {
            return None;
        }
        match self.format {
            Format::Json => serde_json::from_slice(&self.bytes).ok(),
            Format::Form => {
                let mut map = serde_json::Map::new();
                for (name, value) in form_urlencoded::parse(&self.bytes) {
                    map.entry(name.into_owned())
                        .or_insert(serde_json::Value::String(value.into_owned()));
                }
                Some(serde_json::Value::Object(map))
            }
        }
    }
}

/// The tokens some JSON encoders write for non-finite numbers (Python's
/// `json` module among them: `NaN`, `Infinity`, `-Infinity`); not JSON,
/// but answered as the value error they are rather than as a syntax error.
const NON_FINITE_TOKENS: [&[u8]; 6] = [b"NaN", b"-NaN", b"Infinity", b"-Infinity", b"inf", b"-inf"];

fn malformed() -> actix_web::Error {
    problem(BadRequestException::new().with_detail(MALFORMED_JSON.detail))
}

/// Whether `bytes` is one syntactically valid JSON value with nothing but
/// whitespace after it (numbers out of `f64` range included: they are a
/// value error, not a syntax error).
fn well_formed(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

/// Every non-finite token of a document that is well formed once each is
/// replaced by `0`: the patched document and the offset of each token in
/// it, in document order ([`pointers_at`] names them). A token counts where
/// a value may start (at the start, after `:`, `[` or `,`) outside strings,
/// so `1NaN` or `NaNx` stays malformed. `None` when no token is found or
/// the patched document is still not well formed (the body is malformed).
/// One pass and one parse, whatever the number of tokens.
fn patch_non_finite(bytes: &[u8]) -> Option<(Vec<u8>, Vec<usize>)> {
    let mut doc = Vec::with_capacity(bytes.len());
    let mut at: Vec<usize> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    // The last byte outside strings that is not whitespace.
    let mut last: Option<u8> = None;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if in_string {
            doc.push(byte);
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    last = Some(byte);
                }
                (false, _) => {}
            }
            i += 1;
            continue;
        }
        // Longer tokens come first in the table (`-Infinity` before
        // `-inf`), so the first that matches is the whole token.
        let token = matches!(last, None | Some(b':' | b'[' | b','))
            .then(|| {
                let rest = bytes.get(i..)?;
                NON_FINITE_TOKENS.iter().find(|t| rest.starts_with(t))
            })
            .flatten();
        if let Some(token) = token {
            at.push(doc.len());
            doc.push(b'0');
            last = Some(b'0');
            i += token.len();
            continue;
        }
        if byte == b'"' {
            in_string = true;
        } else if !byte.is_ascii_whitespace() {
            last = Some(byte);
        }
        doc.push(byte);
        i += 1;
    }
    if at.is_empty() || !well_formed(&doc) {
        return None;
    }
    Some((doc, at))
}

/// The JSON pointer of the value starting at each of `offsets` (ascending)
/// in `doc`, a well-formed JSON document. Each pointer holds every key
/// above its value, so the caller names few offsets: a pointer per token
/// of `{"<long key>":[NaN,NaN,..]}` would copy the key once per token.
fn pointers_at(doc: &[u8], offsets: &[usize]) -> Vec<String> {
    enum Frame {
        /// An object and the key of the member being read.
        Object(Option<String>),
        /// An array and the index of the element being read.
        Array(usize),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut out = Vec::new();
    let mut wanted = offsets.iter().copied().peekable();
    let mut i = 0;
    while let Some(&byte) = doc.get(i) {
        if wanted.peek() == Some(&i) {
            wanted.next();
            let mut pointer = String::new();
            for frame in &stack {
                match frame {
                    Frame::Object(Some(key)) => push_pointer_token(&mut pointer, key),
                    Frame::Object(None) => {}
                    Frame::Array(n) => push_pointer_token(&mut pointer, &n.to_string()),
                }
            }
            out.push(pointer);
        }
        match byte {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Array(n)) = stack.last_mut() {
                    *n += 1;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&b) = doc.get(i) {
                    match b {
                        b'"' => break,
                        b'\\' => i += 2,
                        _ => i += 1,
                    }
                }
                // A key when a `:` follows it.
                let is_key = doc
                    .get(i + 1..)
                    .and_then(|rest| rest.iter().find(|b| !b" \t\r\n".contains(b)))
                    == Some(&b':');
                if is_key && let Some(Frame::Object(key)) = stack.last_mut() {
                    *key = doc
                        .get(start..=i)
                        .and_then(|text| serde_json::from_slice::<String>(text).ok());
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The JSON pointer of the first form field whose name or value, once
/// percent-decoded, is not UTF-8. `form_urlencoded` would replace such
/// bytes by U+FFFD, silently storing another text than the one sent (a
/// JSON body with them is malformed).
fn first_non_utf8_field(bytes: &[u8]) -> Option<String> {
    bytes.split(|b| *b == b'&').find_map(|pair| {
        let (name, value) = match pair.iter().position(|b| *b == b'=') {
            Some(at) => (pair.get(..at)?, pair.get(at + 1..)?),
            None => (pair, &b""[..]),
        };
        let utf8 = |part: &[u8]| percent_encoding::percent_decode(part).decode_utf8().is_ok();
        if utf8(name) && utf8(value) {
            return None;
        }
        let mut pointer = String::new();
        push_pointer_token(&mut pointer, &form_decode(name));
        Some(pointer)
    })
}

/// Parses a JSON body: one value, nothing but whitespace after it, syntax
/// checked before any field error; non-finite numbers and NUL characters
/// are value errors on their member.
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, BodyError<T>> {
    // JSON exchanged between systems is UTF-8 (RFC 8259 §8.1); serde_json
    // checks it only in the strings it decodes, so a document with invalid
    // UTF-8 in a skipped member, or one a field error is found in first,
    // would otherwise pass the syntax check.
    if std::str::from_utf8(bytes).is_err() {
        return Err(malformed().into());
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize(Checked::document(&mut de)) {
        Ok(value) => match de.end() {
            Ok(()) => Ok(value),
            Err(_) => Err(malformed().into()),
        },
        Err(e) => {
            let path = pointer(e.path());
            let inner = e.into_inner();
            if inner.is_data() {
                // A field error counts only in a well-formed document; then
                // every member error is an issue. One that also holds
                // non-finite tokens (a wrong member read before a `NaN`)
                // is answered as one read with them.
                return if well_formed(bytes) {
                    let (issues, read) = member_issues::<T>(bytes, (path, inner.to_string()));
                    Err(BodyError::Members { issues, read })
                } else {
                    match non_finite_issues::<T>(bytes) {
                        Some((issues, read)) => Err(BodyError::Members { issues, read }),
                        None => Err(malformed().into()),
                    }
                };
            }
            if !inner.is_syntax() {
                return Err(malformed().into());
            }
            if well_formed(bytes) {
                // A syntax error of `T`'s parse in a well-formed document:
                // a number beyond `f64` (`1e999`), or a string whose escapes
                // name a lone surrogate (`"\ud800"`: the grammar allows it,
                // no Rust string holds it; RFC 8259 §8.2).
                let text = inner.to_string();
                return Err(if text.starts_with("number out of range") {
                    data_error(
                        path,
                        format!("invalid value: a number out of range, expected {EXPECTED_FINITE}"),
                    )
                } else if is_surrogate_error(&text) {
                    data_error(path, LONE_SURROGATE.into())
                } else {
                    malformed()
                }
                .into());
            }
            match non_finite_issues::<T>(bytes) {
                Some((issues, read)) => Err(BodyError::Members { issues, read }),
                None => Err(malformed().into()),
            }
        }
    }
}

/// The message of a string escape naming a lone surrogate.
const LONE_SURROGATE: &str =
    "invalid value: a lone surrogate escape, expected a string of Unicode scalar values";

/// Whether serde_json's syntax error `text` is about a lone surrogate
/// escape (`"\ud800"`: valid grammar that no Rust string holds; RFC 8259
/// §8.2).
fn is_surrogate_error(text: &str) -> bool {
    ["surrogate", "hex escape", "unicode code point"]
        .iter()
        .any(|m| text.contains(m))
}

/// The issues of a document holding non-finite tokens (`NaN`, `Infinity`):
/// an issue on each, then the other members' errors of the document read
/// with `0` in their place (an error inside such a member is its own), and
/// the body as read that way, the tokens' members standing in (so that
/// `ValidBody` still checks the rules of the others). `None` when the
/// document holds no such token or is malformed besides.
fn non_finite_issues<T: DeserializeOwned>(
    bytes: &[u8],
) -> Option<(Vec<Issue>, Option<StoodIn<T>>)> {
    let (patched, at) = patch_non_finite(bytes)?;
    // Named: at most the issues a 400 lists (the first alone for a body
    // over `MAX_GATHERED_BODY`, as for other member errors). With more
    // tokens than that, their issues fill the 400 by themselves.
    let named = if patched.len() > MAX_GATHERED_BODY {
        1
    } else {
        MAX_BODY_ISSUES
    };
    let mut pointers = pointers_at(&patched, at.get(..named).unwrap_or(&at));
    pointers.truncate(named_within_budget(&pointers));
    let mut issues: Vec<Issue> = pointers
        .iter()
        .map(|at| {
            value_issue(
                IssueLocation::Body,
                at,
                format!("invalid value: a non-finite number, expected {EXPECTED_FINITE}"),
            )
        })
        .collect();
    if at.len() > pointers.len() {
        return Some((issues, None));
    }
    let mut de = serde_json::Deserializer::from_slice(&patched);
    let read = match serde_path_to_error::deserialize::<_, T>(Checked::document(&mut de)) {
        // A lone surrogate escape besides (`"\ud800"`): its issue, as the
        // document without a token would have it, and no further ones.
        Err(e) if e.inner().is_syntax() && is_surrogate_error(&e.inner().to_string()) => {
            issues.push(value_issue(
                IssueLocation::Body,
                &pointer(e.path()),
                LONE_SURROGATE.into(),
            ));
            None
        }
        Err(e) => {
            let first = (pointer(e.path()), e.into_inner().to_string());
            let (more, read) = member_issues::<T>(&patched, first);
            let non_finite = |name: &str| under_any(name, &pointers);
            issues.extend(more.into_iter().filter(|i| !non_finite(&i.name)));
            read
        }
        Ok(value) => (patched.len() <= MAX_GATHERED_BODY)
            .then(|| serde_json::from_slice(&patched).ok())
            .flatten()
            .map(|doc| StoodIn {
                value,
                stand_ins: Vec::new(),
                doc,
            }),
    };
    let read = read.map(|mut read| {
        read.stand_ins.extend(pointers);
        read
    });
    issues.truncate(MAX_BODY_ISSUES);
    Some((issues, read))
}

/// A request body read as JSON (`application/json`) or as a form
/// (`application/x-www-form-urlencoded`), deserialized into `T`.
///
/// Errors, as the spec's table: another content type 415
/// `Unsupported content type: <content-type>`; a body under a content
/// coding other than `identity` 415 `Unsupported content encoding:
/// <codings>` with `Accept-Encoding: identity` (the body is not decoded;
/// [`unsupported_content_encoding`](crate::pipeline::framework::unsupported_content_encoding)); a structured-syntax
/// `+json` type such as `application/merge-patch+json` included (it names
/// another document format; actix-web's `Json` accepts those); malformed JSON 400
/// `Malformed JSON body`; members missing, of the wrong type or unknown
/// (`deny_unknown_fields`) 400 `Request validation failed` with one
/// `issues` entry per member, each naming its JSON pointer, in the order
/// they are read, at most 20, and none once the pointers listed reach 16
/// KiB (a pointer under long keys can be twice the body's size); a body
/// over 16 KiB, or one holding a number beyond `f64`'s range or a lone
/// surrogate escape, lists the first only; more than 1000 form
/// fields 413
/// `The request body has more than 1000 fields.`; an unreadable body 400
/// `Failed to read request body`; over [`BodyConfig::limit`] an empty 413;
/// a body not received within the server's body timeout 408
/// `The request body was not received in time`.
///
/// Hostile input (RFC 8259 and the crate's hostile-input rules):
/// - a JSON body is exactly one value: anything but whitespace after it
///   (garbage, a second object) is `Malformed JSON body`, and a broken
///   document is never reported as a field error;
/// - non-finite numbers (`NaN`, `inf`, `-inf`, `Infinity`, and numbers that
///   overflow `f64` such as `1e999`), in JSON (including the `NaN` /
///   `Infinity` tokens some encoders write) or in a form, are a 400
///   `invalid_value` issue on that member;
/// - a string holding U+0000 is a 400 `invalid_value` issue on that member;
/// - a JSON body is UTF-8 (RFC 8259 §8.1): invalid UTF-8 anywhere in it,
///   whatever the `charset` parameter says, is `Malformed JSON body`; a
///   string escape naming a lone surrogate (`"\ud800"`, valid grammar that
///   no Rust string holds) is a 400 `invalid_value` issue on that member;
/// - a form field whose name or value, percent-decoded, is not UTF-8 is a
///   400 `invalid_value` issue on that field (not replaced by U+FFFD);
/// - an integer member of a JSON body takes a number with a zero fraction
///   (`2000.0`, `2e3`, `-0`) as that integer, as JSON Schema's `integer`
///   (2020-12, Validation §6.1.1) and so an OpenAPI 3.1 document do, when
///   it is below 2^53 in size (beyond, a float is not exact:
///   `9007199254740993.0` reads as `...992`; such a number is refused, so
///   write it without a fraction or exponent);
/// - a member the target type ignores (an unknown member, without
///   `#[serde(deny_unknown_fields)]`) is read and checked like the others:
///   a NUL or an overflowing number in it is the same 400 on that member;
/// - a member (or a form field) whose own name holds U+0000 is a 400
///   `invalid_value` issue named by that name (`"/x\u0000y"`), and the
///   body is read again without it, so the issues after it are found too.
///
/// ```
/// use problem_core::pipeline::Body;
/// #[derive(serde::Deserialize)]
/// struct NewBook { title: String }
/// async fn create(book: Body<NewBook>) -> String { book.0.title }
/// ```
///
/// A member name holding U+0000 is named:
///
/// ```
/// use actix_web::{FromRequest, ResponseError, test::TestRequest};
/// use problem_core::pipeline::Body;
/// #[derive(Debug, serde::Deserialize)]
/// struct NewBook { title: String }
///
/// # actix_web::rt::System::new().block_on(async {
/// let (req, mut payload) = TestRequest::post()
///     .insert_header(("Content-Type", "application/json"))
///     .set_payload(r#"{"title": "Dune", "x\u0000y": 1}"#)
///     .to_http_parts();
/// let err = Body::<NewBook>::from_request(&req, &mut payload).await.unwrap_err();
/// let body: serde_json::Value = serde_json::from_slice(
///     &actix_web::body::to_bytes(err.error_response().into_body()).await.unwrap(),
/// ).unwrap();
/// assert_eq!(body["issues"][0]["name"], "/x\u{0}y");
/// assert_eq!(body["issues"][0]["code"], "invalid_value");
/// # });
/// ```
///
/// Every member error is an issue, each non-finite number's included:
///
/// ```
/// use actix_web::{FromRequest, ResponseError, test::TestRequest};
/// use problem_core::pipeline::Body;
/// #[derive(Debug, serde::Deserialize)]
/// struct Prices { list: f64, steps: Vec<f64>, copies: u8 }
///
/// # actix_web::rt::System::new().block_on(async {
/// let (req, mut payload) = TestRequest::post()
///     .insert_header(("Content-Type", "application/json"))
///     .set_payload(r#"{"list": NaN, "steps": [1.5, -Infinity], "copies": "two"}"#)
///     .to_http_parts();
/// let err = Body::<Prices>::from_request(&req, &mut payload).await.unwrap_err();
/// let res = err.error_response();
/// let body: serde_json::Value = serde_json::from_slice(
///     &actix_web::body::to_bytes(res.into_body()).await.unwrap(),
/// ).unwrap();
/// let names: Vec<&str> = body["issues"].as_array().unwrap().iter()
///     .map(|i| i["name"].as_str().unwrap()).collect();
/// assert_eq!(names, ["/list", "/steps/1", "/copies"]);
/// assert_eq!(body["issues"][1]["code"], "invalid_value");
/// assert_eq!(body["issues"][1]["message"], "invalid value: a non-finite number, expected a finite number");
/// # });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body<T>(pub T);

impl<T> Body<T> {
    /// The body.
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::Body;
    /// #[derive(Debug, PartialEq, serde::Deserialize)]
    /// struct NewBook { title: String, year: u16 }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let (req, mut payload) = TestRequest::post()
    ///     .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
    ///     .set_payload("title=Dune&year=1965")
    ///     .to_http_parts();
    /// let body = Body::<NewBook>::from_request(&req, &mut payload).await.unwrap();
    /// assert_eq!(body.into_inner(), NewBook { title: "Dune".into(), year: 1965 });
    /// # });
    /// ```
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Body<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            parse_body(&req, &mut payload)
                .await
                .map(Body)
                .map_err(BodyError::into_error)
        })
    }
}

#[cfg(feature = "validator")]
mod valid {
    use super::*;
    use validator::{Validate, ValidationErrors, ValidationErrorsKind};

    /// [`Body`] then `validator::Validate`: a failed validation answers 400
    /// `Request validation failed` with one `issues` entry per failed rule
    /// (`location` `body`, `name` the JSON pointer, `code` the rule's code,
    /// e.g. `length`, `range`, and the rule's parameters such as `min`,
    /// `max`). A JSON body with member errors (missing, wrong type) lists
    /// them first, then the failed rules of the other members.
    ///
    /// ```
    /// use problem_core::pipeline::ValidBody;
    /// use validator::Validate;
    /// #[derive(serde::Deserialize, Validate)]
    /// struct NewBook { #[validate(length(min = 1))] title: String }
    /// async fn create(book: ValidBody<NewBook>) -> String { book.0.title }
    /// ```
    ///
    /// Issues name members as the body does: validator names a field by
    /// its Rust name, so a member serde renames with `rename_all` is named
    /// by the body's member whose name that rule made from the field's
    /// (`/firstName`, `/homeAddress/zip-code`). A member named by
    /// `#[serde(rename = "..")]` alone, or absent from the body, keeps the
    /// field's Rust name.
    ///
    /// ```
    /// use actix_web::{FromRequest, ResponseError, test::TestRequest};
    /// use problem_core::pipeline::ValidBody;
    /// use validator::Validate;
    /// #[derive(Debug, serde::Deserialize, Validate)]
    /// #[serde(rename_all = "camelCase")]
    /// struct NewAuthor {
    ///     #[validate(length(min = 1))]
    ///     first_name: String,
    ///     last_name: String,
    ///     #[validate(nested)]
    ///     home_address: Address,
    ///     #[validate(length(max = 3))]
    ///     line_1: Option<String>,
    /// }
    /// #[derive(Debug, serde::Deserialize, Validate)]
    /// #[serde(rename_all = "kebab-case")]
    /// struct Address { #[validate(length(min = 2))] zip_code: String }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let names = |body: &'static str| async move {
    ///     let (req, mut payload) = TestRequest::post()
    ///         .insert_header(("Content-Type", "application/json"))
    ///         .set_payload(body)
    ///         .to_http_parts();
    ///     let err = ValidBody::<NewAuthor>::from_request(&req, &mut payload).await.unwrap_err();
    ///     let bytes = actix_web::body::to_bytes(err.error_response().into_body()).await.unwrap();
    ///     let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    ///     body["issues"].as_array().unwrap().iter()
    ///         .map(|i| format!("{} {}", i["name"].as_str().unwrap(), i["message"].as_str().unwrap()))
    ///         .collect::<Vec<_>>()
    /// };
    /// assert_eq!(
    ///     names(r#"{"firstName": "", "lastName": "Le Guin", "homeAddress": {"zip-code": "1"}, "line1": "Elm Street"}"#).await,
    ///     [
    ///         "/firstName firstName fails the `length` rule",
    ///         "/homeAddress/zip-code zip-code fails the `length` rule",
    ///         "/line1 line1 fails the `length` rule",
    ///     ]
    /// );
    /// // With a member error, the other members' rules follow it.
    /// assert_eq!(
    ///     names(r#"{"firstName": "", "lastName": 7, "homeAddress": {"zip-code": "12"}}"#).await,
    ///     ["/lastName invalid type: integer `7`, expected a string", "/firstName firstName fails the `length` rule"]
    /// );
    /// # });
    /// ```
    ///
    /// Needs the feature `validator`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ValidBody<T>(pub T);

    impl<T> ValidBody<T> {
        /// The body.
        ///
        /// ```
        /// use actix_web::{FromRequest, test::TestRequest};
        /// use problem_core::pipeline::ValidBody;
        /// use validator::Validate;
        /// #[derive(Debug, PartialEq, serde::Deserialize, Validate)]
        /// struct NewBook { #[validate(length(min = 1))] title: String }
        ///
        /// # actix_web::rt::System::new().block_on(async {
        /// let (req, mut payload) = TestRequest::post()
        ///     .insert_header(("Content-Type", "application/json"))
        ///     .set_payload(r#"{"title":"Dune"}"#)
        ///     .to_http_parts();
        /// let body = ValidBody::<NewBook>::from_request(&req, &mut payload).await.unwrap();
        /// assert_eq!(body.into_inner(), NewBook { title: "Dune".into() });
        /// # });
        /// ```
        pub fn into_inner(self) -> T {
            self.0
        }
    }

    /// The `issues` of a `validator` result, each named by its member's JSON
    /// pointer from the body's root (`/title`, `/author/name`; feature
    /// `validator`); a rule of a struct itself (`#[validate(schema(..))]`)
    /// by the struct's own pointer (`""` for the body).
    ///
    /// ```
    /// use problem_core::pipeline::validation_issues;
    /// use validator::Validate;
    /// #[derive(Validate)]
    /// struct NewBook {
    ///     #[validate(length(min = 1, max = 200))]
    ///     title: String,
    ///     #[validate(range(min = 1450))]
    ///     year: u16,
    /// }
    ///
    /// let errors = NewBook { title: String::new(), year: 1200 }.validate().unwrap_err();
    /// assert_eq!(
    ///     serde_json::to_string(&validation_issues(&errors)).unwrap(),
    ///     concat!(
    ///         r#"[{"location":"body","name":"/title","code":"length","message":"title fails the `length` rule","max":200,"min":1},"#,
    ///         r#"{"location":"body","name":"/year","code":"range","message":"year fails the `range` rule","min":1450}]"#
    ///     )
    /// );
    ///
    /// // A rule of the struct itself names the body's root.
    /// #[derive(Validate)]
    /// #[validate(schema(function = "ordered"))]
    /// struct Range { from: u16, to: u16 }
    /// fn ordered(r: &Range) -> Result<(), validator::ValidationError> {
    ///     if r.from <= r.to { Ok(()) } else { Err(validator::ValidationError::new("ordered")) }
    /// }
    /// let errors = Range { from: 9, to: 1 }.validate().unwrap_err();
    /// assert_eq!(
    ///     serde_json::to_string(&validation_issues(&errors)).unwrap(),
    ///     r#"[{"location":"body","name":"","code":"ordered","message":"the body fails the `ordered` rule"}]"#
    /// );
    /// ```
    pub fn validation_issues(errors: &ValidationErrors) -> Vec<Issue> {
        let mut out = Vec::new();
        collect(errors, "", None, &mut out);
        out
    }

    /// [`validation_issues`] named after the body as sent: validator names
    /// a field by its Rust name, so a member serde renames
    /// (`rename_all = "camelCase"`: `firstName` for `first_name`) is named
    /// by the member of `body` at that place whose name is the field's
    /// under one of serde's `rename_all` rules, when exactly one is.
    fn validation_issues_in(
        errors: &ValidationErrors,
        body: Option<&serde_json::Value>,
    ) -> Vec<Issue> {
        let mut out = Vec::new();
        collect(errors, "", body, &mut out);
        out
    }

    /// `field`'s name in `node`, the body's object holding it (see
    /// [`validation_issues_in`]).
    fn member_name<'a>(node: Option<&'a serde_json::Value>, field: &'a str) -> &'a str {
        let Some(serde_json::Value::Object(members)) = node else {
            return field;
        };
        if members.contains_key(field) {
            return field;
        }
        let loose = loose_name(field);
        let mut named = members.keys().filter(|k| loose_name(k) == loose);
        match (named.next(), named.next()) {
            (Some(member), None) => member,
            (Some(_), Some(_)) | (None, _) => field,
        }
    }

    /// A name without its case and word separators: the same for a Rust
    /// field name and every name serde's `rename_all` rules make from it
    /// (`first_name`, `firstName`, `FirstName`, `first-name`, `FIRST_NAME`;
    /// `line_1` and `line1`).
    fn loose_name(name: &str) -> String {
        name.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    }

    fn collect(
        errors: &ValidationErrors,
        prefix: &str,
        node: Option<&serde_json::Value>,
        out: &mut Vec<Issue>,
    ) {
        let mut fields: Vec<_> = errors.errors().iter().collect();
        fields.sort_by(|a, b| a.0.cmp(b.0));
        for (field, kind) in fields {
            let mut path = prefix.to_owned();
            // A rule of the struct itself (`#[validate(schema(..))]`, which
            // validator files under `__all__`) names the struct's own
            // member: the root `""` for the body.
            let whole = *field == "__all__";
            let name = if whole {
                field
            } else {
                member_name(node, field)
            };
            if !whole {
                push_pointer_token(&mut path, name);
            }
            let child = if whole {
                node
            } else {
                node.and_then(|n| n.get(name))
            };
            let subject = match (whole, prefix.is_empty()) {
                (false, _) => name.to_string(),
                (true, true) => "the body".to_owned(),
                (true, false) => format!("`{prefix}`"),
            };
            match kind {
                ValidationErrorsKind::Field(list) => {
                    for e in list {
                        let message = e
                            .message
                            .as_ref()
                            .map(|m| m.to_string())
                            .unwrap_or_else(|| format!("{subject} fails the `{}` rule", e.code));
                        let mut issue = Issue::new(
                            IssueLocation::Body,
                            path.clone(),
                            e.code.to_string(),
                            message,
                        );
                        let mut params: Vec<_> =
                            e.params.iter().filter(|(k, _)| *k != "value").collect();
                        params.sort_by(|a, b| a.0.cmp(b.0));
                        for (k, v) in params {
                            issue = issue.with(k, v);
                        }
                        out.push(issue);
                    }
                }
                ValidationErrorsKind::Struct(inner) => collect(inner, &path, child, out),
                ValidationErrorsKind::List(items) => {
                    for (i, inner) in items {
                        let item = child.and_then(|c| c.get(*i));
                        collect(inner, &format!("{path}/{i}"), item, out);
                    }
                }
            }
        }
    }

    impl<T: DeserializeOwned + Validate + 'static> FromRequest for ValidBody<T> {
        type Error = actix_web::Error;
        type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

        fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
            let req = req.clone();
            let mut payload = payload.take();
            Box::pin(async move {
                match parse_body_read::<T>(&req, &mut payload).await {
                    Ok((value, read)) => match value.validate() {
                        Ok(()) => Ok(ValidBody(value)),
                        Err(errors) => {
                            let body = read.value();
                            let issues = validation_issues_in(&errors, body.as_ref());
                            Err(ValidationException::new(issues).into())
                        }
                    },
                    // Member errors, then the rules of the other members
                    // (checked on the body read with stand-ins, whose own
                    // rules are not the client's).
                    Err(BodyError::Members {
                        mut issues,
                        read:
                            Some(StoodIn {
                                value,
                                stand_ins,
                                doc,
                            }),
                    }) => {
                        if let Err(errors) = value.validate() {
                            let standing_in = |name: &str| under_any(name, &stand_ins);
                            issues.extend(
                                validation_issues_in(&errors, Some(&doc))
                                    .into_iter()
                                    .filter(|i| !standing_in(&i.name)),
                            );
                        }
                        Err(ValidationException::new(issues).into())
                    }
                    Err(e) => Err(e.into_error()),
                }
            })
        }
    }
}

#[cfg(feature = "validator")]
#[cfg_attr(docsrs, doc(cfg(feature = "validator")))]
pub use valid::{ValidBody, validation_issues};

#[cfg(test)]
mod tests {
    use super::{patch_non_finite, pointers_at};

    #[test]
    fn non_finite_tokens_are_patched_and_named() {
        let (doc, at) =
            patch_non_finite(br#"{"a/b": NaN, "x": {"y~z": [1, -Infinity, "NaN"]}, "w": inf}"#)
                .unwrap();
        assert_eq!(
            std::str::from_utf8(&doc).unwrap(),
            r#"{"a/b": 0, "x": {"y~z": [1, 0, "NaN"]}, "w": 0}"#
        );
        assert_eq!(pointers_at(&doc, &at), ["/a~1b", "/x/y~0z/1", "/w"]);
        // A document broken otherwise, or with no such token, is not patched.
        assert!(patch_non_finite(br#"{"a": NaN, "b": }"#).is_none());
        assert!(patch_non_finite(br#"{"a": NaN} x"#).is_none());
        assert!(patch_non_finite(br#"{"a": 1}"#).is_none());
        assert!(patch_non_finite(br#"{"a": Nan}"#).is_none());
        // Only where a value starts: glued to a number or a word it is a
        // syntax error, inside a string it is text.
        assert!(patch_non_finite(br#"{"a": 1NaN}"#).is_none());
        assert!(patch_non_finite(br#"{"a": NaNx}"#).is_none());
        assert!(patch_non_finite(br#"{"a": "\"NaN"}"#).is_none());
        // A top-level token is the root.
        let (doc, at) = patch_non_finite(b"NaN").unwrap();
        assert_eq!(pointers_at(&doc, &at), [""]);
        // Any number of them, in one pass.
        let many = format!("[{}]", vec!["NaN"; 5000].join(","));
        let (doc, at) = patch_non_finite(many.as_bytes()).unwrap();
        assert_eq!(at.len(), 5000);
        assert_eq!(pointers_at(&doc, &at[4999..]), ["/4999"]);
    }

    /// Only the tokens a 400 names get a pointer: a long key above many
    /// tokens is not copied once per token (a 512 KiB key above 131,072
    /// tokens asked for 64 GiB).
    #[test]
    fn only_the_named_tokens_get_a_pointer() {
        use super::{MAX_BODY_ISSUES, non_finite_issues};
        let key = "k".repeat(512);
        let doc = format!(r#"{{"{key}": [{}]}}"#, vec!["NaN"; 3000].join(","));
        assert!(doc.len() < super::MAX_GATHERED_BODY);
        let (issues, read) = non_finite_issues::<serde_json::Value>(doc.as_bytes()).unwrap();
        assert_eq!(issues.len(), MAX_BODY_ISSUES);
        assert_eq!(issues[19].name, format!("/{key}/19"));
        assert!(read.is_none());
        // Over the gathered size: the first token alone.
        let big = format!(
            r#"{{"{}": [{}]}}"#,
            "k".repeat(40_000),
            ["NaN"; 3].join(",")
        );
        let (issues, read) = non_finite_issues::<serde_json::Value>(big.as_bytes()).unwrap();
        assert_eq!(issues.len(), 1);
        assert!(read.is_none());
    }

    /// The names of a 400's issues stop at about 16 KiB: a key of 9,000
    /// `/` (each written `~1`) above many tokens is named once, not twenty
    /// times (a 16 KB body made a 643 KB 400), and member errors under long
    /// keys stop likewise.
    #[test]
    fn the_names_of_a_400_stop_at_a_byte_budget() {
        use std::collections::BTreeMap;

        use super::{MAX_BODY_ISSUES, MAX_NAMED_BYTES, non_finite_issues, parse_json};
        let key = "/".repeat(9000);
        let doc = format!(r#"{{"{key}": [{}]}}"#, ["NaN"; 80].join(","));
        assert!(doc.len() < super::MAX_GATHERED_BODY);
        let (issues, read) = non_finite_issues::<serde_json::Value>(doc.as_bytes()).unwrap();
        let lengths: Vec<usize> = issues.iter().map(|i| i.name.len()).collect();
        assert_eq!(lengths, [18_003]);
        assert!(issues[0].name == format!("/{}/0", "~1".repeat(9000)));
        assert!(read.is_none());
        // Keys of 1,000 bytes, each pointer 2,003: the budget is reached
        // after the ninth (16,027 bytes), in a body under 16 KiB.
        let key = |i: usize| format!("{i}{}", "/".repeat(999));
        let pointer = |i: usize| format!("/{i}/{i}{}", "~1".repeat(999));
        let doc = format!(
            "[{}]",
            (0..15)
                .map(|i| format!(r#"{{"{}": NaN}}"#, key(i)))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(doc.len() < super::MAX_GATHERED_BODY);
        let (issues, _) = non_finite_issues::<serde_json::Value>(doc.as_bytes()).unwrap();
        let names: Vec<String> = issues.iter().map(|i| i.name.clone()).collect();
        let expected: Vec<String> = (0..9).map(pointer).collect();
        assert_eq!(names.len(), expected.len());
        assert!(names == expected);
        // Member errors: a map of records, each refusing an unknown member.
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Record {
            a: i32,
        }
        let doc = format!(
            "{{{}}}",
            (0..15)
                .map(|i| format!(r#""{}": {{"a": 1, "x": 2}}"#, key(i)))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(doc.len() < super::MAX_GATHERED_BODY);
        let Err(super::BodyError::Members { issues, .. }) =
            parse_json::<BTreeMap<String, Record>>(doc.as_bytes())
        else {
            panic!("not member errors");
        };
        let names: Vec<String> = issues.iter().map(|i| i.name.clone()).collect();
        let expected: Vec<String> = (0..9)
            .map(|i| format!("/{i}{}/x", "~1".repeat(999)))
            .collect();
        assert_eq!(names.len(), expected.len());
        assert!(names == expected);
        assert!(issues.len() < MAX_BODY_ISSUES);
        let named: usize = names.iter().map(String::len).sum();
        assert!((MAX_NAMED_BYTES..MAX_NAMED_BYTES + 2005).contains(&named));
    }

    #[test]
    fn pointers_follow_keys_with_escapes_and_array_indexes() {
        let doc = br#"{"k\"ey": [0, {"n": 1}], "m": 2}"#;
        let at = |needle: &[u8]| doc.windows(needle.len()).position(|w| w == needle).unwrap();
        assert_eq!(
            pointers_at(doc, &[at(b"0,"), at(b"1}"), at(b"2}")]),
            ["/k\"ey/0", "/k\"ey/1/n", "/m"]
        );
    }
}
