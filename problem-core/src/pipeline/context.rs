//! The request context extractor (spec, "Endpoints": handlers may receive
//! params, query, body and response headers in a request context).

use std::cell::{Ref, RefCell, RefMut};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use actix_web::dev::Payload;
use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpMessage, HttpRequest};

/// Response headers a handler drafts for its success response. The error
/// pipeline applies them to responses with a status below 400 only: they
/// never reach a problem response (spec, "Request handling rules" 4).
#[derive(Debug, Clone, Default)]
pub struct ResponseDraft(Rc<RefCell<HeaderMap>>);

/// The request context: path params, query pairs, the body and the
/// response-header draft.
///
/// The body is read by the extractor `B` (default `()`: no body), e.g.
/// `RequestContext<Body<NewBook>>` or `RequestContext<ValidBody<NewBook>>`;
/// its errors are the extractor's (e.g. 400 `Malformed JSON body`).
///
/// ```
/// use actix_web::{HttpResponse, http::header::{HeaderName, HeaderValue}};
/// use problem_core::pipeline::RequestContext;
///
/// async fn show(ctx: RequestContext) -> HttpResponse {
///     ctx.response_headers_mut().insert(
///         HeaderName::from_static("x-book-id"),
///         HeaderValue::from_str(ctx.param("id").unwrap_or("")).unwrap(),
///     );
///     HttpResponse::Ok().finish()
/// }
/// ```
#[derive(Debug, Clone)]
pub struct RequestContext<B = ()> {
    request: HttpRequest,
    query: Vec<(String, String)>,
    draft: ResponseDraft,
    body: B,
}

impl<B> RequestContext<B> {
    /// The body, as read by `B`.
    pub fn body(&self) -> &B {
        &self.body
    }

    /// Takes the body out of the context.
    pub fn into_body(self) -> B {
        self.body
    }

    /// A path parameter by name (`/books/{id}` gives `id`).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.request.match_info().get(name)
    }

    /// Every path parameter, in path order.
    pub fn params(&self) -> Vec<(&str, &str)> {
        self.request.match_info().iter().collect()
    }

    /// The decoded query pairs, in order (repeated keys kept).
    pub fn query(&self) -> &[(String, String)] {
        &self.query
    }

    /// The request.
    pub fn request(&self) -> &HttpRequest {
        &self.request
    }

    /// The response-header draft.
    pub fn response_headers(&self) -> Ref<'_, HeaderMap> {
        self.draft.0.borrow()
    }

    /// The response-header draft, to change.
    pub fn response_headers_mut(&self) -> RefMut<'_, HeaderMap> {
        self.draft.0.borrow_mut()
    }
}

impl<B> FromRequest for RequestContext<B>
where
    B: FromRequest + 'static,
    B::Error: Into<actix_web::Error>,
{
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let draft = {
            let mut ext = req.extensions_mut();
            match ext.get::<ResponseDraft>() {
                Some(d) => d.clone(),
                None => {
                    let d = ResponseDraft::default();
                    ext.insert(d.clone());
                    d
                }
            }
        };
        let query = form_urlencoded::parse(req.query_string().as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let body = B::from_request(req, payload);
        let request = req.clone();
        Box::pin(async move {
            let body = body.await.map_err(Into::into)?;
            Ok(Self {
                request,
                query,
                draft,
                body,
            })
        })
    }
}

/// Applies the draft headers of a request to a success response.
pub(crate) fn apply_draft(req: &HttpRequest, headers: &mut HeaderMap) {
    if let Some(draft) = req.extensions().get::<ResponseDraft>() {
        for (name, value) in draft.0.borrow().iter() {
            headers.insert(name.clone(), value.clone());
        }
    }
}
