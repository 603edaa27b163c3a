//! Problem responses: [`problem_response`] and the `ResponseError` glue.

use std::borrow::{Borrow, Cow};

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderMap, HeaderValue};

use super::details::ProblemDetails;
use super::exception::ProblemBuildError;
use super::redact::{redact, redact_members};
use super::traits::Problem;

/// The content type of every problem response (RFC 9457 §3, with the
/// UTF-8 charset of RFC 8259 §8.1): `application/problem+json;
/// charset=utf-8`.
///
/// ```
/// use problem_core::{NotFoundException, PROBLEM_JSON, Problem, problem_response};
/// let body = NotFoundException::new().to_problem("/books/7").unwrap();
/// let res = problem_response(&body, None);
/// assert_eq!(res.headers().get("content-type").unwrap(), PROBLEM_JSON);
/// ```
pub const PROBLEM_JSON: &str = "application/problem+json; charset=utf-8";

/// Builds a problem response from a problem body (spec, `problemResponse`).
///
/// The status is `problem.status` (500 if that is not a valid status), the
/// body its JSON, `Content-Type: application/problem+json; charset=utf-8`,
/// `X-Content-Type-Options: nosniff`, plus `headers` (appended; a
/// `Content-Type` among them is replaced, and a `Content-Encoding` dropped:
/// the body is plain JSON, which a compression middleware outside may
/// still encode). Serialization failure never
/// panics: the response is then a fixed 500 problem (`about:blank`, with
/// the problem's `instance` when it has one). The body is sent as
/// given: masking is the error pipeline's (spec, "Masking rules").
///
/// `problem` by reference or by value; `headers` optional (spec,
/// `problemResponse(problem, headers?)`): `&HeaderMap` or `None`.
///
/// ```
/// use actix_web::http::header::{HeaderMap, HeaderValue, RETRY_AFTER};
/// use problem_core::{problem_response, ProblemDetails};
///
/// let res = problem_response(&ProblemDetails::new(404), None);
/// assert_eq!(res.status(), 404);
/// assert_eq!(res.headers().get("content-type").unwrap(), "application/problem+json; charset=utf-8");
/// assert_eq!(res.headers().get("x-content-type-options").unwrap(), "nosniff");
/// let mut headers = HeaderMap::new();
/// headers.insert(RETRY_AFTER, HeaderValue::from_static("120"));
/// headers.insert(actix_web::http::header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
/// let res = problem_response(ProblemDetails::new(503), &headers);
/// assert_eq!(res.headers().get("retry-after").unwrap(), "120");
/// assert!(res.headers().get("content-encoding").is_none());
/// // Not a status: the fixed 500, its instance kept.
/// let mut odd = ProblemDetails::new(1000);
/// odd.instance = Some("/books/7".into());
/// let res = problem_response(&odd, None);
/// assert_eq!(res.status(), 500);
/// # actix_web::rt::System::new().block_on(async {
/// assert_eq!(
///     actix_web::body::to_bytes(res.into_body()).await.unwrap(),
///     r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":"/books/7"}"#
/// );
/// # });
/// ```
pub fn problem_response<'h>(
    problem: impl Borrow<ProblemDetails>,
    headers: impl Into<Option<&'h HeaderMap>>,
) -> HttpResponse {
    let problem = problem.borrow();
    let empty = HeaderMap::new();
    let headers = headers.into().unwrap_or(&empty);
    match (
        StatusCode::from_u16(problem.status),
        serde_json::to_vec(problem),
    ) {
        (Ok(status), Ok(body)) => problem_bytes_response(status, body, headers),
        (Err(_), _) | (_, Err(_)) => fallback_response(problem.instance.as_deref()),
    }
}

/// A problem response of already serialized problem JSON: `status`, the
/// body, `headers`, then the problem content type and `nosniff`.
fn problem_bytes_response<B: MessageBody + 'static>(
    status: StatusCode,
    body: B,
    headers: &HeaderMap,
) -> HttpResponse {
    let mut res = HttpResponse::with_body(status, body);
    let out = res.headers_mut();
    for (name, value) in headers.iter() {
        out.append(name.clone(), value.clone());
    }
    // The body is plain JSON: a compression layer outside adds its own.
    if !headers.is_empty() && headers.contains_key(header::CONTENT_ENCODING) {
        out.remove(header::CONTENT_ENCODING);
    }
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res.map_into_boxed_body()
}

/// The fixed 500 problem response used when a problem cannot be rendered:
/// `type`, `title`, `status` and `instance` when given (spec, "Problem
/// body": `instance` is always present): the request path in the
/// pipeline, `""` from `standalone_response`, and from `problem_response`
/// the problem's own, omitted when it has none.
pub(crate) fn fallback_response(instance: Option<&str>) -> HttpResponse {
    let mut body =
        String::from(r#"{"type":"about:blank","title":"Internal Server Error","status":500"#);
    if let Some(instance) = instance {
        body.push_str(r#","instance":"#);
        // A `&str` always serializes.
        body.push_str(&serde_json::to_string(instance).unwrap_or_else(|_| "\"\"".into()));
    }
    body.push('}');
    problem_bytes_response(StatusCode::INTERNAL_SERVER_ERROR, body, &HeaderMap::new())
}

/// The one path from a problem to its response (spec, "Masking rules"):
/// the error pipeline (for every problem, with the request's `instance`)
/// and a problem type's standalone `ResponseError` response (`instance`
/// empty, production) both answer through it.
///
/// - A 4xx outside development is sent as the problem states it, its bytes
///   written straight from the problem
///   ([`Problem::to_problem_json`]; no intermediate body).
/// - Otherwise the body is built ([`Problem::to_problem`]); for a 5xx
///   `on_server_error(status)` is called (the pipeline logs it and returns
///   the correlation id), then [`finish_document`] masks or redacts it.
///
/// # Errors
/// [`ProblemBuildError`] when the problem's extensions or headers cannot
/// be built: the caller answers an unknown error (pipeline) or the fixed
/// 500 (standalone).
pub(crate) fn render_document(
    problem: &dyn Problem,
    instance: &str,
    development: bool,
    on_server_error: impl FnOnce(u16) -> Option<String>,
) -> Result<HttpResponse, ProblemBuildError> {
    let status = problem.status();
    if !development
        && !status.is_server_error()
        && let (Ok(body), Ok(headers)) = (problem.to_problem_json(instance), problem.headers())
    {
        return Ok(problem_bytes_response(status, body, &headers));
    }
    let body = problem.to_problem(instance)?;
    let headers = problem.headers()?;
    let correlation_id = if body.status >= 500 {
        on_server_error(body.status)
    } else {
        None
    };
    Ok(finish_document(body, &headers, development, correlation_id))
}

/// The last step of every problem document: in development every text is
/// redacted ([`redact`]: `detail`, extensions, `stack`; an extension named
/// like a credential shows `"***"`); outside it a 5xx
/// keeps only `type`, `title`, `status` and `instance` ([`mask`]); then
/// the correlation id of a logged 5xx, and the bytes, in the member order
/// of [`ProblemDetails`].
pub(crate) fn finish_document(
    mut body: ProblemDetails,
    headers: &HeaderMap,
    development: bool,
    correlation_id: Option<String>,
) -> HttpResponse {
    if development {
        redact_document(&mut body);
    } else if body.status >= 500 {
        mask(&mut body);
    }
    if correlation_id.is_some() {
        body.correlation_id = correlation_id;
    }
    problem_response(&body, headers)
}

/// Drops what a 5xx body may not show outside development: detail,
/// extensions and stack (spec, "Masking rules").
fn mask(problem: &mut ProblemDetails) {
    problem.detail = None;
    problem.extensions.clear();
    problem.stack = None;
}

/// Redacts credentials from every text a development body shows.
fn redact_document(body: &mut ProblemDetails) {
    for text in [&mut body.detail, &mut body.stack].into_iter().flatten() {
        if let Cow::Owned(r) = redact(text) {
            *text = r;
        }
    }
    // As the members of an object: an extension named like a credential
    // (`password`, `token`, ...) shows `"***"`, as it does nested.
    redact_members(&mut body.extensions);
}

/// Marker left in the extensions of a response built by
/// `ResponseError::error_response` of a problem type: it finds the problem
/// again in the response's `actix_web::Error`, so the error pipeline can
/// fill `instance`, mask and log it.
///
/// ```
/// use problem_core::{NotFoundException, Problem, ProblemSource};
/// let err: actix_web::Error = NotFoundException::new().with_detail("Book 7 not found").into();
/// let res = err.error_response();
/// let source = *res.extensions().get::<ProblemSource>().unwrap();
/// let problem = source.find(&err).unwrap();
/// assert_eq!((problem.name(), problem.status().as_u16()), ("NotFoundException", 404));
/// ```
#[derive(Clone, Copy)]
pub struct ProblemSource(pub(crate) fn(&actix_web::Error) -> Option<&dyn Problem>);

impl ProblemSource {
    /// The marker of the problem type `P`: for an `actix_web::Error` made
    /// from a `P` without rendering it first.
    pub(crate) fn of<P: Problem>() -> Self {
        ProblemSource(find_problem::<P>)
    }

    /// Finds the problem this marker was left for in `err`; `None` when
    /// `err` holds another type.
    ///
    /// ```
    /// use problem_core::{ConflictException, NotFoundException, Problem, ProblemSource};
    /// let err: actix_web::Error = ConflictException::new().with_detail("Duplicate ISBN").into();
    /// let source = *err.error_response().extensions().get::<ProblemSource>().unwrap();
    /// assert_eq!(source.find(&err).unwrap().detail().as_deref(), Some("Duplicate ISBN"));
    /// let other: actix_web::Error = NotFoundException::new().into();
    /// assert!(source.find(&other).is_none());
    /// ```
    pub fn find<'e>(&self, err: &'e actix_web::Error) -> Option<&'e dyn Problem> {
        (self.0)(err)
    }
}

impl std::fmt::Debug for ProblemSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProblemSource")
    }
}

fn find_problem<P: Problem>(err: &actix_web::Error) -> Option<&dyn Problem> {
    err.as_error::<P>().map(|p| p as &dyn Problem)
}

/// The response of a problem type's `ResponseError::error_response`, used
/// when the error pipeline is not installed: the production-mode problem
/// document (a 5xx keeps only `type`, `title`, `status` and its headers),
/// with `instance` empty because `ResponseError` cannot see the request.
/// The pipeline replaces it with the full response.
///
/// A problem type written by hand (not `#[derive(Problem)]`) answers with
/// it from its `error_response`: the response also carries the
/// [`ProblemSource`] by which the pipeline finds the problem again. Without
/// it the pipeline sees an unknown error (a masked 500).
///
/// ```
/// use std::fmt;
/// use actix_web::http::StatusCode;
/// use actix_web::{HttpResponse, ResponseError};
/// use problem_core::Problem;
/// use problem_core::problem::standalone_response;
///
/// #[derive(Debug)]
/// struct Teapot;
///
/// impl fmt::Display for Teapot {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         f.write_str("I'm a teapot")
///     }
/// }
/// impl std::error::Error for Teapot {}
/// impl Problem for Teapot {
///     fn status(&self) -> StatusCode { StatusCode::IM_A_TEAPOT }
///     fn name(&self) -> &'static str { "Teapot" }
/// }
/// impl ResponseError for Teapot {
///     fn status_code(&self) -> StatusCode { Problem::status(self) }
///     fn error_response(&self) -> HttpResponse { standalone_response(self) }
/// }
///
/// let res = Teapot.error_response();
/// assert_eq!(res.status(), 418);
/// assert_eq!(res.headers().get("content-type").unwrap(), "application/problem+json; charset=utf-8");
/// assert!(res.extensions().get::<problem_core::ProblemSource>().is_some());
/// ```
pub fn standalone_response<P: Problem>(problem: &P) -> HttpResponse {
    let mut res = render_document(problem, "", false, |_| None)
        .unwrap_or_else(|_| fallback_response(Some("")));
    res.extensions_mut()
        .insert(ProblemSource(find_problem::<P>));
    res
}

/// Implements `actix_web::ResponseError` for a concrete problem type.
#[doc(hidden)]
#[macro_export]
macro_rules! impl_response_error {
    ($ty:ty) => {
        impl $crate::__private::actix_web::ResponseError for $ty {
            fn status_code(&self) -> $crate::__private::actix_web::http::StatusCode {
                $crate::Problem::status(self)
            }
            fn error_response(&self) -> $crate::__private::actix_web::HttpResponse {
                $crate::__private::standalone_response(self)
            }
        }
    };
}

/// A problem returned by the route table (404, 405) inside the error
/// pipeline: its `error_response` is only the status (no document, no
/// marker: the pipeline finds it with [`find_route_problem`]); the pipeline
/// renders the document, with `instance`, once. Exception filters catch it
/// as the problem it holds ([`Problem::catch`]).
pub(crate) struct Deferred<P>(pub(crate) P);

/// The problems the route table answers, the only ones it defers.
pub(crate) trait RouteProblem: Problem {}

impl RouteProblem for super::NotFoundException {}
impl RouteProblem for super::MethodNotAllowedException {}

/// The route table's deferred problem in `err`, if it is one: what the
/// marker of [`standalone_response`] finds for the other problem types,
/// without an extension on every 404 and 405.
pub(crate) fn find_route_problem(err: &actix_web::Error) -> Option<&dyn Problem> {
    find_deferred::<super::NotFoundException>(err)
        .or_else(|| find_deferred::<super::MethodNotAllowedException>(err))
}

impl<P: Problem> std::fmt::Debug for Deferred<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl<P: Problem> std::fmt::Display for Deferred<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl<P: Problem> std::error::Error for Deferred<P> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl<P: Problem> actix_web::ResponseError for Deferred<P> {
    fn status_code(&self) -> StatusCode {
        self.0.status()
    }
    fn error_response(&self) -> HttpResponse {
        HttpResponse::new(self.0.status())
    }
}

fn find_deferred<P: Problem>(err: &actix_web::Error) -> Option<&dyn Problem> {
    err.as_error::<Deferred<P>>().map(|d| &d.0 as &dyn Problem)
}

/// The route table's answer for `problem`: rendered once by the pipeline
/// when `deferred` (the pipeline is installed around the route table), else
/// the problem itself (its standalone response).
pub(crate) fn route_error<P: RouteProblem>(problem: P, deferred: bool) -> actix_web::Error {
    if deferred {
        Deferred(problem).into()
    } else {
        problem.into()
    }
}
