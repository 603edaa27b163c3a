//! Versioning inside the full stack: the error pipeline outermost, then
//! `Versioning`, then the route table with `versioned!` routes. Checks that
//! `instance` and the 404/405 details use the path as received, and that
//! every problem the pipeline renders keeps the version headers.

use std::time::{Duration, UNIX_EPOCH};

use actix_web::dev::ServiceResponse;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use problem_core::server::ProblemApp;
use problem_core::version::{
    self, ApiVersion, Deprecation, V1, V2, V3, VersionConfig, VersionStrategy, Versioning,
};
use problem_core::{NotFoundException, versioned};

#[versioned("2.x")]
async fn list_books_v2() -> &'static str {
    "books v2"
}

#[versioned("3.x")]
async fn list_books_v3(v: ApiVersion) -> String {
    format!("books v{}", v.short())
}

async fn show_book(id: web::Path<u32>) -> Result<HttpResponse, NotFoundException> {
    Err(NotFoundException::new().with_detail(format!("Book {id} not found")))
}

async fn broken() -> Result<HttpResponse, std::io::Error> {
    Err(std::io::Error::other("disk on fire"))
}

async fn health() -> &'static str {
    "ok"
}

fn catalog() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header(),
        VersionStrategy::query(),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .deprecated_with(
        V2,
        Deprecation::new()
            .date(UNIX_EPOCH + Duration::from_secs(1_767_225_600))
            .sunset(UNIX_EPOCH + Duration::from_secs(1_830_297_599)),
    )
    .removed(V1)
    .neutral_path("/health")
    .neutral_path("/openapi.json")
    .build()
    .unwrap()
}

async fn run(req: TestRequest) -> ServiceResponse {
    // The app is given the configuration (a `versioned![...]` route needs
    // it at build) while this test wraps its own `Versioning` (with `Vary`, its default).
    let app = ProblemApp::builder()
        .development(false)
        .versioning(catalog())
        .routes(|r| {
            r.get("/books", version::versioned![list_books_v2, list_books_v3])
                .get("/books/{id}", show_book)
                .get("/broken", broken)
                .get("/health", health)
        })
        .build()
        .unwrap();
    let pipeline = app.pipeline();
    let service = test::init_service(
        App::new()
            .configure(move |cfg| app.configure(cfg))
            .wrap(Versioning::new(catalog()))
            .wrap(pipeline),
    )
    .await;
    test::call_service(&service, req.to_request())
        .await
        .map_into_boxed_body()
}

fn header<'a>(res: &'a ServiceResponse, name: &str) -> Option<&'a str> {
    res.headers().get(name).map(|v| v.to_str().unwrap())
}

async fn body(res: ServiceResponse) -> String {
    String::from_utf8(test::read_body(res).await.to_vec()).unwrap()
}

fn assert_v2_headers(res: &ServiceResponse) {
    assert_eq!(header(res, "x-api-version"), Some("2"));
    assert_eq!(header(res, "x-api-supported-versions"), Some("2, 3"));
    assert_eq!(header(res, "x-api-deprecated"), Some("true"));
    assert_eq!(
        header(res, "x-api-deprecation-message"),
        Some("API version 2 is deprecated")
    );
    assert_eq!(header(res, "deprecation"), Some("@1767225600"));
    assert_eq!(header(res, "sunset"), Some("Fri, 31 Dec 2027 23:59:59 GMT"));
}

#[actix_web::test]
async fn versioned_route_in_the_route_table() {
    let res = run(TestRequest::get().uri("/v2/books")).await;
    assert_eq!(res.status(), 200);
    assert_v2_headers(&res);
    assert_eq!(body(res).await, "books v2");
    let res = run(TestRequest::get().uri("/books")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-api-version"), Some("3"));
    assert_eq!(body(res).await, "books v3");
}

#[actix_web::test]
async fn handler_problem_keeps_version_headers_and_the_original_instance() {
    let res = run(TestRequest::get().uri("/v2/books/7")).await;
    assert_eq!(res.status(), 404);
    assert_v2_headers(&res);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/v2/books/7"}"#
    );
}

#[actix_web::test]
async fn no_route_and_wrong_method_name_the_path_as_received() {
    let res = run(TestRequest::get().uri("/v2/nope")).await;
    assert_eq!(res.status(), 404);
    assert_v2_headers(&res);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /v2/nope","instance":"/v2/nope"}"#
    );
    let res = run(TestRequest::delete().uri("/v3/books")).await;
    assert_eq!(res.status(), 405);
    assert_eq!(header(&res, "allow"), Some("GET, HEAD, OPTIONS"));
    assert_eq!(header(&res, "x-api-version"), Some("3"));
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"DELETE is not allowed on /v3/books","instance":"/v3/books"}"#
    );
}

#[actix_web::test]
async fn version_problems_through_the_pipeline() {
    let res = run(TestRequest::get().uri("/v1/books?page=2")).await;
    assert_eq!(res.status(), 410);
    assert_eq!(header(&res, "x-api-supported-versions"), Some("2, 3"));
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Gone","status":410,"detail":"API version 1 is no longer supported","instance":"/v1/books"}"#
    );
    let res = run(TestRequest::get()
        .uri("/books")
        .insert_header(("X-API-Version", "7")))
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(header(&res, "x-api-supported-versions"), Some("2, 3"));
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 7 is not supported","instance":"/books","supportedVersions":["2","3"]}"#
    );
    let res = run(TestRequest::get().uri("/books?api-version=x")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"x\"","instance":"/books"}"#
    );
}

#[actix_web::test]
async fn masked_500_keeps_version_headers() {
    let res = run(TestRequest::get().uri("/v2/broken")).await;
    assert_eq!(res.status(), 500);
    assert_v2_headers(&res);
    let body = body(res).await;
    let parsed: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = parsed["correlationId"].as_str().expect("a correlation id");
    assert!(uuid::Uuid::parse_str(id).is_ok(), "{body}");
    assert_eq!(
        body,
        format!(
            r#"{{"type":"about:blank","title":"Internal Server Error","status":500,"instance":"/v2/broken","correlationId":"{id}"}}"#
        )
    );
}

#[actix_web::test]
async fn neutral_path_through_the_stack() {
    let res = run(TestRequest::get()
        .uri("/health")
        .insert_header(("X-API-Version", "1")))
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-api-version"), None);
    assert_eq!(header(&res, "x-api-supported-versions"), None);
    assert_eq!(body(res).await, "ok");
}

/// A middleware between the versioning one and the routes that answers
/// `Err` (an authentication layer, say): its problem is rendered by the
/// pipeline with the request's version headers and `Vary`, as every
/// problem response (it travels as an error: the request is gone, so
/// `try_call_service` gives `Err` and a server writes its response).
#[actix_web::test]
async fn a_middleware_s_error_keeps_the_version_headers() {
    use actix_web::body::MessageBody;
    use actix_web::dev::ServiceRequest;
    use actix_web::middleware::{Next, from_fn};
    use problem_core::ConflictException;
    async fn refuse(
        req: ServiceRequest,
        next: Next<impl MessageBody + 'static>,
    ) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
        if req.path() == "/books" {
            return Err(ConflictException::new()
                .with_detail("from middleware")
                .into());
        }
        next.call(req).await
    }
    // The last case passes two versioning layers: still the 409.
    for (uri, version, instance, layers) in [
        ("/v2/books", "2", "/v2/books", 1),
        ("/books", "3", "/books", 1),
        ("/v2/books", "2", "/v2/books", 2),
    ] {
        let app = ProblemApp::builder()
            .development(false)
            .versioning(catalog())
            .routes(|r| r.get("/books", version::versioned![list_books_v2, list_books_v3]))
            .build()
            .unwrap();
        let pipeline = app.pipeline();
        let service = test::init_service(
            App::new()
                .configure(move |cfg| app.configure(cfg))
                .wrap(from_fn(refuse))
                .wrap(actix_web::middleware::Condition::new(
                    layers > 1,
                    Versioning::new(catalog()),
                ))
                .wrap(Versioning::new(catalog()))
                .wrap(pipeline),
        )
        .await;
        let err = test::try_call_service(&service, TestRequest::get().uri(uri).to_request())
            .await
            .map(|_| ())
            .unwrap_err();
        let res = ServiceResponse::new(
            TestRequest::default().to_http_request(),
            err.error_response(),
        );
        assert_eq!(res.status(), 409, "{uri}");
        assert_eq!(header(&res, "x-api-version"), Some(version), "{uri}");
        assert_eq!(header(&res, "x-api-supported-versions"), Some("2, 3"));
        assert_eq!(header(&res, "vary"), Some("X-API-Version, Accept"));
        if version == "2" {
            assert_v2_headers(&res);
        }
        assert_eq!(
            body(res).await,
            format!(
                r#"{{"type":"about:blank","title":"Conflict","status":409,"detail":"from middleware","instance":"{instance}"}}"#
            )
        );
    }
}
