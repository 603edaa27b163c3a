//! Async guards (spec, "Authentication": a guard returns true to let the request through).

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;

use actix_web::HttpRequest;
use actix_web::body::BoxBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};

use crate::problem::ForbiddenException;

/// The future a [`Guard`] returns: `Ok(true)` lets the request through,
/// `Ok(false)` answers 403, `Err` answers that error.
///
/// ```
/// use problem_core::routing::GuardFuture;
/// let pass: GuardFuture = Box::pin(async { Ok::<_, actix_web::Error>(true) });
/// assert!(actix_web::rt::System::new().block_on(pass).unwrap());
/// ```
pub type GuardFuture = Pin<Box<dyn Future<Output = Result<bool, actix_web::Error>>>>;

/// An async check before a route's handler: `Ok(true)` goes on, `Ok(false)`
/// answers 403 with no detail, `Err(problem)` answers that problem (e.g. an
/// `UnauthorizedException` with `WWW-Authenticate`).
///
/// Not actix-web's routing `Guard`, which turns a failed check into a 404.
/// The name is kept: actix-web's trait is reached as `actix_web::guard::Guard`
/// and rarely imported by name next to this one (routes are given closures,
/// `.guarded(|req| async { .. })`); import this one as `routing::Guard`.
/// Any `Fn(HttpRequest) -> impl Future<Output = Result<bool, actix_web::Error>>`
/// is a guard.
///
/// ```
/// use actix_web::HttpRequest;
/// use problem_core::{UnauthorizedException, routing::Guard};
///
/// fn bearer(req: &HttpRequest) -> Option<&str> {
///     req.headers().get("authorization")?.to_str().ok()?.strip_prefix("Bearer ")
/// }
///
/// let admin_only = |req: HttpRequest| async move {
///     match bearer(&req) {
///         None => Err(UnauthorizedException::new()
///             .with_header(("WWW-Authenticate", "Bearer realm=\"catalog\""))
///             .into()),
///         Some(token) => Ok(token == "admin-token"),
///     }
/// };
/// fn assert_guard(_: impl Guard) {}
/// assert_guard(admin_only);
/// ```
pub trait Guard: Send + Sync + 'static {
    /// Checks the request.
    ///
    /// ```
    /// use actix_web::{HttpRequest, test::TestRequest};
    /// use problem_core::routing::Guard;
    /// let has_key = |req: HttpRequest| async move { Ok::<_, actix_web::Error>(req.headers().contains_key("x-api-key")) };
    /// let req = TestRequest::get().insert_header(("X-API-Key", "k")).to_http_request();
    /// assert!(actix_web::rt::System::new().block_on(has_key.check(req)).unwrap());
    /// ```
    fn check(&self, req: HttpRequest) -> GuardFuture;
}

impl<F, Fut> Guard for F
where
    F: Fn(HttpRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<bool, actix_web::Error>> + 'static,
{
    fn check(&self, req: HttpRequest) -> GuardFuture {
        Box::pin(self(req))
    }
}

/// Runs a route's guards before its handler.
pub(crate) struct GuardMiddleware {
    guards: Rc<[Arc<dyn Guard>]>,
}

impl GuardMiddleware {
    pub(crate) fn new(guards: Vec<Arc<dyn Guard>>) -> Self {
        Self {
            guards: guards.into(),
        }
    }
}

impl<S> Transform<S, ServiceRequest> for GuardMiddleware
where
    S: Service<ServiceRequest, Response = ServiceResponse<BoxBody>, Error = actix_web::Error>
        + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = GuardService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(GuardService {
            service: Rc::new(service),
            guards: self.guards.clone(),
        }))
    }
}

pub(crate) struct GuardService<S> {
    service: Rc<S>,
    guards: Rc<[Arc<dyn Guard>]>,
}

impl<S> Service<ServiceRequest> for GuardService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<BoxBody>, Error = actix_web::Error>
        + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>>>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let service = self.service.clone();
        let guards = self.guards.clone();
        Box::pin(async move {
            for guard in guards.iter() {
                match guard.check(req.request().clone()).await {
                    Ok(true) => {}
                    Ok(false) => return Ok(req.error_response(ForbiddenException::new())),
                    Err(e) => return Ok(req.error_response(e)),
                }
            }
            service.call(req).await
        })
    }
}
