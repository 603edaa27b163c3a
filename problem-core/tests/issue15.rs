//! Issue 15's run-time rows: cursors without a configured key (row 3), a
//! query field that names no member (row 4), `u64` ids (row 7), the default
//! logger without a subscriber (row 10) and redaction of `key=value`
//! secrets (row 11). Row 2, a misconfiguration caught at build, is in
//! `misconfiguration.rs`.
//!
//! Rows 3 and 10 read this test binary's own stderr: the parent test runs
//! the binary again as a child with `ISSUE15_CHILD` set, and asserts the
//! child's stderr lines whole.

use std::sync::Arc;

use actix_web::{App, HttpResponse, test as atest};
use problem_core::CollectionQuery;
use problem_core::pipeline::{LogLevel, MemoryLogger};
use problem_core::query::{ApplyError, Collection, QueryConfig, TypedQuery};
use problem_core::server::ProblemApp;
use serde_json::{Value, json};

#[derive(CollectionQuery)]
#[query(key = "id")]
#[allow(dead_code)]
struct OrderQuery {
    #[query(filter(eq, gt), sort)]
    id: u64,
    #[query(filter(eq))]
    customer_name: String,
}

/// Row 7: `u64` ids filter like other integers; a value over `i64::MAX` is
/// a 400 `invalid_value`.
#[test]
fn u64_ids_over_i64_max_are_invalid_values() {
    let ok = TypedQuery::<OrderQuery>::from_query_str(
        "id__gt=9223372036854775807",
        &QueryConfig::default(),
    );
    let ok = ok.unwrap();
    let condition = &ok.filter().conditions()[0];
    assert_eq!(
        (condition.op, &condition.operand),
        (
            problem_core::query::Operator::Gt,
            &problem_core::query::Operand::One(problem_core::query::FieldValue::Integer(i64::MAX))
        )
    );
    let err =
        TypedQuery::<OrderQuery>::from_query_str("id=9223372036854775808", &QueryConfig::default())
            .unwrap_err();
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        json!([{"location": "query", "name": "id", "code": "invalid_value",
                "message": "`9223372036854775808` is not an integer from 0 to 9223372036854775807",
                "expected": "integer", "minimum": 0, "maximum": i64::MAX}])
    );
}

/// Row 4, in memory: an item without the field's member is an error value,
/// never a silently empty result; the pipeline answers it as a 500 whose
/// log line names the field.
#[actix_web::test]
async fn a_missing_member_is_an_error_and_a_logged_500() {
    let items = [json!({"id": 1, "customer": "ada"})];
    let q = TypedQuery::<OrderQuery>::from_query_str("customer_name=ada", &QueryConfig::default())
        .unwrap();
    assert_eq!(
        q.page_in_memory(items.clone()).unwrap_err(),
        ApplyError::MissingMember {
            index: 0,
            field: "customer_name"
        }
    );

    async fn list(q: Collection<OrderQuery>) -> Result<HttpResponse, actix_web::Error> {
        let page = q.page_in_memory([json!({"id": 1, "customer": "ada"})])?;
        Ok(HttpResponse::Ok().json(page.data))
    }
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("orders")
        .development(false)
        .shared_logger(logger.clone())
        .routes(|r| r.get("/orders", list))
        .build()
        .unwrap();
    let a = app.clone();
    let svc = atest::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline()),
    )
    .await;
    let res = atest::call_service(
        &svc,
        atest::TestRequest::get()
            .uri("/orders?customer_name=ada")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 500);
    let body: Value = atest::read_body_json(res).await;
    let entries = logger.entries();
    // The application has no cursor key: its own logger has the warning
    // first (row 3), then the 500's line.
    assert_eq!(entries.len(), 2);
    assert_eq!(
        (entries[0].level, entries[0].message.as_str()),
        (
            LogLevel::Warn,
            format!(
                "[orders] {}",
                problem_core::query::RANDOM_CURSOR_KEY_WARNING
            )
            .as_str()
        )
    );
    let id = entries[1].correlation_id;
    assert_eq!(
        body,
        json!({"type": "about:blank", "title": "Internal Server Error", "status": 500,
               "instance": "/orders", "correlationId": id.to_string()})
    );
    assert_eq!(entries[1].level, LogLevel::Error);
    assert_eq!(
        entries[1].message,
        format!(
            "[orders] 500 on GET /orders (correlation id {id}): InternalServerErrorException: item #0 has no member `customer_name`: name the query field (or its `rename`) as the item serializes it"
        )
    );
}

/// Row 11: an `std::io::Error` whose message holds `password=hunter2` is
/// logged with the value redacted.
#[actix_web::test]
async fn key_value_secrets_are_redacted_in_the_log() {
    async fn fails() -> Result<HttpResponse, std::io::Error> {
        Err(std::io::Error::other(
            "login to db as app with password=hunter2 failed; Authorization: Bearer abc.def",
        ))
    }
    let logger = Arc::new(MemoryLogger::default());
    let app = ProblemApp::builder()
        .tag("orders")
        .development(false)
        .shared_logger(logger.clone())
        .routes(|r| r.get("/fails", fails))
        .build()
        .unwrap();
    let a = app.clone();
    let svc = atest::init_service(
        App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.pipeline()),
    )
    .await;
    let res = atest::call_service(&svc, atest::TestRequest::get().uri("/fails").to_request()).await;
    assert_eq!(res.status(), 500);
    let entries = logger.entries();
    let id = entries[0].correlation_id;
    assert_eq!(
        entries[0].message,
        format!(
            "[orders] Unhandled error on GET /fails (correlation id {id}): Error: login to db as app with password=*** failed; Authorization: Bearer ***"
        )
    );
}

/// `GET /orders`: three orders in memory, in keyset pages.
async fn cursor_pages(
    req: actix_web::HttpRequest,
    q: Collection<OrderQuery>,
) -> Result<HttpResponse, actix_web::Error> {
    let items = (1..=3).map(|i| json!({"id": i, "customer_name": "ada"}));
    let page = q.cursor_page_in_memory(items)?;
    Ok(HttpResponse::Ok().json(page.to_json("/orders", req.query_string())?))
}

/// What the child process does: two keyset pages through the `Collection`
/// extractor with no cursor key configured (row 3), then a 5xx logged by
/// the default logger with no subscriber set (row 10). It prints the
/// correlation id and the cursor statuses on stdout.
fn child() {
    async fn boom() -> Result<HttpResponse, std::io::Error> {
        Err(std::io::Error::other("disk full, token=s3cr3t"))
    }
    actix_web::rt::System::new().block_on(async {
        let app = ProblemApp::builder()
            .tag("orders")
            .development(false)
            .routes(|r| r.get("/orders", cursor_pages).get("/boom", boom))
            .build()
            .unwrap();
        let a = app.clone();
        let svc = atest::init_service(
            App::new()
                .configure(move |c| a.configure(c))
                .wrap(app.pipeline()),
        )
        .await;
        let res = atest::call_service(
            &svc,
            atest::TestRequest::get()
                .uri("/orders?limit=1")
                .to_request(),
        )
        .await;
        let status = res.status().as_u16();
        let body: Value = atest::read_body_json(res).await;
        let cursor = body["meta"]["next_cursor"].as_str().unwrap().to_owned();
        let res = atest::call_service(
            &svc,
            atest::TestRequest::get()
                .uri(&format!("/orders?limit=1&cursor={cursor}"))
                .to_request(),
        )
        .await;
        let next = res.status().as_u16();
        let body: Value = atest::read_body_json(res).await;
        println!("pages {status} {next} {}", body["data"]);
        let res =
            atest::call_service(&svc, atest::TestRequest::get().uri("/boom").to_request()).await;
        let body: Value = atest::read_body_json(res).await;
        println!("correlation {}", body["correlationId"].as_str().unwrap());
    });
}

/// Rows 3 and 10, in a child process (its stderr is the observable).
#[test]
fn no_cursor_key_and_no_subscriber() {
    if std::env::var_os("ISSUE15_CHILD").is_some() {
        return child();
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "no_cursor_key_and_no_subscriber",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ISSUE15_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("pages 200 200 [{\"id\":2,\"customer_name\":\"ada\"}]"),
        "{stdout}"
    );
    let id = stdout
        .lines()
        .find_map(|l| l.strip_prefix("correlation "))
        .unwrap();
    // Everything the child wrote to stderr: these two lines and nothing else.
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines,
        [
            format!("WARN problem_core: [orders] {}", problem_core::query::RANDOM_CURSOR_KEY_WARNING).as_str(),
            format!("ERROR problem_core: [orders] Unhandled error on GET /boom (correlation id {id}): Error: disk full, token=***").as_str(),
        ],
        "{stderr}"
    );
}

/// Row 3 through the application's own logger: with no cursor key, each
/// application built by `ProblemApp` logs the warning once, to its own
/// logger, however many listings it answers; the key is the process's,
/// generated at build, so a cursor one application issued is read by
/// another of the same process. With a key configured, nothing is logged.
#[actix_web::test]
async fn the_random_key_warning_goes_to_each_applications_logger_once() {
    fn build(keyed: bool) -> (Arc<MemoryLogger>, ProblemApp) {
        let logger = Arc::new(MemoryLogger::default());
        let app = ProblemApp::builder()
            .tag("orders")
            .development(false)
            .shared_logger(logger.clone())
            .configure(move |c| {
                if keyed {
                    c.app_data(QueryConfig::default().cursor_keys([[9u8; 32]]).unwrap());
                }
            })
            .routes(|r| r.get("/orders", cursor_pages))
            .build()
            .unwrap();
        (logger, app)
    }
    macro_rules! serve {
        ($app:expr) => {{
            let app = $app.clone();
            let a = app.clone();
            atest::init_service(
                App::new()
                    .configure(move |c| a.configure(c))
                    .wrap(app.pipeline()),
            )
            .await
        }};
    }
    macro_rules! get {
        ($svc:expr, $uri:expr) => {{
            let uri: &str = &$uri;
            let res =
                atest::call_service(&$svc, atest::TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(res.status(), 200, "{uri}");
            let body: Value = atest::read_body_json(res).await;
            body
        }};
    }
    let warning = format!(
        "[orders] {}",
        problem_core::query::RANDOM_CURSOR_KEY_WARNING
    );
    let (first_log, first) = build(false);
    let (second_log, second) = build(false);
    let first = serve!(first);
    let second = serve!(second);
    let page = get!(first, "/orders?limit=1");
    let cursor = page["meta"]["next_cursor"].as_str().unwrap().to_owned();
    get!(first, format!("/orders?limit=1&cursor={cursor}"));
    get!(first, "/orders?page=2&per_page=1");
    let next = get!(second, format!("/orders?limit=1&cursor={cursor}"));
    assert_eq!(next["data"], json!([{"id": 2, "customer_name": "ada"}]));
    for log in [&first_log, &second_log] {
        let entries: Vec<(LogLevel, String, uuid::Uuid)> = log
            .entries()
            .iter()
            .map(|e| (e.level, e.message.clone(), e.correlation_id))
            .collect();
        assert_eq!(
            entries,
            [(LogLevel::Warn, warning.clone(), uuid::Uuid::nil())]
        );
    }
    let (keyed_log, keyed) = build(true);
    let keyed = serve!(keyed);
    let page = get!(keyed, "/orders?limit=1");
    let cursor = page["meta"]["next_cursor"].as_str().unwrap().to_owned();
    get!(keyed, format!("/orders?limit=1&cursor={cursor}"));
    assert!(keyed_log.entries().is_empty());
}
