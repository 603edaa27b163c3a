//! [`Versioning`]: the middleware that resolves the version once per
//! request, and the [`ApiVersion`] extractor (spec, "Versioning").

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Payload, Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::http::Uri;
use actix_web::http::header::{self, HeaderMap};
use actix_web::http::uri::PathAndQuery;
use actix_web::{Error, FromRequest, HttpMessage, HttpRequest};

use super::api_version::ApiVersion;
use super::cache::SharedHeaders;
use super::config::VersionConfig;
use super::error::VersionError;
use crate::pipeline::merge_map;
use crate::pipeline::{add_shared_sticky_headers, merge_vary, with_sticky_headers};
use crate::problem::{InternalServerErrorException, ProblemSource, find_route_problem};
use crate::routing::OriginalPath;

/// The versioning middleware: `App::new().wrap(Versioning::new(config))`.
///
/// For every request whose path is not version-neutral
/// ([`VersionConfigBuilder::neutral_path`](super::VersionConfigBuilder::neutral_path)),
/// before routing:
///
/// 1. resolves the version once
///    ([`VersionConfig::resolve_version`]); a [`VersionError`](super::VersionError)
///    is answered at once with its problem document (400 or 410, see
///    there), carrying `X-API-Supported-Versions` per the configuration;
/// 2. removes a well-formed URL version segment from the path (`/v2/books`
///    is routed as `/books`, `/api/v2/books` as `/api/books`), whichever
///    source decided the version, so one route table serves every version
///    and an unversioned path is served by the default version instead of
///    a 404; the path as received is kept in the request extensions as
///    [`OriginalPath`] (the route table's 404 and 405 details use it);
/// 3. stores the version in the request extensions: handlers take it as
///    an [`ApiVersion`] argument, and `versioned!` routes dispatch on it;
/// 4. applies [`VersionConfig::version_headers`] to the response, problem
///    responses included, and records them with
///    [`add_shared_sticky_headers`](crate::pipeline::add_shared_sticky_headers) so the error pipeline keeps them on the
///    problem responses it renders.
///
/// Neutral paths pass through: no resolution, no headers, and no rewriting
/// except that a neutral path reached through a version segment
/// (`/v3/health` for a neutral `/health`) is routed without the segment.
/// Routes outside a `web::scope` wrapped with `Versioning` are neutral too.
///
/// Install the error pipeline outside (after) this middleware in `wrap`
/// order, so it sees the request path as received (the problem `instance`)
/// and renders the errors of inner layers. Like actix-web's
/// `NormalizePath`, rewriting the path needs the only handle on the
/// request: an outer middleware must not keep a clone of the
/// `HttpRequest` while it calls the inner service.
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
///
/// # actix_web::rt::System::new().block_on(async {
/// let config = VersionConfig::builder(VersionStrategy::url_path())
///     .default_version(ApiVersion::V2)
///     .supported_versions([ApiVersion::V1, ApiVersion::V2])
///     .build()
///     .unwrap();
/// let app = test::init_service(
///     App::new()
///         .wrap(Versioning::new(config))
///         .route("/books", web::get().to(|v: ApiVersion| async move {
///             HttpResponse::Ok().body(format!("books v{v}"))
///         })),
/// )
/// .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/v1/books").to_request()).await;
/// assert_eq!(res.headers().get("x-api-version").unwrap(), "1");
/// assert_eq!(test::read_body(res).await, "books v1.0");
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
/// assert_eq!(test::read_body(res).await, "books v2.0");
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct Versioning {
    config: Arc<VersionConfig>,
    vary: bool,
}

impl Versioning {
    /// The middleware for a built configuration, with `Vary` on (see
    /// [`vary`](Self::vary)).
    ///
    /// ```
    /// use actix_web::{test, web, App};
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .default_version(ApiVersion::V1)
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2])
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(
    ///     App::new().wrap(Versioning::new(config)).route("/books", web::get().to(|| async { "books" })),
    /// )
    /// .await;
    /// let req = test::TestRequest::get().uri("/books").insert_header(("X-API-Version", "2")).to_request();
    /// let res = test::call_service(&app, req).await;
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    /// assert_eq!(res.headers().get("x-api-supported-versions").unwrap(), "1, 2");
    /// assert_eq!(res.headers().get("vary").unwrap(), "X-API-Version");
    /// # });
    /// ```
    pub fn new(config: VersionConfig) -> Self {
        Self {
            config: Arc::new(config),
            vary: true,
        }
    }

    /// The middleware sharing an existing configuration.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::{test, web, App};
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let config = Arc::new(VersionConfig::builder(VersionStrategy::url_path()).removed(ApiVersion::V1).build().unwrap());
    /// let app = test::init_service(
    ///     App::new().wrap(Versioning::from_arc(config.clone())).route("/books", web::get().to(|| async { "books" })),
    /// )
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/v1/books").to_request()).await;
    /// assert_eq!(res.status(), 410);
    /// assert_eq!(config.removed_versions(), [ApiVersion::V1]);
    /// # });
    /// ```
    pub fn from_arc(config: Arc<VersionConfig>) -> Self {
        Self { config, vary: true }
    }

    /// Whether every response to a versioned request (success and problem
    /// responses alike, not neutral paths) carries `Vary` naming the
    /// request headers the strategy reads ([`VersionConfig::vary`]),
    /// merged into any `Vary` already there (RFC 9110 §12.5.5), so a shared
    /// cache never serves one version's response to a request for another
    /// (RFC 9111 §4.1). On by default; `vary(false)` leaves `Vary` to the
    /// application (for one that sets it itself), at the risk of a shared
    /// cache mixing versions.
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let config = VersionConfig::builder(VersionStrategy::combined([
    ///     VersionStrategy::header(),
    ///     VersionStrategy::media_type("vnd.catalog"),
    /// ]))
    /// .default_version(ApiVersion::V1)
    /// .build()
    /// .unwrap();
    /// let handler = || async { HttpResponse::Ok().insert_header(("Vary", "Origin")).finish() };
    /// let app = test::init_service(
    ///     App::new().wrap(Versioning::new(config.clone())).route("/b", web::get().to(handler)),
    /// )
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.headers().get("vary").unwrap(), "Origin, X-API-Version, Accept");
    ///
    /// let app = test::init_service(
    ///     App::new().wrap(Versioning::new(config).vary(false)).route("/b", web::get().to(handler)),
    /// )
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.headers().get("vary").unwrap(), "Origin");
    /// # });
    /// ```
    pub fn vary(mut self, on: bool) -> Self {
        self.vary = on;
        self
    }

    /// The configuration.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
    /// let config = VersionConfig::builder(VersionStrategy::header()).default_version(ApiVersion::V3).build()?;
    /// let versioning = Versioning::new(config);
    /// assert_eq!(versioning.config().default_version(), Some(ApiVersion::V3));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn config(&self) -> &VersionConfig {
        &self.config
    }

    /// Records, as the request's sticky headers, the version headers (and
    /// `Vary`, when on) that this middleware would give the request's
    /// response, for a problem answered before it runs (the error
    /// pipeline's own early answers): those of the resolved version, or
    /// the general ones (`X-API-Supported-Versions`) when resolution fails.
    /// Nothing for a version-neutral path.
    pub(crate) fn record_early(&self, req: &ServiceRequest) {
        let stripped = self.config.strategy().strip_path(req.path());
        if is_neutral(&self.config, req.path(), stripped.as_deref()) {
            return;
        }
        let version = self.config.resolve_head(req.head());
        with_sticky_headers(req, |sticky| {
            match version {
                Ok(version) => sticky.push_shared(self.config.headers_of(version)),
                Err(_) => sticky.push(self.config.shared_general_headers()),
            }
            if self.vary
                && let Some(vary) = self.config.shared_vary()
            {
                sticky.push(vary.clone());
            }
        });
    }
}

impl From<VersionConfig> for Versioning {
    fn from(config: VersionConfig) -> Self {
        Self::new(config)
    }
}

impl<S, B> Transform<S, ServiceRequest> for Versioning
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Transform = VersionMiddleware<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(VersionMiddleware {
            service: Rc::new(service),
            vary: if self.vary {
                self.config.shared_vary().cloned()
            } else {
                None
            },
            config: self.config.clone(),
        }))
    }
}

/// The service of [`Versioning`] (built by actix-web; not used directly).
///
/// ```
/// use actix_web::dev::{Service, Transform};
/// use actix_web::test;
/// use problem_core::version::{ApiVersion, VersionConfig, VersionMiddleware, VersionStrategy, Versioning};
///
/// # actix_web::rt::System::new().block_on(async {
/// let config = VersionConfig::builder(VersionStrategy::url_path()).default_version(ApiVersion::V1).build().unwrap();
/// let service: VersionMiddleware<_> = Versioning::new(config).new_transform(test::ok_service()).await.unwrap();
/// let res = service.call(test::TestRequest::get().uri("/v2/books").to_srv_request()).await.unwrap();
/// assert_eq!(res.request().path(), "/books");
/// assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
/// # });
/// ```
pub struct VersionMiddleware<S> {
    service: Rc<S>,
    config: Arc<VersionConfig>,
    /// `Vary` to add, when on ([`Versioning::vary`]).
    vary: Option<Arc<HeaderMap>>,
}

impl<S, B> Service<ServiceRequest> for VersionMiddleware<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Future = VersionFuture<S::Future, B>;

    forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        // The path without its version segment: routed on, and neutral
        // when it names a neutral path (`/v3/health` is `/health`).
        let stripped = self.config.strategy().strip_path(req.path());
        if is_neutral(&self.config, req.path(), stripped.as_deref()) {
            if let Some(path) = stripped.as_deref() {
                strip_segment(&mut req, path);
            }
            return VersionFuture::Neutral {
                fut: self.service.call(req),
            };
        }
        let version = match self.config.resolve_head(req.head()) {
            Ok(v) => Some(v),
            // None carried, none required, no default: the request goes on
            // without a version (the spec's resolution fails only when
            // `require_version` is set).
            Err(VersionError::Missing) if self.config.version_optional() => None,
            Err(err) => {
                let headers = self.config.shared_general_headers();
                add_shared_sticky_headers(&req, headers.clone());
                if let Some(vary) = &self.vary {
                    add_shared_sticky_headers(&req, vary.clone());
                }
                // `ResponseError` cannot see the request: the document is
                // written again with the path as received as `instance`
                // (the pipeline, when installed, renders it once more).
                let instance = req.path().to_owned();
                let mut res = req.error_response(err);
                if let Some(document) = document_at(res.response(), &instance) {
                    res = res.map_body(|_, _| BoxBody::new(document));
                }
                merge_map(res.headers_mut(), &headers);
                add_vary(res.headers_mut(), self.vary.as_deref());
                return VersionFuture::Answered {
                    res: Some(res.map_into_right_body()),
                };
            }
        };
        if let Some(path) = stripped.as_deref() {
            strip_segment(&mut req, path);
        }
        let headers = match version {
            Some(version) => {
                // Two request extensions: the version, and the sticky
                // headers (version headers, `Vary`), which also keep the
                // configuration that resolved the version.
                req.extensions_mut().insert(version);
                self.config.headers_of(version)
            }
            None => self.config.unversioned_headers(),
        };
        with_sticky_headers(&req, |sticky| {
            sticky.push_shared(headers.clone());
            if let Some(vary) = &self.vary {
                sticky.push(vary.clone());
            }
            sticky.resolved_by = Some(self.config.clone());
        });
        let vary = self.vary.clone();
        VersionFuture::Versioned {
            fut: self.service.call(req),
            headers,
            vary,
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`VersionMiddleware`]: the inner service's response
    /// with the version headers merged in (no allocation of its own).
    #[project = VersionProj]
    pub enum VersionFuture<F, B> {
        /// A version-neutral path: the response as it is.
        Neutral { #[pin] fut: F },
        /// The version could not be resolved: its problem response.
        Answered { res: Option<ServiceResponse<EitherBody<B>>> },
        /// Waiting for the response of a versioned request.
        Versioned {
            #[pin] fut: F,
            headers: SharedHeaders,
            vary: Option<Arc<HeaderMap>>,
        },
    }
}

impl<F, B> Future for VersionFuture<F, B>
where
    F: Future<Output = Result<ServiceResponse<B>, Error>>,
    B: MessageBody,
{
    type Output = Result<ServiceResponse<EitherBody<B>>, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            VersionProj::Neutral { fut } => {
                fut.poll(cx).map_ok(ServiceResponse::map_into_left_body)
            }
            VersionProj::Answered { res } => match res.take() {
                Some(res) => Poll::Ready(Ok(res)),
                None => Poll::Pending,
            },
            VersionProj::Versioned { fut, headers, vary } => match fut.poll(cx) {
                Poll::Pending => Poll::Pending,
                // An error a middleware inside returned, with no response
                // to merge into: it carries the version headers and `Vary`
                // to whoever renders it (the error pipeline, else its own
                // `ResponseError`), as every problem response has them.
                Poll::Ready(Err(error)) => Poll::Ready(Err(VersionedError {
                    error,
                    headers: headers.clone(),
                    vary: vary.clone(),
                }
                .into())),
                Poll::Ready(Ok(mut res)) => {
                    // The route table's 404 and 405 are deferred only when
                    // the error pipeline is installed around it, and the
                    // pipeline replaces that response with the document
                    // and this request's sticky headers: merging them here
                    // would be thrown away.
                    let replaced = res
                        .response()
                        .error()
                        .and_then(find_route_problem)
                        .is_some();
                    if !replaced {
                        // A problem that names its own supported versions
                        // (a `versioned![...]` route's 400: the versions
                        // that route serves, as its body says) keeps them.
                        let own = res.response().error().and_then(|_| {
                            res.headers()
                                .get(super::headers::X_API_SUPPORTED_VERSIONS)
                                .cloned()
                        });
                        headers.merge_into(res.headers_mut());
                        add_vary(res.headers_mut(), vary.as_deref());
                        if let Some(own) = own {
                            res.headers_mut()
                                .insert(super::headers::X_API_SUPPORTED_VERSIONS, own);
                        }
                    }
                    Poll::Ready(Ok(res.map_into_left_body()))
                }
            },
        }
    }
}

/// An error returned from inside the versioning middleware (a middleware
/// between it and the route answered `Err`), with the version headers and
/// `Vary` of its request: its response is the error's own with them merged
/// in, and the error pipeline renders [`error`](Self::error) and adds them.
#[derive(Debug)]
pub(crate) struct VersionedError {
    /// The error as returned.
    pub(crate) error: Error,
    headers: SharedHeaders,
    vary: Option<Arc<HeaderMap>>,
}

impl VersionedError {
    /// Merges the version headers and `Vary` into `headers`, keeping a
    /// problem's own `X-API-Supported-Versions`.
    pub(crate) fn add_headers(&self, headers: &mut HeaderMap) {
        let own = headers
            .get(super::headers::X_API_SUPPORTED_VERSIONS)
            .cloned();
        self.headers.merge_into(headers);
        add_vary(headers, self.vary.as_deref());
        if let Some(own) = own {
            headers.insert(super::headers::X_API_SUPPORTED_VERSIONS, own);
        }
    }
}

impl std::fmt::Display for VersionedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.error, f)
    }
}

impl actix_web::ResponseError for VersionedError {
    fn status_code(&self) -> actix_web::http::StatusCode {
        self.error.as_response_error().status_code()
    }

    fn error_response(&self) -> actix_web::HttpResponse<BoxBody> {
        let mut res = self.error.error_response();
        self.add_headers(res.headers_mut());
        res
    }
}

/// Merges the one-header map `Vary: ...` into a response's headers.
fn add_vary(headers: &mut HeaderMap, vary: Option<&HeaderMap>) {
    if let Some(value) = vary.and_then(|v| v.get(header::VARY)) {
        merge_vary(headers, value);
    }
}

/// The problem document of the error `res` answers, written again with
/// `instance` (`ResponseError` cannot see the request, so its own document
/// has an empty `instance`); `None` when `res` carries no problem, or a
/// 5xx (whose document, masked by its own `ResponseError`, stays as is).
pub(super) fn document_at(res: &actix_web::HttpResponse, instance: &str) -> Option<Vec<u8>> {
    if res.status().is_server_error() {
        return None;
    }
    let error = res.error()?;
    let source = *res.extensions().get::<ProblemSource>()?;
    source.find(error)?.to_problem_json(instance).ok()
}

/// Whether a request to `path` skips versioning: `path` is version-neutral,
/// or `stripped`, the path without its version segment, is.
fn is_neutral(config: &VersionConfig, path: &str, stripped: Option<&str>) -> bool {
    config.is_neutral(path) || stripped.is_some_and(|p| config.is_neutral(p))
}

/// Routes the request on `path` (its path without the version segment),
/// keeping the path as received as [`OriginalPath`] for the 404 and 405
/// details and the problem `instance`.
fn strip_segment(req: &mut ServiceRequest, path: &str) {
    if req.extensions().get::<OriginalPath>().is_none() {
        let original = OriginalPath(req.path().to_owned());
        req.extensions_mut().insert(original);
    }
    rewrite_path(req, path);
}

/// Replaces the request path (keeping the query) before routing.
fn rewrite_path(req: &mut ServiceRequest, path: &str) {
    let uri = &req.head().uri;
    let path_and_query = match uri.query() {
        Some(q) => format!("{path}?{q}"),
        None => path.to_owned(),
    };
    let Ok(path_and_query) = PathAndQuery::try_from(path_and_query) else {
        return;
    };
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(path_and_query);
    let Ok(uri) = Uri::from_parts(parts) else {
        return;
    };
    req.match_info_mut().get_mut().update(&uri);
    req.head_mut().uri = uri;
}

/// The version resolved by [`Versioning`] for this request, as a handler
/// argument.
///
/// A request the middleware let go on without a version (none carried,
/// none required, no `default_version`) fails the extraction with the 400
/// [`VersionError::Missing`] (`API version is required`). Without the
/// middleware (or on a neutral path) there is no version either: the
/// extraction fails with a 500 problem (`detail` shown in development
/// only). Take `Option<ApiVersion>` where a request may have none.
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
///
/// # actix_web::rt::System::new().block_on(async {
/// let config = VersionConfig::builder(VersionStrategy::header()).build().unwrap();
/// let app = test::init_service(App::new().wrap(Versioning::new(config))
///     .route("/any", web::get().to(|v: Option<ApiVersion>| async move {
///         HttpResponse::Ok().body(v.map_or("none".to_owned(), |v| v.to_string()))
///     }))
///     .route("/one", web::get().to(|v: ApiVersion| async move { HttpResponse::Ok().body(v.to_string()) })))
///     .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/any").to_request()).await;
/// assert_eq!(test::read_body(res).await, "none");
/// let res = test::call_service(&app, test::TestRequest::get().uri("/one").to_request()).await;
/// assert_eq!(res.status(), 400);
/// let res = test::call_service(&app, test::TestRequest::get().uri("/one").insert_header(("X-API-Version", "2")).to_request()).await;
/// assert_eq!(test::read_body(res).await, "2.0");
/// # });
/// ```
impl FromRequest for ApiVersion {
    type Error = Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(resolved_version(req))
    }
}

/// The request's resolved version; the 400 `Missing` when the middleware
/// let it go on without one, the 500 [`NOT_RESOLVED`] without the
/// middleware.
pub(crate) fn resolved_version(req: &HttpRequest) -> Result<ApiVersion, Error> {
    if let Some(version) = req.extensions().get::<ApiVersion>() {
        return Ok(*version);
    }
    let versioned = req
        .extensions()
        .get::<crate::pipeline::StickyHeaders>()
        .is_some_and(|sticky| sticky.resolved_by.is_some());
    Err(if versioned {
        VersionError::Missing.into()
    } else {
        InternalServerErrorException::new()
            .with_detail(NOT_RESOLVED)
            .into()
    })
}

/// Detail of the 500 when a handler asks for a version nobody resolved.
pub(crate) const NOT_RESOLVED: &str = "No API version was resolved for this request: wrap the app or scope with problem_core::version::Versioning";
