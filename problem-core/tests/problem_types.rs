//! Problem type documentation served at the type's path (RFC 9457 §3.1.1):
//! HTML by default, JSON when preferred, exact bodies; `about:blank` never
//! served; setup mistakes are configuration errors.

use actix_web::http::Method;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse};
use problem_core::server::ProblemApp;
use problem_core::{DocumentedProblem, HttpConfigError, Problem};

mod app_support;
use app_support::serve;

/// A book with this ISBN already exists.
///
/// ISBNs are unique across the catalog & its <archive>.
#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
struct DuplicateIsbn {
    /// The ISBN that is taken.
    isbn: String,
    /// Existing copies.
    copies: Option<u32>,
    tags: Vec<String>,
    price: f64,
    rare: bool,
    extra: std::collections::BTreeMap<String, u8>,
    raw: serde_json::Value,
    #[problem(skip)]
    _internal: i64,
    #[problem(header = "Retry-After")]
    retry: u32,
}

/// Order problems.
#[allow(dead_code)]
#[derive(Debug, Problem)]
enum OrderProblem {
    /// The order is already paid.
    #[problem(status = 409, type = "/problems/paid")]
    Paid,
    #[problem(status = 409, type = "/problems/paid")]
    AlsoPaid,
    #[problem(status = 410)]
    Gone,
    #[problem(status = 400, type = "https://example.com/problems/x")]
    Elsewhere,
}

const HTML: &str = "<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>Conflict</title></head>
<body>
<h1>Conflict</h1>
<p>Problem type <code>/problems/duplicate-isbn</code>, HTTP status 409.</p>
<p>A book with this ISBN already exists.</p>
<p>ISBNs are unique across the catalog &amp; its &lt;archive&gt;.</p>
<h2>Extension members</h2>
<table>
<thead><tr><th>Member</th><th>JSON type</th><th>Required</th><th>Description</th></tr></thead>
<tbody>
<tr><td><code>isbn</code></td><td>string</td><td>yes</td><td>The ISBN that is taken.</td></tr>
<tr><td><code>copies</code></td><td>integer</td><td>no</td><td>Existing copies.</td></tr>
<tr><td><code>tags</code></td><td>array</td><td>yes</td><td></td></tr>
<tr><td><code>price</code></td><td>number</td><td>yes</td><td></td></tr>
<tr><td><code>rare</code></td><td>boolean</td><td>yes</td><td></td></tr>
<tr><td><code>extra</code></td><td>object</td><td>yes</td><td></td></tr>
<tr><td><code>raw</code></td><td>any</td><td>yes</td><td></td></tr>
</tbody>
</table>
</body>
</html>
";

fn json_doc() -> serde_json::Value {
    serde_json::json!({
        "type": "/problems/duplicate-isbn",
        "title": "Conflict",
        "status": 409,
        "description": "A book with this ISBN already exists.\n\nISBNs are unique across the catalog & its <archive>.",
        "members": [
            {"name": "isbn", "type": "string", "required": true, "description": "The ISBN that is taken."},
            {"name": "copies", "type": "integer", "required": false, "description": "Existing copies."},
            {"name": "tags", "type": "array", "required": true, "description": ""},
            {"name": "price", "type": "number", "required": true, "description": ""},
            {"name": "rare", "type": "boolean", "required": true, "description": ""},
            {"name": "extra", "type": "object", "required": true, "description": ""},
            {"name": "raw", "type": "any", "required": true, "description": ""}
        ]
    })
}

macro_rules! service {
    () => {{
        let app = ProblemApp::builder()
            .development(false)
            .problem_type::<DuplicateIsbn>()
            .problem_type::<OrderProblem>()
            .routes(|r| r.get("/books", || async { HttpResponse::Ok().finish() }))
            .build()
            .unwrap();
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

#[test]
fn the_derive_describes_each_case() {
    let docs = DuplicateIsbn::problem_type_docs();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].to_json(), json_doc());
    assert_eq!(docs[0].to_html(), HTML);
    let docs = OrderProblem::problem_type_docs();
    let summary: Vec<(&str, &str, u16, &str)> = docs
        .iter()
        .map(|d| (d.problem_type, d.title, d.status, d.description))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "/problems/paid",
                "Conflict",
                409,
                "The order is already paid."
            ),
            ("/problems/paid", "Conflict", 409, "Order problems."),
            ("about:blank", "Gone", 410, "Order problems."),
            (
                "https://example.com/problems/x",
                "Bad Request",
                400,
                "Order problems."
            ),
        ]
    );
}

#[actix_web::test]
async fn the_type_path_serves_html_by_default() {
    let svc = service!();
    for accept in [
        None,
        Some("text/html"),
        Some("*/*"),
        Some("text/html, application/json;q=0.9"),
    ] {
        let mut req = TestRequest::get().uri("/problems/duplicate-isbn");
        if let Some(a) = accept {
            req = req.insert_header(("Accept", a));
        }
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200, "{accept:?}");
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "text/html; charset=utf-8"
        );
        assert_eq!(res.headers().get("vary").unwrap(), "Accept");
        assert_eq!(test::read_body(res).await, HTML, "{accept:?}");
    }
}

#[actix_web::test]
async fn the_type_path_serves_json_when_preferred() {
    let svc = service!();
    for accept in ["application/json", "text/html;q=0.5, application/json"] {
        let req = TestRequest::get()
            .uri("/problems/duplicate-isbn")
            .insert_header(("Accept", accept));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "application/json"
        );
        let body: serde_json::Value = test::read_body_json(res).await;
        assert_eq!(body, json_doc(), "{accept}");
    }
}

#[actix_web::test]
async fn json_refused_or_not_preferred_gets_html() {
    let svc = service!();
    for accept in [
        "application/json;q=0",
        "application/json;q=0, */*",
        "text/html, application/json",
    ] {
        let req = TestRequest::get()
            .uri("/problems/duplicate-isbn")
            .insert_header(("Accept", accept));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "text/html; charset=utf-8",
            "{accept}"
        );
    }
    let req = TestRequest::get()
        .uri("/problems/duplicate-isbn")
        .insert_header(("Accept", "application/*"));
    let res = test::call_service(&svc, req.to_request()).await;
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/json"
    );
}

/// The pages document a problem type for every version alike: neutral, so
/// a removed or unknown version still reads them, without version headers.
#[actix_web::test]
async fn type_pages_are_version_neutral() {
    use problem_core::version::{ApiVersion, V2, V3, VersionConfig, VersionStrategy};
    let versions = VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header(),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .removed(ApiVersion::V1)
    .build()
    .unwrap();
    let app = ProblemApp::builder()
        .development(false)
        .versioning(versions)
        .problem_type::<DuplicateIsbn>()
        .routes(|r| {
            r.get("/books", || async { HttpResponse::Ok().finish() })
                .get("/problems/duplicate-isbn/history", || async {
                    HttpResponse::Ok().finish()
                })
        })
        .build()
        .unwrap();
    let svc = serve(app).await;
    for (uri, version) in [
        ("/problems/duplicate-isbn", "1"),
        ("/problems/duplicate-isbn", "9"),
        ("/problems/duplicate-isbn", "zz"),
        ("/v1/problems/duplicate-isbn", "3"),
    ] {
        let req = TestRequest::get()
            .uri(uri)
            .insert_header(("X-API-Version", version));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200, "{uri} {version}");
        assert!(res.headers().get("x-api-version").is_none(), "{uri}");
        assert!(
            res.headers().get("x-api-supported-versions").is_none(),
            "{uri}"
        );
        assert_eq!(test::read_body(res).await, HTML, "{uri}");
    }
    // The API itself is versioned as before, a route below a page's path
    // included: only the page itself is neutral.
    for uri in ["/books", "/problems/duplicate-isbn/history"] {
        for (version, status) in [("1", 410), ("9", 400), ("2", 200)] {
            let req = TestRequest::get()
                .uri(uri)
                .insert_header(("X-API-Version", version));
            let res = test::call_service(&svc, req.to_request()).await;
            assert_eq!(res.status(), status, "{uri} {version}");
            if status == 200 {
                assert_eq!(res.headers().get("x-api-version").unwrap(), "2", "{uri}");
            }
        }
    }
}

#[actix_web::test]
async fn head_works_on_type_paths_and_about_blank_or_absolute_types_are_never_served() {
    let svc = service!();
    let res = test::call_service(
        &svc,
        TestRequest::default()
            .method(Method::HEAD)
            .uri("/problems/paid")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert!(test::read_body(res).await.is_empty());
    for path in ["/about:blank", "/problems/x", "/example.com/problems/x"] {
        let res = test::call_service(&svc, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), 404, "{path}");
    }
}

#[test]
fn a_route_on_a_type_path_is_a_duplicate_route() {
    let err = ProblemApp::builder()
        .problem_type::<DuplicateIsbn>()
        .routes(|r| {
            r.get("/problems/duplicate-isbn", || async {
                HttpResponse::Ok().finish()
            })
        })
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        HttpConfigError::DuplicateRoute {
            method: "GET".into(),
            path: "/problems/duplicate-isbn".into()
        }
    );
}

/// A problem about a locked book.
#[derive(Debug, Problem)]
#[problem(status = 423, type = "/problems/locked#retry")]
struct LockedFragment;

/// A book held for another reader.
#[derive(Debug, Problem)]
#[problem(status = 423, type = "/problems/held?v=2")]
struct HeldQuery;

/// Another type on the page of `LockedFragment`.
#[derive(Debug, Problem)]
#[problem(status = 423, type = "/problems/locked#wait")]
struct LockedOtherFragment;

/// A type that resolves elsewhere.
#[derive(Debug, Problem)]
#[problem(status = 403, type = "/problems/../admin")]
struct DotSegment;

/// A percent-encoded type.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/out%20of-stock")]
struct Encoded;

/// A type with non-ASCII text, percent-encoded as the derive requires.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/caf%C3%A9")]
struct Cafe;

/// The same page as [`Cafe`], its escape in lower case.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/caf%c3%a9")]
struct CafeLowerCase;

/// An encoded `/`, which the router keeps encoded.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/a%2Fb")]
struct EncodedSlash;

/// Escapes that decode to bytes that are not UTF-8.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/%FF")]
struct NotUtf8;

/// Escapes that decode to a path parameter's braces.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/%7Bid%7D")]
struct EncodedBraces;

/// Escapes that decode to a `..` segment.
#[derive(Debug, Problem)]
#[problem(status = 403, type = "/problems/%2E%2E/admin")]
struct EncodedDots;

/// A percent-encoded type is served where a client dereferencing it asks:
/// at its path as written, which actix-web's router decodes before it
/// matches (all but `%`, `/` and `+`), and version-neutral under the URL
/// path strategy however the request encodes it (a lower-case escape, an
/// escaped `-`, an unsupported version). Before, `build()` refused every
/// type with a `%`, while the derive requires non-ASCII text
/// percent-encoded: such a type could never be served; and a request that
/// encoded the path otherwise than the type reached the page with version
/// headers, or got the 400 of an unsupported version.
#[actix_web::test]
async fn a_percent_encoded_type_is_served_where_clients_ask() {
    use problem_core::version::{V2, VersionConfig, VersionStrategy};
    let versions = VersionConfig::builder(VersionStrategy::url_path())
        .default_version(V2)
        .supported_versions([V2])
        .build()
        .unwrap();
    let app = ProblemApp::builder()
        .development(false)
        .versioning(versions)
        .problem_type::<Encoded>()
        .problem_type::<Cafe>()
        .problem_type::<EncodedSlash>()
        .build()
        .unwrap();
    let svc = serve(app).await;
    for (uri, ty) in [
        ("/problems/out%20of-stock", "/problems/out%20of-stock"),
        ("/problems/caf%C3%A9", "/problems/caf%C3%A9"),
        ("/problems/a%2Fb", "/problems/a%2Fb"),
        ("/v2/problems/caf%C3%A9", "/problems/caf%C3%A9"),
        ("/problems/caf%c3%a9", "/problems/caf%C3%A9"),
        ("/problems/out%20of%2Dstock", "/problems/out%20of-stock"),
        ("/v9/problems/caf%c3%a9", "/problems/caf%C3%A9"),
    ] {
        let req = TestRequest::get()
            .uri(uri)
            .insert_header(("Accept", "application/json"));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200, "{uri}");
        assert!(res.headers().get("x-api-version").is_none(), "{uri}");
        let body: serde_json::Value = test::read_body_json(res).await;
        assert_eq!(body["type"], ty, "{uri}");
    }
    // `/` stays encoded: `/problems/a/b` is another path.
    let res = test::call_service(&svc, TestRequest::get().uri("/problems/a/b").to_request()).await;
    assert_eq!(res.status(), 404);
}

/// A type with a fragment or a query is served at its path, what a client
/// dereferencing it asks for (the fragment is not sent; the query is not
/// routed on). Before, the route was the literal `/problems/locked#retry`,
/// which no request matches.
#[actix_web::test]
async fn a_type_with_a_fragment_or_query_is_served_at_its_path() {
    let app = ProblemApp::builder()
        .development(false)
        .problem_type::<LockedFragment>()
        .problem_type::<HeldQuery>()
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline()),
    )
    .await;
    for (uri, ty) in [
        ("/problems/locked", "/problems/locked#retry"),
        ("/problems/held?v=2", "/problems/held?v=2"),
        ("/problems/held", "/problems/held?v=2"),
    ] {
        let req = TestRequest::get()
            .uri(uri)
            .insert_header(("Accept", "application/json"));
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 200, "{uri}");
        let body: serde_json::Value = test::read_body_json(res).await;
        assert_eq!(body["type"], ty, "{uri}");
    }
}

/// A type whose page cannot be served where a client dereferencing it
/// asks, or two types on one page (which could document one of them), is
/// refused at build. Before, each built: a dot segment was served only at
/// the literal, unresolved path, and the second type of a page silently
/// went undocumented. Escapes that decode to something no request path
/// matches are refused too.
#[test]
fn a_type_page_that_cannot_be_served_is_refused_at_build() {
    let refused = |b: problem_core::server::ProblemAppBuilder| b.build().unwrap_err();
    assert_eq!(
        refused(ProblemApp::builder().problem_type::<DotSegment>()),
        HttpConfigError::InvalidRoute(
            "problem type `/problems/../admin` has a `.` or `..` segment, so a client resolves it to another path: write the path it resolves to".into()
        )
    );
    assert_eq!(
        refused(ProblemApp::builder().problem_type::<NotUtf8>()),
        HttpConfigError::InvalidRoute(
            "problem type `/problems/%FF` has percent-escapes that decode to bytes that are not UTF-8, so no request path matches it: encode UTF-8 text (`%C3%A9` for `é`)".into()
        )
    );
    assert_eq!(
        refused(ProblemApp::builder().problem_type::<EncodedBraces>()),
        HttpConfigError::InvalidRoute(
            "problem type `/problems/%7Bid%7D` holds `{` or `}` (decoded), which the router reads as a path parameter: name the type without them".into()
        )
    );
    assert_eq!(
        refused(ProblemApp::builder().problem_type::<EncodedDots>()),
        HttpConfigError::InvalidRoute(
            "problem type `/problems/%2E%2E/admin` has a `.` or `..` segment once decoded (`%2E`), so a client resolves it to another path: write the path it resolves to".into()
        )
    );
    assert_eq!(
        refused(
            ProblemApp::builder()
                .problem_type::<LockedFragment>()
                .problem_type::<LockedOtherFragment>()
        ),
        HttpConfigError::InvalidRoute(
            "problem types `/problems/locked#retry` and `/problems/locked#wait` share the page `/problems/locked`, which can document one of them: give each type its own path".into()
        )
    );
    // Two spellings of one page.
    assert_eq!(
        refused(
            ProblemApp::builder()
                .problem_type::<Cafe>()
                .problem_type::<CafeLowerCase>()
        ),
        HttpConfigError::InvalidRoute(
            "problem types `/problems/caf%C3%A9` and `/problems/caf%c3%a9` share the page `/problems/caf%c3%a9`, which can document one of them: give each type its own path".into()
        )
    );
    // The same type twice is one page.
    assert!(
        ProblemApp::builder()
            .problem_type::<LockedFragment>()
            .problem_type::<LockedFragment>()
            .build()
            .is_ok()
    );
}

/// The OpenAPI path items are the served pages: the page path, not the
/// type with its fragment (no `#` in a path key), and none for a type the
/// builder refuses.
#[cfg(feature = "openapi")]
#[test]
fn openapi_documents_the_page_paths() {
    let json = |paths| serde_json::to_value(paths).unwrap();
    let locked = json(problem_core::openapi::problem_type_paths::<LockedFragment>());
    assert_eq!(
        locked.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["/problems/locked"]
    );
    assert_eq!(
        locked["/problems/locked"]["get"]["operationId"],
        "problem_type_problems_locked"
    );
    let dot = json(problem_core::openapi::problem_type_paths::<DotSegment>());
    assert_eq!(dot, serde_json::json!({}));
}
