//! Configurations that cannot serve are refused by `build()`, and the
//! layers a `ProblemApp` wires together agree on what they configure: a
//! misconfiguration is an error at build, never a 500 or a refused request
//! at run time.

use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse};
use problem_core::query::Collection;
use problem_core::server::ProblemApp;
use problem_core::version::{self, VersionConfig, VersionStrategy};
use problem_core::{CollectionQuery, HttpConfigError, versioned};
use serde_json::{Value, json};

mod app_support;
use app_support::serve;

#[derive(CollectionQuery, serde::Serialize)]
#[query(key = "id")]
struct OrderQuery {
    #[query(filter(eq), sort)]
    id: i64,
    #[query(filter(eq))]
    customer: String,
}

#[versioned("1.x")]
async fn list_v1() -> HttpResponse {
    HttpResponse::Ok().finish()
}

#[versioned("2.x")]
async fn list_v2() -> HttpResponse {
    HttpResponse::Ok().finish()
}

async fn any_version() -> HttpResponse {
    HttpResponse::Ok().finish()
}

/// Issue 15, row 2: `versioned![...]` without `.versioning(config)` is an
/// `HttpConfigError` naming the route, returned by `build()`.
#[test]
fn versioned_route_without_versioning_fails_at_build() {
    let err = ProblemApp::builder()
        .routes(|r| {
            r.get("/health", list_v1)
                .get("/orders", version::versioned![list_v1, list_v2])
        })
        .build()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::VersionedRouteWithoutVersioning {
            method: "GET".into(),
            path: "/orders".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "route GET /orders dispatches by API version (versioned![...]) but the app has no versioning: add `.versioning(config)` to the builder"
    );
}

/// A `versioned![...]` route without a fallback on a version-neutral path
/// could only answer 500 (no version is resolved there): `build()` refuses
/// it, naming the route. With a fallback it is served.
#[test]
fn versioned_route_on_a_neutral_path_needs_a_fallback() {
    let config = |neutral: &str| {
        VersionConfig::builder(VersionStrategy::header())
            .default_version(version::V1)
            .neutral_path(neutral)
            .build()
            .unwrap()
    };
    for neutral in ["/orders", "/"] {
        let err = ProblemApp::builder()
            .versioning(config(neutral))
            .routes(|r| {
                r.get("/health", any_version)
                    .get("/orders/{id}", version::versioned![list_v1, list_v2])
            })
            .build()
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid version configuration: route GET /orders/{id} dispatches by API version (versioned![...]) but its path is version-neutral, so no version is resolved there: give the table a `fallback = <handler>` (one that does not take `ApiVersion`) or take the path out of the neutral paths",
            "{neutral}"
        );
        let served = ProblemApp::builder()
            .versioning(config(neutral))
            .routes(|r| {
                r.get(
                    "/orders/{id}",
                    version::versioned![list_v1, list_v2, fallback = any_version],
                )
            })
            .build();
        assert!(served.is_ok(), "{neutral}");
    }
    // A fallback that takes `ApiVersion` cannot serve without a version.
    let err = ProblemApp::builder()
        .versioning(config("/orders"))
        .routes(|r| {
            r.get(
                "/orders/{id}",
                version::versioned![list_v1, list_v2, fallback = needs_version],
            )
        })
        .build()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid version configuration: route GET /orders/{id} dispatches by API version (versioned![...]) but its path is version-neutral, so no version is resolved there: give the table a `fallback = <handler>` (one that does not take `ApiVersion`) or take the path out of the neutral paths"
    );
    let elsewhere = ProblemApp::builder()
        .versioning(config("/health"))
        .routes(|r| r.get("/orders", version::versioned![list_v1, list_v2]))
        .build();
    assert!(elsewhere.is_ok());
}

/// A `versioned![...]` route's own 400 for a version the configuration
/// supports but the route does not serve: `supportedVersions` and
/// `X-API-Supported-Versions` both name the versions the route serves,
/// `instance` the path as received.
#[actix_web::test]
async fn a_versioned_route_s_unsupported_answer_names_its_own_versions() {
    let config = VersionConfig::builder(VersionStrategy::url_path())
        .supported_versions([version::V1, version::V2, version::V3])
        .default_version(version::V1)
        .build()
        .unwrap();
    let app = ProblemApp::builder()
        .development(false)
        .versioning(config)
        .routes(|r| r.get("/orders", version::versioned![list_v1, list_v2]))
        .build()
        .unwrap();
    let svc = serve(app).await;
    let res = test::call_service(&svc, TestRequest::get().uri("/v3/orders").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "1, 2"
    );
    let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
    assert_eq!(
        body,
        json!({"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 3 is not supported","instance":"/v3/orders","supportedVersions":["1","2"]})
    );
}

/// A `versioned![...]` route without a fallback that serves none of the
/// versions the configuration serves (removed ones are not served) could
/// only answer 400: `build()` refuses it. Installed by hand, without the
/// builder's check, its 400 names the empty list in the body and the
/// header alike.
#[actix_web::test]
async fn a_versioned_route_that_serves_no_supported_version_is_refused() {
    let config = || {
        VersionConfig::builder(VersionStrategy::header())
            .supported_versions([version::V1, version::V2, version::V3])
            .removed(version::V1)
            .default_version(version::V3)
            .build()
            .unwrap()
    };
    let err = ProblemApp::builder()
        .versioning(config())
        .routes(|r| {
            r.get("/books", version::versioned![list_v2])
                .get("/orders", version::versioned![list_v1])
        })
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::InvalidVersionConfig(
            "route GET /orders dispatches by API version (versioned![...]) to 1.x but serves none of the supported versions (2.0, 3.0), so it could only answer 400: register a handler for one of them, or give the table a `fallback = <handler>`".into()
        )
    );
    // A fallback serves every version; every version supported (an empty
    // list) is nothing to check against.
    assert!(
        ProblemApp::builder()
            .versioning(config())
            .routes(|r| r.get(
                "/orders",
                version::versioned![list_v1, fallback = any_version]
            ))
            .build()
            .is_ok()
    );
    assert!(
        ProblemApp::builder()
            .versioning(
                VersionConfig::builder(VersionStrategy::header())
                    .build()
                    .unwrap()
            )
            .routes(|r| r.get("/orders", version::versioned![list_v1]))
            .build()
            .is_ok()
    );

    let svc = test::init_service(App::new().wrap(version::Versioning::new(config())).route(
        "/orders",
        actix_web::web::get().to(version::versioned![list_v1]),
    ))
    .await;
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/orders")
            .insert_header(("X-API-Version", "2"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(res.headers().get("x-api-supported-versions").unwrap(), "");
    let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
    assert_eq!(
        body,
        json!({"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 2 is not supported","instance":"/orders","supportedVersions":[]})
    );
}

async fn needs_version(v: version::ApiVersion, _: actix_web::HttpRequest) -> HttpResponse {
    HttpResponse::Ok().body(v.to_string())
}

async fn may_have_version(v: Option<version::ApiVersion>) -> HttpResponse {
    HttpResponse::Ok().body(v.map_or("none".to_owned(), |v| v.to_string()))
}

/// A handler taking the `ApiVersion` extractor could only answer 500 where
/// no version is resolved: `build()` refuses it without versioning, and on
/// a version-neutral path, naming the route. `Option<ApiVersion>` is served
/// either way.
#[actix_web::test]
async fn an_api_version_extractor_needs_a_resolved_version_at_build() {
    let err = ProblemApp::builder()
        .routes(|r| {
            r.get("/health", may_have_version)
                .post("/orders/{id}", needs_version)
        })
        .build()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::ApiVersionWithoutVersioning {
            method: "POST".into(),
            path: "/orders/{id}".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "route POST /orders/{id} takes the ApiVersion extractor but the app has no versioning: add `.versioning(config)` to the builder, or take `Option<ApiVersion>`"
    );

    let config = |neutral: &str| {
        VersionConfig::builder(VersionStrategy::header())
            .default_version(version::V1)
            .neutral_path(neutral)
            .build()
            .unwrap()
    };
    let err = ProblemApp::builder()
        .versioning(config("/orders"))
        .routes(|r| r.get("/orders/{id}", needs_version))
        .build()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid version configuration: route GET /orders/{id} takes the ApiVersion extractor but its path is version-neutral, so no version is resolved there: take `Option<ApiVersion>` or take the path out of the neutral paths"
    );

    // Served where a version is resolved; `Option<ApiVersion>` anywhere.
    let app = ProblemApp::builder()
        .versioning(config("/health"))
        .routes(|r| {
            r.get("/health", may_have_version)
                .get("/orders/{id}", needs_version)
        })
        .build()
        .unwrap();
    let svc = serve(app).await;
    for (path, want) in [("/orders/1", "1.0"), ("/health", "none")] {
        let res = test::call_service(&svc, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(test::read_body(res).await, want, "{path}");
    }
    let app = ProblemApp::builder()
        .routes(|r| r.get("/health", may_have_version))
        .build()
        .unwrap();
    let svc = serve(app).await;
    let res = test::call_service(&svc, TestRequest::get().uri("/health").to_request()).await;
    assert_eq!(test::read_body(res).await, "none");
}

/// A version query parameter may not be named like a collection query
/// parameter: `?page=2` would select both.
#[test]
fn a_version_parameter_named_like_a_collection_parameter_is_refused() {
    let err = VersionConfig::builder(VersionStrategy::query_named("page"))
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::InvalidVersionConfig(
            "version query parameter name \"page\" is a collection query parameter (one of page, per_page, limit, cursor, sort, q, search, search_fields, fields, exclude): choose another, such as \"api-version\"".into()
        )
    );
}

/// A renamed version query parameter (`?v=2`) is not a filter of the
/// collection the request lists: the `Collection` extractor ignores the
/// query parameters of the versioning that resolved the request, as it
/// ignores `api-version` by default.
#[actix_web::test]
async fn a_renamed_version_parameter_is_not_a_filter() {
    async fn list(q: Collection<OrderQuery>) -> Result<HttpResponse, actix_web::Error> {
        let page = q.page_in_memory([
            json!({"id": 1, "customer": "ada"}),
            json!({"id": 2, "customer": "bob"}),
        ])?;
        Ok(HttpResponse::Ok().json(page.data))
    }
    let versioning = VersionConfig::builder(VersionStrategy::query_named("v"))
        .default_version(version::V1)
        .build()
        .unwrap();
    let app = ProblemApp::builder()
        .development(false)
        .versioning(versioning)
        .routes(|r| r.get("/orders", list))
        .build()
        .unwrap();
    let svc = serve(app).await;
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/orders?v=2&customer=bob")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    let body: Value = test::read_body_json(res).await;
    assert_eq!(body, json!([{"id": 2, "customer": "bob"}]));
    // Other unknown names are still refused, and `api-version` too: it is
    // not this versioning's parameter (a client sending it would otherwise
    // get the default version silently).
    let res = test::call_service(
        &svc,
        TestRequest::get().uri("/orders?v=2&vv=1").to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    let body: Value = test::read_body_json(res).await;
    assert_eq!(body["issues"][0]["name"], "vv");
    assert_eq!(body["issues"].as_array().map(Vec::len), Some(1));
    let res = test::call_service(
        &svc,
        TestRequest::get().uri("/orders?api-version=2").to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    let body: Value = test::read_body_json(res).await;
    assert_eq!(body["issues"][0]["name"], "api-version");
    assert_eq!(body["issues"][0]["code"], "unknown_parameter");
}

/// Supported versions that are all removed serve no request (each is a
/// 410): refused at build. With one left, the configuration builds.
#[test]
fn every_supported_version_removed_is_refused() {
    let err = VersionConfig::builder(VersionStrategy::header())
        .supported_versions([version::V1, version::V2])
        .removed(version::V1)
        .removed(version::V2)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid version configuration: every supported version (1.0, 2.0) is removed, so no request can be served: support a version that is not removed"
    );
    assert!(
        VersionConfig::builder(VersionStrategy::header())
            .supported_versions([version::V1, version::V2])
            .removed(version::V1)
            .build()
            .is_ok()
    );
}

/// A deprecated version the supported list leaves out is refused before
/// its deprecation headers could ever be sent; a deprecation message with
/// a line break cannot be a header field. Both at build, not answered
/// differently at run time.
#[test]
fn a_deprecation_that_can_never_be_sent_is_refused() {
    use version::Deprecation;
    let err = VersionConfig::builder(VersionStrategy::header())
        .supported_versions([version::V2, version::V3])
        .deprecated(version::V1)
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::InvalidVersionConfig("version 1.0 is deprecated but not one of supported_versions (2.0, 3.0): a request for it is refused as unsupported, never served with its deprecation headers; add it to supported_versions".into())
    );
    // Removed as well: the 410 is what a request gets, which is served.
    assert!(
        VersionConfig::builder(VersionStrategy::header())
            .supported_versions([version::V2, version::V3])
            .deprecated(version::V1)
            .removed(version::V1)
            .build()
            .is_ok()
    );
    // Every version supported (an empty list): nothing to refuse.
    assert!(
        VersionConfig::builder(VersionStrategy::header())
            .deprecated(version::V1)
            .build()
            .is_ok()
    );
    for message in ["Use v3\r\nX-Evil: 1", "a\nb", "nul\0"] {
        let err = VersionConfig::builder(VersionStrategy::header())
            .supported_versions([version::V2, version::V3])
            .deprecated_with(version::V2, Deprecation::new().message(message))
            .build()
            .unwrap_err();
        assert_eq!(
            err,
            HttpConfigError::InvalidVersionConfig(format!(
                "the deprecation message of version 2.0 cannot be sent in a header: {message:?} holds a control character (a line break?)"
            )),
        );
    }
    assert!(
        VersionConfig::builder(VersionStrategy::header())
            .deprecated_with(
                version::V2,
                Deprecation::new().message("Use v3:\tsee https://example.com/migrate")
            )
            .build()
            .is_ok()
    );
    // A header value is US-ASCII (RFC 9110 §5.5): clients read the bytes
    // of a UTF-8 `é` as two ISO-8859-1 characters.
    let err = VersionConfig::builder(VersionStrategy::header())
        .deprecated_with(
            version::V2,
            Deprecation::new().message("Use v3: see https://example.com/é"),
        )
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::InvalidVersionConfig(
            "the deprecation message of version 2.0 holds the non-ASCII character 'é': header values are US-ASCII (RFC 9110 §5.5; clients read other bytes as ISO-8859-1), so write the text in ASCII and put the rest behind a deprecation link".to_owned()
        ),
    );
}
