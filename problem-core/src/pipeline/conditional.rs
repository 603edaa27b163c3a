//! [`ConditionalRequests`]: entity tags, `If-Match` and `If-None-Match` on
//! reads, and `HEAD` bodies (RFC 9110 §8.8.3 "ETag", §13.1.1 "If-Match",
//! §13.1.2 "If-None-Match", §9.3.2 "HEAD"), and [`check_if_match`] for
//! handlers of writes.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::http::header::{self, EntityTag, HeaderMap, HeaderValue, IfMatch, IfNoneMatch};
use actix_web::http::{Method, StatusCode};
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpResponse};
use futures_util::future::LocalBoxFuture;

use crate::problem::{HttpException, InternalServerErrorException};

use crate::spec::PRECONDITION_FAILED;

/// The strong entity tag of a representation's bytes (RFC 9110 §8.8.3):
/// the 128-bit XXH3 hash of the bytes (fast, not cryptographic; AVX2 when
/// the CPU has it, detected at run time, with the same value), in
/// lower-case hex. [`ConditionalRequests`] tags responses with it; a
/// handler computes the current tag of what it is about to replace or
/// delete with it, for [`check_if_match`].
///
/// ```
/// use problem_core::pipeline::entity_tag;
/// let tag = entity_tag(b"{\"id\":1}");
/// assert!(!tag.weak);
/// assert_eq!(tag.tag().len(), 32);
/// assert_eq!(tag, entity_tag(b"{\"id\":1}"));
/// assert_ne!(tag, entity_tag(b"{\"id\":2}"));
/// assert_eq!(entity_tag(b"").to_string(), "\"99aa06d3014798d86001c324468d497f\"");
/// ```
pub fn entity_tag(bytes: &[u8]) -> EntityTag {
    EntityTag::new_strong(format!("{:032x}", xxh3_128(bytes)))
}

/// XXH3-128 of `bytes` (`twox-hash`, which picks AVX2 or SSE2 at run time
/// on x86-64; the value does not depend on the path taken).
fn xxh3_128(bytes: &[u8]) -> u128 {
    twox_hash::XxHash3_128::oneshot(bytes)
}

/// [`entity_tag`] as the `ETag` header value writes it, `"<32 hex digits>"`,
/// built on the stack.
fn quoted_tag(bytes: &[u8]) -> [u8; 34] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = xxh3_128(bytes).to_be_bytes();
    let mut out = [b'"'; 34];
    // Two digits per byte of the hash, most significant first.
    for (pair, byte) in out[1..33].chunks_exact_mut(2).zip(hash) {
        pair[0] = HEX[usize::from(byte >> 4)];
        pair[1] = HEX[usize::from(byte & 0xf)];
    }
    out
}

/// Evaluates the request's `If-Match` against the current representation
/// of the target resource (RFC 9110 §13.1.1), before a write that replaces
/// or deletes it: pass the [`entity_tag`] of the representation a `GET`
/// would return now, or `None` when there is none.
///
/// - no `If-Match`: `Ok(())`;
/// - `If-Match: *`: `Ok(())` when a current representation exists;
/// - a list of entity tags: `Ok(())` when one of them is strongly equal to
///   the current tag (RFC 9110 §8.8.3.2: a weak tag never matches);
/// - otherwise, or when the header does not parse (an element that is not
///   an entity tag, `*` beside tags): the `412 Precondition
///   Failed` problem, detail `The resource has changed since it was read`
///   ([`spec::PRECONDITION_FAILED`](crate::spec::PRECONDITION_FAILED), [`PreconditionFailed`]). The handler
///   returns it with `?` before writing anything.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::pipeline::{check_if_match, entity_tag};
///
/// let current = entity_tag(b"{\"id\":7}");
/// let req = TestRequest::delete().to_http_request();
/// assert!(check_if_match(&req, Some(&current)).is_ok());
/// let req = TestRequest::delete().insert_header(("If-Match", current.to_string())).to_http_request();
/// assert!(check_if_match(&req, Some(&current)).is_ok());
/// let req = TestRequest::delete().insert_header(("If-Match", "\"stale\"")).to_http_request();
/// let err = check_if_match(&req, Some(&current)).unwrap_err();
/// assert_eq!(err.to_string(), "The resource has changed since it was read");
/// let req = TestRequest::delete().insert_header(("If-Match", "*")).to_http_request();
/// assert!(check_if_match(&req, None).is_err());
/// // A tag may hold non-ASCII text (obs-text, RFC 9110 §8.8.3).
/// let list = format!("{current}, \"é\"");
/// let req = TestRequest::delete().insert_header(("If-Match", list)).to_http_request();
/// assert!(check_if_match(&req, Some(&current)).is_ok());
/// // Every element must be an entity tag.
/// let list = format!("garbage, {current}");
/// let req = TestRequest::delete().insert_header(("If-Match", list)).to_http_request();
/// assert!(check_if_match(&req, Some(&current)).is_err());
/// ```
///
/// # Errors
/// [`PreconditionFailed`]: the `412` problem above.
pub fn check_if_match<M: HttpMessage>(
    req: &M,
    current: Option<&EntityTag>,
) -> Result<(), PreconditionFailed> {
    if !req.headers().contains_key(header::IF_MATCH) {
        return Ok(());
    }
    let matches = match tag_list(req.headers(), &header::IF_MATCH) {
        Some(IfMatch::Any) => current.is_some(),
        Some(IfMatch::Items(tags)) => Current::own(current).named_in(&tags, Comparison::Strong),
        None => false,
    };
    if matches {
        Ok(())
    } else {
        Err(PreconditionFailed)
    }
}

/// Evaluates the preconditions of a write that replaces or deletes the
/// target resource (RFC 9110 §13.2.2, steps 1 and 3): `If-Match` as
/// [`check_if_match`] does, then `If-None-Match` (§13.1.2). Pass the
/// [`entity_tag`] of the representation a `GET` would return now, or
/// `None` when there is none.
///
/// `If-None-Match` fails a write when it is `*` and a current
/// representation exists (the "create only if absent" guard), when one of
/// its tags weakly matches the current tag, or when it does not parse (an
/// empty field is the empty list, which names no tag: the write goes on);
/// then, as for `If-Match`, the answer is the `412 Precondition Failed`
/// problem ([`PreconditionFailed`]) and nothing may be written. The
/// service has no `Last-Modified`, so steps 2 and 4 (`If-Unmodified-Since`,
/// `If-Modified-Since`) do not apply.
///
/// The check and the write must be one step (a transaction that locks the
/// row, or a compare-and-swap `UPDATE .. WHERE` the stored value is still
/// the one checked, answering this `412` when no row changed): otherwise
/// two clients holding the same tag both pass, and one update is lost.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::pipeline::{check_preconditions, entity_tag};
///
/// let current = entity_tag(b"{\"id\":7}");
/// let put = |name: &str, value: String| {
///     TestRequest::put().insert_header((name, value)).to_http_request()
/// };
/// assert!(check_preconditions(&TestRequest::put().to_http_request(), Some(&current)).is_ok());
/// // Only if absent: refused over a current representation, allowed without one.
/// assert!(check_preconditions(&put("If-None-Match", "*".into()), Some(&current)).is_err());
/// assert!(check_preconditions(&put("If-None-Match", "*".into()), None).is_ok());
/// // Only if changed: refused when the tag is the current one (weakly).
/// let weak = format!("W/{current}");
/// assert!(check_preconditions(&put("If-None-Match", weak), Some(&current)).is_err());
/// assert!(check_preconditions(&put("If-None-Match", "\"old\"".into()), Some(&current)).is_ok());
/// assert!(check_preconditions(&put("If-None-Match", "".into()), Some(&current)).is_ok());
/// // If-Match as check_if_match.
/// assert!(check_preconditions(&put("If-Match", "\"old\"".into()), Some(&current)).is_err());
/// ```
///
/// # Errors
/// [`PreconditionFailed`]: the `412` problem.
pub fn check_preconditions<M: HttpMessage>(
    req: &M,
    current: Option<&EntityTag>,
) -> Result<(), PreconditionFailed> {
    check_if_match(req, current)?;
    if !req.headers().contains_key(header::IF_NONE_MATCH) {
        return Ok(());
    }
    let passes = match tag_list(req.headers(), &header::IF_NONE_MATCH) {
        Some(IfMatch::Any) => current.is_none(),
        Some(IfMatch::Items(tags)) => !Current::own(current).named_in(&tags, Comparison::Weak),
        None => false,
    };
    if passes {
        Ok(())
    } else {
        Err(PreconditionFailed)
    }
}

/// The entity-tag list of every `name` field line together (RFC 9110
/// §13.1.1, §13.1.2: `"*" / #entity-tag`), read strictly: `None` when any
/// element is not an entity tag or when `*` stands beside tags. actix-web's
/// own parse drops the elements it cannot read, so `If-Match: garbage,
/// "<current>"` would pass for `"<current>"`. Empty list elements
/// (`a, , b`) are allowed, and a field with no element at all is the
/// empty list (RFC 9110 §5.6.1), which names no tag. A tag may hold
/// `obs-text` (bytes from 0x80, RFC 9110 §8.8.3); a line that is not
/// UTF-8 is read with each invalid sequence replaced by U+FFFD, so such a
/// tag matches only a tag holding U+FFFD in its place (never one this
/// crate makes, which are hex).
fn tag_list(headers: &HeaderMap, name: &header::HeaderName) -> Option<IfMatch> {
    let mut any = false;
    let mut tags = Vec::new();
    for line in headers.get_all(name) {
        let text = String::from_utf8_lossy(line.as_bytes());
        let mut rest: &str = &text;
        loop {
            rest = rest.trim_start_matches([' ', '\t', ',']);
            if rest.is_empty() {
                break;
            }
            let len = if rest.starts_with('*') {
                any = true;
                1
            } else {
                // `[ "W/" ] DQUOTE *etagc DQUOTE`, parsed by actix-web.
                let open = if rest.starts_with("W/") { 2 } else { 0 };
                let close = rest.get(open + 1..)?.find('"')?;
                let len = open + 1 + close + 1;
                tags.push(rest.get(..len)?.parse::<EntityTag>().ok()?);
                len
            };
            rest = rest[len..].trim_start_matches([' ', '\t']);
            if !(rest.is_empty() || rest.starts_with(',')) {
                return None;
            }
        }
    }
    match (any, tags.is_empty()) {
        (true, true) => Some(IfMatch::Any),
        (false, _) => Some(IfMatch::Items(tags)),
        (true, false) => None,
    }
}

/// How a precondition compares entity tags (RFC 9110 §8.8.3.2): `If-Match`
/// strongly (both strong, same opaque tag), `If-None-Match` weakly (same
/// opaque tag).
#[derive(Debug, Clone, Copy)]
enum Comparison {
    Strong,
    Weak,
}

/// The current representation's entity tag: the one its handler set, or
/// the one [`ConditionalRequests`] computed (quoted, `"<32 hex digits>"`,
/// compared without building an [`EntityTag`]); neither when there is no
/// current representation.
struct Current<'a> {
    own: Option<&'a EntityTag>,
    computed: Option<&'a [u8; 34]>,
}

impl<'a> Current<'a> {
    /// A tag a handler computed ([`entity_tag`]), or none.
    fn own(own: Option<&'a EntityTag>) -> Self {
        Self {
            own,
            computed: None,
        }
    }

    /// Whether one of `tags` is the current tag, compared as `how`.
    fn named_in(&self, tags: &[EntityTag], how: Comparison) -> bool {
        match (self.own, self.computed) {
            (Some(own), _) => tags.iter().any(|t| match how {
                Comparison::Strong => t.strong_eq(own),
                Comparison::Weak => t.weak_eq(own),
            }),
            // The computed tag is strong.
            (None, Some(quoted)) => tags.iter().any(|t| {
                let comparable = match how {
                    Comparison::Strong => !t.weak,
                    Comparison::Weak => true,
                };
                comparable && Some(t.tag().as_bytes()) == quoted.get(1..33)
            }),
            (None, None) => false,
        }
    }
}

/// `If-Match` did not match the current representation (RFC 9110
/// §13.1.1): the answer is the `412 Precondition Failed` problem, detail
/// `The resource has changed since it was read`. Returned by
/// [`check_if_match`]; converts into that problem ([`HttpException`], or
/// `actix_web::Error` with `?` in a handler).
///
/// ```
/// use problem_core::{HttpException, Problem};
/// use problem_core::pipeline::PreconditionFailed;
/// let problem = HttpException::from(PreconditionFailed);
/// assert_eq!(problem.status().as_u16(), 412);
/// assert_eq!(problem.title(), "Precondition Failed");
/// assert_eq!(problem.detail().unwrap(), "The resource has changed since it was read");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", PRECONDITION_FAILED.detail)]
pub struct PreconditionFailed;

impl From<PreconditionFailed> for HttpException {
    fn from(_: PreconditionFailed) -> Self {
        HttpException::from_status(StatusCode::PRECONDITION_FAILED)
            .with_detail(PRECONDITION_FAILED.detail)
    }
}

impl From<PreconditionFailed> for actix_web::Error {
    fn from(err: PreconditionFailed) -> Self {
        HttpException::from(err).into()
    }
}

/// Middleware: conditional `GET`/`HEAD` and `HEAD` bodies, installed by
/// [`ProblemApp`](crate::server::ProblemApp) outside the error pipeline.
///
/// For a `GET` or `HEAD` request whose response is a success (2xx other than
/// `204`) with a non-empty body of known length:
///
/// 1. the body's strong [`entity_tag`] is set as `ETag` (RFC 9110 §8.8.3),
///    unless the handler set an `ETag` itself, and its length as
///    `Content-Length`; a configured [`cache_control`](Self::cache_control)
///    is added when the response has no `Cache-Control` (RFC 9111 §5.2);
/// 2. when the request has an `If-Match` that is not `*` and lists no tag
///    strongly equal to that `ETag`, or that does not parse (as
///    [`check_if_match`] reads it), the answer is the `412 Precondition
///    Failed` problem, detail `The resource has changed since it was read`
///    (RFC 9110 §13.1.1; evaluated before `If-None-Match`, §13.2.2);
/// 3. when the request's `If-None-Match` is `*` or lists a tag weakly equal
///    to that `ETag` (RFC 9110 §13.1.2), the answer is `304 Not Modified`
///    with the response's headers (`ETag`, `Vary`, `Cache-Control`, the
///    version headers, ...) but no `Content-Type`, no `Content-Length` and
///    no body (RFC 9110 §15.4.5);
/// 4. otherwise the response is sent, without its body for `HEAD` (the
///    headers, `Content-Length` included, are those of `GET`).
///
/// Problem responses (4xx, 5xx) never get an `ETag`, and their requests'
/// preconditions are not evaluated (RFC 9110 §13.2.1). Streamed bodies
/// (unknown length), empty bodies and `204` pass through untagged; their
/// preconditions are evaluated against the `ETag` the handler set, if
/// any: an `If-Match` that is not `*` and names no such tag is the `412`
/// of step 2 (no tag matches a representation without one), and an
/// `If-None-Match` that is `*` or names it is the `304` of step 3 (not
/// for a `204`). Other methods pass through
/// untouched: a write evaluates its own preconditions
/// ([`check_preconditions`]). (Over the wire actix-web never sends the body
/// of a `HEAD` response; this middleware drops it for in-process callers
/// too.)
///
/// The 412 is rendered by the error pipeline when the layer comes from
/// [`ProblemApp::conditional`](crate::server::ProblemApp::conditional)
/// (its filters, the version headers and `Vary`, `instance` the path as
/// received); a layer built with [`new`](Self::new) returns it as the
/// error, for a pipeline or actix-web outside it to render.
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::pipeline::ConditionalRequests;
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(
///     App::new()
///         .wrap(ConditionalRequests::new().cache_control("no-cache"))
///         .route("/b", web::get().to(|| async { HttpResponse::Ok().body("Dune") })),
/// )
/// .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/b").to_request()).await;
/// let etag = res.headers().get("etag").unwrap().clone();
/// assert_eq!(res.headers().get("cache-control").unwrap(), "no-cache");
/// assert_eq!(test::read_body(res).await, "Dune");
///
/// let req = test::TestRequest::get().uri("/b").insert_header(("If-None-Match", etag.clone()));
/// let res = test::call_service(&app, req.to_request()).await;
/// assert_eq!(res.status(), 304);
/// assert_eq!(res.headers().get("etag").unwrap(), &etag);
/// assert!(test::read_body(res).await.is_empty());
///
/// // A representation other than the one the client holds: 412.
/// let req = test::TestRequest::get().uri("/b").insert_header(("If-Match", "\"stale\""));
/// let err = test::try_call_service(&app, req.to_request()).await.unwrap_err();
/// assert_eq!(err.error_response().status(), 412);
/// let req = test::TestRequest::get().uri("/b").insert_header(("If-Match", etag));
/// assert_eq!(test::call_service(&app, req.to_request()).await.status(), 200);
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct ConditionalRequests {
    cache_control: Option<HeaderValue>,
    /// The error pipeline that renders the `412` this layer answers to a
    /// read, when [`ProblemApp`](crate::server::ProblemApp) installs the
    /// layer outside it; without one, the `412` is returned as the error,
    /// for a pipeline or actix-web outside the layer to render.
    pipeline: Option<super::Pipeline>,
}

impl ConditionalRequests {
    /// The middleware with no `Cache-Control` of its own.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::{ConditionalRequests, entity_tag};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = test::init_service(
    ///     App::new()
    ///         .wrap(ConditionalRequests::new())
    ///         .route("/b", web::get().to(|| async { HttpResponse::Ok().body("Dune") })),
    /// )
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.headers().get("etag").unwrap(), &entity_tag(b"Dune").to_string());
    /// assert_eq!(res.headers().get("cache-control"), None);
    /// # });
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A `Cache-Control` value (RFC 9111 §5.2) for `GET`/`HEAD` success
    /// responses that have none, e.g. `no-cache` so caches revalidate
    /// with `If-None-Match` before reusing a stored response. A value that
    /// is not a valid header value, or is empty (no directive), is ignored
    /// (`ProblemApp`'s builder refuses it instead).
    ///
    /// ```
    /// use problem_core::pipeline::ConditionalRequests;
    /// let layer = ConditionalRequests::new().cache_control("no-cache");
    /// assert_eq!(layer.cache_control_value().unwrap(), "no-cache");
    /// assert!(ConditionalRequests::new().cache_control("bad\nvalue").cache_control_value().is_none());
    /// assert!(ConditionalRequests::new().cache_control(" ").cache_control_value().is_none());
    /// ```
    pub fn cache_control(mut self, value: &str) -> Self {
        self.cache_control = HeaderValue::from_str(value)
            .ok()
            .filter(|_| !value.trim().is_empty());
        self
    }

    /// The configured `Cache-Control` value, if any (RFC 9111 §5.2).
    ///
    /// ```
    /// use problem_core::pipeline::ConditionalRequests;
    /// assert!(ConditionalRequests::new().cache_control_value().is_none());
    /// ```
    pub fn cache_control_value(&self) -> Option<&HeaderValue> {
        self.cache_control.as_ref()
    }

    /// The layer with `pipeline` rendering the problems it answers (set by
    /// [`ProblemApp`](crate::server::ProblemApp), which wraps this layer
    /// outside its pipeline).
    pub(crate) fn rendered_by(mut self, pipeline: super::Pipeline) -> Self {
        self.pipeline = Some(pipeline);
        self
    }
}

impl<S, B> Transform<S, ServiceRequest> for ConditionalRequests
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B, BoxBody>>;
    type Error = actix_web::Error;
    type Transform = ConditionalService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(ConditionalService {
            service: Rc::new(service),
            cache_control: self.cache_control.clone(),
            pipeline: self.pipeline.clone(),
        }))
    }
}

/// The service of [`ConditionalRequests`] (built by actix-web; not used
/// directly). It answers `HEAD` with the headers of `GET` and no body, and
/// leaves other methods untouched:
///
/// ```
/// use actix_web::{http::Method, test, web, App, HttpResponse};
/// use problem_core::pipeline::ConditionalRequests;
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(
///     App::new()
///         .wrap(ConditionalRequests::new())
///         .route("/b", web::to(|| async { HttpResponse::Ok().body("Dune") })),
/// )
/// .await;
/// let head = test::TestRequest::default().method(Method::HEAD).uri("/b").to_request();
/// let res = test::call_service(&app, head).await;
/// assert_eq!(res.headers().get("content-length").unwrap(), "4");
/// assert!(res.headers().contains_key("etag"));
/// assert!(test::read_body(res).await.is_empty());
/// let res = test::call_service(&app, test::TestRequest::post().uri("/b").to_request()).await;
/// assert!(!res.headers().contains_key("etag"));
/// assert_eq!(test::read_body(res).await, "Dune");
/// # });
/// ```
pub struct ConditionalService<S> {
    service: Rc<S>,
    cache_control: Option<HeaderValue>,
    pipeline: Option<super::Pipeline>,
}

impl<S, B> Service<ServiceRequest> for ConditionalService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B, BoxBody>>;
    type Error = actix_web::Error;
    type Future = ConditionalFuture<S::Future, B>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let is_head = req.method() == Method::HEAD;
        if !is_head && req.method() != Method::GET {
            return ConditionalFuture::Passthrough {
                fut: self.service.call(req),
            };
        }
        // A malformed `If-None-Match` is ignored (the request is then
        // unconditional), a list with an element that is not an entity tag
        // included.
        let if_none_match = if req.headers().contains_key(header::IF_NONE_MATCH) {
            tag_list(req.headers(), &header::IF_NONE_MATCH).map(|list| match list {
                IfMatch::Any => IfNoneMatch::Any,
                IfMatch::Items(tags) => IfNoneMatch::Items(tags),
            })
        } else {
            None
        };
        // A malformed `If-Match` never matches (as for writes,
        // [`check_if_match`]); the path is kept as received for the 412's
        // `instance` (versioning may rewrite it).
        let if_match = if req.headers().contains_key(header::IF_MATCH) {
            Some(Box::new(IfMatchCheck {
                list: tag_list(req.headers(), &header::IF_MATCH),
                path: req.path().to_owned(),
                pipeline: self.pipeline.clone(),
            }))
        } else {
            None
        };
        ConditionalFuture::Conditional {
            fut: self.service.call(req),
            check: Some(Check {
                is_head,
                if_match,
                if_none_match,
                cache_control: self.cache_control.clone(),
            }),
        }
    }
}

/// What the conditional layer applies to a `GET` or `HEAD` response.
struct Check {
    is_head: bool,
    /// Boxed: the rare case keeps the layer's future small.
    if_match: Option<Box<IfMatchCheck>>,
    if_none_match: Option<IfNoneMatch>,
    cache_control: Option<HeaderValue>,
}

impl Check {
    /// Whether the request's `If-Match` holds for `current` (RFC 9110
    /// §13.1.1, strong comparison): no `If-Match`, `*`, or a list naming
    /// the current tag; a field that does not parse never holds.
    fn if_match_holds(&self, current: &Current<'_>) -> bool {
        self.if_match.as_ref().is_none_or(|c| match &c.list {
            None => false,
            Some(IfMatch::Any) => true,
            Some(IfMatch::Items(tags)) => current.named_in(tags, Comparison::Strong),
        })
    }

    /// Whether the request's `If-None-Match` names `current` (RFC 9110
    /// §13.1.2, weak comparison; `*` names any): the answer is then 304.
    fn if_none_match_names(&self, current: &Current<'_>) -> bool {
        match self.if_none_match.as_ref() {
            None => false,
            Some(IfNoneMatch::Any) => true,
            Some(IfNoneMatch::Items(tags)) => current.named_in(tags, Comparison::Weak),
        }
    }
}

/// A request's `If-Match` (RFC 9110 §13.1.1), read when the request came in.
struct IfMatchCheck {
    /// The tags, or `None` when the field does not parse (never matches).
    list: Option<IfMatch>,
    /// The request path as received: the `instance` of the 412.
    path: String,
    /// The layer's pipeline, which renders the 412 (taken only for a
    /// request with `If-Match`).
    pipeline: Option<super::Pipeline>,
}

type Tagged<B> = ServiceResponse<EitherBody<B, BoxBody>>;

pin_project_lite::pin_project! {
    /// The future of [`ConditionalService`]: the inner service's response,
    /// tagged (no allocation of its own; a body that is not one buffer is
    /// read by a boxed future).
    #[project = ConditionalProj]
    pub enum ConditionalFuture<F, B> {
        /// Not a `GET` or `HEAD`: the response as it is.
        Passthrough { #[pin] fut: F },
        /// Waiting for the response to tag.
        Conditional { #[pin] fut: F, check: Option<Check> },
        /// Reading a streamed body before tagging it.
        Reading { fut: LocalBoxFuture<'static, Result<Tagged<B>, actix_web::Error>> },
    }
}

impl<F, B> Future for ConditionalFuture<F, B>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody + 'static,
{
    type Output = Result<Tagged<B>, actix_web::Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (res, check) = match self.as_mut().project() {
            ConditionalProj::Passthrough { fut } => {
                return fut.poll(cx).map_ok(ServiceResponse::map_into_left_body);
            }
            ConditionalProj::Reading { fut } => return fut.as_mut().poll(cx),
            ConditionalProj::Conditional { fut, check } => match fut.poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(res)) => match check.take() {
                    Some(c) => (res, c),
                    // Polled after completion: answer the response untouched.
                    None => return Poll::Ready(Ok(res.map_into_left_body())),
                },
            },
        };
        match tag(res, check) {
            Ok(done) => Poll::Ready(done),
            Err(reading) => {
                self.set(ConditionalFuture::Reading { fut: reading });
                self.poll(cx)
            }
        }
    }
}

/// Tags `res` when it is a success with a body; `Ok`: the answer; `Err`:
/// the body is a stream, to be read first by the returned future.
#[allow(clippy::result_large_err, clippy::type_complexity)]
fn tag<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
    check: Check,
) -> Result<
    Result<Tagged<B>, actix_web::Error>,
    LocalBoxFuture<'static, Result<Tagged<B>, actix_web::Error>>,
> {
    let status = res.status();
    let size = res.response().body().size();
    let tagged = status.is_success()
        && status != StatusCode::NO_CONTENT
        && matches!(size, BodySize::Sized(n) if n > 0);
    if !tagged {
        // A success the layer does not tag still has its preconditions,
        // evaluated against the tag the handler set, if any (no tag
        // matches none): `If-Match` first, the 412; then `If-None-Match`,
        // the 304 with the response's headers (not for a `204`).
        if status.is_success() && (check.if_match.is_some() || check.if_none_match.is_some()) {
            let own = existing_tag(res.headers());
            let current = Current::own(own.as_ref());
            if !check.if_match_holds(&current) {
                return Ok(precondition_failed(res.map_into_left_body(), &check));
            }
            if status != StatusCode::NO_CONTENT && check.if_none_match_names(&current) {
                let mut res = res.map_into_left_body();
                add_cache_control(res.headers_mut(), check.cache_control.as_ref());
                return Ok(Ok(not_modified(res)));
            }
        }
        return Ok(Ok(match size {
            BodySize::Sized(n) if check.is_head => {
                let (req, mut response) = res.into_parts();
                if status.is_success() {
                    add_cache_control(response.headers_mut(), check.cache_control.as_ref());
                }
                set_content_length(response.headers_mut(), n);
                let response = response.set_body(BoxBody::new(HeadBody(n)));
                ServiceResponse::new(req, response).map_into_right_body()
            }
            BodySize::Sized(_) | BodySize::None | BodySize::Stream => {
                let mut res = res;
                if status.is_success() {
                    add_cache_control(res.headers_mut(), check.cache_control.as_ref());
                }
                res.map_into_left_body()
            }
        }));
    }
    // A body that is already one buffer (what `HttpResponse::body` and
    // `json` make) is tagged where it is, with no copy and without taking
    // the response apart.
    let (res, outcome) = tag_in_place(res, &check);
    match outcome {
        Outcome::Sent => Ok(Ok(res)),
        Outcome::NotModified => Ok(Ok(not_modified(res))),
        Outcome::PreconditionFailed => Ok(precondition_failed(res, &check)),
        Outcome::Stream => Err(Box::pin(async move {
            let (req, response) = res.into_parts();
            let (response, body) = response.into_parts();
            let bytes = actix_web::body::to_bytes(body).await.map_err(|_| {
                actix_web::Error::from(
                    InternalServerErrorException::new()
                        .with_detail("The response body could not be read"),
                )
            })?;
            let read = ServiceResponse::new(req, response.set_body(bytes));
            let (res, outcome) = tag_in_place(read, &check);
            let res = res.map_body(|_, body| EitherBody::right(BoxBody::new(body)));
            match outcome {
                Outcome::Sent | Outcome::Stream => Ok(res),
                Outcome::NotModified => Ok(not_modified(res)),
                Outcome::PreconditionFailed => precondition_failed(res, &check),
            }
        })),
    }
}

/// What [`tag_in_place`] made of a response.
enum Outcome {
    /// Tagged; the response to send.
    Sent,
    /// Tagged, and `If-None-Match` matched: the response is to be answered
    /// with [`not_modified`].
    NotModified,
    /// `If-Match` did not match: the response is to be answered with
    /// [`precondition_failed`].
    PreconditionFailed,
    /// The body is a stream, left as it is (the right body of the
    /// response): to be read before tagging.
    Stream,
}

/// Tags a success response whose body is one buffer, in place: `ETag`,
/// `Cache-Control`, `Content-Length`, and the body replaced by its bytes
/// (or, for `HEAD`, by its length). A streamed body is left as it is.
fn tag_in_place<B: MessageBody>(res: ServiceResponse<B>, check: &Check) -> (Tagged<B>, Outcome) {
    let mut outcome = Outcome::Sent;
    let res = res.map_body(|head, body| match body.try_into_bytes() {
        Ok(bytes) => {
            let headers = &mut head.headers;
            let existing = existing_tag(headers);
            // Computed only when the handler did not set its own.
            let computed = existing.is_none().then(|| quoted_tag(&bytes));
            // RFC 9110 §13.2.2: `If-Match` first, strong comparison.
            let current = Current {
                own: existing.as_ref(),
                computed: computed.as_ref(),
            };
            if !check.if_match_holds(&current) {
                outcome = Outcome::PreconditionFailed;
                return EitherBody::right(BoxBody::new(()));
            }
            let matches = check.if_none_match_names(&current);
            let len = bytes.len() as u64;
            if matches {
                if let Some(quoted) = &computed
                    && let Ok(value) = HeaderValue::from_bytes(quoted)
                {
                    headers.insert(header::ETAG, value);
                }
                add_cache_control(headers, check.cache_control.as_ref());
                outcome = Outcome::NotModified;
                return EitherBody::right(BoxBody::new(()));
            }
            // The headers in the order of the other paths: `ETag`,
            // `Cache-Control`, `Content-Length`.
            set_tag_and_length(
                headers,
                computed.as_ref(),
                check.cache_control.as_ref(),
                len,
            );
            if check.is_head {
                EitherBody::right(BoxBody::new(HeadBody(len)))
            } else {
                EitherBody::right(BoxBody::new(bytes))
            }
        }
        Err(body) => {
            outcome = Outcome::Stream;
            EitherBody::left(body)
        }
    });
    (res, outcome)
}

/// The answer to a `GET` or `HEAD` whose `If-Match` did not match the
/// response's `ETag` (RFC 9110 §13.1.1): the `412 Precondition Failed`
/// problem ([`PreconditionFailed`]), rendered by the layer's pipeline (its
/// filters, the request's version headers and `Vary`, `instance` the path
/// as received); without one, returned as the error, for a pipeline
/// outside the layer to render.
#[allow(clippy::result_large_err)]
#[cold]
#[inline(never)]
fn precondition_failed<B>(res: Tagged<B>, check: &Check) -> Result<Tagged<B>, actix_web::Error> {
    let err = actix_web::Error::from(PreconditionFailed);
    let Some((pipeline, if_match)) = check
        .if_match
        .as_ref()
        .and_then(|c| Some((c.pipeline.as_ref()?, c)))
    else {
        return Err(err);
    };
    let mut answer = pipeline.respond(&err, res.request(), &if_match.path);
    // As every problem answered to `HEAD`: the `GET`'s headers, no body.
    let head = match answer.body().size() {
        BodySize::Sized(n) if check.is_head => Some(n),
        BodySize::Sized(_) | BodySize::None | BodySize::Stream => None,
    };
    if let Some(n) = head {
        set_content_length(answer.headers_mut(), n);
    }
    // The bodies mapped by closures of this path's own (no generic
    // instance shared with the layer's hot path).
    let answer = answer.map_body(|_, body| match head {
        Some(n) => EitherBody::right(BoxBody::new(HeadBody(n))),
        None => EitherBody::right(body),
    });
    Ok(res.into_response(answer))
}

/// The `304 Not Modified` answer to a tagged response: its headers but no
/// `Content-Type`, no `Content-Length` and no body (RFC 9110 §15.4.5).
fn not_modified<B>(res: Tagged<B>) -> Tagged<B> {
    let (req, response) = res.into_parts();
    let mut not_modified = HttpResponse::NotModified().finish();
    let out = not_modified.headers_mut();
    for (name, value) in response.headers().iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.append(name.clone(), value.clone());
        }
    }
    ServiceResponse::new(req, not_modified.map_into_boxed_body()).map_into_right_body()
}

/// Sets `ETag` (when `quoted` is given), `Cache-Control` (when given and
/// absent) and `Content-Length`; the values of `ETag` and `Content-Length`
/// are slices of one shared buffer, so they cost one allocation.
fn set_tag_and_length(
    headers: &mut HeaderMap,
    quoted: Option<&[u8; 34]>,
    cache_control: Option<&HeaderValue>,
    len: u64,
) {
    let mut buffer = TagBuffer {
        bytes: [0; 54],
        len: 0,
    };
    let tag_len = match quoted {
        Some(quoted) => {
            buffer.bytes[..34].copy_from_slice(quoted);
            34
        }
        None => 0,
    };
    let mut digits = [0u8; 20];
    let digits = decimal(len, &mut digits);
    let end = tag_len + digits.len();
    if let Some(room) = buffer.bytes.get_mut(tag_len..end) {
        room.copy_from_slice(digits);
    }
    buffer.len = end;
    let shared = Bytes::from_owner(buffer);
    // ASCII, visible: always valid header values.
    if tag_len > 0
        && let Ok(value) = HeaderValue::from_maybe_shared(shared.slice(..tag_len))
    {
        headers.insert(header::ETAG, value);
    }
    add_cache_control(headers, cache_control);
    if let Ok(value) = HeaderValue::from_maybe_shared(shared.slice(tag_len..end)) {
        headers.insert(header::CONTENT_LENGTH, value);
    }
}

/// The `ETag` and `Content-Length` values side by side: 34 bytes of quoted
/// tag (or none) and up to 20 decimal digits.
struct TagBuffer {
    bytes: [u8; 54],
    len: usize,
}

impl AsRef<[u8]> for TagBuffer {
    fn as_ref(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

/// The response's own `ETag`, when the handler set a well-formed one.
fn existing_tag(headers: &HeaderMap) -> Option<EntityTag> {
    headers
        .get(header::ETAG)
        .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
        .and_then(|v| v.parse().ok())
}

fn add_cache_control(headers: &mut HeaderMap, value: Option<&HeaderValue>) {
    if let Some(value) = value
        && !headers.contains_key(header::CACHE_CONTROL)
    {
        headers.insert(header::CACHE_CONTROL, value.clone());
    }
}

fn set_content_length(headers: &mut HeaderMap, len: u64) {
    let mut digits = [0u8; 20];
    if let Ok(value) = HeaderValue::from_bytes(decimal(len, &mut digits)) {
        headers.insert(header::CONTENT_LENGTH, value);
    }
}

/// The decimal digits of `n`, written at the end of `out` (on the stack:
/// `HeaderValue::from(u64)` formats through a growing buffer).
fn decimal(n: u64, out: &mut [u8; 20]) -> &[u8] {
    let mut at = out.len();
    let mut n = n;
    loop {
        at -= 1;
        // A decimal digit: below 10.
        out[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.get(at..).unwrap_or_default()
}

/// The body of a `HEAD` response: the length of the `GET` body, no bytes.
/// actix-http writes that length as `Content-Length` and, for `HEAD`, never
/// writes body bytes (RFC 9110 §9.3.2).
struct HeadBody(u64);

impl MessageBody for HeadBody {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.0)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Poll::Ready(None)
    }
}

#[cfg(test)]
mod tests {
    use super::{entity_tag, quoted_tag, set_content_length, set_tag_and_length, tag_list};
    use actix_web::http::header::{self, EntityTag, HeaderMap, HeaderValue, IfMatch};

    /// Every element must be an entity tag, `*` alone; all lines count.
    #[test]
    fn tag_lists_are_read_strictly() {
        let list = |lines: &[&str]| {
            let mut headers = HeaderMap::new();
            for line in lines {
                headers.append(header::IF_MATCH, HeaderValue::from_str(line).unwrap());
            }
            tag_list(&headers, &header::IF_MATCH)
        };
        let strong = |t: &str| EntityTag::new_strong(t.to_owned());
        let weak = |t: &str| EntityTag::new_weak(t.to_owned());
        let tags = |l: Option<IfMatch>| match l {
            Some(IfMatch::Items(tags)) => Some(tags),
            Some(IfMatch::Any) | None => None,
        };
        assert!(matches!(list(&["*"]), Some(IfMatch::Any)));
        assert!(matches!(list(&[" * ", ","]), Some(IfMatch::Any)));
        assert_eq!(tags(list(&["\"a\""])), Some(vec![strong("a")]));
        assert_eq!(
            tags(list(&["\"a\" ,W/\"b\",, \t\"\"", "\"c\""])),
            Some(vec![strong("a"), weak("b"), strong(""), strong("c")])
        );
        for malformed in [
            &["garbage, \"a\""][..],
            &["\"a\", garbage"],
            &["\"a\"", "garbage"],
            &["*, \"a\""],
            &["*", "\"a\""],
            &["\"a\"\"b\""],
            &["\"a"],
            &["W/a"],
            &["w/\"a\""],
            &["**"],
            &["\"a\" \"é"],
        ] {
            assert!(list(malformed).is_none(), "{malformed:?}");
        }
        // No element: the empty list (RFC 9110 §5.6.1), naming no tag.
        assert_eq!(tags(list(&[""])), Some(vec![]));
        assert_eq!(tags(list(&[" , ", ","])), Some(vec![]));
        // obs-text in a tag (RFC 9110 §8.8.3), UTF-8 or not.
        assert_eq!(
            tags(list(&["\"é\", W/\"ü\""])),
            Some(vec![strong("é"), weak("ü")])
        );
        let mut headers = HeaderMap::new();
        headers.append(
            header::IF_MATCH,
            HeaderValue::from_bytes(b"\"\xe9\", \"a\"").unwrap(),
        );
        assert_eq!(
            tags(tag_list(&headers, &header::IF_MATCH)),
            Some(vec![strong("\u{fffd}"), strong("a")])
        );
    }

    #[test]
    fn content_length_is_written_as_header_value_from_u64_writes_it() {
        for len in [0, 1, 9, 10, 99, 100, 2048, 1 << 40, u64::MAX] {
            let mut headers = HeaderMap::new();
            set_content_length(&mut headers, len);
            assert_eq!(
                headers.get(header::CONTENT_LENGTH),
                Some(&HeaderValue::from(len))
            );
        }
    }

    #[test]
    fn tag_and_length_share_a_buffer_and_read_as_separate_values() {
        let cache = HeaderValue::from_static("no-cache");
        for len in [0, 7, 2048, u64::MAX] {
            for quoted in [None, Some(quoted_tag(b"Dune"))] {
                let mut headers = HeaderMap::new();
                set_tag_and_length(&mut headers, quoted.as_ref(), Some(&cache), len);
                assert_eq!(
                    headers.get(header::CONTENT_LENGTH),
                    Some(&HeaderValue::from(len))
                );
                assert_eq!(
                    headers
                        .get(header::ETAG)
                        .map(|v| v.to_str().unwrap().to_owned()),
                    quoted.map(|_| entity_tag(b"Dune").to_string())
                );
                assert_eq!(headers.get(header::CACHE_CONTROL), Some(&cache));
                assert_eq!(headers.len(), 2 + usize::from(quoted.is_some()));
            }
        }
    }

    #[test]
    fn the_hash_is_xxh3_128_on_every_length() {
        // Every length up to 4 KiB and a few longer: the short, medium and
        // long (stripes, blocks, AVX2/SSE2) paths of both implementations.
        let data: Vec<u8> = (0..10_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in (0..=4096).chain([5000, 8191, 8192, 8193, 10_000]) {
            let bytes = &data[..len];
            assert_eq!(
                super::xxh3_128(bytes),
                xxhash_rust::xxh3::xxh3_128(bytes),
                "{len}"
            );
        }
    }

    #[test]
    fn the_quoted_tag_is_the_entity_tag_as_written() {
        for body in [&b""[..], b"Dune", &[0xff; 4096]] {
            let quoted = quoted_tag(body);
            assert_eq!(
                std::str::from_utf8(&quoted).unwrap(),
                entity_tag(body).to_string()
            );
        }
    }
}
