//! [`VersionedRoute`]: one actix-web handler that dispatches to the
//! handler registered for the request's version (what `versioned!` builds).

use std::fmt;
use std::sync::Arc;

use actix_web::body::BoxBody;
use actix_web::dev::Payload;
use actix_web::http::header::HeaderValue;
use actix_web::{FromRequest, Handler, HttpMessage, HttpRequest, HttpResponse, Responder, web};
use futures_util::future::LocalBoxFuture;

use super::error::VersionError;
use super::handler::VersionedHandler;
use super::middleware::{document_at, resolved_version};
use crate::config::HttpConfigError;
use crate::pipeline::StickyHeaders;
use crate::routing::with_original_path;

type Call = dyn Fn(HttpRequest, Payload) -> LocalBoxFuture<'static, HttpResponse> + Send + Sync;

/// Any actix-web handler, type-erased: its own extractors run on the
/// request, its own return type is turned into the response, exactly as if
/// it were registered with `web::get().to(handler)`. A failing extractor
/// answers with its error, as actix-web does.
///
/// The handler must be `Send + Sync` (functions and closures without
/// non-thread-safe captures are), so a [`VersionedRoute`] can be built once
/// and cloned into every worker.
///
/// ```
/// use actix_web::{test, web};
/// use problem_core::version::RouteHandler;
///
/// async fn show(id: web::Path<u32>) -> String { format!("book {id}") }
///
/// # actix_web::rt::System::new().block_on(async {
/// let handler = RouteHandler::new(show);
/// let (req, payload) = test::TestRequest::get().param("id", "7").to_http_parts();
/// let res = handler.call(req, payload).await;
/// assert_eq!(res.status(), 200);
/// assert_eq!(actix_web::body::to_bytes(res.into_body()).await.unwrap(), "book 7");
/// # });
/// ```
#[derive(Clone)]
pub struct RouteHandler {
    call: Arc<Call>,
    /// Whether the handler takes the `ApiVersion` extractor (then it needs
    /// a resolved version: as a fallback on a version-neutral path it could
    /// only answer 500, which `ProblemAppBuilder::build` refuses).
    takes_version: bool,
}

impl RouteHandler {
    /// Wraps a handler.
    ///
    /// ```
    /// use actix_web::web;
    /// use problem_core::version::RouteHandler;
    /// async fn show(id: web::Path<u32>) -> String { format!("book {id}") }
    /// let handler = RouteHandler::new(show);
    /// ```
    pub fn new<F, Args>(handler: F) -> Self
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let call = Arc::new(move |req: HttpRequest, mut payload: Payload| {
            let handler = handler.clone();
            Box::pin(async move {
                match Args::from_request(&req, &mut payload).await {
                    Ok(args) => handler
                        .call(args)
                        .await
                        .respond_to(&req)
                        .map_into_boxed_body(),
                    Err(err) => HttpResponse::from_error(err),
                }
            }) as LocalBoxFuture<'static, HttpResponse>
        });
        Self {
            call,
            takes_version: crate::routing::takes_api_version::<Args>(),
        }
    }

    /// Whether the handler takes the [`ApiVersion`](super::ApiVersion)
    /// extractor itself (not `Option<ApiVersion>`), so that it needs a
    /// resolved version.
    pub(crate) fn takes_version(&self) -> bool {
        self.takes_version
    }

    /// Runs the handler on a request.
    ///
    /// ```
    /// use actix_web::{test, web};
    /// use problem_core::version::RouteHandler;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let handler = RouteHandler::new(|id: web::Path<u32>| async move { format!("book {id}") });
    /// let (req, payload) = test::TestRequest::get().param("id", "seven").to_http_parts();
    /// let res = handler.call(req, payload).await;
    /// assert_eq!(res.status(), 404);
    /// # });
    /// ```
    pub async fn call(&self, req: HttpRequest, payload: Payload) -> HttpResponse {
        (self.call)(req, payload).await
    }
}

impl fmt::Debug for RouteHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RouteHandler")
    }
}

/// One route handler that dispatches by the version
/// [`Versioning`](super::Versioning) resolved for the request: the registration that accepts the version
/// ([`VersionedHandler::get_compatible`]), else the fallback, else the
/// unsupported-version problem (400, `API version <v> is not supported`,
/// `supportedVersions` = the configured versions this route can serve, or
/// the route's registered versions when the configuration lists none;
/// `X-API-Supported-Versions` names the same list, empty when the route
/// serves none of the configured versions). Its `instance` is the request
/// path as received (version segment included), with or without the error
/// pipeline.
///
/// It is an actix-web [`Handler`], so it goes wherever a handler goes:
/// `web::get().to(route)`, `web::resource("/books").route(web::get().to(route))`,
/// `App::route("/books", web::get().to(route))`. `versioned!` builds one
/// from `#[versioned]` functions; [`VersionedRoute::new`] from any
/// [`VersionedHandler`] of [`RouteHandler`]s.
///
/// Without a resolved version (no `Versioning` middleware, or a neutral
/// path) the fallback serves the request; without a fallback the answer is
/// a 500 problem (a setup mistake).
///
/// ```
/// use actix_web::{test, web, App};
/// use problem_core::version::{ApiVersion, RouteHandler, VersionConfig, VersionStrategy, VersionedHandler, VersionedRoute, Versioning};
///
/// async fn v1() -> &'static str { "one" }
/// async fn v2() -> &'static str { "two" }
///
/// # actix_web::rt::System::new().block_on(async {
/// let route = VersionedRoute::new(
///     VersionedHandler::new()
///         .version(ApiVersion::V1, RouteHandler::new(v1))
///         .constraint("2.x".parse().unwrap(), RouteHandler::new(v2)),
/// )
/// .unwrap();
/// let config = VersionConfig::builder(VersionStrategy::header()).default_version(ApiVersion::V1).build().unwrap();
/// let app = test::init_service(
///     App::new().wrap(Versioning::new(config)).route("/n", web::get().to(route)),
/// )
/// .await;
/// let req = test::TestRequest::get().uri("/n").insert_header(("X-API-Version", "2.3")).to_request();
/// assert_eq!(test::call_and_read_body(&app, req).await, "two");
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct VersionedRoute {
    table: Arc<VersionedHandler<RouteHandler>>,
}

impl VersionedRoute {
    /// A route over a registry of handlers.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidVersionConfig`] when two registrations
    /// overlap or a constraint accepts nothing
    /// ([`VersionedHandler::validate`]).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, RouteHandler, VersionedHandler, VersionedRoute};
    ///
    /// async fn books() -> &'static str { "books" }
    /// let err = VersionedRoute::new(
    ///     VersionedHandler::new()
    ///         .constraint("2.x".parse().unwrap(), RouteHandler::new(books))
    ///         .version(ApiVersion::new(2, 1), RouteHandler::new(books)),
    /// )
    /// .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid version configuration: versioned handlers overlap: 2.x and 2.1 both accept some version"
    /// );
    /// ```
    pub fn new(table: VersionedHandler<RouteHandler>) -> Result<Self, HttpConfigError> {
        table.validate()?;
        Ok(Self::__checked(table))
    }

    /// A route over a registry whose registrations `versioned!` has
    /// already proven disjoint at compile time.
    #[doc(hidden)]
    pub fn __checked(table: VersionedHandler<RouteHandler>) -> Self {
        Self {
            table: Arc::new(table),
        }
    }

    /// The registry.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, RouteHandler, VersionedHandler, VersionedRoute};
    ///
    /// async fn books() -> &'static str { "books" }
    /// let route = VersionedRoute::new(
    ///     VersionedHandler::new()
    ///         .version(ApiVersion::V1, RouteHandler::new(books))
    ///         .constraint("3.x".parse().unwrap(), RouteHandler::new(books)),
    /// )
    /// .unwrap();
    /// assert_eq!(route.table().registered_versions(), [ApiVersion::V1, ApiVersion::V3]);
    /// assert!(route.table().fallback_handler().is_none());
    /// ```
    pub fn table(&self) -> &VersionedHandler<RouteHandler> {
        &self.table
    }

    /// The handler for this request, or the problem to answer with.
    fn select(&self, req: &HttpRequest) -> Result<RouteHandler, actix_web::Error> {
        let version = match resolved_version(req) {
            Ok(version) => version,
            // No version (none carried and none needed, or no middleware):
            // the fallback, else the extraction's problem.
            Err(err) => return self.table.fallback_handler().cloned().ok_or(err),
        };
        match self.table.dispatch(version) {
            Ok(h) => Ok(h.clone()),
            Err(_) => {
                let configured = req
                    .extensions()
                    .get::<StickyHeaders>()
                    .and_then(|sticky| sticky.resolved_by.as_ref())
                    .map(|config| config.advertised_versions().to_vec())
                    .unwrap_or_default();
                let supported = if configured.is_empty() {
                    self.table.registered_versions()
                } else {
                    configured
                        .into_iter()
                        .filter(|v| self.table.get_compatible(*v).is_some())
                        .collect()
                };
                // The header names the versions the body does: those this
                // route serves (the general header names the configuration's),
                // an empty list for a route that serves none of them (which
                // `ProblemAppBuilder::build` refuses).
                if let Some(sticky) = req.extensions_mut().get_mut::<StickyHeaders>() {
                    let value = super::headers::supported_value(&supported)
                        .unwrap_or_else(|| HeaderValue::from_static(""));
                    let mut map = actix_web::http::header::HeaderMap::new();
                    map.insert(super::headers::X_API_SUPPORTED_VERSIONS, value);
                    sticky.push(Arc::new(map));
                }
                Err(VersionError::Unsupported { version, supported }.into())
            }
        }
    }
}

impl Handler<(HttpRequest, web::Payload)> for VersionedRoute {
    type Output = HttpResponse;
    type Future = LocalBoxFuture<'static, HttpResponse>;

    fn call(&self, (req, payload): (HttpRequest, web::Payload)) -> Self::Future {
        let selected = self.select(&req);
        Box::pin(async move {
            match selected {
                Ok(handler) => handler.call(req, payload.into_inner()).await,
                Err(err) => {
                    // Without the pipeline nothing writes `instance` in:
                    // the path as received, as the middleware's own answers.
                    let res = HttpResponse::from_error(err);
                    let document = with_original_path(&req, |path| document_at(&res, path));
                    match document {
                        Some(document) => res.set_body(BoxBody::new(document)),
                        None => res,
                    }
                }
            }
        })
    }
}
