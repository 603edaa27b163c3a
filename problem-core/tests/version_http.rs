//! API versioning through real requests (actix-web test service): every
//! strategy alone and combined, every header with its exact value, each
//! lifecycle state, each version error as a problem document, neutral
//! paths and the URL-path rewrite.

mod header_support;

use header_support::{headers, pairs};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use actix_web::dev::ServiceResponse;
use actix_web::http::header::HeaderMap;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpMessage, HttpRequest, HttpResponse, web};
use problem_core::NotFoundException;
use problem_core::pipeline::StickyHeaders;
use problem_core::version::{
    ApiVersion, Deprecation, V1, V2, V3, VersionConfig, VersionConfigBuilder, VersionStrategy,
    Versioning,
};

/// Fri, 31 Dec 2027 23:59:59 GMT.
fn sunset_2027() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_830_297_599)
}
/// Thu, 01 Jan 2026 00:00:00 GMT.
fn deprecated_2026() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

async fn books(v: ApiVersion) -> String {
    format!("books v{}", v.short())
}
async fn book(v: ApiVersion, id: web::Path<u32>) -> String {
    format!("book {id} v{}", v.short())
}
async fn missing_book() -> Result<HttpResponse, actix_web::Error> {
    Err(NotFoundException::new()
        .with_detail("Book 7 not found")
        .into())
}
async fn health() -> &'static str {
    "ok"
}
async fn sticky(req: HttpRequest) -> String {
    let ext = req.extensions();
    let Some(sticky) = ext.get::<StickyHeaders>() else {
        return "none".into();
    };
    let mut pairs: Vec<String> = sticky
        .iter()
        .map(|(k, v)| format!("{k}={}", v.to_str().unwrap()))
        .collect();
    pairs.sort();
    pairs.join("; ")
}
async fn path_and_query(req: HttpRequest) -> String {
    format!("{}?{}", req.path(), req.query_string())
}

async fn run(config: VersionConfig, req: TestRequest) -> ServiceResponse {
    let app = test::init_service(
        App::new()
            .wrap(Versioning::new(config))
            .route("/books", web::get().to(books))
            .route("/books/{id}", web::get().to(book))
            .route("/missing", web::get().to(missing_book))
            .route("/health", web::get().to(health))
            .route("/sticky", web::get().to(sticky))
            .route("/echo", web::get().to(path_and_query))
            .route("/api/books", web::get().to(books)),
    )
    .await;
    test::call_service(&app, req.to_request())
        .await
        .map_into_boxed_body()
}

async fn body(res: ServiceResponse) -> String {
    String::from_utf8(test::read_body(res).await.to_vec()).unwrap()
}

fn get(uri: &str) -> TestRequest {
    TestRequest::get().uri(uri)
}

fn builder(strategy: VersionStrategy) -> VersionConfigBuilder {
    VersionConfig::builder(strategy)
        .default_version(V3)
        .supported_versions([V1, V2, V3])
}

/// The catalog service's configuration, exactly: combined path, header
/// `X-API-Version`, query `api-version`, then media type
/// `application/vnd.catalog.v<N>+json`; v3 default; v2 deprecated with a
/// date and `Sunset: Fri, 31 Dec 2027 23:59:59 GMT`; v1 removed; supported
/// [2, 3]; `/health` and `/openapi.json` neutral.
fn catalog() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .deprecated_with(
        V2,
        Deprecation::new()
            .date(deprecated_2026())
            .sunset(sunset_2027()),
    )
    .removed(V1)
    .neutral_path("/health")
    .neutral_path("/openapi.json")
    .build()
    .unwrap()
}

// ---- strategies, alone ----

#[actix_web::test]
async fn url_path_strategy_strips_the_segment_before_routing() {
    let c = || builder(VersionStrategy::url_path()).build().unwrap();
    let res = run(c(), get("/v1/books")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, "books v1");
    let res = run(c(), get("/v2/books/7")).await;
    assert_eq!(body(res).await, "book 7 v2");
    let res = run(c(), get("/v2/echo?page=2&q=a%20b")).await;
    assert_eq!(body(res).await, "/echo?page=2&q=a%20b");
    // The segment is read as the router reads the path: `%32` is `2`.
    let res = run(c(), get("/v%32/books/7")).await;
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    assert_eq!(body(res).await, "book 7 v2");
    let res = run(c(), get("/%76%31/books")).await;
    assert_eq!(body(res).await, "books v1");
}

#[actix_web::test]
async fn unversioned_path_is_served_by_the_default_version_not_404() {
    let c = builder(VersionStrategy::url_path()).build().unwrap();
    let res = run(c, get("/books/7")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "3");
    assert_eq!(body(res).await, "book 7 v3");
}

#[actix_web::test]
async fn url_path_strategy_with_prefix() {
    let c = || {
        builder(VersionStrategy::url_path_with_prefix("/api"))
            .build()
            .unwrap()
    };
    let res = run(c(), get("/api/v2/books")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, "books v2");
    let res = run(c(), get("/api/books")).await;
    assert_eq!(body(res).await, "books v3");
    // Without the prefix the segment is not a version: no route.
    let res = run(c(), get("/v2/books")).await;
    assert_eq!(res.status(), 404);
}

#[actix_web::test]
async fn header_strategy() {
    let c = || builder(VersionStrategy::header()).build().unwrap();
    let res = run(c(), get("/books").insert_header(("X-API-Version", "1"))).await;
    assert_eq!(body(res).await, "books v1");
    let res = run(c(), get("/books")).await;
    assert_eq!(body(res).await, "books v3");
    // The path segment means nothing to the header strategy.
    let res = run(c(), get("/v1/books").insert_header(("X-API-Version", "2"))).await;
    assert_eq!(res.status(), 404);
    let named = builder(VersionStrategy::header_named("Accept-Version"))
        .build()
        .unwrap();
    let res = run(named, get("/books").insert_header(("Accept-Version", "v2"))).await;
    assert_eq!(body(res).await, "books v2");
}

#[actix_web::test]
async fn query_strategy() {
    let c = || builder(VersionStrategy::query()).build().unwrap();
    let res = run(c(), get("/books?api-version=2")).await;
    assert_eq!(body(res).await, "books v2");
    let res = run(c(), get("/books?page=1")).await;
    assert_eq!(body(res).await, "books v3");
    let named = builder(VersionStrategy::query_named("v")).build().unwrap();
    let res = run(named, get("/books?v=1.0")).await;
    assert_eq!(body(res).await, "books v1");
}

#[actix_web::test]
async fn media_type_strategy() {
    let c = || {
        builder(VersionStrategy::media_type("vnd.catalog"))
            .build()
            .unwrap()
    };
    let res = run(
        c(),
        get("/books").insert_header(("Accept", "application/vnd.catalog.v2+json")),
    )
    .await;
    assert_eq!(body(res).await, "books v2");
    let res = run(
        c(),
        get("/books").insert_header((
            "Accept",
            "text/html;q=0.8, application/vnd.catalog.v1+json;q=0.9, */*;q=0.1",
        )),
    )
    .await;
    assert_eq!(body(res).await, "books v1");
    let res = run(
        c(),
        get("/books").insert_header(("Accept", "application/json")),
    )
    .await;
    assert_eq!(body(res).await, "books v3");
}

// ---- strategies, combined ----

#[actix_web::test]
async fn combined_default_order_is_path_header_query() {
    let c = || builder(VersionStrategy::default()).build().unwrap();
    let all = get("/v1/books?api-version=3").insert_header(("X-API-Version", "2"));
    let res = run(c(), all).await;
    assert_eq!(body(res).await, "books v1");
    let header_and_query = get("/books?api-version=3").insert_header(("X-API-Version", "2"));
    let res = run(c(), header_and_query).await;
    assert_eq!(body(res).await, "books v2");
    let res = run(c(), get("/books?api-version=1")).await;
    assert_eq!(body(res).await, "books v1");
    let res = run(c(), get("/books")).await;
    assert_eq!(body(res).await, "books v3");
}

#[actix_web::test]
async fn combined_custom_order_and_path_still_stripped() {
    let c = builder(VersionStrategy::combined([
        VersionStrategy::header(),
        VersionStrategy::url_path(),
    ]))
    .build()
    .unwrap();
    // The header wins, the path segment is removed anyway so routing works.
    let res = run(c, get("/v1/books").insert_header(("X-API-Version", "2"))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, "books v2");
}

#[actix_web::test]
async fn combined_malformed_first_source_is_400_not_skipped() {
    let c = builder(VersionStrategy::default()).build().unwrap();
    let req = get("/books?api-version=2").insert_header(("X-API-Version", "two"));
    let res = run(c, req).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"two\"","instance":"/books"}"#
    );
}

#[actix_web::test]
async fn repeated_version_carriers_conflict_or_are_invalid() {
    // The query parameter repeated with two versions: the crate's rule for
    // a repeated parameter, `conflicting_parameters`.
    let res = run(catalog(), get("/books?api-version=2&api-version=3")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "2, 3"
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/books","issues":[{"location":"query","name":"api-version","code":"conflicting_parameters","message":"`api-version` is given more than once with different values: send it once","parameters":["api-version"]}]}"#
    );
    // The same value twice is one version; one version written two ways
    // is two values, as two header lines `2` and `2.0` are.
    let res = run(catalog(), get("/books?api-version=v2&api-version=v2")).await;
    assert_eq!(body(res).await, "books v2");
    let res = run(catalog(), get("/books?api-version=2&api-version=v2")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"/books","issues":[{"location":"query","name":"api-version","code":"conflicting_parameters","message":"`api-version` is given more than once with different values: send it once","parameters":["api-version"]}]}"#
    );
    // A malformed value anywhere, in any carrier, is the invalid version.
    let cases = [
        (get("/books?api-version=3&api-version=zz"), "zz"),
        (
            get("/books")
                .append_header(("X-API-Version", "3"))
                .append_header(("X-API-Version", "2")),
            "3, 2",
        ),
        (
            get("/books").insert_header((
                "Accept",
                "application/vnd.catalog.v3+json, application/vnd.catalog.vzz+json",
            )),
            "vzz",
        ),
    ];
    for (req, raw) in cases {
        let res = run(catalog(), req).await;
        assert_eq!(res.status(), 400, "{raw}");
        let expected = format!(
            r#"{{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"{raw}\"","instance":"/books"}}"#
        );
        assert_eq!(body(res).await, expected);
    }
}

// ---- headers ----

#[actix_web::test]
async fn supported_version_headers_exact() {
    let c = builder(VersionStrategy::header()).build().unwrap();
    let res = run(c, get("/books").insert_header(("X-API-Version", "2"))).await;
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "2"),
            ("x-api-supported-versions", "1, 2, 3"),
        ])
    );
}

#[actix_web::test]
async fn minor_versions_keep_their_minor_in_headers() {
    let c = VersionConfig::builder(VersionStrategy::header())
        .default_version(ApiVersion::new(2, 1))
        .supported_versions([V2, ApiVersion::new(2, 1)])
        .build()
        .unwrap();
    let res = run(c, get("/books")).await;
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2.1");
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "2, 2.1"
    );
}

#[actix_web::test]
async fn add_response_headers_false_sends_no_version_headers() {
    let c = builder(VersionStrategy::header())
        .add_response_headers(false)
        .build()
        .unwrap();
    let res = run(c, get("/books")).await;
    assert_eq!(
        headers(&res),
        pairs(&[
            ("content-type", "text/plain; charset=utf-8"),
            ("vary", "X-API-Version"),
        ])
    );
}

#[actix_web::test]
async fn empty_supported_list_accepts_any_version_and_sends_no_list() {
    let c = VersionConfig::builder(VersionStrategy::header())
        .default_version(V1)
        .build()
        .unwrap();
    let res = run(c, get("/books").insert_header(("X-API-Version", "42.7"))).await;
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "42.7"),
        ])
    );
}

#[actix_web::test]
async fn problem_responses_of_handlers_carry_the_version_headers() {
    let c = catalog();
    let res = run(c, get("/v2/missing")).await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version, Accept"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("x-api-version", "2"),
            ("x-api-supported-versions", "2, 3"),
            ("x-api-deprecated", "true"),
            ("x-api-deprecation-message", "API version 2 is deprecated"),
            ("deprecation", "@1767225600"),
            ("sunset", "Fri, 31 Dec 2027 23:59:59 GMT"),
        ])
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":""}"#
    );
}

#[actix_web::test]
async fn version_headers_are_recorded_as_sticky_headers() {
    let res = run(catalog(), get("/v2/sticky")).await;
    assert_eq!(
        body(res).await,
        "deprecation=@1767225600; sunset=Fri, 31 Dec 2027 23:59:59 GMT; vary=X-API-Version, Accept; x-api-deprecated=true; \
         x-api-deprecation-message=API version 2 is deprecated; x-api-supported-versions=2, 3; x-api-version=2"
    );
    let res = run(catalog(), get("/sticky")).await;
    assert_eq!(
        body(res).await,
        "vary=X-API-Version, Accept; x-api-supported-versions=2, 3; x-api-version=3"
    );
}

// ---- lifecycle ----

#[actix_web::test]
async fn lifecycle_supported() {
    let res = run(catalog(), get("/v3/books")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version, Accept"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(body(res).await, "books v3");
}

#[actix_web::test]
async fn lifecycle_deprecated_without_date_or_sunset() {
    let c = builder(VersionStrategy::header())
        .deprecated(V1)
        .build()
        .unwrap();
    let res = run(c, get("/books").insert_header(("X-API-Version", "1"))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "1"),
            ("x-api-supported-versions", "1, 2, 3"),
            ("x-api-deprecated", "true"),
            ("x-api-deprecation-message", "API version 1 is deprecated"),
            ("deprecation", "true"),
        ])
    );
}

#[actix_web::test]
async fn lifecycle_deprecated_with_message_sunset_and_links() {
    let c = builder(VersionStrategy::header())
        .deprecated_with(
            V1,
            Deprecation::new()
                .message("Version 1 retires at the end of 2027; use version 3")
                .sunset(sunset_2027())
                .link("https://example.com/deprecations/v1")
                .sunset_link("https://example.com/sunset-policy"),
        )
        .build()
        .unwrap();
    let res = run(c, get("/books").insert_header(("X-API-Version", "1"))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "1"),
            ("x-api-supported-versions", "1, 2, 3"),
            ("x-api-deprecated", "true"),
            (
                "x-api-deprecation-message",
                "Version 1 retires at the end of 2027; use version 3"
            ),
            ("deprecation", "true"),
            ("sunset", "Fri, 31 Dec 2027 23:59:59 GMT"),
            (
                "link",
                r#"<https://example.com/deprecations/v1>; rel="deprecation""#
            ),
            (
                "link",
                r#"<https://example.com/sunset-policy>; rel="sunset""#
            ),
        ])
    );
}

#[actix_web::test]
async fn lifecycle_deprecated_with_sunset_in_catalog() {
    let res = run(
        catalog(),
        get("/books").insert_header(("X-API-Version", "2")),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version, Accept"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-version", "2"),
            ("x-api-supported-versions", "2, 3"),
            ("x-api-deprecated", "true"),
            ("x-api-deprecation-message", "API version 2 is deprecated"),
            ("deprecation", "@1767225600"),
            ("sunset", "Fri, 31 Dec 2027 23:59:59 GMT"),
        ])
    );
    assert_eq!(body(res).await, "books v2");
}

#[actix_web::test]
async fn lifecycle_removed_is_410_with_sunset() {
    let c = builder(VersionStrategy::url_path())
        .deprecated_with(V1, Deprecation::new().sunset(sunset_2027()))
        .removed(V1)
        .build()
        .unwrap();
    let res = run(c, get("/v1/books")).await;
    assert_eq!(res.status(), 410);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("sunset", "Fri, 31 Dec 2027 23:59:59 GMT"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Gone","status":410,"detail":"API version 1 is no longer supported","instance":"/v1/books"}"#
    );
}

#[actix_web::test]
async fn lifecycle_removed_without_sunset() {
    let res = run(catalog(), get("/v1/books")).await;
    assert_eq!(res.status(), 410);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version, Accept"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Gone","status":410,"detail":"API version 1 is no longer supported","instance":"/v1/books"}"#
    );
}

// ---- errors as problem documents ----

#[actix_web::test]
async fn unsupported_version_is_400_with_supported_versions() {
    let res = run(
        catalog(),
        get("/books").insert_header(("X-API-Version", "7")),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version, Accept"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 7 is not supported","instance":"/books","supportedVersions":["2","3"]}"#
    );
}

#[actix_web::test]
async fn unsupported_minor_version_uses_the_short_form() {
    let res = run(catalog(), get("/v2.5/books")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 2.5 is not supported","instance":"/v2.5/books","supportedVersions":["2","3"]}"#
    );
}

#[actix_web::test]
async fn unsupported_header_is_sent_even_without_response_headers() {
    let c = builder(VersionStrategy::header())
        .add_response_headers(false)
        .build()
        .unwrap();
    let res = run(c, get("/books").insert_header(("X-API-Version", "4"))).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "1, 2, 3"
    );
}

#[actix_web::test]
async fn missing_required_version_is_400() {
    let c = VersionConfig::builder(VersionStrategy::header())
        .supported_versions([V1, V2])
        .require_version(true)
        .build()
        .unwrap();
    let res = run(c, get("/books")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("x-api-supported-versions", "1, 2"),
        ])
    );
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version is required","instance":"/books"}"#
    );
}

/// `require_version` off (its default) and no `default_version` (its
/// default): a request without a version is not refused (the spec's
/// resolution fails only when `require_version` is set). It goes on
/// without one, with the general headers and no `X-API-Version`; a handler
/// taking `Option<ApiVersion>` serves it, one taking `ApiVersion` answers
/// the 400 `API version is required`.
#[actix_web::test]
async fn without_require_version_or_default_a_request_goes_on_unversioned() {
    let config = || {
        VersionConfig::builder(VersionStrategy::header())
            .supported_versions([V1, V2])
            .build()
            .unwrap()
    };
    let app = test::init_service(
        App::new()
            .wrap(Versioning::new(config()))
            .route(
                "/any",
                web::get().to(|v: Option<ApiVersion>| async move {
                    v.map_or_else(|| "no version".to_owned(), |v| v.to_string())
                }),
            )
            .route("/books", web::get().to(books)),
    )
    .await;
    let res = test::call_service(&app, get("/any").to_request()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res.map_into_boxed_body()),
        pairs(&[
            ("vary", "X-API-Version"),
            ("content-type", "text/plain; charset=utf-8"),
            ("x-api-supported-versions", "1, 2"),
        ])
    );
    let res = test::call_service(&app, get("/any").to_request()).await;
    assert_eq!(body(res.map_into_boxed_body()).await, "no version");
    let res = test::call_service(
        &app,
        get("/any")
            .insert_header(("X-API-Version", "2"))
            .to_request(),
    )
    .await;
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    assert_eq!(body(res.map_into_boxed_body()).await, "2.0");

    let res = test::call_service(&app, get("/books").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body(res.map_into_boxed_body()).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version is required","instance":""}"#
    );
    // The spec's `resolve_version` has no version to return.
    let req = get("/any").to_http_request();
    assert_eq!(
        config().resolve_version(&req),
        Err(problem_core::version::VersionError::Missing)
    );
}

#[actix_web::test]
async fn malformed_versions_are_400_in_every_strategy() {
    let cases = [
        (
            VersionStrategy::url_path(),
            get("/v1.2.3/books"),
            "v1.2.3",
            "/v1.2.3/books",
        ),
        (
            VersionStrategy::header(),
            get("/books").insert_header(("X-API-Version", "-1")),
            "-1",
            "/books",
        ),
        (
            VersionStrategy::query(),
            get("/books?api-version=99999"),
            "99999",
            "/books",
        ),
        (
            VersionStrategy::query(),
            get("/books?api-version="),
            "",
            "/books",
        ),
        (
            VersionStrategy::media_type("vnd.catalog"),
            get("/books").insert_header(("Accept", "application/vnd.catalog.vnext+json")),
            "vnext",
            "/books",
        ),
    ];
    // `instance` is the path as received, without the query, with the
    // versioning middleware alone (no pipeline).
    for (strategy, req, raw, instance) in cases {
        let res = run(builder(strategy).build().unwrap(), req).await;
        assert_eq!(res.status(), 400);
        assert_eq!(
            res.headers().get("x-api-supported-versions").unwrap(),
            "1, 2, 3"
        );
        let expected = format!(
            r#"{{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"{raw}\"","instance":"{instance}"}}"#
        );
        assert_eq!(body(res).await, expected);
    }
}

#[actix_web::test]
async fn hostile_version_values_are_clipped() {
    let long = "9".repeat(200);
    let res = run(
        catalog(),
        get("/books").insert_header(("X-API-Version", long.as_str())),
    )
    .await;
    assert_eq!(res.status(), 400);
    let expected = format!(
        r#"{{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"{}…\"","instance":"/books"}}"#,
        "9".repeat(64)
    );
    assert_eq!(body(res).await, expected);
}

// ---- neutral paths ----

#[actix_web::test]
async fn neutral_paths_skip_resolution_and_headers() {
    let res = run(
        catalog(),
        get("/health").insert_header(("X-API-Version", "1")),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        headers(&res),
        pairs(&[("content-type", "text/plain; charset=utf-8")])
    );
    assert_eq!(body(res).await, "ok");
    let res = run(catalog(), get("/health?api-version=garbage")).await;
    assert_eq!(res.status(), 200);
    // Reached through a version segment, a neutral path is routed without
    // it and still ignores the version: no headers, even for the removed
    // version 1 (410 elsewhere) and the deprecated version 2, and a
    // malformed segment (400 on any other path) is ignored as well.
    for uri in [
        "/v3/health",
        "/v2/health",
        "/v1/health",
        "/v9/health",
        "/v2x/health",
        "/v65536/health",
        "/v1.0.0/health",
    ] {
        let res = run(catalog(), get(uri)).await;
        assert_eq!(res.status(), 200, "{uri}");
        assert_eq!(
            headers(&res),
            pairs(&[("content-type", "text/plain; charset=utf-8")]),
            "{uri}"
        );
        assert_eq!(body(res).await, "ok", "{uri}");
    }
    let res = run(catalog(), get("/v1/books")).await;
    assert_eq!(res.status(), 410);
    let res = run(catalog(), get("/v2x/books")).await;
    assert_eq!(res.status(), 400);
    let res = run(
        catalog(),
        get("/sticky").insert_header(("X-API-Version", "3")),
    )
    .await;
    assert_ne!(body(res).await, "none");
}

#[actix_web::test]
async fn extractor_without_a_resolved_version_is_a_500_problem() {
    // `/books` is neutral here, so its handler asks for a version nobody resolved.
    let c = VersionConfig::builder(VersionStrategy::header())
        .neutral_path("/books")
        .build()
        .unwrap();
    let res = run(c, get("/books")).await;
    assert_eq!(res.status(), 500);
    assert_eq!(
        body(res).await,
        r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":""}"#
    );
}

// ---- the catalog configuration, source by source ----

#[actix_web::test]
async fn catalog_configuration_sources_and_precedence() {
    let cases: Vec<(TestRequest, &str)> = vec![
        (get("/v3/books"), "books v3"),
        (
            get("/books").insert_header(("X-API-Version", "2")),
            "books v2",
        ),
        (get("/books?api-version=2"), "books v2"),
        (
            get("/books").insert_header(("Accept", "application/vnd.catalog.v2+json")),
            "books v2",
        ),
        (get("/books"), "books v3"),
        // path beats header, header beats query, query beats media type
        (
            get("/v3/books?api-version=2").insert_header(("X-API-Version", "2")),
            "books v3",
        ),
        (
            get("/books?api-version=2").insert_header(("X-API-Version", "3")),
            "books v3",
        ),
        (
            get("/books?api-version=3")
                .insert_header(("Accept", "application/vnd.catalog.v2+json")),
            "books v3",
        ),
    ];
    for (req, expected) in cases {
        let res = run(catalog(), req).await;
        assert_eq!(res.status(), 200);
        assert_eq!(body(res).await, expected);
    }
}

#[actix_web::test]
async fn response_side_operations_on_a_header_map() {
    use problem_core::version::VersionHeaders;
    let h = HeaderMap::new()
        .with_api_version(V2)
        .with_supported_versions([V1, V2, V3])
        .with_deprecation_warning("API version 2 is deprecated")
        .with_sunset_date(sunset_2027());
    let mut got: Vec<(String, String)> = h
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        pairs(&[
            ("x-api-version", "2"),
            ("x-api-supported-versions", "1, 2, 3"),
            ("x-api-deprecated", "true"),
            ("x-api-deprecation-message", "API version 2 is deprecated"),
            ("deprecation", "true"),
            ("sunset", "Fri, 31 Dec 2027 23:59:59 GMT"),
        ])
    );
}
