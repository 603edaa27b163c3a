//! Problem responses without the error pipeline (`actix_web::test`), and the
//! rules of the spec's tables: status range, titles, message, extension
//! overwrites, member presence (spec "Resources and fields", "Errors").
//!
//! Without the pipeline a problem answers through its `ResponseError`:
//! `instance` is `""` (actix's `ResponseError` cannot see the request) and a
//! 5xx is masked to `type`, `title`, `status`, `instance`, keeping its headers.

use actix_web::http::StatusCode;
use actix_web::http::header::HeaderMap;
use actix_web::test as actix_test;
use actix_web::{App, HttpResponse, web};
use problem_core::{
    BadRequestException, ConflictException, ForbiddenException, HttpException,
    InternalServerErrorException, Issue, IssueLocation, MethodNotAllowedException,
    NotFoundException, Problem, ProblemDetails, ServiceUnavailableException, StatusRangeError,
    TooManyRequestsException, UnauthorizedException, UnprocessableEntityException,
    UnsupportedMediaTypeException, ValidationException, problem_response,
};
use serde_json::json;

const PROBLEM_JSON: &str = "application/problem+json; charset=utf-8";

/// What a client sees.
#[derive(Debug, PartialEq)]
struct Seen {
    status: u16,
    /// Every response header, sorted, as `name: value`.
    headers: Vec<String>,
    body: String,
}

fn header_lines(headers: &HeaderMap) -> Vec<String> {
    let mut lines: Vec<String> = headers
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap()))
        .collect();
    lines.sort();
    lines
}

/// Serves `GET /books` with a handler that fails with `make()`, calls it.
async fn serve(make: fn() -> actix_web::Error) -> Seen {
    let app = actix_test::init_service(App::new().route(
        "/books",
        web::get().to(move || async move { Err::<HttpResponse, _>(make()) }),
    ))
    .await;
    let req = actix_test::TestRequest::get()
        .uri("/books?page=2")
        .to_request();
    let res = actix_test::call_service(&app, req).await;
    let status = res.status().as_u16();
    let headers = header_lines(res.headers());
    let body = actix_test::read_body(res).await;
    Seen {
        status,
        headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

fn seen(status: u16, extra_headers: &[&str], body: &str) -> Seen {
    let mut headers: Vec<String> = extra_headers.iter().map(|h| (*h).to_owned()).collect();
    headers.push(format!("content-type: {PROBLEM_JSON}"));
    headers.push("x-content-type-options: nosniff".to_owned());
    headers.sort();
    Seen {
        status,
        headers,
        body: body.to_owned(),
    }
}

// ------------------------------------------------------------ built-ins

#[actix_web::test]
async fn bad_request() {
    let got = serve(|| {
        BadRequestException::new()
            .with_detail("Malformed JSON body")
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            400,
            &[],
            r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Malformed JSON body","instance":""}"#
        )
    );
}

#[actix_web::test]
async fn unauthorized_with_www_authenticate() {
    let got = serve(|| {
        UnauthorizedException::new()
            .with_header(("WWW-Authenticate", r#"Bearer realm="books""#))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            401,
            &[r#"www-authenticate: Bearer realm="books""#],
            r#"{"type":"about:blank","title":"Unauthorized","status":401,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn forbidden_without_detail() {
    let got = serve(|| ForbiddenException::new().into()).await;
    assert_eq!(
        got,
        seen(
            403,
            &[],
            r#"{"type":"about:blank","title":"Forbidden","status":403,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn not_found_with_extension() {
    let got = serve(|| {
        NotFoundException::new()
            .with_detail("Book 7 not found")
            .with_extension("bookId", 7)
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            404,
            &[],
            r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"","bookId":7}"#
        )
    );
}

#[actix_web::test]
async fn method_not_allowed_with_allow() {
    let got = serve(|| {
        MethodNotAllowedException::new()
            .with_detail("DELETE is not allowed on /books")
            .with_header(("Allow", "GET, POST"))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            405,
            &["allow: GET, POST"],
            r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"DELETE is not allowed on /books","instance":""}"#
        )
    );
}

#[actix_web::test]
async fn conflict_with_type_and_title() {
    let got = serve(|| {
        ConflictException::new()
            .with_type("/problems/duplicate-isbn")
            .with_title("Duplicate ISBN")
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            409,
            &[],
            r#"{"type":"/problems/duplicate-isbn","title":"Duplicate ISBN","status":409,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn unsupported_media_type() {
    let got = serve(|| {
        UnsupportedMediaTypeException::new()
            .with_detail("Unsupported content type: text/plain")
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            415,
            &[],
            r#"{"type":"about:blank","title":"Unsupported Media Type","status":415,"detail":"Unsupported content type: text/plain","instance":""}"#
        )
    );
}

#[actix_web::test]
async fn unprocessable_entity() {
    let got = serve(|| UnprocessableEntityException::new().into()).await;
    assert_eq!(
        got,
        seen(
            422,
            &[],
            r#"{"type":"about:blank","title":"Unprocessable Content","status":422,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn too_many_requests_with_retry_after() {
    let got = serve(|| {
        TooManyRequestsException::new()
            .with_detail("Slow down")
            .with_header(("Retry-After", "30"))
            .with_extension("limit", 100)
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            429,
            &["retry-after: 30"],
            r#"{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"Slow down","instance":"","limit":100}"#
        )
    );
}

#[actix_web::test]
async fn internal_server_error_is_masked() {
    let got = serve(|| {
        InternalServerErrorException::new()
            .with_detail("db password is hunter2")
            .with_extension("query", "SELECT 1")
            .with_cause(std::io::Error::other("disk"))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            500,
            &[],
            r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn service_unavailable_is_masked_but_keeps_its_headers() {
    let got = serve(|| {
        ServiceUnavailableException::new()
            .with_detail("Maintenance window")
            .with_extension("window", "02:00-03:00")
            .with_header(("Retry-After", "120"))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            503,
            &["retry-after: 120"],
            r#"{"type":"about:blank","title":"Service Unavailable","status":503,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn validation_exception() {
    let got = serve(|| {
        ValidationException::new(vec![
            Issue::new(
                IssueLocation::Body,
                "/title",
                "required",
                "title is required",
            ),
            Issue::new(
                IssueLocation::Query,
                "sort",
                "not_sortable",
                "`isbn` is not sortable",
            )
            .with("allowed", ["id", "title"]),
        ])
        .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            400,
            &[],
            r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"","issues":[{"location":"body","name":"/title","code":"required","message":"title is required"},{"location":"query","name":"sort","code":"not_sortable","message":"`isbn` is not sortable","allowed":["id","title"]}]}"#
        )
    );
}

// ------------------------------------------------------- HttpException

#[actix_web::test]
async fn http_exception_4xx_full() {
    let got = serve(|| {
        HttpException::new(418)
            .unwrap()
            .with_detail("Short and stout")
            .with_extension("tea", json!({"kind": "earl grey"}))
            .with_header(("X-Teapot", "yes"))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            418,
            &["x-teapot: yes"],
            r#"{"type":"about:blank","title":"I'm a teapot","status":418,"detail":"Short and stout","instance":"","tea":{"kind":"earl grey"}}"#
        )
    );
}

#[actix_web::test]
async fn http_exception_5xx_masked() {
    let got = serve(|| {
        HttpException::new(502)
            .unwrap()
            .with_detail("upstream at 10.0.0.7 refused")
            .with_type("/problems/upstream")
            .with_header(("Retry-After", "5"))
            .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            502,
            &["retry-after: 5"],
            r#"{"type":"/problems/upstream","title":"Bad Gateway","status":502,"instance":""}"#
        )
    );
}

// --------------------------------------------------------- derived types

#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
struct DuplicateIsbn {
    isbn: String,
    #[problem(skip)]
    internal_id: i64,
}

#[derive(Debug, Problem)]
#[problem(status = 503, detail = "Shard {shard} is down")]
struct ShardDown {
    shard: u8,
    #[problem(header = "Retry-After")]
    retry_after: u32,
}

#[actix_web::test]
async fn derived_type() {
    let got = serve(|| {
        DuplicateIsbn {
            isbn: "978-3-16-148410-0".into(),
            internal_id: 9,
        }
        .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            409,
            &[],
            r#"{"type":"/problems/duplicate-isbn","title":"Conflict","status":409,"detail":"A book with ISBN 978-3-16-148410-0 already exists","instance":"","isbn":"978-3-16-148410-0"}"#
        )
    );
}

#[actix_web::test]
async fn derived_5xx_is_masked_and_keeps_its_header_field() {
    let got = serve(|| {
        ShardDown {
            shard: 3,
            retry_after: 60,
        }
        .into()
    })
    .await;
    assert_eq!(
        got,
        seen(
            503,
            &["retry-after: 60"],
            r#"{"type":"about:blank","title":"Service Unavailable","status":503,"instance":""}"#
        )
    );
}

#[actix_web::test]
async fn a_handler_returning_result_of_the_derived_type() {
    async fn create() -> Result<HttpResponse, DuplicateIsbn> {
        Err(DuplicateIsbn {
            isbn: "1".into(),
            internal_id: 1,
        })
    }
    let app = actix_test::init_service(App::new().route("/books", web::post().to(create))).await;
    let res = actix_test::call_service(
        &app,
        actix_test::TestRequest::post().uri("/books").to_request(),
    )
    .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_eq!(res.headers().get("content-type").unwrap(), PROBLEM_JSON);
    assert_eq!(
        actix_test::read_body(res).await,
        r#"{"type":"/problems/duplicate-isbn","title":"Conflict","status":409,"detail":"A book with ISBN 1 already exists","instance":"","isbn":"1"}"#
    );
}

// ------------------------------------------------------ the spec's rules

#[test]
fn status_range() {
    for bad in [0, 399, 600, 65535, 100, 200, 302] {
        assert_eq!(
            HttpException::new(bad).unwrap_err(),
            StatusRangeError { status: bad },
            "{bad}"
        );
    }
    assert_eq!(
        HttpException::new(399).unwrap_err().to_string(),
        "HTTP exception status must be 400 to 599, got 399"
    );
    assert_eq!(HttpException::new(400).unwrap().status().as_u16(), 400);
    assert_eq!(HttpException::new(599).unwrap().status().as_u16(), 599);
}

#[test]
fn title_fallbacks() {
    let title = |s: u16| HttpException::new(s).unwrap().title().into_owned();
    assert_eq!(title(502), "Bad Gateway");
    assert_eq!(title(504), "Gateway Timeout");
    assert_eq!(title(499), "Error");
    assert_eq!(title(599), "Error");
    assert_eq!(title(413), "Content Too Large");
    assert_eq!(title(421), "Misdirected Request");
    assert_eq!(title(422), "Unprocessable Content");
    assert_eq!(title(410), "Gone");
    assert_eq!(
        HttpException::new(499)
            .unwrap()
            .with_title("Client Closed Request")
            .title(),
        "Client Closed Request"
    );
}

#[test]
fn message_is_detail_else_title() {
    assert_eq!(HttpException::new(404).unwrap().to_string(), "Not Found");
    assert_eq!(
        HttpException::new(404)
            .unwrap()
            .with_detail("Book 7")
            .to_string(),
        "Book 7"
    );
    assert_eq!(
        HttpException::new(499)
            .unwrap()
            .with_title("Closed")
            .to_string(),
        "Closed"
    );
    assert_eq!(ForbiddenException::new().to_string(), "Forbidden");
    assert_eq!(HttpException::new(404).unwrap().name(), "HttpException");
    assert_eq!(NotFoundException::new().name(), "NotFoundException");
    assert_eq!(
        ValidationException::new(vec![]).name(),
        "ValidationException"
    );
}

fn body(p: &impl Problem, instance: &str) -> String {
    serde_json::to_string(&p.to_problem(instance).unwrap()).unwrap()
}

#[test]
fn reserved_extension_names_are_overwritten_by_the_real_members() {
    let err = HttpException::new(409)
        .unwrap()
        .with_extension("type", "fake")
        .with_extension("title", "fake")
        .with_extension("status", 200)
        .with_extension("instance", "/fake")
        .with_extension("isbn", "1");
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"about:blank","title":"Conflict","status":409,"instance":"/books","isbn":"1"}"#
    );
}

#[test]
fn a_detail_extension_is_overwritten_only_when_there_is_a_detail() {
    let err = HttpException::new(409)
        .unwrap()
        .with_extension("detail", "from extension");
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"from extension","instance":"/books"}"#
    );
    // The extension is not the exception's detail: the message is the title.
    assert_eq!(err.to_string(), "Conflict");
    let err = err.with_detail("real");
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"real","instance":"/books"}"#
    );
}

#[test]
fn member_presence() {
    // type, title, status, instance always; nothing else without a reason.
    let err = HttpException::new(400).unwrap();
    let value: serde_json::Value = serde_json::from_str(&body(&err, "/x")).unwrap();
    assert_eq!(
        value,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400, "instance": "/x"})
    );
    // detail only with a detail, extensions only when there are some;
    // correlationId and stack never in `to_problem`.
    let err = err.with_detail("d").with_extension("e", json!(null));
    assert_eq!(
        body(&err, "/x"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"d","instance":"/x","e":null}"#
    );
    // The empty instance of a standalone response is still present.
    assert_eq!(
        body(&NotFoundException::new(), ""),
        r#"{"type":"about:blank","title":"Not Found","status":404,"instance":""}"#
    );
}

#[test]
fn problem_response_of_a_plain_body() {
    let mut p = ProblemDetails::new(404);
    p.instance = Some("/books/7".into());
    let mut headers = HeaderMap::new();
    headers.insert(
        actix_web::http::header::CONTENT_TYPE,
        "text/html".parse().unwrap(),
    );
    headers.insert(
        actix_web::http::header::CACHE_CONTROL,
        "no-store".parse().unwrap(),
    );
    let res = problem_response(&p, &headers);
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        header_lines(res.headers()),
        vec![
            "cache-control: no-store".to_owned(),
            format!("content-type: {PROBLEM_JSON}"),
            "x-content-type-options: nosniff".to_owned(),
        ]
    );
    let body = actix_web::body::MessageBody::try_into_bytes(res.into_body()).unwrap();
    assert_eq!(
        body,
        r#"{"type":"about:blank","title":"Not Found","status":404,"instance":"/books/7"}"#
    );
}
