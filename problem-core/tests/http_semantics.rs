//! HTTP semantics real clients and caches rely on (RFC 9110, RFC 9111,
//! RFC 3986), through a `ProblemApp` installed as `bind` installs it:
//! `HEAD` and `OPTIONS` from the route table, `Vary` from versioning,
//! `ETag` / `If-None-Match` → 304, `If-Match` → 412, percent-encoded link
//! targets and malformed later version carriers.

mod header_support;

use header_support::{headers, pairs};

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix_web::dev::ServiceResponse;
use actix_web::http::Method;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpRequest, HttpResponse, web};
use problem_core::pipeline::{check_if_match, entity_tag};
use problem_core::query::{CursorPage, LinkHeader, Page, Pagination};
use problem_core::server::ProblemApp;
use problem_core::version::{ApiVersion, V1, V2, V3, VersionConfig, VersionStrategy};
use problem_core::{NotFoundException, UnauthorizedException};

const BOOK: &str = r#"{"id":7,"title":"Dune"}"#;

async fn book(v: ApiVersion) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(format!(r#"{{"id":7,"title":"Dune","v":"{}"}}"#, v.short()))
}
async fn plain() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(BOOK)
}
async fn created() -> HttpResponse {
    HttpResponse::Created().body(BOOK)
}
async fn missing() -> Result<HttpResponse, actix_web::Error> {
    Err(NotFoundException::new()
        .with_detail("Book 8 not found")
        .into())
}
async fn varies() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Vary", "Origin"))
        .body("x")
}
async fn own_options() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Allow", "GET"))
        .body("mine")
}
async fn drafted(ctx: problem_core::pipeline::RequestContext) -> HttpResponse {
    ctx.response_headers_mut().insert(
        actix_web::http::header::VARY,
        actix_web::http::header::HeaderValue::from_static("Origin"),
    );
    HttpResponse::Ok().body("x")
}
async fn health() -> HttpResponse {
    HttpResponse::Ok().body("ok")
}
/// A body of unknown length, optionally with the handler's own `ETag`.
fn streamed(etag: Option<&'static str>) -> HttpResponse {
    let chunks = futures_util::stream::iter([Ok::<_, actix_web::Error>(web::Bytes::from_static(
        b"streamed",
    ))]);
    let mut res = HttpResponse::Ok();
    if let Some(etag) = etag {
        res.insert_header(("ETag", etag));
    }
    res.streaming(chunks)
}
async fn stream() -> HttpResponse {
    streamed(None)
}
async fn stream_tagged() -> HttpResponse {
    streamed(Some("\"s1\""))
}
async fn empty() -> HttpResponse {
    HttpResponse::Ok().finish()
}

/// Deletes count here, so a test sees whether a write happened.
#[derive(Default)]
struct Writes(AtomicUsize);

async fn delete_book(
    req: HttpRequest,
    writes: web::Data<Writes>,
) -> Result<HttpResponse, actix_web::Error> {
    check_if_match(&req, Some(&entity_tag(BOOK.as_bytes())))?;
    writes.0.fetch_add(1, Ordering::SeqCst);
    Ok(HttpResponse::NoContent().finish())
}
async fn delete_gone(
    req: HttpRequest,
    writes: web::Data<Writes>,
) -> Result<HttpResponse, actix_web::Error> {
    check_if_match(&req, None)?;
    writes.0.fetch_add(1, Ordering::SeqCst);
    Ok(HttpResponse::NoContent().finish())
}

fn catalog_versions() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .removed(V1)
    .neutral_path("/health")
    .build()
    .unwrap()
}

fn app(writes: Arc<Writes>) -> ProblemApp {
    let writes = web::Data::from(writes);
    ProblemApp::builder()
        .development(false)
        .versioning(catalog_versions())
        .cache_control("no-cache")
        .configure(move |c| {
            c.app_data(writes.clone());
            // A resource registered on the `App` itself, not in the table.
            c.service(
                web::resource("/raw")
                    .route(web::get().to(plain))
                    .route(web::post().to(created)),
            );
        })
        .routes(|r| {
            r.get("/books/{id}", book)
                .delete("/books/{id}", delete_book)
                .get("/plain", plain)
                .post("/books", created)
                .get("/missing", missing)
                .get("/varies", varies)
                .get("/drafted", drafted)
                .get("/own", plain)
                .route(Method::OPTIONS, "/own", own_options)
                .get("/health", health)
                .get("/stream", stream)
                .get("/stream-tagged", stream_tagged)
                .get("/empty", empty)
                .delete("/gone", delete_gone)
                .get("/secret", plain)
                .guarded(
                    |_req: HttpRequest| async move { Err(UnauthorizedException::new().into()) },
                )
        })
        .build()
        .unwrap()
}

macro_rules! service {
    ($writes:expr) => {{
        let app = app($writes);
        let a = app.clone();
        test::init_service(
            App::new()
                .configure(move |c| a.configure(c))
                .wrap(app.versioning())
                .wrap(app.pipeline())
                .wrap(app.conditional()),
        )
        .await
    }};
}

fn head(uri: &str) -> TestRequest {
    TestRequest::default().method(Method::HEAD).uri(uri)
}

fn options(uri: &str) -> TestRequest {
    TestRequest::default().method(Method::OPTIONS).uri(uri)
}

fn tag_of(body: &str) -> String {
    entity_tag(body.as_bytes()).to_string()
}

const V3_BOOK: &str = r#"{"id":7,"title":"Dune","v":"3"}"#;
const V2_BOOK: &str = r#"{"id":7,"title":"Dune","v":"2"}"#;

fn v3_book_headers() -> Vec<(String, String)> {
    let etag = tag_of(V3_BOOK);
    let len = V3_BOOK.len().to_string();
    pairs(&[
        ("content-type", "application/json"),
        ("content-length", &len),
        ("etag", &etag),
        ("cache-control", "no-cache"),
        ("vary", "X-API-Version, Accept"),
        ("x-api-version", "3"),
        ("x-api-supported-versions", "2, 3"),
    ])
}

// ---- HEAD ----

#[actix_web::test]
async fn head_answers_every_get_route_with_the_get_headers_and_no_body() {
    let svc = service!(Arc::default());
    let get = test::call_service(&svc, TestRequest::get().uri("/books/7").to_request()).await;
    assert_eq!(get.status(), 200);
    assert_eq!(headers(&get), v3_book_headers());
    assert_eq!(test::read_body(get).await, V3_BOOK);

    let res = test::call_service(&svc, head("/books/7").to_request()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(headers(&res), v3_book_headers());
    assert_eq!(test::read_body(res).await, "");

    // Every version: the version-2 GET and HEAD agree too.
    let get = test::call_service(&svc, TestRequest::get().uri("/v2/books/7").to_request()).await;
    let get_headers = headers(&get);
    assert_eq!(test::read_body(get).await, V2_BOOK);
    let res = test::call_service(&svc, head("/v2/books/7").to_request()).await;
    assert_eq!(headers(&res), get_headers);
    assert_eq!(test::read_body(res).await, "");
}

#[actix_web::test]
async fn head_runs_the_get_routes_guards_and_errors() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, head("/secret").to_request()).await;
    assert_eq!(res.status(), 401);
    let res = test::call_service(&svc, head("/missing").to_request()).await;
    assert_eq!(res.status(), 404);
    assert!(!res.headers().contains_key("etag"));
}

// ---- OPTIONS and Allow ----

#[actix_web::test]
async fn options_on_a_known_path_is_204_with_allow() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, options("/books/7").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("allow", "GET, HEAD, DELETE, OPTIONS"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(test::read_body(res).await, "");
    let res = test::call_service(&svc, options("/books").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(res.headers().get("allow").unwrap(), "POST, OPTIONS");
    // Neutral: no version headers, no Vary.
    let res = test::call_service(&svc, options("/health").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(headers(&res), pairs(&[("allow", "GET, HEAD, OPTIONS")]));
}

#[actix_web::test]
async fn options_routed_by_the_application_is_its_own() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, options("/own").to_request()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("allow").unwrap(), "GET");
    assert_eq!(test::read_body(res).await, "mine");
    let res = test::call_service(
        &svc,
        TestRequest::default()
            .method(Method::PATCH)
            .uri("/own")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
}

/// `OPTIONS *` asks about the server (RFC 9110 §9.3.7): 204 with every
/// method some path answers (and, as every path not made neutral, the
/// version headers).
#[actix_web::test]
async fn options_asterisk_is_204_with_the_server_s_methods() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, options("*").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("allow", "GET, HEAD, DELETE, POST, OPTIONS"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(test::read_body(res).await, "");
    // Any other method on `*` is a request-line the server refuses (RFC
    // 9112 §3.2.4), with the version headers of every problem.
    let res = test::call_service(&svc, TestRequest::get().uri("*").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"The request target * is only valid for OPTIONS.","instance":"*"}"#
    );
}

#[actix_web::test]
async fn options_on_an_unknown_path_is_the_404_problem() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, options("/nope").to_request()).await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for OPTIONS /nope","instance":"/nope"}"#
    );
}

#[actix_web::test]
async fn allow_on_405_lists_head_after_get_and_options() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, TestRequest::put().uri("/books/7").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("allow", "GET, HEAD, DELETE, OPTIONS"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PUT is not allowed on /books/7","instance":"/books/7"}"#
    );
    let res = test::call_service(&svc, TestRequest::get().uri("/books").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").unwrap(), "POST, OPTIONS");
}

/// A resource registered on the `App` itself (through `configure`, not
/// the route table) answers a method it lacks with actix-web's empty 405:
/// the pipeline gives it the spec's detail, and answers `OPTIONS` with 204
/// and its `Allow`.
#[actix_web::test]
async fn an_app_s_own_resource_gets_the_405_detail_and_options() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, TestRequest::put().uri("/raw").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("allow", "GET, POST, OPTIONS"),
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PUT is not allowed on /raw","instance":"/raw"}"#
    );
    let res = test::call_service(&svc, options("/v2/raw").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("allow", "GET, POST, OPTIONS"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "2"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    assert!(test::read_body(res).await.is_empty());
}

// ---- Vary ----

#[actix_web::test]
async fn vary_names_the_headers_the_strategy_reads_on_success_and_problems() {
    let svc = service!(Arc::default());
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/missing")
            .insert_header(("X-API-Version", "2"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        headers(&res),
        pairs(&[
            ("content-type", "application/problem+json; charset=utf-8"),
            ("x-content-type-options", "nosniff"),
            ("vary", "X-API-Version, Accept"),
            ("x-api-version", "2"),
            ("x-api-supported-versions", "2, 3"),
        ])
    );
    // Version errors too.
    for req in [
        TestRequest::get()
            .uri("/plain")
            .insert_header(("X-API-Version", "7")),
        TestRequest::get()
            .uri("/plain")
            .insert_header(("X-API-Version", "1")),
        TestRequest::get().uri("/plain?api-version=zz"),
    ] {
        let res = test::call_service(&svc, req.to_request()).await;
        assert!(
            res.status() == 400 || res.status() == 410,
            "{}",
            res.status()
        );
        assert_eq!(res.headers().get("vary").unwrap(), "X-API-Version, Accept");
        assert!(!res.headers().contains_key("etag"));
    }
}

#[actix_web::test]
async fn vary_is_merged_with_the_responses_own() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, TestRequest::get().uri("/varies").to_request()).await;
    assert_eq!(
        res.headers().get_all("vary").collect::<Vec<_>>(),
        ["Origin, X-API-Version, Accept"]
    );
}

#[actix_web::test]
async fn a_drafted_vary_is_merged_with_the_strategy_s() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, TestRequest::get().uri("/drafted").to_request()).await;
    let vary: Vec<_> = res.headers().get_all("vary").collect();
    assert_eq!(vary, ["X-API-Version, Accept, Origin"]);
}

#[actix_web::test]
async fn version_neutral_routes_get_no_vary() {
    let svc = service!(Arc::default());
    let res = test::call_service(&svc, TestRequest::get().uri("/health").to_request()).await;
    assert_eq!(
        headers(&res),
        pairs(&[
            ("content-length", "2"),
            ("etag", &tag_of("ok")),
            ("cache-control", "no-cache"),
        ])
    );
}

#[actix_web::test]
async fn vary_of_single_strategies() {
    assert_eq!(VersionStrategy::header().vary().unwrap(), "X-API-Version");
    assert_eq!(
        VersionStrategy::header_named("Api-V").vary().unwrap(),
        "Api-V"
    );
    assert_eq!(
        VersionStrategy::media_type("vnd.x").vary().unwrap(),
        "Accept"
    );
    assert_eq!(VersionStrategy::query().vary(), None);
    assert_eq!(VersionStrategy::url_path().vary(), None);
    assert_eq!(catalog_versions().vary().unwrap(), "X-API-Version, Accept");
}

// ---- ETag and If-None-Match ----

async fn conditional_get(if_none_match: &str) -> ServiceResponse {
    let svc = service!(Arc::default());
    test::call_service(
        &svc,
        TestRequest::get()
            .uri("/books/7")
            .insert_header(("If-None-Match", if_none_match))
            .to_request(),
    )
    .await
    .map_into_boxed_body()
}

fn not_modified_headers() -> Vec<(String, String)> {
    pairs(&[
        ("etag", &tag_of(V3_BOOK)),
        ("cache-control", "no-cache"),
        ("vary", "X-API-Version, Accept"),
        ("x-api-version", "3"),
        ("x-api-supported-versions", "2, 3"),
    ])
}

#[actix_web::test]
async fn if_none_match_with_the_current_tag_is_304_without_a_body() {
    let etag = tag_of(V3_BOOK);
    for value in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".to_owned(),
    ] {
        let res = conditional_get(&value).await;
        assert_eq!(res.status(), 304, "{value}");
        assert_eq!(headers(&res), not_modified_headers(), "{value}");
        assert_eq!(test::read_body(res).await, "", "{value}");
    }
}

#[actix_web::test]
async fn head_revalidates_like_get() {
    let svc = service!(Arc::default());
    let res = test::call_service(
        &svc,
        head("/books/7")
            .insert_header(("If-None-Match", tag_of(V3_BOOK)))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 304);
    assert_eq!(headers(&res), not_modified_headers());
}

#[actix_web::test]
async fn if_none_match_with_another_tag_or_version_is_200() {
    let res = conditional_get("\"stale\"").await;
    assert_eq!(res.status(), 200);
    assert_eq!(headers(&res), v3_book_headers());
    assert_eq!(test::read_body(res).await, V3_BOOK);
    // The version-2 representation's tag does not revalidate version 3.
    let res = conditional_get(&tag_of(V2_BOOK)).await;
    assert_eq!(res.status(), 200);
    // A malformed If-None-Match is ignored.
    let res = conditional_get("not a tag").await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn problems_and_other_methods_carry_no_etag() {
    let svc = service!(Arc::default());
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/missing")
            .insert_header(("If-None-Match", "*"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 404);
    assert!(!res.headers().contains_key("etag"));
    assert!(!res.headers().contains_key("cache-control"));
    let res = test::call_service(&svc, TestRequest::post().uri("/books").to_request()).await;
    assert_eq!(res.status(), 201);
    assert!(!res.headers().contains_key("etag"));
    assert!(!res.headers().contains_key("cache-control"));
}

// ---- If-Match ----

#[actix_web::test]
async fn if_match_guards_single_resource_writes() {
    let writes: Arc<Writes> = Arc::default();
    let svc = service!(writes.clone());
    let delete = |if_match: Option<&str>| {
        let req = TestRequest::delete().uri("/books/7");
        match if_match {
            Some(v) => req.insert_header(("If-Match", v.to_owned())),
            None => req,
        }
        .to_request()
    };
    let res = test::call_service(&svc, delete(Some("\"stale\""))).await;
    assert_eq!(res.status(), 412);
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/problem+json; charset=utf-8"
    );
    assert!(!res.headers().contains_key("etag"));
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Precondition Failed","status":412,"detail":"The resource has changed since it was read","instance":"/books/7"}"#
    );
    // A weak tag never matches (strong comparison).
    let weak = format!("W/{}", tag_of(BOOK));
    let res = test::call_service(&svc, delete(Some(&weak))).await;
    assert_eq!(res.status(), 412);
    assert_eq!(writes.0.load(Ordering::SeqCst), 0, "nothing written");

    let res = test::call_service(&svc, delete(Some(&tag_of(BOOK)))).await;
    assert_eq!(res.status(), 204);
    let res = test::call_service(&svc, delete(Some("*"))).await;
    assert_eq!(res.status(), 204);
    let res = test::call_service(&svc, delete(None)).await;
    assert_eq!(res.status(), 204);
    assert_eq!(writes.0.load(Ordering::SeqCst), 3);

    // No current representation: `*` does not match.
    let res = test::call_service(
        &svc,
        TestRequest::delete()
            .uri("/gone")
            .insert_header(("If-Match", "*"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 412);
    assert_eq!(writes.0.load(Ordering::SeqCst), 3);
}

/// A `GET` or `HEAD` whose `If-Match` names no current tag is the 412
/// problem (RFC 9110 §13.1.1), rendered by the pipeline with the version
/// headers and `Vary`, `instance` the path as received; `If-Match` is
/// evaluated before `If-None-Match` (§13.2.2), with strong comparison, and
/// not at all on a problem (§13.2.1).
#[actix_web::test]
async fn if_match_on_reads_is_evaluated_first() {
    let svc = service!(Arc::default());
    let get = |uri: &str, if_match: &str| {
        TestRequest::get()
            .uri(uri)
            .insert_header(("If-Match", if_match.to_owned()))
    };
    let etag = tag_of(V3_BOOK);
    for value in [
        "\"stale\"".to_owned(),
        format!("W/{etag}"),
        tag_of(V2_BOOK),
        "not a tag".to_owned(),
        format!("garbage, {etag}"),
    ] {
        let problem = r#"{"type":"about:blank","title":"Precondition Failed","status":412,"detail":"The resource has changed since it was read","instance":"/v3/books/7"}"#;
        let problem_headers = |len: Option<usize>| {
            let len = len.map(|n| n.to_string());
            let mut h = pairs(&[
                ("content-type", "application/problem+json; charset=utf-8"),
                ("x-content-type-options", "nosniff"),
                ("x-api-version", "3"),
                ("x-api-supported-versions", "2, 3"),
                ("vary", "X-API-Version, Accept"),
            ]);
            if let Some(len) = len {
                h.extend(pairs(&[("content-length", &len)]));
                h.sort();
            }
            h
        };
        let res = test::call_service(&svc, get("/v3/books/7", &value).to_request()).await;
        assert_eq!(res.status(), 412, "{value}");
        assert_eq!(headers(&res), problem_headers(None), "{value}");
        assert_eq!(test::read_body(res).await, problem, "{value}");
        // `HEAD`: the same headers (the body's length) and no body, even
        // with an `If-None-Match` that would be a 304.
        let req = get("/v3/books/7", &value)
            .method(Method::HEAD)
            .insert_header(("If-None-Match", etag.clone()));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 412, "{value}");
        assert_eq!(
            headers(&res),
            problem_headers(Some(problem.len())),
            "{value}"
        );
        assert_eq!(test::read_body(res).await, "", "{value}");
    }
    // The current tag, in a list or alone, or `*`: the representation.
    for value in [etag.clone(), format!("\"stale\", {etag}"), "*".to_owned()] {
        let res = test::call_service(&svc, get("/books/7", &value).to_request()).await;
        assert_eq!(res.status(), 200, "{value}");
        assert_eq!(headers(&res), v3_book_headers(), "{value}");
        assert_eq!(test::read_body(res).await, V3_BOOK, "{value}");
        // Then If-None-Match decides.
        let req = get("/books/7", &value).insert_header(("If-None-Match", etag.clone()));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 304, "{value}");
    }
    // A problem's preconditions are not evaluated.
    let res = test::call_service(&svc, get("/missing", "\"stale\"").to_request()).await;
    assert_eq!(res.status(), 404);
}

/// A success the layer does not tag (a streamed body, an empty one) still
/// has its preconditions evaluated: no tag matches a representation
/// without one, so an `If-Match` list is the 412 (RFC 9110 §13.1.1), `*`
/// holds, and a tag the handler set is compared (an audit found a
/// streamed `GET` served 200 with `If-Match: "zz"`); `If-None-Match: *`
/// names the current representation, so it is a 304 (§13.1.2), as is the
/// handler's own tag.
#[actix_web::test]
async fn if_match_on_untagged_reads() {
    let svc = service!(Arc::default());
    let get = |uri: &str, name: &'static str, value: &str| {
        TestRequest::get()
            .uri(uri)
            .insert_header((name, value.to_owned()))
            .to_request()
    };
    for uri in ["/stream", "/empty", "/stream-tagged"] {
        let res = test::call_service(&svc, get(uri, "If-Match", "\"zz\"")).await;
        assert_eq!(res.status(), 412, "{uri}");
        let body = format!(
            r#"{{"type":"about:blank","title":"Precondition Failed","status":412,"detail":"The resource has changed since it was read","instance":"{uri}"}}"#
        );
        assert_eq!(test::read_body(res).await, body, "{uri}");
        let res = test::call_service(&svc, get(uri, "If-Match", "*")).await;
        assert_eq!(res.status(), 200, "{uri}");
        let res = test::call_service(&svc, get(uri, "If-None-Match", "*")).await;
        assert_eq!(res.status(), 304, "{uri}");
        assert_eq!(
            res.headers().get("etag").is_some(),
            uri == "/stream-tagged",
            "{uri}"
        );
        assert_eq!(test::read_body(res).await, "", "{uri}");
        let res = test::call_service(&svc, get(uri, "If-None-Match", "\"other\"")).await;
        assert_eq!(res.status(), 200, "{uri}");
    }
    let res = test::call_service(&svc, get("/stream-tagged", "If-None-Match", "W/\"s1\"")).await;
    assert_eq!(res.status(), 304);
    assert_eq!(res.headers().get("etag").unwrap(), "\"s1\"");
    let res = test::call_service(&svc, get("/stream-tagged", "If-Match", "\"s1\"")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "streamed");
    let res = test::call_service(&svc, get("/stream-tagged", "If-Match", "W/\"s1\"")).await;
    assert_eq!(res.status(), 412);
}

// ---- link targets ----

#[test]
fn link_targets_are_percent_encoded_uri_references() {
    let page = Page::new(
        vec![1, 2],
        Pagination {
            page: 2,
            per_page: 2,
        },
        Some(6),
    );
    let query =
        "title__contains=a|b&q=caf\u{e9} x^y`z\\w&tag={a}[b]&pct=100%&ok=%7C&per_page=2&page=2";
    let links = page.links("/books", query);
    let enc = "title__contains=a%7Cb&q=caf%C3%A9%20x%5Ey%60z%5Cw&tag=%7Ba%7D%5Bb%5D&pct=100%25&ok=%7C&per_page=2";
    assert_eq!(links.self_, format!("/books?{enc}&page=2"));
    assert_eq!(
        links.first.as_deref(),
        Some(&*format!("/books?{enc}&page=1"))
    );
    assert_eq!(
        links.prev.as_deref(),
        Some(&*format!("/books?{enc}&page=1"))
    );
    assert_eq!(
        links.next.as_deref(),
        Some(&*format!("/books?{enc}&page=3"))
    );
    assert_eq!(
        links.last.as_deref(),
        Some(&*format!("/books?{enc}&page=3"))
    );
    assert_eq!(
        LinkHeader::from_links(&links).to_string(),
        format!(
            "</books?{enc}&page=2>; rel=\"self\", </books?{enc}&page=1>; rel=\"first\", \
             </books?{enc}&page=1>; rel=\"prev\", </books?{enc}&page=3>; rel=\"next\", \
             </books?{enc}&page=3>; rel=\"last\""
        )
    );
    let cursor = CursorPage::new(vec![1], 1, Some("abc".into()));
    let links = cursor.links("/b|c", "x=|");
    assert_eq!(links.self_, "/b%7Cc?x=%7C");
    assert_eq!(links.next.as_deref(), Some("/b%7Cc?x=%7C&cursor=abc"));
    // Valid references pass unchanged.
    assert_eq!(
        LinkHeader::new()
            .link("/books?q=a%20b&sort=-year,title", "self")
            .to_string(),
        r#"</books?q=a%20b&sort=-year,title>; rel="self""#
    );
}

// ---- several version carriers ----

#[actix_web::test]
async fn a_malformed_later_carrier_is_the_invalid_version_problem() {
    let svc = service!(Arc::default());
    for (req, raw) in [
        (
            TestRequest::get()
                .uri("/plain?api-version=zz")
                .insert_header(("X-API-Version", "3")),
            "zz",
        ),
        (TestRequest::get().uri("/v2/plain?api-version=zz"), "zz"),
        (
            TestRequest::get()
                .uri("/v2/plain")
                .insert_header(("Accept", "application/vnd.catalog.vx+json")),
            "vx",
        ),
        (
            // Malformed before the winning one, too.
            TestRequest::get()
                .uri("/plain?api-version=3")
                .insert_header(("X-API-Version", "nope")),
            "nope",
        ),
    ] {
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 400, "{raw}");
        let body = test::read_body(res).await;
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["detail"], format!("Invalid API version \"{raw}\""));
    }
}

#[actix_web::test]
async fn the_first_well_formed_carrier_still_wins() {
    let svc = service!(Arc::default());
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/books/7?api-version=3")
            .insert_header(("X-API-Version", "2"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    assert_eq!(test::read_body(res).await, V2_BOOK);
}

// ---- paths that match the same requests ----

async fn show_new() -> HttpResponse {
    HttpResponse::Ok().body("GET new")
}
async fn by_number(id: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().body(format!("GET number {id}"))
}
async fn remove(id: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().body(format!("DELETE {id}"))
}
async fn replace(id: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().body(format!("POST {id}"))
}

/// Spec, "Request handling rules" 2: a request whose path and method match
/// a route is served by it, even when a more specific path without that
/// method matches too (`PUT`/`DELETE /books/{id}` beside `GET
/// /books/new`); a method no matching path has is a 405 whose `Allow`
/// lists the methods of every matching path; `OPTIONS` lists those of the
/// path and of every path that matches all of its requests.
#[actix_web::test]
async fn a_method_of_a_less_specific_path_is_served_not_405() {
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| {
            r.delete("/books/{id}", remove)
                .get("/books/new", show_new)
                .get("/books/{id:\\d+}", by_number)
                .post("/books/{id}", replace)
                .get("/authors", plain)
        })
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline())
            .wrap(app.conditional()),
    )
    .await;
    let call = |req: TestRequest| {
        let svc = &svc;
        async move {
            let res = test::call_service(svc, req.to_request()).await;
            let status = res.status().as_u16();
            let allow = res
                .headers()
                .get("allow")
                .map(|v| v.to_str().unwrap().to_owned());
            let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
            (status, allow, body)
        }
    };
    let served = |body: &str| (200, None, body.to_owned());
    assert_eq!(
        call(TestRequest::get().uri("/books/new")).await,
        served("GET new")
    );
    assert_eq!(call(head("/books/new")).await, served(""));
    assert_eq!(
        call(TestRequest::delete().uri("/books/new")).await,
        served("DELETE new")
    );
    assert_eq!(
        call(TestRequest::post().uri("/books/new")).await,
        served("POST new")
    );
    assert_eq!(
        call(TestRequest::get().uri("/books/5")).await,
        served("GET number 5")
    );
    assert_eq!(
        call(TestRequest::post().uri("/books/5")).await,
        served("POST 5")
    );
    assert_eq!(
        call(TestRequest::delete().uri("/books/abc")).await,
        served("DELETE abc")
    );

    let not_allowed = |method: &str, path: &str, allow: &str| {
        (
            405,
            Some(allow.to_owned()),
            format!(
                r#"{{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"{method} is not allowed on {path}","instance":"{path}"}}"#
            ),
        )
    };
    assert_eq!(
        call(TestRequest::put().uri("/books/new")).await,
        not_allowed("PUT", "/books/new", "GET, HEAD, DELETE, POST, OPTIONS")
    );
    assert_eq!(
        call(TestRequest::put().uri("/books/5")).await,
        not_allowed("PUT", "/books/5", "GET, HEAD, DELETE, POST, OPTIONS")
    );
    assert_eq!(
        call(TestRequest::get().uri("/books/abc")).await,
        not_allowed("GET", "/books/abc", "DELETE, POST, OPTIONS")
    );
    // A path that shares no request with another answers as before.
    assert_eq!(
        call(TestRequest::delete().uri("/authors")).await,
        not_allowed("DELETE", "/authors", "GET, HEAD, OPTIONS")
    );
    let options_allow = |path: &str| {
        let path = path.to_owned();
        let call = &call;
        async move {
            let (status, allow, body) = call(options(&path)).await;
            assert_eq!((status, body.as_str()), (204, ""), "{path}");
            allow.unwrap()
        }
    };
    assert_eq!(
        options_allow("/books/new").await,
        "GET, HEAD, DELETE, POST, OPTIONS"
    );
    assert_eq!(
        options_allow("/books/5").await,
        "GET, HEAD, DELETE, POST, OPTIONS"
    );
    assert_eq!(options_allow("/books/abc").await, "DELETE, POST, OPTIONS");
    assert_eq!(options_allow("/authors").await, "GET, HEAD, OPTIONS");
    assert_eq!(
        call(TestRequest::get().uri("/books/new/x")).await,
        (
            404,
            None,
            r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /books/new/x","instance":"/books/new/x"}"#.to_owned()
        )
    );
}

/// The 405 of paths that share requests is answered by the table's own
/// resources, not by a default service: a default service the application
/// sets after the table (a single-page app's index) answers unknown paths
/// only, and a request under another scope of the application that no
/// route of that scope takes is its 404, not a 405 of the table's paths.
#[actix_web::test]
async fn the_shared_405_does_not_depend_on_the_default_service() {
    let app = ProblemApp::builder()
        .development(false)
        .configure(|c| {
            c.service(web::scope("/admin").route("/x", web::get().to(plain)));
        })
        .routes(|r| r.get("/about", show_new).delete("/{page}", remove))
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline()),
    )
    .await;
    let res = test::call_service(&svc, TestRequest::get().uri("/admin/nope").to_request()).await;
    assert_eq!(res.status(), 404);
    let res = test::call_service(&svc, TestRequest::put().uri("/about").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        res.headers().get("allow").unwrap(),
        "GET, HEAD, DELETE, OPTIONS"
    );

    let a = app.clone();
    let spa = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .default_service(web::to(|| async { HttpResponse::Ok().body("index") }))
            .wrap(app.pipeline()),
    )
    .await;
    let res = test::call_service(&spa, TestRequest::put().uri("/about").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        res.headers().get("allow").unwrap(),
        "GET, HEAD, DELETE, OPTIONS"
    );
    let res = test::call_service(&spa, TestRequest::put().uri("/a/b").to_request()).await;
    assert_eq!(test::read_body(res).await, "index");
    let res = test::call_service(&spa, options("/about").to_request()).await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        res.headers().get("allow").unwrap(),
        "GET, HEAD, DELETE, OPTIONS"
    );
}

/// Patterns of their own (which may hold a slash) share requests too.
#[actix_web::test]
async fn paths_with_patterns_of_their_own_share_requests() {
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| {
            r.get("/files/{name:[^/]+}", show_new)
                .delete("/files/{id}", remove)
                .get("/docs/{file:.+\\.pdf}", show_new)
                .delete("/docs/a/{id}", remove)
        })
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline()),
    )
    .await;
    for (req, body) in [
        (TestRequest::get().uri("/files/x"), "GET new"),
        (TestRequest::delete().uri("/files/x"), "DELETE x"),
        (TestRequest::get().uri("/docs/a/b.pdf"), "GET new"),
        (TestRequest::delete().uri("/docs/a/b.pdf"), "DELETE b.pdf"),
    ] {
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(test::read_body(res).await, body);
    }
}
