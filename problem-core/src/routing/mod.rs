//! The route table: every method of every path is known, so a wrong method
//! gets 405 with `Allow` and an unknown path 404, both as problem documents
//! (spec, "Request handling rules"); async guards (spec, "Authentication");
//! duplicate routes are configuration errors (spec, "Configuration errors").
//!
//! Every `GET` route also answers `HEAD` (RFC 9110 §9.3.2) and every known
//! path answers `OPTIONS` with `204 No Content` and `Allow`
//! (RFC 9110 §9.3.7), unless the application routes those methods itself.
//!
//! ```
//! use actix_web::{test, App, HttpResponse};
//! use problem_core::routing::Routes;
//!
//! # actix_web::rt::System::new().block_on(async {
//! let routes = Routes::new().get("/books", || async { HttpResponse::Ok().finish() }).into_routes();
//! let svc = test::init_service(App::new().configure(|c| routes.register(c))).await;
//! let req = test::TestRequest::default().method(actix_web::http::Method::OPTIONS).uri("/books");
//! let res = test::call_service(&svc, req.to_request()).await;
//! assert_eq!(res.status(), 204);
//! assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
//! # });
//! ```

/// The method shortcuts of [`Routes`] and [`AddedRoute`] (`get`, `post`,
/// `put`, `patch`, `delete`), each `self.route(Method::<METHOD>, path,
/// handler)`: one table for both types. `start` is the doc example's table
/// before the shortcut is called.
macro_rules! method_shortcuts {
    (start = $start:literal) => {
        method_shortcuts!(@each $start;
            get GET "GET",
            post POST "POST",
            put PUT "PUT",
            patch PATCH "PATCH",
            delete DELETE "DELETE",
        );
    };
    (@each $start:literal; $($name:ident $method:ident $text:literal,)*) => {$(
        #[doc = concat!("Adds a `", $text, "` route for `path`; see [`Routes::route`].")]
        ///
        /// ```
        /// use actix_web::HttpResponse;
        /// use problem_core::routing::Routes;
        ///
        /// async fn handler() -> HttpResponse { HttpResponse::Ok().finish() }
        ///
        #[doc = concat!("let routes: Routes = ", $start, ".", stringify!($name), "(\"/books/:id\", handler).into();")]
        #[doc = concat!("assert_eq!(routes.methods(\"/books/{id}\").unwrap(), vec![\"", $text, "\"]);")]
        /// ```
        pub fn $name<F, Args>(self, path: &str, handler: F) -> AddedRoute
        where
            F: Handler<Args> + Send + Sync,
            Args: FromRequest + 'static,
            F::Output: Responder + 'static,
        {
            self.route(Method::$method, path, handler)
        }
    )*};
}

mod added;
mod args;
pub(crate) use args::takes_api_version;
mod guard;
mod overlap;
mod panic;
pub(crate) mod path;

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{self, ServiceConfig};
use actix_web::{FromRequest, Handler, HttpMessage, HttpRequest, HttpResponse, Responder, Route};

pub use added::{AddedRoute, IntoRoutes};
pub use guard::{Guard, GuardFuture};

use crate::HttpConfigError;
use crate::pipeline::PipelineInstalled;
use crate::problem::{MethodNotAllowedException, NotFoundException, route_error};
use crate::spec;

/// The request path as the client sent it, before any rewriting (e.g. the
/// removal of a `/v<N>` segment by URL-path versioning). A middleware that
/// rewrites the path stores it in the request extensions; the 404 and 405
/// answers read it for their detail.
///
/// ```
/// # actix_web::rt::System::new().block_on(async {
/// use actix_web::HttpMessage;
/// use actix_web::test::TestRequest;
/// use problem_core::routing::{OriginalPath, no_route};
///
/// // `/v2/books` routed as `/books`: the 404 names the path as received.
/// let req = TestRequest::get().uri("/books").to_http_request();
/// req.extensions_mut().insert(OriginalPath("/v2/books".into()));
/// assert_eq!(no_route(req).await.unwrap_err().to_string(), "No route for GET /v2/books");
/// # });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginalPath(pub String);

/// `f` of the request path as received (before versioning rewrote it),
/// without copying it.
pub(crate) fn with_original_path<T>(req: &HttpRequest, f: impl FnOnce(&str) -> T) -> T {
    match req.extensions().get::<OriginalPath>() {
        Some(p) => f(&p.0),
        None => f(req.path()),
    }
}

/// The answer to a path no route matches: 404, detail
/// `No route for <METHOD> <path>`. A `HEAD` request's detail names `GET`:
/// `HEAD` gets the header fields of `GET` (RFC 9110 §9.3.2), the
/// `Content-Length` of the document included (the 405's detail likewise).
///
/// ```
/// # actix_web::rt::System::new().block_on(async {
/// use actix_web::test::TestRequest;
/// let res = problem_core::routing::no_route(TestRequest::get().uri("/nope").to_http_request()).await;
/// assert_eq!(res.unwrap_err().to_string(), "No route for GET /nope");
/// # });
/// ```
///
/// The error's own `ResponseError` response answers (with `instance`
/// empty); the error pipeline, when installed, renders the document again
/// with `instance`. The route table registered by
/// [`ProblemApp`](crate::server::ProblemApp) behind its pipeline leaves the
/// document to the pipeline instead, which renders it once.
pub async fn no_route(req: HttpRequest) -> Result<HttpResponse, actix_web::Error> {
    Err(not_found(&req, false))
}

/// The 404 of a path no route matches; `deferred`: rendered by the pipeline.
fn not_found(req: &HttpRequest, deferred: bool) -> actix_web::Error {
    route_error(
        NotFoundException::new().with_detail(with_original_path(req, |path| {
            spec::no_route(method_named(req), path)
        })),
        deferred,
    )
}

/// The 405 of a path that has no route for the request's method: detail
/// `<METHOD> is not allowed on <path>`, `Allow` as given; `deferred`:
/// rendered by the pipeline.
fn method_not_allowed(req: &HttpRequest, allow: HeaderValue, deferred: bool) -> actix_web::Error {
    route_error(
        MethodNotAllowedException::new()
            .with_detail(with_original_path(req, |path| {
                spec::method_not_allowed(method_named(req), path)
            }))
            .with_header((header::ALLOW, allow)),
        deferred,
    )
}

/// `methods` (registered methods, possibly of several paths, in order) as
/// an `Allow` header lists them: each once, the `HEAD` a `GET` answers
/// right after it (a `HEAD` route of its own keeps its place), then
/// `OPTIONS`.
fn allow_of<'a>(methods: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::with_capacity(methods.len() + 2);
    for &m in methods {
        if !out.contains(&m) {
            out.push(m);
        }
        if m == Method::GET.as_str()
            && !methods.contains(&Method::HEAD.as_str())
            && !out.contains(&Method::HEAD.as_str())
        {
            out.push(Method::HEAD.as_str());
        }
    }
    if !out.contains(&Method::OPTIONS.as_str()) {
        out.push(Method::OPTIONS.as_str());
    }
    out
}

/// The method a 404 or 405 detail names: the request's, except that `HEAD`
/// is answered with the header fields `GET` would get (RFC 9110 §9.3.2),
/// `Content-Length` included, so its document (never sent) names `GET`.
fn method_named(req: &HttpRequest) -> &str {
    if req.method() == Method::HEAD {
        Method::GET.as_str()
    } else {
        req.method().as_str()
    }
}

type RouteFactory = Arc<dyn Fn() -> Route + Send + Sync>;

struct Entry {
    method: Method,
    path: String,
    make: RouteFactory,
    guards: Vec<Arc<dyn Guard>>,
    /// Served by a `versioned![...]` table: needs the app's versioning.
    versioned: Versioned,
    /// The `versioned![...]` table without a fallback, checked at build
    /// against the versions the application serves.
    table: Option<crate::version::VersionedRoute>,
}

/// Whether an entry dispatches by API version, and whether it can serve a
/// request without one (a version-neutral path).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Versioned {
    /// An ordinary handler.
    No,
    /// A `versioned![...]` table with a `fallback = ..` handler.
    WithFallback,
    /// A `versioned![...]` table without a fallback: a request with no
    /// resolved version is a 500.
    WithoutFallback,
    /// An ordinary handler that takes the `ApiVersion` extractor: a
    /// request with no resolved version is a 500 too.
    Extractor,
}

impl Versioned {
    /// Whether the route needs the application's versioning.
    pub(crate) fn needs_versioning(self) -> bool {
        match self {
            Self::No => false,
            Self::WithFallback | Self::WithoutFallback | Self::Extractor => true,
        }
    }

    /// Whether the route answers 500 to a request with no resolved
    /// version (as on a version-neutral path).
    pub(crate) fn needs_resolved_version(self) -> bool {
        match self {
            Self::No | Self::WithFallback => false,
            Self::WithoutFallback | Self::Extractor => true,
        }
    }
}

impl Entry {
    /// The route of this entry for `method` (its own, or `HEAD` for a
    /// `GET` entry), with its guards and the panic catcher.
    fn route(&self, method: Method) -> Route {
        let mut route = (self.make)().method(method);
        if !self.guards.is_empty() {
            route = route.wrap(guard::GuardMiddleware::new(self.guards.clone()));
        }
        route.wrap(panic::CatchPanic)
    }
}

/// The application's routes, built with [`get`](Routes::get),
/// [`post`](Routes::post), ... (each returns an [`AddedRoute`], whose
/// [`guarded`](AddedRoute::guarded) protects that route and no other),
/// then registered by [`ProblemApp`](crate::server::ProblemApp).
///
/// Paths use actix-web's `{name}` parameters; the spec's `/:name` form is
/// accepted too and means the same. A parameter whose value holds U+0000
/// (sent as `%00`) is answered with a 400 `invalid_value` issue on it
/// (location `path`) before the route's extractors and handler run.
///
/// ```
/// use actix_web::HttpResponse;
/// use problem_core::routing::Routes;
///
/// async fn list() -> HttpResponse { HttpResponse::Ok().finish() }
/// async fn create() -> HttpResponse { HttpResponse::Created().finish() }
///
/// let routes: Routes = Routes::new()
///     .get("/books", list)
///     .post("/books", create)
///     .guarded(|req: actix_web::HttpRequest| async move {
///         Ok(req.headers().contains_key("authorization"))
///     })
///     .into();
/// assert_eq!(routes.methods("/books").unwrap(), vec!["GET", "POST"]);
/// assert_eq!(routes.allow("/books").unwrap(), vec!["GET", "HEAD", "POST", "OPTIONS"]);
/// ```
///
/// Besides the routes it is given, the table answers (RFC 9110 §9.1, §9.3.2,
/// §9.3.7):
///
/// - `HEAD` on every path that has a `GET` route, through that route's
///   handler and guards: the same status and headers, the body's length as
///   `Content-Length`, no body (actix-web never writes the body of a `HEAD`
///   response; [`ConditionalRequests`](crate::pipeline::ConditionalRequests)
///   also drops it for in-process callers);
/// - `OPTIONS` on every known path: `204 No Content` with `Allow`, unless
///   the application adds an `OPTIONS` route for that path itself;
/// - `OPTIONS *` (about the server, RFC 9110 §9.3.7): `204` with `Allow`
///   listing every method some path answers, `OPTIONS` last;
/// - any other method: `405` with `Allow`.
///
/// `Allow` lists the path's methods in registration order, the `HEAD` a
/// `GET` answers right after it (a `HEAD` route of its own keeps its
/// place), then `OPTIONS` ([`allow`](Routes::allow)).
///
/// Paths are tried most specific first (static segments, then patterns,
/// then plain parameters, then tails). When several paths match a request
/// (`GET /books/new` and `DELETE /books/{id}` both match `/books/new`), the
/// most specific one with a route for the method serves it
/// (`DELETE /books/new` reaches `DELETE /books/{id}`); when none has, the
/// `405`'s `Allow`, and that of the `204` answering `OPTIONS`, list the
/// methods of every matching path.
///
/// ```
/// # actix_web::rt::System::new().block_on(async {
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::routing::Routes;
///
/// let routes = Routes::new()
///     .get("/books/new", || async { HttpResponse::Ok().body("form") })
///     .delete("/books/{id}", |id: web::Path<String>| async move { HttpResponse::Ok().body(format!("deleted {id}")) })
///     .into_routes();
/// let svc = test::init_service(App::new().configure(|c| routes.register(c))).await;
/// let res = test::call_service(&svc, test::TestRequest::delete().uri("/books/new").to_request()).await;
/// assert_eq!(test::read_body(res).await, "deleted new");
/// let res = test::call_service(&svc, test::TestRequest::put().uri("/books/new").to_request()).await;
/// assert_eq!(res.status(), 405);
/// assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, DELETE, OPTIONS");
/// # });
/// ```
#[derive(Default)]
pub struct Routes {
    entries: Vec<Entry>,
    errors: Vec<HttpConfigError>,
}

impl std::fmt::Debug for Routes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(
                self.entries
                    .iter()
                    .map(|e| format!("{} {}", e.method, e.path)),
            )
            .finish()
    }
}

/// `/books/:id` → `/books/{id}`.
fn normalize(path: &str) -> String {
    path.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(name) if !name.is_empty() => format!("{{{name}}}"),
            _ => seg.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// What of `path` (normalized) decides which requests it matches: every
/// dynamic segment's parameter name is left out (`/books/{id}` and
/// `/books/{isbn}` have one shape, `/books/{}`), its pattern kept
/// (`{id:\d+}` gives `{:\d+}`).
fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '{' {
            continue;
        }
        // The name runs to `:` or `}`; the pattern after `:` to the brace
        // that closes this one (a pattern may hold `{n}` repetitions).
        let mut depth = 1;
        let mut in_name = true;
        for c in chars.by_ref() {
            if in_name && c != ':' && c != '}' {
                continue;
            }
            in_name = false;
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            out.push(c);
            if depth == 0 {
                break;
            }
        }
    }
    out
}

/// How specific a path is, segment by segment, for the order in which its
/// resource is tried: a static segment (`search`) before one mixing text
/// and a parameter or with a pattern (`{id}.json`, `{id:\d+}`), before a
/// plain parameter (`{id}`), before a tail (`{rest}*`) or a pattern that
/// can take any text, slashes included (`{path:.*}`, `{rest:.+}`). actix-web answers
/// a request with the first resource whose pattern (and guard) matches: so
/// `GET /books/{id}` registered before `POST /books/search` would answer
/// `POST /books/search` with 405. A resource that shares requests with
/// another also gets a guard on its methods (see `overlap`).
fn specificity(path: &str) -> Vec<overlap::Segment> {
    overlap::segments(path).map(overlap::Segment::of).collect()
}

/// Why `path` (normalized) cannot be a route: it does not start with `/`,
/// or actix-router refuses it as a resource pattern (a `{` without its
/// `}`, a custom segment pattern that is not a regular expression, more
/// than 16 dynamic segments). actix-router panics on such a pattern when
/// the application's services are built, in every worker; the pattern is
/// parsed here once, the panic caught silently (the pipeline's panic hook)
/// and its message returned.
fn check_pattern(path: &str) -> Result<(), String> {
    if !path.starts_with('/') {
        return Err(format!("path `{path}` must start with `/`"));
    }
    crate::pipeline::install_panic_hook();
    crate::pipeline::catch_sync(|| actix_web::dev::ResourceDef::new(path))
        .map(drop)
        .map_err(|panic| {
            let message = crate::pipeline::PanicError::from_payload(&*panic).to_string();
            format!("path `{path}` is not a valid actix-web resource pattern: {message}")
        })
}

impl Routes {
    /// An empty table.
    ///
    /// ```
    /// use problem_core::routing::Routes;
    /// assert_eq!(Routes::new().methods("/books"), None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a route for `method` and `path` served by `handler` (any
    /// actix-web handler: async fn with extractors, returning a `Responder`).
    /// A path that does not start with `/` or that actix-web cannot read as
    /// a resource pattern (`/books/{id`, `/books/{id:[}`), a method and
    /// path already added (paths that differ only in their parameters'
    /// names, `/books/{id}` and `/books/{isbn}`, are one path), or such a
    /// path with its parameters named otherwise than on another method, is
    /// an [`HttpConfigError`] when the application is built. Requests are
    /// matched against the most specific path first (a static segment
    /// before a parameter in its place, a parameter before a tail `{rest}*`),
    /// whatever the order the routes were added in.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use actix_web::http::Method;
    /// use problem_core::HttpConfigError;
    /// use problem_core::server::ProblemApp;
    ///
    /// async fn report() -> HttpResponse { HttpResponse::Ok().finish() }
    ///
    /// let app = ProblemApp::builder().routes(|r| r.route(Method::from_bytes(b"REPORT").unwrap(), "/books", report));
    /// assert!(app.build().is_ok());
    /// let twice = ProblemApp::builder().routes(|r| r.get("/books", report).get("/books", report)).build();
    /// assert_eq!(
    ///     twice.unwrap_err(),
    ///     HttpConfigError::DuplicateRoute { method: "GET".into(), path: "/books".into() }
    /// );
    /// let open = ProblemApp::builder().routes(|r| r.get("/books/{id", report)).build();
    /// assert!(matches!(open.unwrap_err(), HttpConfigError::InvalidRoute(_)));
    /// ```
    pub fn route<F, Args>(mut self, method: Method, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let path = normalize(path);
        if let Err(problem) = check_pattern(&path) {
            self.errors.push(HttpConfigError::InvalidRoute(problem));
            return AddedRoute::new(self, None);
        }
        // Paths that differ only in their parameters' names match the
        // same requests: the same method twice is a duplicate, and another
        // method must name its parameters alike (the route table serves one
        // resource per path; the later one would never be reached).
        let this_shape = shape(&path);
        let same = self
            .entries
            .iter()
            .filter(|e| shape(&e.path) == this_shape)
            .map(|e| (e.method == method, e.path.clone()))
            .collect::<Vec<_>>();
        if same.iter().any(|(same_method, _)| *same_method) {
            self.errors.push(HttpConfigError::DuplicateRoute {
                method: method.to_string(),
                path,
            });
            return AddedRoute::new(self, None);
        }
        if let Some((_, other)) = same.iter().find(|(_, other)| *other != path) {
            self.errors.push(HttpConfigError::InvalidRoute(format!(
                "{method} {path} matches the same requests as the route {other} with other parameter names: write its path as `{other}`"
            )));
            return AddedRoute::new(self, None);
        }
        let route =
            (&handler as &dyn std::any::Any).downcast_ref::<crate::version::VersionedRoute>();
        self.entries.push(Entry {
            method,
            path,
            table: route
                .filter(|r| r.table().fallback_handler().is_none())
                .cloned(),
            versioned: match route {
                None if args::takes_api_version::<Args>() => Versioned::Extractor,
                None => Versioned::No,
                // A fallback that takes `ApiVersion` cannot serve a request
                // without one either.
                Some(route)
                    if route
                        .table()
                        .fallback_handler()
                        .is_some_and(|f| !f.takes_version()) =>
                {
                    Versioned::WithFallback
                }
                Some(_) => Versioned::WithoutFallback,
            },
            make: Arc::new(move || web::to(handler.clone())),
            guards: Vec::new(),
        });
        let index = self.entries.len() - 1;
        AddedRoute::new(self, Some(index))
    }

    method_shortcuts!(start = "Routes::new()");

    /// The methods registered for a path, in registration order.
    /// `None` for a path with no route; `/:id` and `{id}` are the same.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::routing::Routes;
    ///
    /// async fn h() -> HttpResponse { HttpResponse::Ok().finish() }
    /// let routes = Routes::new().get("/books/:id", h).delete("/books/{id}", h).into_routes();
    /// assert_eq!(routes.methods("/books/{id}").unwrap(), vec!["GET", "DELETE"]);
    /// assert_eq!(routes.methods("/nope"), None);
    /// ```
    pub fn methods(&self, path: &str) -> Option<Vec<&str>> {
        let path = normalize(path);
        let m: Vec<&str> = self
            .entries
            .iter()
            .filter(|e| e.path == path)
            .map(|e| e.method.as_str())
            .collect();
        (!m.is_empty()).then_some(m)
    }

    /// The methods a path answers, as its `Allow` header lists them
    /// (RFC 9110 §10.2.1): the registered ones in registration order,
    /// the `HEAD` a `GET` answers right after it (RFC 9110 §9.3.2; a
    /// `HEAD` route of its own keeps its place), then `OPTIONS`
    /// (RFC 9110 §9.3.7). `None` for a path with no route.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::routing::Routes;
    ///
    /// async fn ok() -> HttpResponse { HttpResponse::Ok().finish() }
    ///
    /// let routes = Routes::new()
    ///     .post("/books", ok)
    ///     .get("/books/{id}", ok)
    ///     .delete("/books/{id}", ok)
    ///     .into_routes();
    /// assert_eq!(routes.allow("/books").unwrap(), vec!["POST", "OPTIONS"]);
    /// assert_eq!(routes.allow("/books/{id}").unwrap(), vec!["GET", "HEAD", "DELETE", "OPTIONS"]);
    /// assert_eq!(routes.allow("/nope"), None);
    /// ```
    pub fn allow(&self, path: &str) -> Option<Vec<&str>> {
        Some(allow_of(&self.methods(path)?))
    }

    /// The first setup mistake, if any.
    pub(crate) fn check(&self) -> Result<(), HttpConfigError> {
        match self.errors.first() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Registers every route, the implicit `HEAD` and `OPTIONS` routes, a
    /// 405 answer per path and the 404 answer.
    ///
    /// The 404 and 405 answer their standalone documents (`instance`
    /// empty), which the error pipeline, when installed, renders again with
    /// `instance`. [`ProblemApp`](crate::server::ProblemApp) registers its
    /// table knowing whether its pipeline is installed, and then leaves
    /// those documents to the pipeline, which renders them once.
    ///
    /// ```
    /// use actix_web::{test, App, HttpResponse};
    /// use problem_core::routing::Routes;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let routes = Routes::new().get("/books", || async { HttpResponse::Ok().finish() }).into_routes();
    /// let svc = test::init_service(App::new().configure(|c| routes.register(c))).await;
    /// let res = test::call_service(&svc, test::TestRequest::post().uri("/books").to_request()).await;
    /// assert_eq!(res.status(), 405);
    /// assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"POST is not allowed on /books","instance":""}"#
    /// );
    /// # });
    /// ```
    pub fn register(&self, cfg: &mut ServiceConfig) {
        self.register_with(cfg, PipelineInstalled::default());
    }

    /// [`register`](Self::register), told by `pipeline` (set at setup when
    /// the pipeline's middleware is built) whether the error pipeline is
    /// installed: then the 404 and 405 documents are rendered once, by the
    /// pipeline; a middleware between the pipeline and the routes sees
    /// those two errors' responses with their status and no body yet (the
    /// error itself is in the response, as for every error).
    pub(crate) fn register_with(&self, cfg: &mut ServiceConfig, pipeline: PipelineInstalled) {
        let mut paths: Vec<&str> = Vec::new();
        for e in &self.entries {
            if !paths.contains(&e.path.as_str()) {
                paths.push(&e.path);
            }
        }
        // The most specific first: a static segment is tried before a
        // parameter in its place (stable: otherwise in registration order).
        paths.sort_by_cached_key(|path| specificity(path));
        // Paths that share requests with another (see `overlap`): their
        // resources take only their own methods (a guard), so a request
        // another of them serves goes on to it; one none of them serves
        // reaches, after all of them, a resource of the first such path
        // that answers it with the methods of every one that matched.
        let shared: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| paths.iter().any(|q| q != p && overlap::may_overlap(p, q)))
            .collect();
        for &path in &paths {
            let mut resource = web::resource(path);
            let entries: Vec<&Entry> = self.entries.iter().filter(|e| e.path == path).collect();
            let has = |m: &Method| entries.iter().any(|e| e.method == *m);
            let (has_head, has_options) = (has(&Method::HEAD), has(&Method::OPTIONS));
            for e in &entries {
                resource = resource.route(e.route(e.method.clone()));
                if e.method == Method::GET && !has_head {
                    resource = resource.route(e.route(Method::HEAD));
                }
            }
            if shared.contains(&path) {
                // `OPTIONS` is answered with the others' methods too, after
                // them (unless the application routes it here itself).
                let registered: Vec<&str> = self.methods(path).unwrap_or_default();
                let mut takes: Vec<Method> = allow_of(&registered)
                    .iter()
                    .filter_map(|m| Method::from_bytes(m.as_bytes()).ok())
                    .collect();
                if !has_options {
                    takes.retain(|m| *m != Method::OPTIONS);
                }
                resource = resource.guard(overlap::MethodIn {
                    takes,
                    registered: registered.iter().map(|m| (*m).to_owned()).collect(),
                });
                cfg.service(resource);
                continue;
            }
            let allow = self.allow(path).unwrap_or_default().join(", ");
            let allow =
                HeaderValue::from_str(&allow).unwrap_or_else(|_| HeaderValue::from_static(""));
            if !has_options {
                let allow = allow.clone();
                resource = resource.route(web::route().method(Method::OPTIONS).to(move || {
                    let allow = allow.clone();
                    async move {
                        HttpResponse::NoContent()
                            .insert_header((header::ALLOW, allow))
                            .finish()
                    }
                }));
            }
            let behind = pipeline.clone();
            resource = resource.default_service(web::to(move |req: HttpRequest| {
                let deferred = behind.get();
                let err = method_not_allowed(&req, allow.clone(), deferred);
                async move { Err::<HttpResponse, _>(err) }
            }));
            cfg.service(resource);
        }
        // The shared paths again, after every resource of the table: the
        // first that matches answers `OPTIONS` (204) or the 405, with the
        // methods of the shared paths whose guards refused the request.
        for &path in &shared {
            let behind = pipeline.clone();
            cfg.service(
                web::resource(path).default_service(web::to(move |req: HttpRequest| {
                    let deferred = behind.get();
                    let refused = overlap::refused_by(&req);
                    let methods: Vec<&str> = refused
                        .iter()
                        .flat_map(|r| r.iter().map(String::as_str))
                        .collect();
                    let allow = HeaderValue::from_str(&allow_of(&methods).join(", "))
                        .unwrap_or_else(|_| HeaderValue::from_static(""));
                    let answer = if req.method() == Method::OPTIONS {
                        Ok(HttpResponse::NoContent()
                            .insert_header((header::ALLOW, allow))
                            .finish())
                    } else {
                        Err(method_not_allowed(&req, allow, deferred))
                    };
                    async move { answer }
                })),
            );
        }
        // `OPTIONS *` asks about the server, not a resource (RFC 9110
        // §9.3.7): `204` with `Allow`, every method some path answers.
        let mut server_wide: Vec<&str> = Vec::new();
        for e in &self.entries {
            for m in self.allow(&e.path).unwrap_or_default() {
                if m != Method::OPTIONS.as_str() && !server_wide.contains(&m) {
                    server_wide.push(m);
                }
            }
        }
        server_wide.push(Method::OPTIONS.as_str());
        let server_wide = HeaderValue::from_str(&server_wide.join(", "))
            .unwrap_or_else(|_| HeaderValue::from_static("OPTIONS"));
        cfg.default_service(web::to(move |req: HttpRequest| {
            let deferred = pipeline.get();
            let server_wide = server_wide.clone();
            async move {
                if req.method() == Method::OPTIONS && req.uri() == "*" {
                    return Ok(HttpResponse::NoContent()
                        .insert_header((header::ALLOW, server_wide))
                        .finish());
                }
                Err::<HttpResponse, _>(not_found(&req, deferred))
            }
        }));
    }
}
