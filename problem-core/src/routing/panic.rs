//! The route-level layer of every route: catches a panic in a route's
//! handler, extractors or guards and answers it as an error the pipeline
//! turns into a masked 500 (spec, "Masking rules": unknown errors; a panic is an unknown error and the worker keeps
//! serving). Being the first code to run after routing, it also refuses a
//! path parameter holding U+0000 with a 400 `invalid_value` issue on that
//! parameter (hostile-input rule "NUL characters"), before any extractor.

use std::future::{Future, Ready, ready};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::HttpRequest;
use actix_web::body::BoxBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use futures_util::FutureExt;
use futures_util::future::CatchUnwind;

use crate::pipeline::{Call, Catching, PanicError};
use crate::problem::{IssueLocation, ValidationException};
use crate::query::nul_issue;

/// Route-level middleware: a panic becomes an `actix_web::Error` holding a
/// [`PanicError`], attached to a response for the request.
pub(crate) struct CatchPanic;

impl<S> Transform<S, ServiceRequest> for CatchPanic
where
    S: Service<ServiceRequest, Response = ServiceResponse<BoxBody>, Error = actix_web::Error>
        + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = CatchPanicService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(CatchPanicService {
            service: Rc::new(service),
        }))
    }
}

pub(crate) struct CatchPanicService<S> {
    service: Rc<S>,
}

impl<S> Service<ServiceRequest> for CatchPanicService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<BoxBody>, Error = actix_web::Error>
        + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = CatchPanicFuture<S>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        // Routing is done: the request may be cloned now.
        let http_req = req.request().clone();
        // A path parameter holding NUL never reaches the handler.
        let refused = nul_parameters(&req);
        let start = match refused {
            Some(_) => None,
            None => Some((self.service.clone(), req)),
        };
        CatchPanicFuture {
            call: AssertUnwindSafe(Call::Start { start }).catch_unwind(),
            http_req: Some(http_req),
            refused,
        }
    }
}

/// The 400 of a request whose matched path parameters hold U+0000 (decoded
/// from `%00`): one `invalid_value` issue per such parameter, located in
/// the path (hostile-input rule "NUL characters"). `None` for the others.
fn nul_parameters(req: &ServiceRequest) -> Option<Box<ValidationException>> {
    let path = req.match_info();
    if !path.iter().any(|(_, value)| value.contains('\0')) {
        return None;
    }
    let issues = path
        .iter()
        .filter(|(_, value)| value.contains('\0'))
        .map(|(name, _)| nul_issue(IssueLocation::Path, name))
        .collect();
    Some(Box::new(ValidationException::new(issues)))
}

pin_project_lite::pin_project! {
    /// The future of [`CatchPanicService`]: the route's response, or the
    /// [`PanicError`] of a panic in its call (no allocation of its own).
    pub(crate) struct CatchPanicFuture<S: Service<ServiceRequest>> {
        #[pin]
        call: CatchUnwind<AssertUnwindSafe<Call<S>>>,
        http_req: Option<HttpRequest>,
        // Answered without calling the route (see `nul_parameters`);
        // boxed, so that the future of every other request stays small.
        refused: Option<Box<ValidationException>>,
    }
}

impl<S> Future for CatchPanicFuture<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<BoxBody>, Error = actix_web::Error>
        + 'static,
{
    type Output = Result<ServiceResponse<BoxBody>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        if let Some(refused) = this.refused.take() {
            return match this.http_req.take() {
                Some(http_req) => Poll::Ready(Ok(ServiceResponse::from_err(*refused, http_req))),
                None => Poll::Pending,
            };
        }
        match Pin::new(&mut Catching(this.call)).poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Ok(result)) => Poll::Ready(result),
            Poll::Ready(Err(panic)) => match this.http_req.take() {
                Some(http_req) => Poll::Ready(Ok(ServiceResponse::from_err(
                    PanicError::from_payload(&*panic),
                    http_req,
                ))),
                // Polled after completion: nothing more to answer.
                None => Poll::Pending,
            },
        }
    }
}
