//! `#[versioned]` handlers and `versioned!` routes through real requests:
//! dispatch by the resolved version, with and without a fallback, with the
//! handlers' own extractors and return types.

#![deny(warnings)]

use actix_web::dev::ServiceResponse;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use problem_core::version::{
    self, ApiVersion, RouteHandler, V1, V2, V3, VersionConfig, VersionStrategy, VersionedHandler,
    VersionedRoute, Versioning,
};
use problem_core::{NotFoundException, versioned};
use serde::Deserialize;

#[versioned("1.0", "2.x")]
async fn list_books_v1() -> &'static str {
    "books (v1 shape)"
}

#[versioned("3.x")]
async fn list_books_v3(version: ApiVersion) -> String {
    format!("books (v3 shape, {version})")
}

#[derive(Deserialize)]
struct Page {
    page: u32,
}

mod handlers {
    use super::*;

    /// A handler with path and query extractors and a fallible return type.
    #[versioned("1.0")]
    pub async fn show_book_v1(
        id: web::Path<u32>,
        page: web::Query<Page>,
    ) -> Result<HttpResponse, actix_web::Error> {
        if *id == 0 {
            return Err(NotFoundException::new()
                .with_detail("Book 0 not found")
                .into());
        }
        Ok(HttpResponse::Ok().body(format!("v1 book {id} page {}", page.page)))
    }

    #[versioned("2.1+")]
    pub async fn show_book_v2(id: web::Path<u32>) -> web::Json<serde_json::Value> {
        web::Json(serde_json::json!({ "id": *id, "shape": "v2" }))
    }
}

async fn fallback(version: Option<ApiVersion>) -> String {
    match version {
        Some(v) => format!("fallback for {v}"),
        None => "fallback without version".into(),
    }
}

fn config() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::default())
        .default_version(V3)
        .build()
        .unwrap()
}

async fn run(req: TestRequest) -> ServiceResponse {
    run_with(config(), req).await
}

async fn run_with(config: VersionConfig, req: TestRequest) -> ServiceResponse {
    let app = test::init_service(
        App::new()
            .wrap(Versioning::new(config))
            .route(
                "/books",
                web::get().to(version::versioned![list_books_v1, list_books_v3]),
            )
            .service(
                web::resource("/books/{id}").route(web::get().to(version::versioned![
                    handlers::show_book_v1,
                    handlers::show_book_v2,
                ])),
            )
            .route(
                "/with-fallback/{id}",
                web::get().to(version::versioned![
                    handlers::show_book_v1,
                    fallback = fallback
                ]),
            ),
    )
    .await;
    test::call_service(&app, req.to_request())
        .await
        .map_into_boxed_body()
}

/// A request with no version under a configuration that neither requires
/// one nor has a default goes on without one: a route with a fallback
/// answers it from the fallback, one without gets the 400 `API version is
/// required`.
#[actix_web::test]
async fn an_unversioned_request_without_a_default_gets_the_fallback_or_400() {
    let config = || {
        VersionConfig::builder(VersionStrategy::default())
            .build()
            .unwrap()
    };
    let res = run_with(config(), TestRequest::get().uri("/with-fallback/3")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, "fallback without version");
    let res = run_with(config(), TestRequest::get().uri("/books")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version is required","instance":"/books"}"#
    );
    let res = run_with(config(), TestRequest::get().uri("/v3/books")).await;
    assert_eq!(body(res).await, "books (v3 shape, 3.0)");
}

async fn body(res: ServiceResponse) -> String {
    String::from_utf8(test::read_body(res).await.to_vec()).unwrap()
}

#[actix_web::test]
async fn dispatches_by_constraint() {
    for (uri, expected) in [
        ("/v1/books", "books (v1 shape)"),
        ("/v2/books", "books (v1 shape)"),
        ("/v2.7/books", "books (v1 shape)"),
        ("/v3/books", "books (v3 shape, 3.0)"),
        ("/v3.2/books", "books (v3 shape, 3.2)"),
        ("/books", "books (v3 shape, 3.0)"),
    ] {
        let res = run(TestRequest::get().uri(uri)).await;
        assert_eq!(res.status(), 200, "{uri}");
        assert_eq!(body(res).await, expected, "{uri}");
    }
}

#[actix_web::test]
async fn handlers_keep_their_extractors_and_return_types() {
    let res = run(TestRequest::get().uri("/v1/books/7?page=2")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "1");
    assert_eq!(body(res).await, "v1 book 7 page 2");

    let res = run(TestRequest::get().uri("/v2.1/books/7")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, r#"{"id":7,"shape":"v2"}"#);

    // A failing extractor answers as actix-web would.
    let res = run(TestRequest::get().uri("/v1/books/7")).await;
    assert_eq!(res.status(), 400);

    // A handler's problem keeps its body and gets the version headers.
    let res = run(TestRequest::get().uri("/v1/books/0?page=1")).await;
    assert_eq!(res.status(), 404);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "1");
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 0 not found","instance":""}"#
    );
}

#[actix_web::test]
async fn a_version_no_handler_accepts_is_the_unsupported_problem() {
    // 2.0 is below "2.1+" and is not "1.0".
    let res = run(TestRequest::get().uri("/v2/books/7")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 2 is not supported","instance":"/v2/books/7","supportedVersions":["1","2.1"]}"#
    );
}

#[actix_web::test]
async fn the_fallback_serves_versions_no_handler_accepts() {
    let res = run(TestRequest::get().uri("/v1/with-fallback/3?page=1")).await;
    assert_eq!(body(res).await, "v1 book 3 page 1");
    let res = run(TestRequest::get().uri("/v1.4/with-fallback/3?page=1")).await;
    assert_eq!(body(res).await, "v1 book 3 page 1");
    let res = run(TestRequest::get().uri("/v5/with-fallback/3")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, "fallback for 5.0");
}

#[actix_web::test]
async fn unsupported_lists_only_configured_versions_the_route_serves() {
    let cfg = VersionConfig::builder(VersionStrategy::header())
        .default_version(V3)
        .supported_versions([V1, V2, V3, ApiVersion::new(4, 0)])
        .build()
        .unwrap();
    let app = test::init_service(App::new().wrap(Versioning::new(cfg)).route(
        "/books",
        web::get().to(version::versioned![list_books_v1, list_books_v3]),
    ))
    .await;
    let req = TestRequest::get()
        .uri("/books")
        .insert_header(("X-API-Version", "4"))
        .to_request();
    let res = test::call_service(&app, req).await;
    assert_eq!(res.status(), 400);
    // The header names the versions the body does.
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "1, 2, 3"
    );
    let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    assert_eq!(
        body,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 4 is not supported","instance":"/books","supportedVersions":["1","2","3"]}"#
    );
}

#[actix_web::test]
async fn without_the_middleware_the_fallback_serves_or_a_500() {
    let app = test::init_service(
        App::new()
            .route(
                "/a",
                web::get().to(version::versioned![list_books_v1, fallback = fallback]),
            )
            .route("/b", web::get().to(version::versioned![list_books_v1])),
    )
    .await;
    let res = test::call_service(&app, TestRequest::get().uri("/a").to_request()).await;
    assert_eq!(
        String::from_utf8(test::read_body(res).await.to_vec()).unwrap(),
        "fallback without version"
    );
    let res = test::call_service(&app, TestRequest::get().uri("/b").to_request()).await;
    assert_eq!(res.status(), 500);
    // Masked: the setup mistake's message goes to no client.
    assert_eq!(
        String::from_utf8(test::read_body(res).await.to_vec()).unwrap(),
        r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":""}"#
    );
}

#[actix_web::test]
async fn a_route_built_at_run_time_checks_overlaps() {
    let err = VersionedRoute::new(
        VersionedHandler::new()
            .constraint("2.x".parse().unwrap(), RouteHandler::new(list_books_v1))
            .version(ApiVersion::new(2, 3), RouteHandler::new(list_books_v3)),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid version configuration: versioned handlers overlap: 2.x and 2.3 both accept some version"
    );
    let ok = VersionedRoute::new(
        VersionedHandler::new()
            .version(V1, RouteHandler::new(list_books_v1))
            .version(V2, RouteHandler::new(list_books_v3)),
    )
    .expect("1.0 and 2.0 do not overlap");
    assert_eq!(ok.table().registered_versions(), [V1, V2]);
}

#[test]
fn the_attribute_records_the_constraints() {
    let route = version::versioned![list_books_v1, list_books_v3];
    let table = route.table();
    // `list_books_v1` ("1.0", "2.x") is one entry, `list_books_v3` ("3.x")
    // another: compared by address, the entry each version finds.
    let v1 = table.get(V1).expect("1.0 is list_books_v1's");
    let v3 = table.get(V3).expect("3.0 is list_books_v3's");
    assert!(!std::ptr::eq(v1, v3));
    assert!(table.get(ApiVersion::new(1, 1)).is_none());
    assert!(std::ptr::eq(
        table.get_compatible(ApiVersion::new(1, 1)).unwrap(),
        v1
    ));
    assert!(std::ptr::eq(table.get(ApiVersion::new(2, 9)).unwrap(), v1));
    assert!(std::ptr::eq(table.get(ApiVersion::new(3, 7)).unwrap(), v3));
    assert!(table.get(ApiVersion::new(4, 0)).is_none());
    assert_eq!(table.registered_versions(), [V1, V2, V3]);
}
