//! Hostile input against the built catalog on loopback (embedded SQLite):
//! one test per attack, each asserting the whole answer. The rows that
//! name a database difference also run on PostgreSQL (`catalog_postgres.rs`).

mod common;

use std::time::Duration;

use common::hostile::{self, problem};
use common::{ADMIN, Catalog, EDITOR, PROBLEM_JSON, header, json};
use reqwest::Method;
use serde_json::json;

macro_rules! hostile_test {
    ($name:ident) => {
        #[tokio::test]
        async fn $name() {
            let cat = Catalog::start(&[]);
            hostile::$name(&cat).await;
        }
    };
}

hostile_test!(non_finite_numbers_are_400_and_nothing_is_stored);
hostile_test!(nul_characters_are_400);
hostile_test!(query_limits_refuse_oversized_queries);
hostile_test!(search_folds_case_the_same_on_every_database);
hostile_test!(dates_and_signed_zeros_are_the_same_on_every_database);
hostile_test!(noncharacters_match_only_themselves_on_every_database);

fn multipart(part_type: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--b0und\r\nContent-Disposition: form-data; name=\"cover\"; filename=\"c\"\r\nContent-Type: {part_type}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(b"\r\n--b0und--\r\n");
    body
}

async fn put_cover(cat: &Catalog, part_type: &str, data: &[u8]) -> reqwest::Response {
    cat.request(Method::PUT, "/books/6/cover")
        .header("Authorization", format!("Bearer {EDITOR}"))
        .header("Content-Type", "multipart/form-data; boundary=b0und")
        .body(multipart(part_type, data))
        .send()
        .await
        .unwrap()
}

/// Row 27: a body under a content coding is refused, not stored: a gzip
/// JSON body used to be `Malformed JSON body`, and a plain one labelled
/// gzip (or an unknown coding) was stored under a false label.
#[tokio::test]
async fn content_codings_are_415_and_nothing_is_stored() {
    let cat = Catalog::start(&[("CATALOG_SEED_ROWS", "10")]);
    let book =
        r#"{"isbn": "9785550004102", "title": "Coded", "author": "A", "year": 2000, "price": 1}"#;
    for coding in ["gzip", "x-unknown"] {
        let res = cat
            .request(Method::POST, "/books")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", "application/json")
            .header("Content-Encoding", coding)
            .body(book)
            .send()
            .await
            .unwrap();
        assert_eq!(header(res.headers(), "accept-encoding"), Some("identity"));
        let (status, _, body) = json(res).await;
        let detail = format!("Unsupported content encoding: {coding}");
        assert_eq!((status, body), (415, problem(415, Some(&detail), "/books")));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        let res = cat
            .request(Method::PUT, "/books/6/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", "multipart/form-data; boundary=b0und")
            .header("Content-Encoding", coding)
            .body(multipart("image/png", &png))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 415, "{coding}");
    }
    let (status, _, body) = cat.get_json("/books?isbn=9785550004102").await;
    assert_eq!((status, &body["meta"]["total"]), (200, &json!(0)), "{body}");
    let res = cat.get("/books/6/cover").send().await.unwrap();
    assert_eq!(res.status(), 404, "nothing was stored");
}

/// Row 5: covers are sniffed from their bytes; only PNG, JPEG, GIF and WebP
/// are stored, and they are served with the sniffed type, `nosniff` and a
/// sandboxing CSP.
#[tokio::test]
async fn covers_are_sniffed_and_served_safely() {
    let cat = Catalog::start(&[]);
    let html = b"<!DOCTYPE html><html><script>alert(document.cookie)</script></html>";
    let (status, headers, body) = json(put_cover(&cat, "text/html", html).await).await;
    assert_eq!(
        (status, body),
        (
            415,
            problem(
                415,
                Some("Unsupported content type: text/html"),
                "/books/6/cover"
            )
        )
    );
    assert_eq!(header(&headers, "content-type"), Some(PROBLEM_JSON));
    // A PDF claimed to be a PNG: the sniffed type is named.
    let pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n";
    let (status, _, body) = json(put_cover(&cat, "image/png", pdf).await).await;
    assert_eq!(
        (status, body),
        (
            415,
            problem(
                415,
                Some("Unsupported content type: application/pdf"),
                "/books/6/cover"
            )
        )
    );
    let (status, _, _) = cat.get_json("/books/6/cover").await;
    assert_eq!(status, 404, "nothing was stored");
    // A GIF claimed to be HTML is stored and served as the GIF it is.
    let gif: Vec<u8> = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;".to_vec();
    let res = put_cover(&cat, "text/html", &gif).await;
    assert_eq!(res.status(), 201);
    let res = cat.get("/books/6/cover").send().await.unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(header(&h, "content-type"), Some("image/gif"));
    assert_eq!(header(&h, "x-content-type-options"), Some("nosniff"));
    assert_eq!(header(&h, "content-security-policy"), Some("sandbox"));
    assert_eq!(res.bytes().await.unwrap().to_vec(), gif);
    // JPEG, WebP and PNG too, each claimed to be something else: each is
    // stored (a replacement: 204) and served as what its bytes are.
    let jpeg: &[u8] =
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9";
    let webp: &[u8] = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00";
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89";
    for (bytes, claimed, served) in [
        (jpeg, "image/png", "image/jpeg"),
        (webp, "application/octet-stream", "image/webp"),
        (png, "image/gif", "image/png"),
    ] {
        let res = put_cover(&cat, claimed, bytes).await;
        assert_eq!(res.status(), 204, "{served}");
        let res = cat.get("/books/6/cover").send().await.unwrap();
        assert_eq!(res.status(), 200, "{served}");
        assert_eq!(header(res.headers(), "content-type"), Some(served));
        assert_eq!(res.bytes().await.unwrap().to_vec(), bytes, "{served}");
    }
}

/// Covers take `multipart/form-data` only, at most 1000 form fields
/// (spec, "Limits": over it 413), and a stale `If-Match` is a 412 before
/// the body is looked at (RFC 9110 §13.2.2).
#[tokio::test]
async fn cover_uploads_keep_the_form_rules() {
    let cat = Catalog::start(&[]);
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89";
    let send = |content_type: &str, body: Vec<u8>, if_match: Option<&str>| {
        let mut req = cat
            .request(Method::PUT, "/books/6/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", content_type)
            .body(body);
        if let Some(tag) = if_match {
            req = req.header("If-Match", tag);
        }
        req.send()
    };
    // multipart/mixed is not a form.
    let res = send(
        "multipart/mixed; boundary=b0und",
        multipart("image/png", png),
        None,
    )
    .await
    .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(
        (status, body),
        (
            415,
            problem(
                415,
                Some("Unsupported content type: multipart/mixed; boundary=b0und"),
                "/books/6/cover"
            )
        )
    );
    // 1001 parts: 413, nothing stored; 1000 parts (the cover among them) pass.
    let fields = |n: usize| {
        let mut body = Vec::new();
        for i in 0..n {
            body.extend_from_slice(
                format!("--b0und\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\n1\r\n")
                    .as_bytes(),
            );
        }
        body.extend_from_slice(&multipart("image/png", png));
        body
    };
    let res = send("multipart/form-data; boundary=b0und", fields(1000), None)
        .await
        .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(
        (status, body),
        (
            413,
            problem(
                413,
                Some("The request body has more than 1000 fields."),
                "/books/6/cover"
            )
        )
    );
    let (status, _, _) = cat.get_json("/books/6/cover").await;
    assert_eq!(status, 404, "nothing was stored");
    let res = send("multipart/form-data; boundary=b0und", fields(999), None)
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    // A stale tag with no cover part: the precondition is answered first.
    let res = send(
        "multipart/form-data; boundary=b0und",
        b"--b0und\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\n1\r\n--b0und--\r\n"
            .to_vec(),
        Some("\"stale\""),
    )
    .await
    .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(
        (status, body),
        (
            412,
            problem(
                412,
                Some("The resource has changed since it was read"),
                "/books/6/cover"
            )
        )
    );
}

/// Row 6: a JSON body is exactly one value.
#[tokio::test]
async fn json_bodies_with_trailing_data_are_malformed() {
    let cat = Catalog::start(&[]);
    let book = r#"{"isbn": "9780000000048", "title": "Once", "author": "Tester", "year": 2001, "price": 1}"#;
    for body in [
        format!("{book} garbage"),
        format!("{book}{book}"),
        format!("{book}\n{book}"),
        format!("{book} ]"),
        // Broken syntax after a field error: syntax wins.
        r#"{"isbn": 5, "title": "#.to_owned(),
    ] {
        let res = cat
            .request(Method::POST, "/books")
            .header("Authorization", format!("Bearer {ADMIN}"))
            .header("Content-Type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        let (status, _, got) = json(res).await;
        assert_eq!(
            (status, got),
            (400, problem(400, Some("Malformed JSON body"), "/books")),
            "{body}"
        );
    }
    let (status, _, body) = cat.get_json("/books?isbn=9780000000048").await;
    assert_eq!((status, body["data"].clone()), (200, json!([])));
    // Trailing whitespace is fine.
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("Content-Type", "application/json")
        .body(format!("{book} \r\n\t "))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
}

/// Row 7: an absolute-form request target names the host that is checked.
#[tokio::test]
async fn absolute_form_targets_are_checked_against_the_allowed_hosts() {
    let cat = Catalog::start(&[]);
    let reply = cat
        .raw(b"GET http://evil.example/books HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await;
    assert_eq!(reply.status, 421);
    let body: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(
        body,
        problem(
            421,
            Some("This server does not serve the requested host."),
            "/books"
        )
    );
    let reply = cat
        .raw(b"GET http://127.0.0.1/books?per_page=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        .await;
    assert_eq!(reply.status, 200, "the authority wins over Host");
}

/// A mark in the log: a masked 500 (`/demo/errors/unknown`) whose one line
/// carries a fresh correlation id. Returns the index of that line once it
/// is written, so what a request logged before the mark is all there,
/// without waiting on a clock.
async fn log_mark(cat: &Catalog) -> usize {
    let (status, _, body) = cat.get_json("/demo/errors/unknown").await;
    assert_eq!(status, 500, "{body}");
    let id = body["correlationId"].as_str().unwrap().to_owned();
    assert_eq!(
        cat.wait_for_log(&id).len(),
        1,
        "the mark {id} is logged once"
    );
    let log = cat.log();
    log.iter().position(|l| l.contains(&id)).unwrap()
}

/// Row 9: a panic writes exactly one log line, whatever `RUST_BACKTRACE` says.
#[tokio::test]
async fn a_panic_writes_exactly_one_log_line() {
    for backtrace in ["1", "full", "0"] {
        let cat = Catalog::start(&[("RUST_BACKTRACE", backtrace)]);
        let before = log_mark(&cat).await + 1;
        let (status, _, body) = cat.get_json("/demo/errors/panic").await;
        assert_eq!(status, 500);
        let id = body["correlationId"].as_str().unwrap().to_owned();
        let after = log_mark(&cat).await;
        let between: Vec<String> = cat.log()[before..after].to_vec();
        let expected = format!(
            "[catalog] Unhandled error on GET /demo/errors/panic (correlation id {id}): Panic: demo panic: the handler gave up"
        );
        assert_eq!(
            between.len(),
            1,
            "RUST_BACKTRACE={backtrace}: nothing but the one line: {between:#?}"
        );
        assert!(between[0].ends_with(&expected), "{between:#?}");
    }
}

/// A request actix-http cannot parse is its bare 400, and (4xx are not
/// logged) nothing reaches the log with the catalog's default filter.
#[tokio::test]
async fn unparsable_requests_are_400_and_not_logged() {
    let cat = Catalog::start(&[("RUST_LOG", "")]);
    let before = log_mark(&cat).await + 1;
    assert!(
        cat.log()[..before]
            .iter()
            .any(|l| l.contains("catalog listening on")),
        "{:#?}",
        cat.log()
    );
    let raws: [&[u8]; 2] = [
        "GET /books?q=\u{e9}|\" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
            .as_bytes(),
        b"GET /books HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    ];
    for raw in raws {
        let reply = cat.raw(raw).await;
        assert_eq!(reply.status, 400);
    }
    // A well-formed request, then a mark: nothing was logged in between.
    let (status, _, _) = cat.get_json("/books?per_page=1").await;
    assert_eq!(status, 200);
    let after = log_mark(&cat).await;
    assert_eq!(cat.log()[before..after], [] as [String; 0]);
}

/// Row 10: a body trickled in slower than the body timeout gets a 408
/// problem and the connection is closed, with `Content-Length` and chunked
/// alike. A chunked body used to be drained after the 408 (actix-http
/// drains a dropped chunked payload): the connection stayed open and the
/// server answered what followed the body on it.
#[tokio::test]
async fn slow_bodies_get_a_408_and_the_connection_closes() {
    let cat = Catalog::start(&[("CATALOG_BODY_TIMEOUT_SECS", "2")]);
    let head = |framing: &str, start: &str| {
        format!(
            "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ADMIN}\r\nContent-Type: application/json\r\n{framing}\r\n\r\n{start}"
        )
    };
    for request in [
        head("Content-Length: 100000", "{"),
        head("Transfer-Encoding: chunked", "5\r\n{\"isb\r\n"),
    ] {
        slow_body_is_answered_408_and_closed(&cat, &request).await;
    }
}

async fn slow_body_is_answered_408_and_closed(cat: &Catalog, request: &str) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let started = std::time::Instant::now();
    let mut stream = tokio::net::TcpStream::connect(cat.addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    // The server answers and closes: reading ends within 10 s, even while
    // the client goes on sending (a chunk every 200 ms after the 408).
    tokio::time::timeout(Duration::from_secs(10), async {
        let mut chunk = [0u8; 4096];
        loop {
            tokio::select! {
                read = stream.read(&mut chunk) => match read {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                },
                () = tokio::time::sleep(Duration::from_millis(200)), if !buf.is_empty() => {
                    let _ = stream.write_all(b"1\r\nx\r\n").await;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("answered and closed within 10 s: {request}"));
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_secs(2), "{elapsed:?}");
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").expect("a whole response");
    let mut lines = head.split("\r\n");
    assert_eq!(lines.next(), Some("HTTP/1.1 408 Request Timeout"), "{head}");
    // Every header but `date`, by name.
    let mut headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.to_owned()))
        .filter(|(n, _)| n != "date")
        .collect();
    headers.sort();
    let expected: Vec<(String, String)> = [
        ("connection", "close"),
        ("content-length", "134"),
        ("content-type", PROBLEM_JSON),
        ("vary", "X-API-Version, Accept"),
        ("x-api-supported-versions", "2, 3"),
        ("x-api-version", "3"),
        ("x-content-type-options", "nosniff"),
    ]
    .into_iter()
    .map(|(n, v)| (n.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(headers, expected, "{request}");
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        body,
        problem(
            408,
            Some("The request body was not received in time"),
            "/books"
        ),
        "{request}"
    );
}

/// What generated clients send: exploded arrays are lists; other repeats
/// with different values are refused, never silently AND-ed.
#[tokio::test]
async fn exploded_lists_and_conflicting_repeats() {
    let cat = Catalog::start(&[]);
    let (status, _, body) = cat
        .get_json("/books?id__in=5&id__in=6&sort=-id&fields=id&fields=year")
        .await;
    assert_eq!(status, 200, "{body}");
    let ids: Vec<i64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [6, 5]);
    assert_eq!(
        body["data"][0]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["id", "year"]
    );
    let (status, _, body) = cat.get_json("/books?year=1990&year=1991").await;
    assert_eq!(
        (status, body),
        (
            400,
            hostile::validation(
                "/books",
                json!([{"location": "query", "name": "year", "code": "conflicting_parameters",
                        "message": "`year` is given more than once with different values: send it once",
                        "parameters": ["year"]}])
            )
        )
    );
}

/// RELIABILITY row 29: a list parameter of bad entries is one issue, its
/// first bad entry, however many follow (one issue per entry made a short
/// query a 19-times-larger answer).
#[tokio::test]
async fn a_list_of_bad_entries_is_one_issue() {
    let cat = Catalog::start(&[]);
    let bad: Vec<String> = (0..99).map(|i| format!("v{i}")).collect();
    let bad = bad.join(",");
    let (status, _, body) = cat
        .get_json(&format!("/books?id__in=5,{bad}&year__in={bad},v99"))
        .await;
    assert_eq!(
        (status, body),
        (
            400,
            hostile::validation(
                "/books",
                json!([
                    {"location": "query", "name": "id__in", "code": "invalid_value",
                     "message": "`v0` is not a valid integer", "expected": "integer"},
                    {"location": "query", "name": "year__in", "code": "invalid_value",
                     "message": "`v0` is not a valid integer", "expected": "integer"}
                ])
            )
        )
    );
}
