//! [`AddedRoute`]: the route table just after a route was added, the only
//! place a guard can be given, so a guard always protects the route it
//! follows (spec, "Authentication").

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::{FromRequest, Handler, Responder};

use super::{Guard, Routes};

/// The route table right after [`Routes::get`], [`Routes::post`], ...:
/// [`guarded`](Self::guarded) protects the route just added, and only it.
/// The other methods add the next route, as on [`Routes`]; convert back
/// with `.into()` (or let [`ProblemAppBuilder::routes`] do it).
///
/// A guard cannot be given before a route or on its own: `Routes` has no
/// `guarded` method, so `r.guarded(admin_only).post("/orders", create)`
/// does not compile.
///
/// [`ProblemAppBuilder::routes`]: crate::server::ProblemAppBuilder::routes
///
/// ```
/// use actix_web::{HttpRequest, HttpResponse};
/// use problem_core::routing::Routes;
///
/// async fn list() -> HttpResponse { HttpResponse::Ok().finish() }
/// async fn create() -> HttpResponse { HttpResponse::Created().finish() }
/// async fn admin_only(req: HttpRequest) -> Result<bool, actix_web::Error> {
///     Ok(req.headers().get("authorization").is_some_and(|v| v == "Bearer admin"))
/// }
///
/// let routes: Routes = Routes::new()
///     .get("/orders", list)                 // open
///     .post("/orders", create)
///     .guarded(admin_only)                  // protects POST /orders only
///     .into();
/// assert_eq!(routes.protected_routes(), vec![("POST", "/orders")]);
/// ```
#[must_use = "add the next route or convert back with `.into()`"]
pub struct AddedRoute {
    routes: Routes,
    /// The entry just added; `None` when adding it was a setup mistake
    /// (then `build()` fails and no guard can land elsewhere).
    index: Option<usize>,
}

impl std::fmt::Debug for AddedRoute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.routes.fmt(f)
    }
}

impl From<AddedRoute> for Routes {
    fn from(added: AddedRoute) -> Self {
        added.routes
    }
}

/// What the closure given to
/// [`ProblemAppBuilder::routes`](crate::server::ProblemAppBuilder::routes)
/// returns: the table ([`Routes`]) or the [`AddedRoute`] its last `get`,
/// `post`, ... (or `guarded`) call gave.
///
/// The table's methods take it by value, so the closure ends with the
/// last call and no `;`: `|r| r.get("/a", a).post("/b", b)`. A closure
/// whose last call ends in `;` returns `()`, a compile error that says
/// so.
///
/// ```
/// use actix_web::HttpResponse;
/// use problem_core::routing::{IntoRoutes, Routes};
///
/// async fn list() -> HttpResponse { HttpResponse::Ok().finish() }
/// let routes: Routes = Routes::new().get("/books", list).into_routes();
/// assert_eq!(routes.protected_routes(), Vec::<(&str, &str)>::new());
/// ```
#[diagnostic::on_unimplemented(
    message = "the closure given to `.routes(..)` returns `{Self}`, not the route table",
    label = "the closure must return the table (`Routes`) or its last `.get(..)`, `.post(..)`, ... call",
    note = "the table's methods take it by value: end the closure with the last call and no `;`, e.g. `.routes(|r| r.get(\"/a\", a).post(\"/b\", b))`"
)]
pub trait IntoRoutes {
    /// The route table.
    ///
    /// ```
    /// use problem_core::routing::{IntoRoutes, Routes};
    /// let routes = Routes::new().into_routes();
    /// assert!(routes.protected_routes().is_empty());
    /// ```
    fn into_routes(self) -> Routes;
}

impl IntoRoutes for Routes {
    fn into_routes(self) -> Routes {
        self
    }
}

impl IntoRoutes for AddedRoute {
    fn into_routes(self) -> Routes {
        self.routes
    }
}

impl AddedRoute {
    pub(super) fn new(routes: Routes, index: Option<usize>) -> Self {
        Self { routes, index }
    }

    /// Guards the route just added: the guard runs before the handler's
    /// extractors; `Ok(false)` answers 403 with no detail, `Err(problem)`
    /// answers that problem (e.g. 401 with `WWW-Authenticate`). Several
    /// `guarded` in a row run in order, all on that route.
    ///
    /// ```
    /// use actix_web::{test, App, HttpRequest, HttpResponse};
    /// use problem_core::routing::Routes;
    ///
    /// async fn admin_only(req: HttpRequest) -> Result<bool, actix_web::Error> {
    ///     Ok(req.headers().get("authorization").is_some_and(|v| v == "Bearer admin"))
    /// }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let routes = Routes::new()
    ///     .delete("/books/{id}", || async { HttpResponse::NoContent().finish() })
    ///     .guarded(admin_only)
    ///     .into_routes();
    /// let svc = test::init_service(App::new().configure(|c| routes.register(c))).await;
    /// let res = test::call_service(&svc, test::TestRequest::delete().uri("/books/7").to_request()).await;
    /// assert_eq!(res.status(), 403);
    /// let req = test::TestRequest::delete().uri("/books/7").insert_header(("Authorization", "Bearer admin"));
    /// assert_eq!(test::call_service(&svc, req.to_request()).await.status(), 204);
    /// # });
    /// ```
    pub fn guarded(mut self, guard: impl Guard) -> Self {
        if let Some(entry) = self.index.and_then(|i| self.routes.entries.get_mut(i)) {
            entry.guards.push(Arc::new(guard));
        }
        self
    }

    /// The table so far.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::routing::Routes;
    ///
    /// let routes: Routes = Routes::new().get("/books", || async { HttpResponse::Ok().finish() }).into_routes();
    /// assert_eq!(routes.methods("/books").unwrap(), vec!["GET"]);
    /// ```
    pub fn into_routes(self) -> Routes {
        self.routes
    }

    /// The methods registered for a path; see [`Routes::methods`].
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::routing::Routes;
    ///
    /// async fn h() -> HttpResponse { HttpResponse::Ok().finish() }
    /// let added = Routes::new().get("/books", h).post("/books", h);
    /// assert_eq!(added.methods("/books").unwrap(), vec!["GET", "POST"]);
    /// ```
    pub fn methods(&self, path: &str) -> Option<Vec<&str>> {
        self.routes.methods(path)
    }

    /// Adds a route; see [`Routes::route`].
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use actix_web::http::Method;
    /// use problem_core::routing::Routes;
    ///
    /// async fn h() -> HttpResponse { HttpResponse::Ok().finish() }
    /// let routes = Routes::new().get("/books", h).route(Method::PUT, "/books", h).into_routes();
    /// assert_eq!(routes.methods("/books").unwrap(), vec!["GET", "PUT"]);
    /// ```
    pub fn route<F, Args>(self, method: Method, path: &str, handler: F) -> AddedRoute
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.routes.route(method, path, handler)
    }

    method_shortcuts!(start = "Routes::new().get(\"/health\", handler)");
}

impl Routes {
    /// `(method, path)` of every route with at least one guard, in
    /// registration order.
    ///
    /// ```
    /// use problem_core::routing::Routes;
    /// assert!(Routes::new().protected_routes().is_empty());
    /// ```
    pub fn protected_routes(&self) -> Vec<(&str, &str)> {
        self.entries
            .iter()
            .filter(|e| !e.guards.is_empty())
            .map(|e| (e.method.as_str(), e.path.as_str()))
            .collect()
    }
}

impl Routes {
    /// The first route that needs the application's versioning (served by
    /// a `versioned![...]` table, or by a handler taking the `ApiVersion`
    /// extractor): `(method, path, kind)`.
    pub(crate) fn first_versioned(&self) -> Option<(&str, &str, super::Versioned)> {
        self.entries
            .iter()
            .find(|e| e.versioned.needs_versioning())
            .map(|e| (e.method.as_str(), e.path.as_str(), e.versioned))
    }

    /// The first `versioned![...]` route without a fallback that serves
    /// none of `versions` (the versions the application advertises), so it
    /// could only answer 400 `API version <N> is not supported`:
    /// `(method, path, registered)`, `registered` the route's constraints
    /// as written.
    pub(crate) fn first_serving_none(
        &self,
        versions: &[crate::version::ApiVersion],
    ) -> Option<(&str, &str, String)> {
        if versions.is_empty() {
            return None;
        }
        self.entries.iter().find_map(|e| {
            let table = e.table.as_ref()?.table();
            if versions.iter().any(|v| table.get_compatible(*v).is_some()) {
                return None;
            }
            let registered = table
                .registered_constraints()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            Some((e.method.as_str(), e.path.as_str(), registered))
        })
    }

    /// The first route that cannot serve a request without a version (a
    /// `versioned![...]` table without a fallback, or a handler taking the
    /// `ApiVersion` extractor) whose path `neutral` calls version-neutral:
    /// no version is resolved there, so it could only answer 500.
    pub(crate) fn first_unresolvable(
        &self,
        neutral: impl Fn(&str) -> bool,
    ) -> Option<(&str, &str, super::Versioned)> {
        self.entries
            .iter()
            .find(|e| e.versioned.needs_resolved_version() && neutral(&e.path))
            .map(|e| (e.method.as_str(), e.path.as_str(), e.versioned))
    }
}
