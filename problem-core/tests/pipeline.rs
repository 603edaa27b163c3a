//! The error pipeline through actix-web's test service: every row of the
//! masking table in both modes, log lines compared exactly, framework errors,
//! filters, guards, sticky and draft headers, configuration errors.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpRequest, HttpResponse, web};
use problem_core::pipeline::{
    LogLevel, LoggedEntry, MemoryLogger, RequestContext, add_sticky_headers, with_headers,
};
use problem_core::routing::Routes;
use problem_core::server::ProblemApp;
use problem_core::{
    BadRequestException, ConflictException, HttpConfigError, HttpException, Issue, IssueLocation,
    MethodNotAllowedException, NotFoundException, Problem, ServiceUnavailableException,
    UnauthorizedException, ValidationException,
};
use serde_json::{Value, json};

const SECRET_URL: &str = "postgres://catalog:s3cret@db.internal:5432/catalog";
const REDACTED_URL: &str = "postgres://***@db.internal:5432/catalog";

async fn bad_request() -> Result<HttpResponse, BadRequestException> {
    Err(BadRequestException::new()
        .with_detail("Title must not be empty")
        .with_extension("field", "title"))
}

async fn unavailable() -> Result<HttpResponse, ServiceUnavailableException> {
    Err(ServiceUnavailableException::new()
        .with_detail("Maintenance window")
        .with_extension("window", "02:00-03:00")
        .with_header(("Retry-After", "120"))
        .with_cause(std::io::Error::other("cause must not be logged")))
}

async fn unknown() -> Result<HttpResponse, actix_web::Error> {
    Err(std::io::Error::other(format!("cannot connect to {SECRET_URL}")).into())
}

/// Where `panics` panics: in development the location goes into `stack`.
const PANIC_LINE: u32 = line!() + 3;

async fn panics() -> HttpResponse {
    panic!("handler exploded at {}", SECRET_URL)
}

async fn bad_json() -> web::Json<HashMap<(u8, u8), u8>> {
    web::Json([((1, 2), 3)].into())
}

async fn ok() -> HttpResponse {
    HttpResponse::Ok().json(json!({"ok": true}))
}

async fn echo(body: web::Json<Value>) -> HttpResponse {
    HttpResponse::Ok().json(body.into_inner())
}

async fn conflict() -> Result<HttpResponse, ConflictException> {
    Err(ConflictException::new().with_detail("Duplicate"))
}

async fn invalid() -> Result<HttpResponse, ValidationException> {
    Err(ValidationException::new(vec![Issue::new(
        IssueLocation::Body,
        "/isbn",
        "pattern",
        "isbn must have 10 or 13 digits",
    )]))
}

async fn drafted(ctx: RequestContext) -> Result<HttpResponse, BadRequestException> {
    ctx.response_headers_mut().insert(
        header::HeaderName::from_static("x-draft"),
        header::HeaderValue::from_static("1"),
    );
    // Appended twice: both values reach the response.
    for link in [
        "</books?page=2>; rel=\"next\"",
        "</books?page=9>; rel=\"last\"",
    ] {
        ctx.response_headers_mut()
            .append(header::LINK, header::HeaderValue::from_static(link));
    }
    ctx.response_headers_mut()
        .insert(header::VARY, header::HeaderValue::from_static("Origin"));
    if ctx.query().iter().any(|(k, _)| k == "fail") {
        return Err(BadRequestException::new());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::LINK, "<elsewhere>; rel=\"help\""))
        .insert_header((header::VARY, "Accept"))
        .finish())
}

async fn multipart(
    mut payload: actix_multipart::Multipart,
) -> Result<HttpResponse, actix_web::Error> {
    use futures_util::StreamExt;
    while let Some(field) = payload.next().await {
        field?;
    }
    Ok(HttpResponse::Ok().finish())
}

/// A problem whose extensions are named like the members the pipeline
/// sets: `correlationId` and `stack`.
async fn reserved(status: web::Path<u16>) -> Result<HttpResponse, HttpException> {
    Err(HttpException::new(status.into_inner())
        .expect("a 4xx or 5xx status")
        .with_extension("correlationId", "not-a-log-line")
        .with_extension("stack", "not-an-unknown-error")
        .with_extension("isbn", "0441013597"))
}

/// `HttpException::new` with a status out of range, propagated with `?`.
async fn out_of_range() -> Result<HttpResponse, actix_web::Error> {
    Err(HttpException::new(700)?.into())
}

fn routes(r: Routes) -> Routes {
    r.get("/bad-request", bad_request)
        .get("/reserved/{status}", reserved)
        .get("/out-of-range", out_of_range)
        .get("/unavailable", unavailable)
        .get("/unavailable/{rest}", unavailable)
        .get("/unknown", unknown)
        .get("/unknown/{rest}", unknown)
        .get("/panic", panics)
        .get("/bad-json", bad_json)
        .get("/ok", ok)
        .post("/echo", echo)
        .post("/conflict", conflict)
        .post("/invalid", invalid)
        .get("/drafted", drafted)
        .put("/upload", multipart)
        .delete("/books/:id", ok)
        .guarded(|req: HttpRequest| async move {
            match req
                .headers()
                .get("authorization")
                .and_then(|v| v.to_str().ok())
            {
                None => Err(UnauthorizedException::new()
                    .with_header(("WWW-Authenticate", "Bearer realm=\"catalog\""))
                    .into()),
                Some(t) => Ok(t == "Bearer admin"),
            }
        })
        .into()
}

fn app(development: bool) -> (ProblemApp, Arc<MemoryLogger>) {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("test")
        .development(development)
        .shared_logger(logger.clone())
        .routes(routes)
        .build()
        .unwrap();
    (app, logger)
}

macro_rules! service {
    ($app:expr) => {{
        let a = $app.clone();
        test::init_service(
            App::new()
                .configure(move |c| a.configure(c))
                .wrap($app.pipeline()),
        )
        .await
    }};
}

async fn body_json<B: MessageBody>(res: ServiceResponse<B>) -> Value {
    let bytes = test::read_body(res).await;
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("not JSON ({e}): {bytes:?}"))
}

fn assert_problem_headers<B>(res: &ServiceResponse<B>) {
    assert_eq!(
        res.headers().get(header::CONTENT_TYPE).unwrap(),
        "application/problem+json; charset=utf-8"
    );
    assert_eq!(
        res.headers().get("x-content-type-options").unwrap(),
        "nosniff"
    );
}

fn only_entry(logger: &MemoryLogger) -> LoggedEntry {
    let entries = logger.entries();
    assert_eq!(entries.len(), 1, "{entries:#?}");
    entries.into_iter().next().unwrap()
}

/// A problem type written by hand, answering with `standalone_response`.
#[derive(Debug)]
struct Teapot;

impl std::fmt::Display for Teapot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Short and stout")
    }
}

impl std::error::Error for Teapot {}

impl problem_core::Problem for Teapot {
    fn status(&self) -> StatusCode {
        StatusCode::IM_A_TEAPOT
    }
    fn detail(&self) -> Option<std::borrow::Cow<'_, str>> {
        Some("Short and stout".into())
    }
    fn name(&self) -> &'static str {
        "Teapot"
    }
}

impl actix_web::ResponseError for Teapot {
    fn status_code(&self) -> StatusCode {
        StatusCode::IM_A_TEAPOT
    }
    fn error_response(&self) -> HttpResponse {
        problem_core::problem::standalone_response(self)
    }
}

/// The pipeline finds a hand-written problem type by its
/// `standalone_response`, as it finds a derived one: the full document,
/// with `instance`.
#[actix_web::test]
async fn a_hand_written_problem_type_is_a_problem() {
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.get("/tea", || async { Err::<HttpResponse, _>(Teapot) }))
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/tea").to_request()).await;
    assert_eq!(res.status(), 418);
    assert_problem_headers(&res);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "I'm a teapot", "status": 418,
               "detail": "Short and stout", "instance": "/tea"})
    );
}

#[actix_web::test]
async fn four_xx_is_full_in_both_modes_and_not_logged() {
    for dev in [false, true] {
        let (app, logger) = app(dev);
        let svc = service!(app);
        let res = test::call_service(
            &svc,
            TestRequest::get().uri("/bad-request?x=1").to_request(),
        )
        .await;
        assert_eq!(res.status(), 400);
        assert_problem_headers(&res);
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Title must not be empty", "instance": "/bad-request", "field": "title"})
        );
        assert!(logger.entries().is_empty());
    }
}

#[actix_web::test]
async fn five_xx_is_masked_in_production_and_logged_once() {
    let (app, logger) = app(false);
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/unavailable").to_request()).await;
    assert_eq!(res.status(), 503);
    assert_problem_headers(&res);
    assert_eq!(res.headers().get("retry-after").unwrap(), "120");
    let body = body_json(res).await;
    let entry = only_entry(&logger);
    let id = entry.correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
               "instance": "/unavailable", "correlationId": id})
    );
    assert_eq!(entry.level, LogLevel::Error);
    assert_eq!(
        entry.message,
        format!(
            "[test] 503 on GET /unavailable (correlation id {id}): ServiceUnavailableException: Maintenance window"
        )
    );
    assert_eq!(entry.error, None);
}

#[actix_web::test]
async fn five_xx_keeps_detail_and_extensions_in_development() {
    let (app, logger) = app(true);
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/unavailable").to_request()).await;
    assert_eq!(res.status(), 503);
    assert_eq!(res.headers().get("retry-after").unwrap(), "120");
    let body = body_json(res).await;
    let entry = only_entry(&logger);
    let id = entry.correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
               "detail": "Maintenance window", "instance": "/unavailable", "correlationId": id,
               "window": "02:00-03:00"})
    );
    assert_eq!(
        entry.message,
        format!("[test] 503 on GET /unavailable (correlation id {id})")
    );
    assert_eq!(
        entry.error,
        Some(
            json!({"name": "ServiceUnavailableException", "message": "Maintenance window",
                    "properties": {"window": "02:00-03:00"}})
        )
    );
}

/// A status out of `400..=599` is the spec's `RangeError`: a bug, so `?`
/// turns it into an unknown error too, named after its type.
#[actix_web::test]
async fn unknown_error_is_a_bare_500_in_production() {
    let cases = [
        (
            "/unknown",
            format!("Error: cannot connect to {REDACTED_URL}"),
        ),
        (
            "/out-of-range",
            "StatusRangeError: HTTP exception status must be 400 to 599, got 700".to_owned(),
        ),
    ];
    for (path, logged) in cases {
        let (app, logger) = app(false);
        let svc = service!(app);
        let res = test::call_service(&svc, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), 500);
        assert_problem_headers(&res);
        let body = body_json(res).await;
        let entry = only_entry(&logger);
        let id = entry.correlation_id.to_string();
        assert_eq!(
            body,
            json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
                   "instance": path, "correlationId": id})
        );
        assert_eq!(
            entry.message,
            format!("[test] Unhandled error on GET {path} (correlation id {id}): {logged}")
        );
        assert!(!format!("{entry:?}").contains("s3cret"));
    }
}

/// Error responses a handler builds instead of returning an error: one
/// without a body is the problem of its status; one with a body of its own
/// (a health check's `503 {"db":"down"}`, an already rendered problem) is
/// the handler's answer and passes as it is, not masked and not logged.
#[actix_web::test]
async fn error_responses_a_handler_builds() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("t")
        .development(false)
        .shared_logger(logger.clone())
        .routes(|r| {
            r.get("/gone", || async { HttpResponse::Gone().finish() })
                .get("/mine", || async {
                    HttpResponse::Conflict().json(json!({"mine": true}))
                })
                .get("/health", || async {
                    HttpResponse::ServiceUnavailable().json(json!({"db": "down"}))
                })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let get = |uri: &str| TestRequest::get().uri(uri).to_request();
    let res = test::call_service(&svc, get("/gone")).await;
    assert_problem_headers(&res);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Gone", "status": 410, "instance": "/gone"})
    );
    for (uri, status, body) in [
        ("/mine", 409, json!({"mine": true})),
        ("/health", 503, json!({"db": "down"})),
    ] {
        let res = test::call_service(&svc, get(uri)).await;
        assert_eq!(res.status(), status);
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "application/json"
        );
        assert_eq!(body_json(res).await, body);
    }
    assert!(logger.entries().is_empty());
}

/// A credential in the path (`/reset/token=…`, `/u:pw@host`) is hidden in
/// the log line as in the message; the body's `instance` keeps the path as
/// received (the client sent it).
#[actix_web::test]
async fn a_credential_in_the_path_is_redacted_in_the_log_line() {
    for development in [false, true] {
        let (app, logger) = app(development);
        let svc = service!(app);
        for (uri, instance) in [
            ("/unknown/token=SECRET123?x=1", "/unknown/token=SECRET123"),
            ("/unknown/token%3DSECRET123", "/unknown/token%3DSECRET123"),
        ] {
            logger.clear();
            let res = test::call_service(&svc, TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(res.status(), 500);
            let body = body_json(res).await;
            assert_eq!(body["instance"], instance);
            let entry = only_entry(&logger);
            let id = entry.correlation_id;
            let prefix =
                format!("[test] Unhandled error on GET /unknown/token=*** (correlation id {id})");
            assert!(entry.message.starts_with(&prefix), "{}", entry.message);
            assert!(!format!("{entry:?}").contains("SECRET123"), "{entry:?}");
        }
        // The decoded path stays on one line: a percent-encoded line break
        // or escape cannot start what reads as another log entry (an
        // audit forged `[test] FAKE LINE` as a line of its own).
        for (uri, shown) in [
            (
                "/unknown/password%3Dx%0A%5Btest%5D%20FAKE%20LINE",
                "/unknown/password=***\\n[test] FAKE LINE",
            ),
            (
                "/unknown/Bearer%20x%0D%0AFORGED%1B%5B31m",
                "/unknown/Bearer ***\\r\\nFORGED\\u{1b}[31m",
            ),
        ] {
            logger.clear();
            let res = test::call_service(&svc, TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(res.status(), 500);
            let entry = only_entry(&logger);
            let id = entry.correlation_id;
            let line = format!("[test] Unhandled error on GET {shown} (correlation id {id})");
            if development {
                assert_eq!(entry.message, line);
            } else {
                assert!(
                    entry.message.starts_with(&format!("{line}: ")),
                    "{}",
                    entry.message
                );
            }
            assert!(
                !entry.message.contains(['\n', '\r', '\u{1b}']),
                "{}",
                entry.message
            );
        }
    }
}

#[actix_web::test]
async fn unknown_error_adds_redacted_detail_and_stack_in_development() {
    let (app, logger) = app(true);
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/unknown").to_request()).await;
    assert_eq!(res.status(), 500);
    let body = body_json(res).await;
    let entry = only_entry(&logger);
    let id = entry.correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
               "detail": format!("cannot connect to {REDACTED_URL}"), "instance": "/unknown",
               "correlationId": id, "stack": format!("Error: cannot connect to {REDACTED_URL}")})
    );
    assert_eq!(
        entry.message,
        format!("[test] Unhandled error on GET /unknown (correlation id {id})")
    );
    // The log entry's argument is the whole error the body shows, its
    // `stack` included (an audit found the body's stack missing there).
    assert_eq!(
        entry.error,
        Some(
            json!({"name": "Error", "message": format!("cannot connect to {REDACTED_URL}"),
                    "stack": format!("Error: cannot connect to {REDACTED_URL}")})
        )
    );
}

#[actix_web::test]
async fn panic_is_a_masked_500_and_the_service_keeps_serving() {
    for dev in [false, true] {
        let (app, logger) = app(dev);
        let svc = service!(app);
        let res = test::call_service(&svc, TestRequest::get().uri("/panic").to_request()).await;
        assert_eq!(res.status(), 500);
        assert_problem_headers(&res);
        let body = body_json(res).await;
        let entry = only_entry(&logger);
        let id = entry.correlation_id.to_string();
        let mut expected = json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
                                  "instance": "/panic", "correlationId": id});
        if dev {
            let msg = format!("handler exploded at {REDACTED_URL}");
            expected["detail"] = json!(msg);
            let at = format!("{}:{PANIC_LINE}:5", file!());
            expected["stack"] = json!(format!("Panic: {msg}\n    at {at}"));
            assert_eq!(
                entry.message,
                format!("[test] Unhandled error on GET /panic (correlation id {id})")
            );
        } else {
            assert_eq!(
                entry.message,
                format!(
                    "[test] Unhandled error on GET /panic (correlation id {id}): Panic: handler exploded at {REDACTED_URL}"
                )
            );
        }
        assert_eq!(body, expected);
        let res = test::call_service(&svc, TestRequest::get().uri("/ok").to_request()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(body_json(res).await, json!({"ok": true}));
    }
}

#[actix_web::test]
async fn unserializable_json_is_an_unknown_error() {
    let (app, logger) = app(false);
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/bad-json").to_request()).await;
    assert_eq!(res.status(), 500);
    let body = body_json(res).await;
    let entry = only_entry(&logger);
    assert_eq!(
        body["correlationId"],
        json!(entry.correlation_id.to_string())
    );
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
               "instance": "/bad-json", "correlationId": entry.correlation_id.to_string()})
    );
    assert_eq!(
        entry.message,
        format!(
            "[test] Unhandled error on GET /bad-json (correlation id {}): Error: Json serialize error: key must be a string",
            entry.correlation_id
        )
    );
}

#[actix_web::test]
async fn framework_errors_have_the_spec_details() {
    let (app, logger) = app(false);
    let svc = service!(app);
    let cases: Vec<(TestRequest, u16, &str, &str)> = vec![
        (
            TestRequest::get().uri("/nope?q=1"),
            404,
            "No route for GET /nope",
            "/nope",
        ),
        (
            TestRequest::patch().uri("/ok"),
            405,
            "PATCH is not allowed on /ok",
            "/ok",
        ),
        (
            TestRequest::post()
                .uri("/echo")
                .insert_header(("content-type", "application/json"))
                .set_payload("{\"a\":"),
            400,
            "Malformed JSON body",
            "/echo",
        ),
        (
            TestRequest::post()
                .uri("/echo")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
            415,
            "Unsupported content type: text/plain",
            "/echo",
        ),
        (
            TestRequest::put()
                .uri("/upload")
                .insert_header(("content-type", "multipart/form-data; boundary=xyz"))
                .set_payload("garbage without boundary"),
            400,
            "Malformed multipart body",
            "/upload",
        ),
        (
            TestRequest::get().uri(&format!(
                "/ok?{}",
                (0..1001)
                    .map(|i| format!("p{i}=1"))
                    .collect::<Vec<_>>()
                    .join("&")
            )),
            400,
            "The query string has more than 1000 parameters.",
            "/ok",
        ),
    ];
    for (req, status, detail, instance) in cases {
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status().as_u16(), status, "{detail}");
        assert_problem_headers(&res);
        let allow = res.headers().get(header::ALLOW).cloned();
        let body = body_json(res).await;
        assert_eq!(
            body,
            json!({"type": "about:blank", "title": problem_core::status_title(status), "status": status,
                   "detail": detail, "instance": instance}),
        );
        if status == 405 {
            assert_eq!(allow.unwrap(), "GET, HEAD, OPTIONS");
        } else {
            assert!(allow.is_none());
        }
    }
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri(&format!(
                "/ok?{}",
                (0..1000)
                    .map(|i| format!("p{i}=1"))
                    .collect::<Vec<_>>()
                    .join("&")
            ))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200, "exactly 1000 parameters are allowed");
    assert!(logger.entries().is_empty());
}

/// actix-web's own `web::Json<T>`: its error has no member path, so a
/// member of the wrong type is an issue on the document (`Body<T>` names
/// the member); a missing member is named from serde's message.
#[actix_web::test]
async fn web_json_member_errors_are_validation_problems() {
    #[derive(serde::Deserialize)]
    struct NewBook {
        #[allow(dead_code)]
        title: String,
    }
    async fn map(_: web::Json<HashMap<String, u8>>) -> HttpResponse {
        HttpResponse::Ok().finish()
    }
    async fn book(_: web::Json<NewBook>) -> HttpResponse {
        HttpResponse::Ok().finish()
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/map", map).post("/book", book))
        .build()
        .unwrap();
    let svc = service!(app);
    let cases = [
        (
            "/map",
            json!({"a": "x"}),
            json!({"location": "body", "name": "", "code": "invalid_value",
                   "message": "invalid type: string \"x\", expected u8"}),
        ),
        (
            "/book",
            json!({"year": 1965}),
            json!({"location": "body", "name": "/title", "code": "required",
                   "message": "missing field `title`"}),
        ),
    ];
    for (uri, body, issue) in cases {
        let req = TestRequest::post().uri(uri).set_json(body).to_request();
        let res = test::call_service(&svc, req).await;
        assert_eq!(res.status(), 400, "{uri}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": uri,
                   "issues": [issue]}),
            "{uri}"
        );
    }
}

#[actix_web::test]
async fn guards_answer_403_without_detail_or_the_guard_problem() {
    let (app, _) = app(false);
    let svc = service!(app);
    let res = test::call_service(
        &svc,
        TestRequest::delete()
            .uri("/books/7")
            .insert_header(("authorization", "Bearer editor"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Forbidden", "status": 403, "instance": "/books/7"})
    );
    let res = test::call_service(&svc, TestRequest::delete().uri("/books/7").to_request()).await;
    assert_eq!(res.status(), 401);
    assert_eq!(
        res.headers().get("www-authenticate").unwrap(),
        "Bearer realm=\"catalog\""
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Unauthorized", "status": 401, "instance": "/books/7"})
    );
    let res = test::call_service(
        &svc,
        TestRequest::delete()
            .uri("/books/7")
            .insert_header(("authorization", "Bearer admin"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn filters_adjust_the_default_response_and_catch_kinds() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(logger.clone())
        .filter::<ConflictException, _>(|_e, _ctx| HttpResponse::ImATeapot().finish())
        .filter::<ConflictException, _>(|e, ctx| {
            assert_eq!(e.name(), "ConflictException");
            with_headers(ctx.default_response(), [("X-Filtered", "conflict")])
        })
        .filter::<BadRequestException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", e.name())])
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::post().uri("/conflict").to_request()).await;
    assert_eq!(res.status(), 409, "the filter registered last runs first");
    assert_eq!(res.headers().get("x-filtered").unwrap(), "conflict");
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Conflict", "status": 409, "detail": "Duplicate", "instance": "/conflict"})
    );
    let res = test::call_service(&svc, TestRequest::post().uri("/invalid").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "ValidationException",
        "the kind handed to the filter keeps the thrown type's name"
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/invalid",
               "issues": [{"location": "body", "name": "/isbn", "code": "pattern",
                           "message": "isbn must have 10 or 13 digits"}]})
    );
    assert!(logger.entries().is_empty());
}

#[actix_web::test]
async fn filters_catch_the_route_table_answers() {
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(Arc::new(MemoryLogger::default()))
        .filter::<NotFoundException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", e.to_string())])
        })
        .filter::<MethodNotAllowedException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", e.name())])
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/nope").to_request()).await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "No route for GET /nope"
    );
    assert_problem_headers(&res);
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /nope","instance":"/nope"}"#
    );
    let res = test::call_service(&svc, TestRequest::patch().uri("/ok").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "MethodNotAllowedException"
    );
    assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PATCH is not allowed on /ok","instance":"/ok"}"#
    );
}

/// The problems the pipeline answers before routing (a host it does not
/// serve, more than 1000 query parameters, a NUL in the query) reach the
/// exception filters as a handler's do: by type and as a kind of
/// `BadRequestException` or `HttpException`.
#[actix_web::test]
async fn filters_catch_the_answers_before_routing() {
    let app = ProblemApp::builder()
        .development(false)
        .allowed_hosts(["localhost"])
        .shared_logger(Arc::new(MemoryLogger::default()))
        .filter::<HttpException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", format!("any: {e}"))])
        })
        .filter::<BadRequestException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", format!("400: {e}"))])
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let get = |uri: &str, host: &str| {
        TestRequest::get()
            .uri(uri)
            .insert_header(("Host", host))
            .to_request()
    };
    let res = test::call_service(&svc, get("/ok?x=%00", "localhost")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "400: Request validation failed"
    );
    assert_problem_headers(&res);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/ok",
               "issues": [{"location": "query", "name": "x", "code": "invalid_value",
                           "message": "`x` must not contain NUL characters (U+0000)",
                           "expected": "text without NUL characters"}]})
    );
    let many = (0..1001)
        .map(|i| format!("a{i}=1"))
        .collect::<Vec<_>>()
        .join("&");
    let res = test::call_service(&svc, get(&format!("/ok?{many}"), "localhost")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "400: The query string has more than 1000 parameters."
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "The query string has more than 1000 parameters.", "instance": "/ok"})
    );
    let res = test::call_service(&svc, get("/ok", "evil.example")).await;
    assert_eq!(res.status(), 421);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "any: This server does not serve the requested host."
    );
    assert_problem_headers(&res);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Misdirected Request", "status": 421,
               "detail": "This server does not serve the requested host.", "instance": "/ok"})
    );
}

/// A static segment is tried before a parameter in its place, whatever the
/// order the routes were added in: actix-web answers with the first
/// resource that matches, and its 405 when that resource lacks the method.
#[actix_web::test]
async fn a_static_path_is_matched_before_a_parameter_in_its_place() {
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(Arc::new(MemoryLogger::default()))
        .routes(|r| {
            r.get("/books/{id}", |id: web::Path<String>| async move {
                HttpResponse::Ok().body(format!("book {id}"))
            })
            .post("/books/search", || async {
                HttpResponse::Ok().body("searched")
            })
            .get("/{rest}*", || async { HttpResponse::Ok().body("anything") })
            .get("/books", || async { HttpResponse::Ok().body("all") })
            // A pattern that takes any text is a tail: tried last.
            .get("/files/{path:.*}", || async {
                HttpResponse::Ok().body("file path")
            })
            .get("/files/{id}", || async {
                HttpResponse::Ok().body("file id")
            })
            .get("/files/{name}/meta", || async {
                HttpResponse::Ok().body("file meta")
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let call =
        |method: Method, uri: &str| TestRequest::default().method(method).uri(uri).to_request();
    for (method, uri, status, body) in [
        (Method::POST, "/books/search", 200, "searched"),
        (Method::GET, "/books/7", 200, "book 7"),
        (Method::GET, "/books", 200, "all"),
        (Method::GET, "/authors/1", 200, "anything"),
        (Method::GET, "/files/7", 200, "file id"),
        (Method::GET, "/files/a/meta", 200, "file meta"),
        (Method::GET, "/files/a/b/c", 200, "file path"),
    ] {
        let res = test::call_service(&svc, call(method.clone(), uri)).await;
        assert_eq!(res.status(), status, "{method} {uri}");
        assert_eq!(test::read_body(res).await, body, "{method} {uri}");
    }
    // `GET /books/search` matches `GET /books/{id}`: served there, not a
    // 405 of the static path; a method no matching path has is a 405
    // listing the methods of all of them.
    let res = test::call_service(&svc, call(Method::GET, "/books/search")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "book search");
    let res = test::call_service(&svc, call(Method::PUT, "/books/search")).await;
    assert_eq!(res.status(), 405);
    assert_eq!(
        res.headers().get("allow").unwrap(),
        "POST, GET, HEAD, OPTIONS"
    );
}

/// Behind the pipeline the route table leaves its 404 and 405 documents to
/// the pipeline (told at setup, no thread-local): a middleware between them
/// sees the status with no body yet; the client gets the document, rendered
/// once, with `instance`.
#[actix_web::test]
async fn behind_the_pipeline_the_route_table_leaves_its_documents_to_it() {
    use actix_web::body::BodySize;
    use std::sync::Mutex;
    let (app, _logger) = app(false);
    let a = app.clone();
    let seen: Arc<Mutex<Vec<(u16, BodySize)>>> = Arc::default();
    let probe = seen.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap_fn(move |req, srv| {
                let probe = probe.clone();
                let fut = srv.call(req);
                async move {
                    let res = fut.await?;
                    probe
                        .lock()
                        .unwrap()
                        .push((res.status().as_u16(), res.response().body().size()));
                    Ok(res)
                }
            })
            .wrap(app.pipeline()),
    )
    .await;
    let res = test::call_service(&svc, TestRequest::get().uri("/nope").to_request()).await;
    assert_eq!(res.status(), 404);
    assert_problem_headers(&res);
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /nope","instance":"/nope"}"#
    );
    let res = test::call_service(&svc, TestRequest::patch().uri("/ok").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PATCH is not allowed on /ok","instance":"/ok"}"#
    );
    assert_eq!(
        *seen.lock().unwrap(),
        [(404, BodySize::Sized(0)), (405, BodySize::Sized(0))]
    );
}

#[actix_web::test]
async fn the_route_table_without_the_pipeline_answers_full_documents() {
    let (app, _logger) = app(false);
    let a = app.clone();
    let svc = test::init_service(App::new().configure(move |c| a.configure(c))).await;
    let res = test::call_service(&svc, TestRequest::get().uri("/nope").to_request()).await;
    assert_eq!(res.status(), 404);
    assert_problem_headers(&res);
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /nope","instance":""}"#
    );
    let res = test::call_service(&svc, TestRequest::patch().uri("/ok").to_request()).await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
    assert_eq!(
        test::read_body(res).await,
        r#"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PATCH is not allowed on /ok","instance":""}"#
    );
}

/// The line names the error the filter caught (`<Name>: <message>`).
#[actix_web::test]
async fn a_filter_that_answers_5xx_itself_is_still_logged() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(logger.clone())
        .filter::<ServiceUnavailableException, _>(|_e, _ctx| HttpResponse::BadGateway().finish())
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/unavailable").to_request()).await;
    assert_eq!(res.status(), 502);
    let entry = only_entry(&logger);
    assert_eq!(
        entry.message,
        format!(
            "[app] 502 on GET /unavailable (correlation id {}): ServiceUnavailableException: Maintenance window",
            entry.correlation_id
        )
    );
    // The path of the line is redacted as the pipeline's own lines are,
    // percent-encoded credentials included.
    logger.clear();
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/unavailable/api_key%3DSECRET9")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 502);
    let entry = only_entry(&logger);
    assert_eq!(
        entry.message,
        format!(
            "[app] 502 on GET /unavailable/api_key=*** (correlation id {}): ServiceUnavailableException: Maintenance window",
            entry.correlation_id
        )
    );
}

#[actix_web::test]
async fn draft_headers_reach_success_responses_only() {
    let (app, _) = app(false);
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/drafted").to_request()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-draft").unwrap(), "1");
    // Drafted links are added to the response's own (every value), and a
    // drafted `Vary` is merged with the response's: the draft is applied
    // after the crate's headers (versioning's `Vary`, a deprecation link)
    // and must not take them away.
    let links: Vec<_> = res.headers().get_all(header::LINK).collect();
    assert_eq!(
        links,
        [
            "<elsewhere>; rel=\"help\"",
            "</books?page=2>; rel=\"next\"",
            "</books?page=9>; rel=\"last\""
        ]
    );
    let vary: Vec<_> = res.headers().get_all(header::VARY).collect();
    assert_eq!(vary, ["Accept, Origin"]);
    // Applied once, even behind two pipelines.
    let a = app.clone();
    let nested = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline())
            .wrap(app.pipeline()),
    )
    .await;
    let res = test::call_service(&nested, TestRequest::get().uri("/drafted").to_request()).await;
    assert_eq!(res.headers().get_all(header::LINK).count(), 3);
    let res =
        test::call_service(&svc, TestRequest::get().uri("/drafted?fail=1").to_request()).await;
    assert_eq!(res.status(), 400);
    assert!(res.headers().get("x-draft").is_none());
    assert!(res.headers().get(header::LINK).is_none());
}

#[actix_web::test]
async fn sticky_headers_reach_problem_responses() {
    let app = ProblemApp::builder()
        .development(false)
        .routes(routes)
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap_fn(|req, srv| {
                let mut h = header::HeaderMap::new();
                h.insert(
                    header::HeaderName::from_static("x-api-version"),
                    header::HeaderValue::from_static("3"),
                );
                add_sticky_headers(&req, &h);
                srv.call(req)
            })
            .wrap(app.pipeline()),
    )
    .await;
    for uri in ["/unknown", "/bad-request", "/nope"] {
        let res = test::call_service(&svc, TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(res.headers().get("x-api-version").unwrap(), "3", "{uri}");
    }
}

#[actix_web::test]
async fn ten_thousand_concurrent_5xx_get_distinct_correlation_ids() {
    let (app, logger) = app(false);
    let svc = service!(app);
    let futures = (0..10_000)
        .map(|_| test::call_service(&svc, TestRequest::get().uri("/unknown").to_request()));
    let responses = futures_util::future::join_all(futures).await;
    let mut ids = std::collections::HashSet::new();
    for res in responses {
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = body_json(res).await;
        ids.insert(body["correlationId"].as_str().unwrap().to_owned());
    }
    assert_eq!(ids.len(), 10_000);
    let logged: std::collections::HashSet<String> = logger
        .entries()
        .iter()
        .map(|e| e.correlation_id.to_string())
        .collect();
    assert_eq!(logged, ids);
}

#[test]
fn configuration_errors_at_build() {
    let dup = ProblemApp::builder()
        .routes(|r| r.get("/books", ok).get("/books", ok))
        .build()
        .unwrap_err();
    assert_eq!(
        dup,
        HttpConfigError::DuplicateRoute {
            method: "GET".into(),
            path: "/books".into()
        }
    );
    let dup = ProblemApp::builder()
        .routes(|r| {
            r.get("/books/:id", ok)
                .route(Method::GET, "/books/{id}", ok)
        })
        .build()
        .unwrap_err();
    assert_eq!(
        dup.to_string(),
        "duplicate route: GET /books/{id} is registered twice"
    );
    let ok_same_path = ProblemApp::builder()
        .routes(|r| r.get("/books", ok).post("/books", ok))
        .build();
    assert!(ok_same_path.is_ok());
    // Paths that differ only in their parameters' names match the same
    // requests: the same method is a duplicate, another must name them alike.
    let dup = ProblemApp::builder()
        .routes(|r| r.get("/books/{id}", ok).get("/books/:isbn", ok))
        .build()
        .unwrap_err();
    assert_eq!(
        dup.to_string(),
        "duplicate route: GET /books/{isbn} is registered twice"
    );
    let renamed = ProblemApp::builder()
        .routes(|r| {
            r.get("/books/{id:\\d+}/cover", ok)
                .put("/books/{book:\\d+}/cover", ok)
        })
        .build()
        .unwrap_err();
    assert_eq!(
        renamed.to_string(),
        "invalid route: PUT /books/{book:\\d+}/cover matches the same requests as the route /books/{id:\\d+}/cover with other parameter names: write its path as `/books/{id:\\d+}/cover`"
    );
    // Another pattern is another path.
    let patterns = ProblemApp::builder()
        .routes(|r| r.get("/books/{id:\\d+}", ok).post("/books/{id}", ok))
        .build();
    assert!(patterns.is_ok());
    // A guard with no route before it no longer compiles (`guarded` only
    // follows a route): tests/ui/routing/guard_first.rs in the `tests` crate.
    let path = ProblemApp::builder()
        .routes(|r| r.get("books", ok))
        .build()
        .unwrap_err();
    assert_eq!(
        path.to_string(),
        "invalid route: path `books` must start with `/`"
    );
    // actix-router panics on these when the services are built, in every
    // worker; `build()` refuses them instead.
    for (pattern, reason) in [
        (
            "/books/{id",
            r#"pattern "{id" contains malformed dynamic segment"#,
        ),
        (
            "/books/{id:[}",
            r#"Wrong path pattern: "/books/{id:[}" non-empty character class has no closing bracket"#,
        ),
    ] {
        let err = ProblemApp::builder()
            .routes(|r| r.get(pattern, ok))
            .build()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "invalid route: path `{pattern}` is not a valid actix-web resource pattern: {reason}"
            )
        );
    }
    let host = ProblemApp::builder()
        .allowed_hosts(["http://x"])
        .build()
        .unwrap_err();
    assert_eq!(
        host.to_string(),
        "invalid listen option: allowed host `http://x` must be a host name or address, optionally with `:port`"
    );
    let size = ProblemApp::builder()
        .max_request_body_size(0)
        .build()
        .unwrap_err();
    assert_eq!(
        size.to_string(),
        "invalid listen option: max_request_body_size must be at least 1 byte"
    );
}

#[test]
fn http_exception_status_range() {
    assert!(HttpException::new(399).is_err());
    assert!(HttpException::new(600).is_err());
    assert!(HttpException::new(400).is_ok());
    assert!(HttpException::new(599).is_ok());
}

async fn leaky() -> Result<HttpResponse, HttpException> {
    Err(HttpException::new(502)
        .unwrap()
        .with_detail(format!("upstream {SECRET_URL} failed"))
        .with_extension("dsn", SECRET_URL)
        // Named like a credential, at the top and nested: `"***"` both.
        .with_extension("password", "hunter2")
        .with_extension("nested", json!({"password": "hunter2", "url": SECRET_URL}))
        .with_cause(std::io::Error::other(format!("cause {SECRET_URL}"))))
}

#[actix_web::test]
async fn credentials_never_reach_a_log_or_a_production_body() {
    for dev in [false, true] {
        let logger = Arc::new(MemoryLogger::default());
        let app = ProblemApp::builder()
            .tag("test")
            .development(dev)
            .shared_logger(logger.clone())
            .routes(|r| {
                r.get("/leaky", leaky)
                    .get("/unknown", unknown)
                    .get("/panic", panics)
            })
            .build()
            .unwrap();
        let svc = service!(app);
        for (uri, status) in [("/leaky", 502), ("/unknown", 500), ("/panic", 500)] {
            let res = test::call_service(&svc, TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(res.status(), status, "{uri}");
            let bytes = test::read_body(res).await;
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains("s3cret") && !text.contains("hunter2"),
                "dev={dev} {uri}: {text}"
            );
            if !dev {
                let body: Value = serde_json::from_slice(&bytes).unwrap();
                let id = body["correlationId"].as_str().unwrap_or_default();
                assert_eq!(
                    body,
                    json!({"type": "about:blank",
                           "title": problem_core::status_title(status),
                           "status": status, "instance": uri, "correlationId": id}),
                    "{text}"
                );
            }
        }
        let entries = logger.entries();
        assert_eq!(entries.len(), 3);
        for e in entries {
            let dump = format!("{e:?}");
            assert!(
                !dump.contains("s3cret") && !dump.contains("hunter2"),
                "{dump}"
            );
            assert!(
                !dump.contains("cause postgres"),
                "a 5xx problem's cause is not logged: {dump}"
            );
        }
    }
}

#[actix_web::test]
async fn development_body_of_a_5xx_problem_is_redacted() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("test")
        .development(true)
        .shared_logger(logger.clone())
        .routes(|r| r.get("/leaky", leaky))
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/leaky").to_request()).await;
    let body = body_json(res).await;
    let id = only_entry(&logger).correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Bad Gateway", "status": 502,
               "detail": format!("upstream {REDACTED_URL} failed"), "instance": "/leaky",
               "correlationId": id, "dsn": REDACTED_URL, "password": "***",
               "nested": {"password": "***", "url": REDACTED_URL}})
    );
}

#[derive(Debug)]
struct DatabaseError {
    source: std::io::Error,
}

impl std::fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "query failed on {SECRET_URL}")
    }
}

impl std::error::Error for DatabaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

async fn typed_unknown() -> Result<HttpResponse, problem_core::pipeline::UnknownError> {
    Err(DatabaseError {
        source: std::io::Error::other("connection reset"),
    })?
}

#[actix_web::test]
async fn unknown_error_keeps_its_name_and_chain() {
    for dev in [false, true] {
        let logger = Arc::new(MemoryLogger::default());
        let app = ProblemApp::builder()
            .tag("test")
            .development(dev)
            .shared_logger(logger.clone())
            .routes(|r| r.get("/db", typed_unknown))
            .build()
            .unwrap();
        let svc = service!(app);
        let res = test::call_service(&svc, TestRequest::get().uri("/db").to_request()).await;
        assert_eq!(res.status(), 500);
        let body = body_json(res).await;
        let entry = only_entry(&logger);
        let id = entry.correlation_id.to_string();
        let message = format!("query failed on {REDACTED_URL}");
        if dev {
            let stack = format!("DatabaseError: {message}\n    caused by: connection reset");
            assert_eq!(
                body,
                json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
                       "detail": message, "instance": "/db", "correlationId": id, "stack": stack})
            );
            assert_eq!(
                entry.error,
                Some(json!({"name": "DatabaseError", "message": message, "stack": stack}))
            );
        } else {
            assert_eq!(
                entry.message,
                format!(
                    "[test] Unhandled error on GET /db (correlation id {id}): DatabaseError: {message}"
                )
            );
        }
    }
}

#[actix_web::test]
async fn request_context_reads_the_body_with_its_extractor() {
    use problem_core::pipeline::Body;
    async fn create(ctx: RequestContext<Body<Value>>) -> HttpResponse {
        HttpResponse::Ok()
            .json(json!({"id": ctx.param("id"), "body": ctx.body().0, "q": ctx.query()}))
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/b/:id", create))
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(
        &svc,
        TestRequest::post()
            .uri("/b/7?x=1&x=2")
            .set_json(json!({"a": 1}))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        body_json(res).await,
        json!({"id": "7", "body": {"a": 1}, "q": [["x", "1"], ["x", "2"]]})
    );
    let res = test::call_service(
        &svc,
        TestRequest::post()
            .uri("/b/7")
            .insert_header(("content-type", "application/json"))
            .set_payload("{")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(body_json(res).await["detail"], json!("Malformed JSON body"));
}

#[actix_web::test]
async fn an_error_returned_by_middleware_is_a_problem() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("test")
        .development(false)
        .shared_logger(logger.clone())
        .routes(routes)
        .build()
        .unwrap();
    let a = app.clone();
    let svc = test::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap_fn(|req, srv| {
                let fail = req.path() == "/ok" && req.query_string() == "mw";
                let fut = srv.call(req);
                async move {
                    if fail {
                        return Err(ServiceUnavailableException::new()
                            .with_detail("down")
                            .with_header(("Retry-After", "5"))
                            .into());
                    }
                    fut.await
                }
            })
            .wrap(app.pipeline()),
    )
    .await;
    let Err(err) =
        test::try_call_service(&svc, TestRequest::get().uri("/ok?mw").to_request()).await
    else {
        panic!("the pipeline hands actix-web the rendered problem as an error")
    };
    let res = err.error_response();
    assert_eq!(res.status(), 503);
    assert_eq!(res.headers().get("retry-after").unwrap(), "5");
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/problem+json; charset=utf-8"
    );
    let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    let id = only_entry(&logger).correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
               "instance": "/ok", "correlationId": id})
    );
}

/// The `invalid_value` issue of a parameter `name` holding U+0000, shown
/// in its message as `shown` (a NUL as `\0`).
fn nul_issue(location: &str, name: &str, shown: &str) -> Value {
    json!({"location": location, "name": name, "code": "invalid_value",
           "message": format!("`{shown}` must not contain NUL characters (U+0000)"),
           "expected": "text without NUL characters"})
}

/// A path parameter holding U+0000 (decoded from `%00`) is a 400
/// `invalid_value` issue on that parameter, before the handler runs
/// (hostile-input rule "NUL characters"); one without is routed as usual.
#[actix_web::test]
async fn nul_in_a_path_parameter_is_400() {
    let called = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = called.clone();
    let app = ProblemApp::builder()
        .development(false)
        .routes(move |r| {
            r.get(
                "/shelves/{shelf}/items/{name}",
                move |path: web::Path<(String, String)>| {
                    seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let (shelf, name) = path.into_inner();
                    async move { HttpResponse::Ok().body(format!("{shelf}/{name}")) }
                },
            )
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/shelves/a%00/items/b%00c")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/shelves/a%00/items/b%00c",
               "issues": [nul_issue("path", "shelf", "shelf"), nul_issue("path", "name", "name")]})
    );
    assert_eq!(called.load(std::sync::atomic::Ordering::SeqCst), 0);
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/shelves/a/items/b%20c")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "a/b c");
}

/// A query parameter holding U+0000 (`%00`, in its name or value) is a 400
/// `invalid_value` issue on it on every route, one that never reads its
/// query included, before the handler runs (hostile-input rule "NUL
/// characters"); the text `%00` itself (`%2500`) is no NUL.
#[actix_web::test]
async fn nul_in_any_query_parameter_is_400_on_every_route() {
    let called = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = called.clone();
    let app = ProblemApp::builder()
        .development(false)
        .routes(move |r| {
            r.get("/health", move || {
                seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                async { HttpResponse::Ok().body("ok") }
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(
        &svc,
        TestRequest::get()
            .uri("/health?a=1&x=b%00&%00y=2&x=c%00")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/problem+json; charset=utf-8"
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/health",
               "issues": [nul_issue("query", "x", "x"), nul_issue("query", "\0y", "\\0y")]})
    );
    assert_eq!(called.load(std::sync::atomic::Ordering::SeqCst), 0);
    for uri in [
        "/health?x=%2500",
        "/health?x=100%25",
        "/health?x=%0",
        "/health?x=%",
    ] {
        let res = test::call_service(&svc, TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(res.status(), 200, "{uri}");
    }
    assert_eq!(called.load(std::sync::atomic::Ordering::SeqCst), 4);
}

/// A recurring problem of the application (a user "subclass").
#[derive(Debug, problem_core::Problem)]
#[problem(
    status = 402,
    title = "Payment Required",
    type = "/problems/quota",
    detail = "Quota of {plan} used up"
)]
struct QuotaUsedUp {
    plan: String,
}

/// Every problem is a kind of `HttpException` (the spec's class model): a
/// filter for it receives the built-ins, `ValidationException`, derived
/// types and the framework's own problems, each as an `HttpException` with
/// the same members; an unknown error is not a problem and passes by.
#[actix_web::test]
async fn a_filter_for_http_exception_catches_every_problem() {
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(Arc::new(MemoryLogger::default()))
        .filter::<HttpException, _>(|e, _ctx| {
            let members = serde_json::to_string(&e.extensions().unwrap()).unwrap();
            HttpResponse::ImATeapot().body(format!(
                "{} {} {} {} {members}",
                e.status().as_u16(),
                e.problem_type(),
                e.title(),
                e
            ))
        })
        .routes(|r| {
            routes(r).get("/quota", || async {
                Err::<HttpResponse, _>(QuotaUsedUp {
                    plan: "free".into(),
                })
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    for (req, want) in [
        (
            TestRequest::get().uri("/bad-request"),
            r#"400 about:blank Bad Request Title must not be empty {"field":"title"}"#,
        ),
        (
            TestRequest::post().uri("/conflict"),
            "409 about:blank Conflict Duplicate {}",
        ),
        (
            TestRequest::get().uri("/quota"),
            r#"402 /problems/quota Payment Required Quota of free used up {"plan":"free"}"#,
        ),
        (
            TestRequest::get().uri("/nope"),
            "404 about:blank Not Found No route for GET /nope {}",
        ),
        (
            TestRequest::post()
                .uri("/echo")
                .insert_header(("content-type", "application/json"))
                .set_payload("{\"a\":"),
            "400 about:blank Bad Request Malformed JSON body {}",
        ),
        (
            TestRequest::post().uri("/invalid"),
            r#"400 about:blank Bad Request Request validation failed {"issues":[{"location":"body","name":"/isbn","code":"pattern","message":"isbn must have 10 or 13 digits"}]}"#,
        ),
    ] {
        let res = test::call_service(&svc, req.to_request()).await;
        assert_eq!(res.status(), 418, "{want}");
        assert_eq!(test::read_body(res).await, want);
    }
    let res = test::call_service(&svc, TestRequest::get().uri("/unknown").to_request()).await;
    assert_eq!(res.status(), 500, "not a problem: not caught");
}

/// The spec's `defaultErrorResponse(error, ctx, logger, development)`
/// called on what a filter for a base type holds builds "the response the
/// service would have sent": a `ValidationException` caught by a
/// `BadRequestException` filter keeps its `issues`, and a 503 caught by an
/// `HttpException` filter is logged under its own name. The filter's
/// `name()` is the thrown type's, as the spec's subclass instance's is.
#[actix_web::test]
async fn default_error_response_of_a_caught_kind_is_the_thrown_error_s() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .development(false)
        .tag("test")
        .shared_logger(logger.clone())
        .filter::<HttpException, _>(|e, ctx| {
            let res = problem_core::pipeline::default_error_response(
                e,
                ctx,
                ctx.logger(),
                ctx.development(),
            );
            with_headers(res, [("X-Caught", e.name())])
        })
        .filter::<BadRequestException, _>(|e, ctx| {
            let res = problem_core::pipeline::default_error_response(
                e,
                ctx,
                ctx.logger(),
                ctx.development(),
            );
            with_headers(res, [("X-Caught", e.name())])
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::post().uri("/invalid").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "ValidationException"
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/invalid",
               "issues": [{"location": "body", "name": "/isbn", "code": "pattern",
                           "message": "isbn must have 10 or 13 digits"}]})
    );
    let res = test::call_service(&svc, TestRequest::get().uri("/bad-request").to_request()).await;
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "BadRequestException"
    );
    assert!(logger.entries().is_empty());

    let res = test::call_service(&svc, TestRequest::get().uri("/unavailable").to_request()).await;
    assert_eq!(res.status(), 503);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "ServiceUnavailableException"
    );
    assert_eq!(res.headers().get("retry-after").unwrap(), "120");
    let body = body_json(res).await;
    let entry = only_entry(&logger);
    let id = entry.correlation_id.to_string();
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
               "instance": "/unavailable", "correlationId": id})
    );
    assert_eq!(
        entry.message,
        format!(
            "[test] 503 on GET /unavailable (correlation id {id}): ServiceUnavailableException: Maintenance window"
        )
    );
}

/// `default_error_response` of another problem than the one caught
/// renders that other problem, in a filter for a base type too.
#[actix_web::test]
async fn default_error_response_of_another_problem_renders_it() {
    let app = ProblemApp::builder()
        .development(false)
        .filter::<BadRequestException, _>(|_e, ctx| {
            let other = NotFoundException::new().with_detail("Replaced");
            problem_core::pipeline::default_error_response(
                &other,
                ctx,
                ctx.logger(),
                ctx.development(),
            )
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::post().uri("/invalid").to_request()).await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Not Found", "status": 404,
               "detail": "Replaced", "instance": "/invalid"})
    );
}

/// A filter for `BadRequestException` catches the 400s the framework
/// raises, not only those a handler returns.
#[actix_web::test]
async fn a_filter_catches_the_framework_s_own_problems() {
    let app = ProblemApp::builder()
        .development(false)
        .filter::<BadRequestException, _>(|e, ctx| {
            with_headers(ctx.default_response(), [("X-Caught", e.to_string())])
        })
        .routes(routes)
        .build()
        .unwrap();
    let svc = service!(app);
    let req = TestRequest::post()
        .uri("/echo")
        .insert_header(("content-type", "application/json"))
        .set_payload("{\"a\":");
    let res = test::call_service(&svc, req.to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("x-caught").unwrap(),
        "Malformed JSON body"
    );
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Malformed JSON body", "instance": "/echo"})
    );
}

/// A path parameter that does not deserialize (`web::Path<i64>` given
/// `abc`) is a 400 issue on that parameter, not a masked 500: actix-web
/// wraps the `PathError` in a 404 `InternalError`, which the pipeline reads
/// as the same path issue.
#[actix_web::test]
async fn a_typed_path_parameter_that_does_not_parse_is_400() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .development(false)
        .shared_logger(logger.clone())
        .routes(|r| {
            r.get("/orders/{id}", |id: web::Path<i64>| async move {
                HttpResponse::Ok().body(id.into_inner().to_string())
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/orders/abc").to_request()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "Request validation failed", "instance": "/orders/abc",
               "issues": [{"location": "path", "name": "id", "code": "invalid_value",
                           "message": "can not parse \"abc\" to a i64"}]})
    );
    assert!(logger.entries().is_empty(), "a 4xx is not logged");
    let res = test::call_service(&svc, TestRequest::get().uri("/orders/7").to_request()).await;
    assert_eq!(test::read_body(res).await, "7");
}

/// A body with one member, `title`.
#[derive(serde::Deserialize)]
struct TitleBody {
    title: String,
}

/// `POST /b`: reads a [`TitleBody`] and answers its title.
fn title_app() -> ProblemApp {
    async fn create(body: problem_core::pipeline::Body<TitleBody>) -> HttpResponse {
        HttpResponse::Ok().body(body.0.title)
    }
    ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/b", create))
        .build()
        .unwrap()
}

/// A JSON body is UTF-8 (RFC 8259 §8.1): invalid UTF-8 anywhere, in a
/// member read or one skipped, is `Malformed JSON body`, never a field
/// error. A lone surrogate escape is valid JSON grammar that no Rust string
/// holds: a value error on its member, saying so. A form field that is not
/// UTF-8 once percent-decoded is a value error too (`form_urlencoded` alone
/// would store U+FFFD in its place).
#[actix_web::test]
async fn bodies_are_utf_8_and_lone_surrogates_are_value_errors() {
    let svc = service!(title_app());
    let post = |body: &'static [u8]| {
        TestRequest::post()
            .uri("/b")
            .insert_header(("content-type", "application/json"))
            .set_payload(body)
            .to_request()
    };
    let malformed = json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                           "detail": "Malformed JSON body", "instance": "/b"});
    for body in [
        &b"{\"title\": \"\xff\xfe\"}"[..],
        b"{\"title\": \"caf\xe9\"}",
        b"{\"title\": \"\xc0\xaf\"}",
        b"{\"title\": \"\xed\xa0\x80\"}",
        b"{\"title\": \"ok\", \"zz\": \"\xff\"}",
        b"{\"title\": 1, \"zz\": \"\xff\"}",
    ] {
        let res = test::call_service(&svc, post(body)).await;
        assert_eq!(res.status(), 400, "{body:?}");
        assert_eq!(body_json(res).await, malformed, "{body:?}");
    }
    for body in [
        &b"{\"title\": \"\\ud800\"}"[..],
        b"{\"title\": \"x\\udc00\"}",
    ] {
        let res = test::call_service(&svc, post(body)).await;
        assert_eq!(res.status(), 400, "{body:?}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/b",
                   "issues": [{"location": "body", "name": "/title", "code": "invalid_value",
                               "message": "invalid value: a lone surrogate escape, expected a string of Unicode scalar values"}]}),
            "{body:?}"
        );
    }
    // A form is decoded to the same text or refused, never given U+FFFD.
    let form = |body: &'static [u8]| {
        TestRequest::post()
            .uri("/b")
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
            .to_request()
    };
    for (body, name) in [
        (&b"title=%ff%c0%af"[..], "/title"),
        (b"title=ok&a+b%ff=1", "/a b\u{FFFD}"),
        (b"title=caf\xe9", "/title"),
    ] {
        let res = test::call_service(&svc, form(body)).await;
        assert_eq!(res.status(), 400, "{body:?}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/b",
                   "issues": [{"location": "body", "name": name, "code": "invalid_value",
                               "message": "invalid value: bytes that are not UTF-8, expected a UTF-8 string"}]}),
            "{body:?}"
        );
    }
    let res = test::call_service(&svc, form(b"title=caf%C3%A9+%2B1")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "café +1");
    let res = test::call_service(&svc, post(b"{\"title\": \"\\ud83d\\ude00 caf\xc3\xa9\"}")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "\u{1F600} café");
}

/// `Content-Type` is read as RFC 9110 §8.3.1 writes it: whitespace
/// around `;` and empty parameters are allowed. A type the body extractors
/// do not read is still a 415 naming the value as sent.
#[actix_web::test]
async fn content_types_allow_whitespace_around_semicolons() {
    let svc = service!(title_app());
    let cases = [
        ("application/json ; charset=utf-8", r#"{"title": "Dune"}"#),
        ("application/json;\tcharset=utf-8", r#"{"title": "Dune"}"#),
        ("application/json;;charset=utf-8;", r#"{"title": "Dune"}"#),
        (
            "Application/JSON \t; charset=\"utf-8\"",
            r#"{"title": "Dune"}"#,
        ),
        (
            "application/x-www-form-urlencoded ;charset=UTF-8",
            "title=Dune",
        ),
    ];
    for (content_type, body) in cases {
        let req = TestRequest::post()
            .uri("/b")
            .insert_header(("content-type", content_type))
            .set_payload(body)
            .to_request();
        let res = test::call_service(&svc, req).await;
        assert_eq!(res.status(), 200, "{content_type}");
        assert_eq!(test::read_body(res).await, "Dune", "{content_type}");
    }
    let req = TestRequest::post()
        .uri("/b")
        .insert_header(("content-type", "text/plain ; charset=utf-8"))
        .set_payload("Dune")
        .to_request();
    let res = test::call_service(&svc, req).await;
    assert_eq!(res.status(), 415);
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Unsupported Media Type", "status": 415,
               "detail": "Unsupported content type: text/plain ; charset=utf-8", "instance": "/b"})
    );
    // `Content-Type` is a singleton field: two field lines are their
    // combined value (RFC 9110 §5.3), no media type, in either order and
    // when they are equal.
    for lines in [
        ["application/json", "text/plain"],
        ["text/plain", "application/json"],
        ["application/json", "application/json"],
    ] {
        let req = TestRequest::post()
            .uri("/b")
            .append_header(("content-type", lines[0]))
            .append_header(("content-type", lines[1]))
            .set_payload(r#"{"title": "Dune"}"#)
            .to_request();
        let res = test::call_service(&svc, req).await;
        assert_eq!(res.status(), 415, "{lines:?}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Unsupported Media Type", "status": 415,
                   "detail": format!("Unsupported content type: {}, {}", lines[0], lines[1]), "instance": "/b"})
        );
    }
}

/// A body under a content coding is not decoded: any coding but
/// `identity` is a 415 naming it, with `Accept-Encoding: identity`
/// (RFC 9110 §8.4, §12.5.3), before the body is read. A `Content-Type`
/// with bytes beyond ASCII inside a quoted parameter is still its type;
/// elsewhere it is a 415 naming the value as sent.
#[actix_web::test]
async fn content_codings_are_415_and_obs_text_is_read() {
    let svc = service!(title_app());
    let send = |content_type: &[u8], encoding: Option<&str>| {
        let mut req = TestRequest::post()
            .uri("/b")
            .insert_header((
                "content-type",
                actix_web::http::header::HeaderValue::from_bytes(content_type).unwrap(),
            ))
            .set_payload(r#"{"title": "Dune"}"#);
        if let Some(encoding) = encoding {
            req = req.insert_header(("content-encoding", encoding));
        }
        req.to_request()
    };
    for encoding in ["gzip", "x-unknown", "identity, gzip", "br"] {
        let res = test::call_service(&svc, send(b"application/json", Some(encoding))).await;
        assert_eq!(res.status(), 415, "{encoding}");
        assert_eq!(res.headers().get("accept-encoding").unwrap(), "identity");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Unsupported Media Type", "status": 415,
                   "detail": format!("Unsupported content encoding: {encoding}"), "instance": "/b"}),
            "{encoding}"
        );
    }
    for encoding in ["identity", "IDENTITY", "identity, ", ""] {
        let res = test::call_service(&svc, send(b"application/json", Some(encoding))).await;
        assert_eq!(res.status(), 200, "{encoding:?}");
        assert_eq!(test::read_body(res).await, "Dune");
    }
    let res = test::call_service(&svc, send(b"application/json; x=\"\xe9\"", None)).await;
    assert_eq!(res.status(), 200);
    assert_eq!(test::read_body(res).await, "Dune");
    for (sent, shown) in [
        (&b"text/pl\xe9in"[..], "text/pl\u{fffd}in"),
        (&b"application/json\xe9"[..], "application/json\u{fffd}"),
    ] {
        let res = test::call_service(&svc, send(sent, None)).await;
        assert_eq!(res.status(), 415, "{shown}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Unsupported Media Type", "status": 415,
                   "detail": format!("Unsupported content type: {shown}"), "instance": "/b"})
        );
    }
}

/// A member read as an enum with a variant it does not have is one issue,
/// and the members after it are still read: the first variant serde names
/// stands in for it (no generic stand-in reads as an enum).
#[actix_web::test]
async fn a_wrong_enum_variant_does_not_hide_the_other_member_errors() {
    use problem_core::pipeline::Body;
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code, reason = "only deserialized")]
    enum Genre {
        Fiction,
        Poetry,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code, reason = "only deserialized")]
    struct Shelf {
        genre: Genre,
        tags: Vec<Genre>,
        count: u8,
        author: String,
    }
    async fn create(_: Body<Shelf>) -> HttpResponse {
        HttpResponse::Ok().finish()
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/s", create))
        .build()
        .unwrap();
    let svc = service!(app);
    let req = TestRequest::post()
        .uri("/s")
        .insert_header(("content-type", "application/json"))
        .set_payload(r#"{"genre": "jazz", "tags": ["poetry", "opera"], "count": "x"}"#)
        .to_request();
    let res = test::call_service(&svc, req).await;
    assert_eq!(res.status(), 400);
    let issue = |name: &str, code: &str, message: &str| json!({"location": "body", "name": name, "code": code, "message": message});
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
        "detail": "Request validation failed", "instance": "/s",
        "issues": [
            issue("/genre", "invalid_value", "unknown variant `jazz`, expected `fiction` or `poetry`"),
            issue("/tags/1", "invalid_value", "unknown variant `opera`, expected `fiction` or `poetry`"),
            issue("/count", "invalid_value", "invalid type: string \"x\", expected u8"),
            issue("/author", "required", "missing field `author`"),
        ]})
    );
}

/// Every field error of a form body is an issue, as in a JSON body:
/// missing fields, values that do not parse, an enum's unknown variant and
/// unknown fields (`deny_unknown_fields`), each at `/<field>`.
#[actix_web::test]
async fn every_field_error_of_a_form_body_is_an_issue() {
    use problem_core::pipeline::Body;
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Genre {
        Fiction,
        Poetry,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code, reason = "only deserialized")]
    struct Book {
        title: String,
        year: i32,
        price: f64,
        in_stock: bool,
        genre: Genre,
    }
    async fn create(book: Body<Book>) -> HttpResponse {
        HttpResponse::Ok().body(book.0.year.to_string())
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/f", create))
        .build()
        .unwrap();
    let svc = service!(app);
    let send = |body: &'static str| {
        TestRequest::post()
            .uri("/f")
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
            .to_request()
    };
    let issue = |name: &str, code: &str, message: &str| json!({"location": "body", "name": name, "code": code, "message": message});
    for (body, issues) in [
        (
            "title=x",
            vec![
                issue("/year", "required", "missing field `year`"),
                issue("/price", "required", "missing field `price`"),
                issue("/in_stock", "required", "missing field `in_stock`"),
                issue("/genre", "required", "missing field `genre`"),
            ],
        ),
        (
            "title=x&year=1999.5&price=cheap&in_stock=yes&genre=jazz&colour=red",
            vec![
                issue("/year", "invalid_value", "invalid digit found in string"),
                issue("/price", "invalid_value", "invalid float literal"),
                issue(
                    "/in_stock",
                    "invalid_value",
                    "provided string was not `true` or `false`",
                ),
                issue(
                    "/genre",
                    "invalid_value",
                    "unknown variant `jazz`, expected `fiction` or `poetry`",
                ),
                issue(
                    "/colour",
                    "unknown_field",
                    "unknown field `colour`, expected one of `title`, `year`, `price`, `in_stock`, `genre`",
                ),
            ],
        ),
    ] {
        let res = test::call_service(&svc, send(body)).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/f", "issues": issues}),
            "{body}"
        );
    }
    let res = test::call_service(
        &svc,
        send("title=x&year=1999&price=2.5&in_stock=true&genre=poetry"),
    )
    .await;
    assert_eq!(res.status(), 200);
}

/// Every member error of a JSON body is an issue, not only the first
/// (spec, "Schema validation failed": the list of issues): missing members,
/// members of the wrong type and unknown ones, at every depth, in the order
/// they are read; at most 20. An integer member takes a number with a zero
/// fraction (`2000.0`, `2e3`, `-0`), as JSON Schema's `integer` does.
#[actix_web::test]
async fn every_member_error_of_a_json_body_is_an_issue() {
    use problem_core::pipeline::Body;
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code, reason = "only deserialized")]
    struct Author {
        name: String,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code, reason = "only deserialized")]
    struct Book {
        title: String,
        year: i32,
        price: f64,
        tags: Vec<String>,
        author: Author,
    }
    #[derive(serde::Deserialize)]
    struct Numbers {
        nums: Vec<i64>,
    }
    async fn create(book: Body<Book>) -> HttpResponse {
        HttpResponse::Ok().body(book.0.year.to_string())
    }
    async fn numbers(n: Body<Numbers>) -> HttpResponse {
        HttpResponse::Ok().body(format!("{:?}", n.0.nums))
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/b", create).post("/n", numbers))
        .build()
        .unwrap();
    let svc = service!(app);
    let send = |path: &'static str, body: String| {
        TestRequest::post()
            .uri(path)
            .insert_header(("content-type", "application/json"))
            .set_payload(body)
            .to_request()
    };
    let issue = |name: &str, code: &str, message: &str| json!({"location": "body", "name": name, "code": code, "message": message});
    const NUL_MESSAGE: &str = "invalid value: a string with a NUL character, expected a string without NUL characters (U+0000)";
    let cases = [
        (
            "{}".to_owned(),
            vec![
                issue("/title", "required", "missing field `title`"),
                issue("/year", "required", "missing field `year`"),
                issue("/price", "required", "missing field `price`"),
                issue("/tags", "required", "missing field `tags`"),
                issue("/author", "required", "missing field `author`"),
            ],
        ),
        (
            r#"{"title": 1, "year": "x", "price": [], "tags": ["a", 2], "author": {"name": null, "age": 3}}"#.to_owned(),
            vec![
                issue("/title", "invalid_value", "invalid type: integer `1`, expected a string"),
                issue("/year", "invalid_value", "invalid type: string \"x\", expected i32"),
                issue("/price", "invalid_value", "invalid type: sequence, expected f64"),
                issue("/tags/1", "invalid_value", "invalid type: integer `2`, expected a string"),
                issue("/author/name", "invalid_value", "invalid type: null, expected a string"),
                issue("/author/age", "unknown_field", "unknown field `age`, expected `name`"),
            ],
        ),
        (
            r#"{"title": "a", "year": 2000.5, "price": 1, "tags": [], "author": {"name": "b"}}"#.to_owned(),
            vec![issue("/year", "invalid_value", "invalid type: floating point `2000.5`, expected i32")],
        ),
        (
            r#"{"title": "a", "ti\u0000tle": "b", "year": 1, "price": 1, "tags": [], "author": {"name": "b"}}"#.to_owned(),
            vec![issue("/ti\u{0}tle", "invalid_value", NUL_MESSAGE)],
        ),
        // A member `Book` ignores is read through and checked like the
        // others: a NUL in it, at any depth, is the issue on that member.
        (
            r#"{"title": "a", "extra": {"deep": [1, "x\u0000"]}, "year": 1, "price": 1, "tags": [], "author": {"name": "b"}}"#.to_owned(),
            vec![issue("/extra/deep/1", "invalid_value", NUL_MESSAGE)],
        ),
        (
            r#"{"title": "a", "extra": 1e999, "year": 1, "price": 1, "tags": [], "author": {"name": "b"}}"#.to_owned(),
            vec![issue("/extra", "invalid_value", "invalid value: a number out of range, expected a finite number")],
        ),
        // A member whose name holds U+0000 is named (not the object holding
        // it), and read again without it, so the issues after it are found.
        (
            r#"{"title": "a", "ti\u0000tle": "b", "year": "x", "price": 1, "tags": [], "author": {"na\u0000me": "b"}}"#.to_owned(),
            vec![
                issue("/ti\u{0}tle", "invalid_value", NUL_MESSAGE),
                issue("/author/na\u{0}me", "invalid_value", NUL_MESSAGE),
                issue("/author/name", "required", "missing field `name`"),
                issue("/year", "invalid_value", "invalid type: string \"x\", expected i32"),
            ],
        ),
    ];
    for (body, issues) in cases {
        let res = test::call_service(&svc, send("/b", body.clone())).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/b",
                   "issues": issues}),
            "{body}"
        );
    }
    // At most 20 issues.
    let strings = vec!["\"x\""; 25].join(",");
    let res = test::call_service(&svc, send("/n", format!(r#"{{"nums": [{strings}]}}"#))).await;
    assert_eq!(res.status(), 400);
    let expected: Vec<_> = (0..20)
        .map(|i| {
            issue(
                &format!("/nums/{i}"),
                "invalid_value",
                "invalid type: string \"x\", expected i64",
            )
        })
        .collect();
    assert_eq!(body_json(res).await["issues"], json!(expected));
    // Integers written with a zero fraction are integers.
    for (written, read) in [
        ("2000.0", "2000"),
        ("2e3", "2000"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("1e0", "1"),
    ] {
        let body = format!(
            r#"{{"title": "a", "year": {written}, "price": 1, "tags": [], "author": {{"name": "b"}}}}"#
        );
        let res = test::call_service(&svc, send("/b", body)).await;
        assert_eq!(res.status(), 200, "{written}");
        assert_eq!(test::read_body(res).await, read, "{written}");
    }
    let res = test::call_service(
        &svc,
        send(
            "/n",
            r#"{"nums": [9.223372036854776e18, -9.223372036854776e18]}"#.into(),
        ),
    )
    .await;
    assert_eq!(res.status(), 400, "2^63 is not an i64");
    let res = test::call_service(&svc, send("/n", r#"{"nums": [4.5e15, -1e2]}"#.into())).await;
    assert_eq!(test::read_body(res).await, "[4500000000000000, -100]");
    // Beyond 2^53 a float is not taken for an integer: the number written
    // may not be the one read.
    let res =
        test::call_service(&svc, send("/n", r#"{"nums": [9007199254740993.0]}"#.into())).await;
    assert_eq!(
        body_json(res).await["issues"],
        json!([issue(
            "/nums/0",
            "invalid_value",
            "invalid type: floating point `9007199254740992.0`, expected i64"
        )])
    );
    // A body over 16 KiB names its first member error only: gathering
    // holds the document as a tree, up to a hundred times its size.
    let pad = vec!["[]"; 8 * 1024].join(",");
    let big = format!(
        r#"{{"title": 1, "year": "x", "price": 1, "tags": [], "author": {{"name": "b"}}, "pad": [{pad}]}}"#
    );
    assert!(big.len() > 16 * 1024);
    let res = test::call_service(&svc, send("/b", big)).await;
    assert_eq!(
        body_json(res).await["issues"],
        json!([issue(
            "/title",
            "invalid_value",
            "invalid type: integer `1`, expected a string"
        )])
    );
    // A duplicate member: the first value's error, as read from the bytes.
    let res = test::call_service(
        &svc,
        send("/b", r#"{"title": 1, "title": 2, "year": "x", "price": 1, "tags": [], "author": {"name": "b"}}"#.into()),
    )
    .await;
    assert_eq!(
        body_json(res).await["issues"],
        json!([issue(
            "/title",
            "invalid_value",
            "invalid type: integer `1`, expected a string"
        )])
    );
}

/// serde raises a duplicate member, an unknown one (`deny_unknown_fields`)
/// and a missing one at the object holding it: the issue names the member
/// itself, at every depth. A struct is read from an object only, never
/// from an array of its fields (which serde allows).
#[actix_web::test]
async fn member_errors_name_the_member_and_structs_are_objects() {
    use problem_core::pipeline::Body;
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Author {
        #[allow(dead_code, reason = "only deserialized")]
        name: String,
    }
    #[derive(serde::Deserialize)]
    struct Book {
        title: String,
        #[allow(dead_code, reason = "only deserialized")]
        authors: Vec<Author>,
    }
    async fn create(book: Body<Book>) -> HttpResponse {
        HttpResponse::Ok().body(book.0.title)
    }
    let app = ProblemApp::builder()
        .development(false)
        .routes(|r| r.post("/b", create))
        .build()
        .unwrap();
    let svc = service!(app);
    let cases = [
        (
            r#"{"title": "a", "title": "b", "authors": []}"#,
            json!({"location": "body", "name": "/title", "code": "invalid_value",
                   "message": "duplicate field `title`"}),
        ),
        (
            r#"{"title": "a", "authors": [{"name": "x"}, {"name": "y", "name": "z"}]}"#,
            json!({"location": "body", "name": "/authors/1/name", "code": "invalid_value",
                   "message": "duplicate field `name`"}),
        ),
        (
            r#"{"title": "a", "authors": [{"name": "x", "age": 3}]}"#,
            json!({"location": "body", "name": "/authors/0/age", "code": "unknown_field",
                   "message": "unknown field `age`, expected `name`"}),
        ),
        (
            r#"["a", []]"#,
            json!({"location": "body", "name": "", "code": "invalid_value",
                   "message": "invalid type: sequence, expected struct Book"}),
        ),
        (
            r#"{"title": "a", "authors": [["x"]]}"#,
            json!({"location": "body", "name": "/authors/0", "code": "invalid_value",
                   "message": "invalid type: sequence, expected struct Author"}),
        ),
        (
            r#"{"title": "a", "authors": [{}]}"#,
            json!({"location": "body", "name": "/authors/0/name", "code": "required",
                   "message": "missing field `name`"}),
        ),
    ];
    for (body, issue) in cases {
        let req = TestRequest::post()
            .uri("/b")
            .insert_header(("content-type", "application/json"))
            .set_payload(body)
            .to_request();
        let res = test::call_service(&svc, req).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "Request validation failed", "instance": "/b",
                   "issues": [issue]}),
            "{body}"
        );
    }
}

/// An error whose `Display` panics, and whose own `error_response` does not
/// call it: the pipeline calls `Display` itself, outside the handler.
#[derive(Debug)]
struct PanickyDisplay;

impl std::fmt::Display for PanickyDisplay {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("display exploded")
    }
}

impl actix_web::ResponseError for PanickyDisplay {
    fn error_response(&self) -> HttpResponse {
        HttpResponse::InternalServerError().finish()
    }
}

/// The application's code the pipeline calls after the handler (an error's
/// `Display`, a middleware's error, an exception filter, the logger) is
/// caught as a handler is: a panic in it is a masked 500 `Panic` with its
/// one log line, never a panic out of the service (a dropped connection).
#[actix_web::test]
async fn panics_in_error_display_filters_and_loggers_are_caught() {
    let masked = |id: &str| {
        json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
               "instance": "/x", "correlationId": id})
    };
    // An error whose Display panics, from a middleware inside the pipeline
    // (after the handler's future is done).
    let logger = Arc::new(MemoryLogger::default());
    let pipeline = problem_core::pipeline::Pipeline::builder()
        .tag("t")
        .development(false)
        .shared_logger(logger.clone())
        .build()
        .unwrap();
    let svc = test::init_service(
        App::new()
            .wrap_fn(|req, srv| {
                let fut = srv.call(req);
                async move {
                    fut.await?;
                    Err::<ServiceResponse, _>(actix_web::Error::from(PanickyDisplay))
                }
            })
            .wrap(pipeline)
            .route(
                "/x",
                web::get().to(|| async { HttpResponse::Ok().finish() }),
            ),
    )
    .await;
    // The pipeline hands actix-web the rendered problem as an error.
    let Err(err) = test::try_call_service(&svc, TestRequest::get().uri("/x").to_request()).await
    else {
        panic!("the middleware's error is answered as a problem")
    };
    let res = err.error_response();
    assert_eq!(res.status(), 500);
    let entries = logger.entries();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let id = entries[0].correlation_id.to_string();
    assert_eq!(
        entries[0].message,
        format!("[t] Unhandled error on GET /x (correlation id {id}): Panic: display exploded")
    );
    let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&bytes).unwrap(),
        masked(&id)
    );

    // A filter that panics.
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("t")
        .development(false)
        .shared_logger(logger.clone())
        .filter::<ConflictException, _>(|_, _| panic!("filter exploded"))
        .routes(|r| {
            r.get("/x", || async {
                Err::<HttpResponse, _>(ConflictException::new().with_detail("taken"))
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), 500);
    let entries = logger.entries();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let id = entries[0].correlation_id.to_string();
    assert_eq!(
        entries[0].message,
        format!("[t] Unhandled error on GET /x (correlation id {id}): Panic: filter exploded")
    );
    assert_eq!(body_json(res).await, masked(&id));

    // A logger that panics: the answer is still the masked 500 (the line
    // goes to stderr instead).
    #[derive(Clone)]
    struct Exploding;
    impl problem_core::pipeline::LogSink for Exploding {
        fn log(&self, _: &problem_core::pipeline::LogRecord<'_>) {
            panic!("logger exploded")
        }
    }
    let app = ProblemApp::builder()
        .development(false)
        .logger(Exploding)
        .routes(|r| {
            r.get("/x", || async {
                Err::<HttpResponse, _>(std::io::Error::other("disk full"))
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), 500);
    let body = body_json(res).await;
    let id = body["correlationId"].as_str().expect("a correlation id");
    assert!(uuid::Uuid::parse_str(id).is_ok(), "{body}");
    assert_eq!(body, masked(id));
}

/// Outside development the log line is one line: a message's line breaks
/// and control characters are escaped, so it cannot forge another entry.
#[actix_web::test]
async fn a_logged_message_cannot_forge_another_line() {
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("t")
        .development(false)
        .shared_logger(logger.clone())
        .routes(|r| {
            r.get("/x", || async {
                Err::<HttpResponse, _>(std::io::Error::other(
                    "boom\n[t] Unhandled error on GET /admin (correlation id 0): Error: forged\r\u{1b}[2J\u{2028}end\tok",
                ))
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), 500);
    let entries = logger.entries();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let id = entries[0].correlation_id;
    assert_eq!(
        entries[0].message,
        format!(
            "[t] Unhandled error on GET /x (correlation id {id}): Error: boom\\n[t] Unhandled error on GET /admin (correlation id 0): Error: forged\\r\\u{{1b}}[2J\\u{{2028}}end\tok"
        )
    );
}

/// A filter that builds the default response twice logs the failure once,
/// and both responses carry that line's correlation id.
#[actix_web::test]
async fn the_default_response_built_twice_is_logged_once() {
    let logger = Arc::new(MemoryLogger::default());
    let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = ids.clone();
    let app = ProblemApp::builder()
        .tag("t")
        .development(false)
        .shared_logger(logger.clone())
        .filter::<HttpException, _>(move |_, ctx| {
            let first = ctx.default_response();
            seen.lock().unwrap().push(first.status());
            with_headers(ctx.default_response(), [("X-Filtered", "1")])
        })
        .routes(|r| {
            r.get("/x", || async {
                Err::<HttpResponse, _>(HttpException::new(502).unwrap())
            })
        })
        .build()
        .unwrap();
    let svc = service!(app);
    let res = test::call_service(&svc, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), 502);
    assert_eq!(res.headers().get("x-filtered").unwrap(), "1");
    let entries = logger.entries();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let id = entries[0].correlation_id.to_string();
    assert_eq!(
        body_json(res).await,
        json!({"type": "about:blank", "title": "Bad Gateway", "status": 502,
               "instance": "/x", "correlationId": id})
    );
    assert_eq!(ids.lock().unwrap().as_slice(), [StatusCode::BAD_GATEWAY]);
}

/// Spec, "Problem body": `correlationId` only on a masked (logged) 5xx,
/// equal to its log line's id; `stack` only for an unknown error in
/// development. A problem's extensions of those names are never sent, in
/// either mode, whatever the status.
#[actix_web::test]
async fn extensions_named_like_pipeline_members_are_never_sent() {
    for development in [false, true] {
        let (app, logger) = app(development);
        let svc = service!(app);
        let res =
            test::call_service(&svc, TestRequest::get().uri("/reserved/409").to_request()).await;
        assert_eq!(res.status(), 409);
        assert_eq!(
            body_json(res).await,
            json!({"type": "about:blank", "title": "Conflict", "status": 409,
                   "instance": "/reserved/409", "isbn": "0441013597"}),
            "development {development}"
        );
        assert!(logger.entries().is_empty());
        let res =
            test::call_service(&svc, TestRequest::get().uri("/reserved/503").to_request()).await;
        assert_eq!(res.status(), 503);
        let body = body_json(res).await;
        let id = only_entry(&logger).correlation_id.to_string();
        let expected = if development {
            json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
                   "instance": "/reserved/503", "correlationId": id, "isbn": "0441013597"})
        } else {
            json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
                   "instance": "/reserved/503", "correlationId": id})
        };
        assert_eq!(body, expected, "development {development}");
    }
    let problem = HttpException::new(409)
        .unwrap()
        .with_extension("stack", "x")
        .with_extension("correlationId", "y");
    assert_eq!(
        problem.to_problem_json("/b").unwrap(),
        serde_json::to_vec(&problem.to_problem("/b").unwrap()).unwrap()
    );
    assert_eq!(
        String::from_utf8(problem.to_problem_json("/b").unwrap()).unwrap(),
        r#"{"type":"about:blank","title":"Conflict","status":409,"instance":"/b"}"#
    );
}
