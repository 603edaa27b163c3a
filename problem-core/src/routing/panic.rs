//! Catches a panic in a route's handler, extractors or guards and answers it
//! as an error the pipeline turns into a masked 500 (spec, "Masking rules":
//! unknown errors; the crate's design rules: a panic is an unknown error and the
//! worker keeps serving).

use std::future::{Future, Ready, ready};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::rc::Rc;

use actix_web::body::BoxBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use futures_util::FutureExt;

use crate::pipeline::{Catching, PanicError};

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
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>>>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        // Routing is done: the request may be cloned now.
        let http_req = req.request().clone();
        let service = self.service.clone();
        Box::pin(async move {
            let call = std::pin::pin!(
                AssertUnwindSafe(async move { service.call(req).await }).catch_unwind()
            );
            match Catching(call).await {
                Ok(result) => result,
                Err(panic) => Ok(ServiceResponse::from_err(
                    PanicError::from_payload(&*panic),
                    http_req,
                )),
            }
        })
    }
}
