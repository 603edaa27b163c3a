//! Headers that every response of a request carries, problem responses included.

use actix_web::HttpMessage;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::HeaderMap;

/// Headers that every response to this request carries, success and problem
/// responses alike. A middleware (e.g. API versioning) records them here so
/// the error pipeline adds them to any problem response it builds or
/// rebuilds. Stored in the request's extensions.
///
/// ```
/// use actix_web::test::TestRequest;
/// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
/// use actix_web::HttpMessage;
/// use problem_core::pipeline::{add_sticky_headers, StickyHeaders};
///
/// let req = TestRequest::default().to_srv_request();
/// let mut h = HeaderMap::new();
/// h.insert(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
/// add_sticky_headers(&req, &h);
/// assert_eq!(req.extensions().get::<StickyHeaders>().unwrap().0.get("x-api-version").unwrap(), "3");
/// ```
#[derive(Debug, Clone, Default)]
pub struct StickyHeaders(pub HeaderMap);

/// Records headers for every response of `req` (replacing earlier values of
/// the same names); see [`StickyHeaders`].
pub fn add_sticky_headers(req: &ServiceRequest, headers: &HeaderMap) {
    let mut ext = req.extensions_mut();
    let sticky = match ext.get_mut::<StickyHeaders>() {
        Some(s) => s,
        None => {
            ext.insert(StickyHeaders::default());
            match ext.get_mut::<StickyHeaders>() {
                Some(s) => s,
                None => return,
            }
        }
    };
    for name in headers.keys() {
        sticky.0.remove(name);
    }
    for (name, value) in headers.iter() {
        sticky.0.append(name.clone(), value.clone());
    }
}
