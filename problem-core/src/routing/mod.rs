//! The route table: every method of every path is known, so a wrong method
//! gets 405 with `Allow` and an unknown path 404, both as problem documents
//! (spec, "Request handling rules"); async guards (spec, "Authentication");
//! duplicate routes are configuration errors (spec, "Configuration errors").

mod added;
mod guard;
mod panic;

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{self, ServiceConfig};
use actix_web::{FromRequest, Handler, HttpMessage, HttpRequest, HttpResponse, Responder, Route};

pub use added::AddedRoute;
pub use guard::{Guard, GuardFuture};

use crate::HttpConfigError;
use crate::problem::{MethodNotAllowedException, NotFoundException, route_error};

/// The request path as the client sent it, before any rewriting (e.g. the
/// removal of a `/v<N>` segment by URL-path versioning). A middleware that
/// rewrites the path stores it in the request extensions; the 404 and 405
/// answers read it for their detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginalPath(pub String);

fn original_path(req: &HttpRequest) -> String {
    match req.extensions().get::<OriginalPath>() {
        Some(p) => p.0.clone(),
        None => req.path().to_owned(),
    }
}

/// The answer to a path no route matches: 404, detail
/// `No route for <METHOD> <path>`.
///
/// ```
/// # actix_web::rt::System::new().block_on(async {
/// use actix_web::test::TestRequest;
/// let res = problem_core::routing::no_route(TestRequest::get().uri("/nope").to_http_request()).await;
/// assert_eq!(res.unwrap_err().to_string(), "No route for GET /nope");
/// # });
/// ```
///
/// Inside the error pipeline the document is rendered once, by the
/// pipeline (which knows `instance`); outside it the error's own
/// `ResponseError` response answers.
pub async fn no_route(req: HttpRequest) -> Result<HttpResponse, actix_web::Error> {
    Err(route_error(NotFoundException::new().with_detail(format!(
        "No route for {} {}",
        req.method(),
        original_path(&req)
    ))))
}

type RouteFactory = Arc<dyn Fn() -> Route + Send + Sync>;

struct Entry {
    method: Method,
    path: String,
    make: RouteFactory,
    guards: Vec<Arc<dyn Guard>>,
    /// Served by a `versioned![...]` table: needs the app's versioning.
    versioned: bool,
}

/// The application's routes, built with [`get`](Routes::get),
/// [`post`](Routes::post), ... (each returns an [`AddedRoute`], whose
/// [`guarded`](AddedRoute::guarded) protects that route and no other),
/// then registered by [`ProblemApp`](crate::server::ProblemApp).
///
/// Paths use actix-web's `{name}` parameters; the spec's `/:name` form is
/// accepted too and means the same.
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

impl Routes {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a route for `method` and `path` served by `handler` (any
    /// actix-web handler: async fn with extractors, returning a `Responder`).
    pub fn route<F, Args>(mut self, method: Method, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let path = normalize(path);
        if !path.starts_with('/') {
            self.errors.push(HttpConfigError::InvalidRoute(format!(
                "path `{path}` must start with `/`"
            )));
            return AddedRoute::new(self, None);
        }
        if self
            .entries
            .iter()
            .any(|e| e.method == method && e.path == path)
        {
            self.errors.push(HttpConfigError::DuplicateRoute {
                method: method.to_string(),
                path,
            });
            return AddedRoute::new(self, None);
        }
        self.entries.push(Entry {
            method,
            path,
            versioned: std::any::TypeId::of::<F>()
                == std::any::TypeId::of::<crate::version::VersionedRoute>(),
            make: Arc::new(move || web::to(handler.clone())),
            guards: Vec::new(),
        });
        let index = self.entries.len() - 1;
        AddedRoute::new(self, Some(index))
    }

    /// Adds a `GET` route.
    pub fn get<F, Args>(self, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.route(Method::GET, path, handler)
    }

    /// Adds a `POST` route.
    pub fn post<F, Args>(self, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.route(Method::POST, path, handler)
    }

    /// Adds a `PUT` route.
    pub fn put<F, Args>(self, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.route(Method::PUT, path, handler)
    }

    /// Adds a `PATCH` route.
    pub fn patch<F, Args>(self, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.route(Method::PATCH, path, handler)
    }

    /// Adds a `DELETE` route.
    pub fn delete<F, Args>(self, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.route(Method::DELETE, path, handler)
    }

    /// The methods registered for a path, in registration order.
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

    /// The first setup mistake, if any.
    pub(crate) fn check(&self) -> Result<(), HttpConfigError> {
        match self.errors.first() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Registers every route, a 405 answer per path and the 404 answer.
    ///
    /// Behind the error pipeline the 404 and 405 documents are rendered
    /// once, by the pipeline: a middleware between the pipeline and the
    /// routes sees those two errors' responses with their status and no
    /// body yet (the error itself is in the response, as for every error).
    /// Without the pipeline they answer their standalone document.
    pub fn register(&self, cfg: &mut ServiceConfig) {
        let mut paths: Vec<&str> = Vec::new();
        for e in &self.entries {
            if !paths.contains(&e.path.as_str()) {
                paths.push(&e.path);
            }
        }
        for path in paths {
            let mut resource = web::resource(path);
            let mut methods = Vec::new();
            for e in self.entries.iter().filter(|e| e.path == path) {
                let mut route = (e.make)().method(e.method.clone());
                if !e.guards.is_empty() {
                    route = route.wrap(guard::GuardMiddleware::new(e.guards.clone()));
                }
                route = route.wrap(panic::CatchPanic);
                resource = resource.route(route);
                methods.push(e.method.as_str().to_owned());
            }
            let allow = HeaderValue::from_str(&methods.join(", "))
                .unwrap_or_else(|_| HeaderValue::from_static(""));
            resource = resource.default_service(web::to(move |req: HttpRequest| {
                let allow = allow.clone();
                async move {
                    Err::<HttpResponse, _>(route_error(
                        MethodNotAllowedException::new()
                            .with_detail(format!(
                                "{} is not allowed on {}",
                                req.method(),
                                original_path(&req)
                            ))
                            .with_header((header::ALLOW, allow)),
                    ))
                }
            }));
            cfg.service(resource);
        }
        cfg.default_service(web::to(no_route));
    }
}
