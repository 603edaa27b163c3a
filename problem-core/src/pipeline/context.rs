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
/// never reach a problem response (spec, "Request handling rules" 4),
/// after the crate's own headers: a drafted name replaces the response's
/// values of that name (a name appended several times keeps every value),
/// except `Vary`, whose field names are merged with the response's (the
/// version strategy's, `Prefer`; RFC 9110 §12.5.5), and `Link`, whose
/// links are added to the response's (a deprecation link stays; RFC 8288).
/// Handlers write it through [`RequestContext::response_headers_mut`].
///
/// ```
/// use actix_web::http::header::{HeaderName, HeaderValue};
/// use actix_web::{test, web, App, HttpResponse};
/// use problem_core::NotFoundException;
/// use problem_core::pipeline::{Pipeline, RequestContext};
///
/// async fn show(ctx: RequestContext) -> Result<HttpResponse, NotFoundException> {
///     ctx.response_headers_mut().insert(HeaderName::from_static("x-book-id"), HeaderValue::from_static("7"));
///     match ctx.param("id") {
///         Some("7") => Ok(HttpResponse::Ok().finish()),
///         _ => Err(NotFoundException::new()),
///     }
/// }
///
/// # actix_web::rt::System::new().block_on(async {
/// let pipeline = Pipeline::builder().development(false).build().unwrap();
/// let app = test::init_service(App::new().wrap(pipeline).route("/books/{id}", web::get().to(show))).await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books/7").to_request()).await;
/// assert_eq!(res.headers().get("x-book-id").unwrap(), "7");
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books/8").to_request()).await;
/// assert_eq!(res.status(), 404);
/// assert_eq!(res.headers().get("x-book-id"), None);
/// # });
/// ```
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
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::{Body, RequestContext};
    /// #[derive(Debug, PartialEq, serde::Deserialize)]
    /// struct NewBook { title: String }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let (req, mut payload) = TestRequest::post()
    ///     .insert_header(("Content-Type", "application/json"))
    ///     .set_payload(r#"{"title":"Dune"}"#)
    ///     .to_http_parts();
    /// let ctx = RequestContext::<Body<NewBook>>::from_request(&req, &mut payload).await.unwrap();
    /// assert_eq!(ctx.body().0, NewBook { title: "Dune".into() });
    /// # });
    /// ```
    pub fn body(&self) -> &B {
        &self.body
    }

    /// Takes the body out of the context.
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::{Body, RequestContext};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let (req, mut payload) = TestRequest::post()
    ///     .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
    ///     .set_payload("title=Dune&year=1965")
    ///     .to_http_parts();
    /// let ctx = RequestContext::<Body<Vec<(String, String)>>>::from_request(&req, &mut payload).await.unwrap();
    /// let Body(fields) = ctx.into_body();
    /// assert_eq!(fields, [("title".to_owned(), "Dune".to_owned()), ("year".to_owned(), "1965".to_owned())]);
    /// # });
    /// ```
    pub fn into_body(self) -> B {
        self.body
    }

    /// A path parameter by name (`/books/{id}` gives `id`).
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::RequestContext;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::get().uri("/books/7").param("id", "7").to_http_request();
    /// let ctx = RequestContext::<()>::extract(&req).await.unwrap();
    /// assert_eq!(ctx.param("id"), Some("7"));
    /// assert_eq!(ctx.param("isbn"), None);
    /// # });
    /// ```
    pub fn param(&self, name: &str) -> Option<&str> {
        self.request.match_info().get(name)
    }

    /// Every path parameter, in path order.
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::RequestContext;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::get()
    ///     .uri("/authors/3/books/7")
    ///     .param("author", "3")
    ///     .param("id", "7")
    ///     .to_http_request();
    /// let ctx = RequestContext::<()>::extract(&req).await.unwrap();
    /// assert_eq!(ctx.params(), [("author", "3"), ("id", "7")]);
    /// # });
    /// ```
    pub fn params(&self) -> Vec<(&str, &str)> {
        self.request.match_info().iter().collect()
    }

    /// The decoded query pairs, in order (repeated keys kept).
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::RequestContext;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::get().uri("/books?tag=sci%20fi&tag=classic&q=a+b").to_http_request();
    /// let ctx = RequestContext::<()>::extract(&req).await.unwrap();
    /// let pairs: Vec<(&str, &str)> = ctx.query().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    /// assert_eq!(pairs, [("tag", "sci fi"), ("tag", "classic"), ("q", "a b")]);
    /// # });
    /// ```
    pub fn query(&self) -> &[(String, String)] {
        &self.query
    }

    /// The request.
    ///
    /// ```
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::RequestContext;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::delete().uri("/books/7?force=1").to_http_request();
    /// let ctx = RequestContext::<()>::extract(&req).await.unwrap();
    /// assert_eq!(ctx.request().method(), "DELETE");
    /// assert_eq!(ctx.request().path(), "/books/7");
    /// # });
    /// ```
    pub fn request(&self) -> &HttpRequest {
        &self.request
    }

    /// The response-header draft.
    ///
    /// The draft belongs to the request: every `RequestContext` extracted
    /// from it shares it.
    ///
    /// ```
    /// use actix_web::http::header::{HeaderName, HeaderValue};
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::pipeline::RequestContext;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::get().to_http_request();
    /// let first = RequestContext::<()>::extract(&req).await.unwrap();
    /// first.response_headers_mut().insert(HeaderName::from_static("x-total"), HeaderValue::from_static("42"));
    /// let second = RequestContext::<()>::extract(&req).await.unwrap();
    /// assert_eq!(second.response_headers().get("x-total").unwrap(), "42");
    /// assert_eq!(second.response_headers().len(), 1);
    /// # });
    /// ```
    pub fn response_headers(&self) -> Ref<'_, HeaderMap> {
        self.draft.0.borrow()
    }

    /// The response-header draft, to change. The pipeline applies it to a
    /// success response:
    ///
    /// ```
    /// use actix_web::http::header::{HeaderName, HeaderValue};
    /// use actix_web::{test, web, App, HttpResponse};
    /// use problem_core::pipeline::{Pipeline, RequestContext};
    ///
    /// async fn list(ctx: RequestContext) -> HttpResponse {
    ///     ctx.response_headers_mut().insert(HeaderName::from_static("x-total-count"), HeaderValue::from_static("42"));
    ///     HttpResponse::Ok().body("[]")
    /// }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let pipeline = Pipeline::builder().development(false).build().unwrap();
    /// let app = test::init_service(App::new().wrap(pipeline).route("/books", web::get().to(list))).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
    /// assert_eq!(res.headers().get("x-total-count").unwrap(), "42");
    /// # });
    /// ```
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

/// Applies the draft headers of a request to a success response (see
/// [`ResponseDraft`]): each name the draft holds replaces the response's
/// values of that name with every value drafted, except `Vary` (merged)
/// and `Link` (added to).
pub(crate) fn apply_draft(req: &HttpRequest, headers: &mut HeaderMap) {
    // Taken out: applied once, even by nested pipelines (a drafted `Link`
    // is added, not replaced).
    let draft = req.extensions_mut().remove::<ResponseDraft>();
    if let Some(draft) = draft {
        super::merge_map(headers, &draft.0.borrow());
    }
}
