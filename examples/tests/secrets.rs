//! No secret leaves the catalog: the binary is started with known bearer
//! tokens and cursor key, driven through its error routes (unknown error,
//! panic, 503, bad cursors, failed authentication, bad `Host`, oversized
//! body, a real cursor listing), in production and in development mode;
//! then every response (headers and body), every stderr (log) line and every
//! stdout line is searched for the tokens, the cursor key and the password
//! of the demo's database URL (`s3cret`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ADMIN: &str = "secrets-test-admin-7d0c4e2a91b3";
const EDITOR: &str = "secrets-test-editor-5f18a6c3e9d2";
const CURSOR_KEY: &str = "secrets-test-cursor-key-0c9e7a5b3d1f2468";
/// The password in the demo database error's URL (`/demo/errors/unknown`).
const DEMO_DB_PASSWORD: &str = "s3cret";
const SECRETS: [&str; 4] = [ADMIN, EDITOR, CURSOR_KEY, DEMO_DB_PASSWORD];

struct Catalog {
    child: Child,
    addr: String,
    stderr: Arc<Mutex<String>>,
    stdout: Arc<Mutex<String>>,
    /// The two pipe readers; each ends at its pipe's end of file.
    readers: Vec<std::thread::JoinHandle<()>>,
}

fn collect(pipe: impl Read + Send + 'static) -> (Arc<Mutex<String>>, std::thread::JoinHandle<()>) {
    let out = Arc::new(Mutex::new(String::new()));
    let sink = out.clone();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    (out, reader)
}

impl Catalog {
    fn start(development: bool) -> Catalog {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
        cmd.env("CATALOG_ADDR", "127.0.0.1:0")
            .env("CATALOG_ADMIN_TOKEN", ADMIN)
            .env("CATALOG_EDITOR_TOKEN", EDITOR)
            .env("CATALOG_CURSOR_KEY", CURSOR_KEY)
            .env("CATALOG_SEED_ROWS", "200")
            .env("CATALOG_MAX_BODY_BYTES", "4096")
            .env("CATALOG_WORKERS", "1")
            .env("RUST_LOG", "info")
            .env_remove("DATABASE_URL")
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if development {
            cmd.env("NODE_ENV", "development");
        } else {
            cmd.env_remove("NODE_ENV");
        }
        let mut child = cmd.spawn().expect("catalog binary starts");
        let (stdout, out_reader) = collect(child.stdout.take().unwrap());
        let (stderr, err_reader) = collect(child.stderr.take().unwrap());
        let readers = vec![out_reader, err_reader];
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = stderr.lock().unwrap().clone();
            if let Some(rest) = text.split("catalog listening on http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap().to_owned();
                return Catalog {
                    child,
                    addr,
                    stderr,
                    stdout,
                    readers,
                };
            }
            assert!(Instant::now() < deadline, "catalog did not start: {text}");
            assert!(
                child.try_wait().unwrap().is_none(),
                "catalog exited: {text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the catalog; its whole stdout and stderr (the readers are
    /// joined, so nothing written before the exit is missed).
    fn stop(mut self) -> (String, String) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for reader in self.readers.drain(..) {
            reader.join().expect("a pipe reader");
        }
        let out = self.stdout.lock().unwrap().clone();
        let err = self.stderr.lock().unwrap().clone();
        (out, err)
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// One exchange's status and everything the client saw (headers + body).
struct Seen {
    status: u16,
    text: String,
    body: serde_json::Value,
}

async fn send(
    client: &reqwest::Client,
    base: &str,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Seen {
    let mut req = client.request(method, format!("{base}{path}"));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if let Some(b) = body {
        req = req.body(b.to_owned());
    }
    let res = req.send().await.expect("request answered");
    let status = res.status().as_u16();
    let mut text = String::new();
    for (k, v) in res.headers() {
        text.push_str(&format!("{k}: {}\n", String::from_utf8_lossy(v.as_bytes())));
    }
    let bytes = res.bytes().await.expect("body");
    text.push_str(&String::from_utf8_lossy(&bytes));
    Seen {
        status,
        text,
        body: serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    }
}

/// Raw request (bad `Host`, declared oversized body): the response text.
fn raw(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    // Read until the head and the declared body are in.
    loop {
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head
                .to_ascii_lowercase()
                .lines()
                .find_map(|l| {
                    l.strip_prefix("content-length:")
                        .map(|v| v.trim().to_owned())
                })
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= len {
                break;
            }
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in SECRETS {
        for line in text.lines() {
            assert!(
                !line.contains(secret),
                "{what} holds the secret {secret:?}: {line}"
            );
        }
    }
}

async fn drive(catalog: &Catalog, development: bool) -> Vec<Seen> {
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let base = format!("http://{}", catalog.addr);
    let get = reqwest::Method::GET;
    let mut seen = Vec::new();
    for (path, status) in [
        ("/demo/errors/unknown", 500),
        ("/demo/errors/panic", 500),
        ("/demo/errors/unavailable", 503),
        ("/demo/errors/bad-request", 400),
        ("/books?cursor=bm90LWEtY3Vyc29y", 400),
        ("/books?foo=bar&sort=isbn", 400),
        ("/nowhere", 404),
    ] {
        let s = send(&client, &base, get.clone(), path, &[], None).await;
        assert_eq!(s.status, status, "{path}: {}", s.text);
        seen.push(s);
    }
    // A real cursor listing, then the cursor tampered with and mismatched.
    let first = send(
        &client,
        &base,
        get.clone(),
        "/books?limit=5&sort=-year",
        &[],
        None,
    )
    .await;
    assert_eq!(first.status, 200, "{}", first.text);
    let cursor = first.body["meta"]["next_cursor"]
        .as_str()
        .expect("next_cursor")
        .to_owned();
    let second = send(
        &client,
        &base,
        get.clone(),
        &format!("/books?limit=5&sort=-year&cursor={cursor}"),
        &[],
        None,
    )
    .await;
    assert_eq!(second.status, 200, "{}", second.text);
    let mut tampered = cursor.clone().into_bytes();
    tampered[10] = if tampered[10] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    for path in [
        format!("/books?limit=5&sort=-year&cursor={tampered}"),
        format!("/books?limit=5&sort=title&cursor={cursor}"),
    ] {
        let s = send(&client, &base, get.clone(), &path, &[], None).await;
        assert_eq!(s.status, 400, "{}", s.text);
        seen.push(s);
    }
    seen.push(first);
    seen.push(second);
    // Authentication: a wrong token, the editor deleting, the admin writing.
    let json = [("Content-Type", "application/json")];
    let wrong = send(
        &client,
        &base,
        reqwest::Method::POST,
        "/books",
        &[json[0], ("Authorization", "Bearer not-the-token")],
        Some("{}"),
    )
    .await;
    assert_eq!(wrong.status, 401, "{}", wrong.text);
    let editor = format!("Bearer {EDITOR}");
    let forbidden = send(
        &client,
        &base,
        reqwest::Method::DELETE,
        "/books/1",
        &[("Authorization", editor.as_str())],
        None,
    )
    .await;
    assert_eq!(forbidden.status, 403, "{}", forbidden.text);
    let admin = format!("Bearer {ADMIN}");
    let invalid = send(
        &client,
        &base,
        reqwest::Method::POST,
        "/books",
        &[json[0], ("Authorization", admin.as_str())],
        Some(r#"{"isbn": "1", "title": "", "author": "A", "year": 2020, "price": 1}"#),
    )
    .await;
    assert_eq!(invalid.status, 400, "{}", invalid.text);
    seen.extend([wrong, forbidden, invalid]);
    // Bad Host and a declared oversized body.
    let bad_host = raw(
        &catalog.addr,
        "GET /books HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    );
    assert!(bad_host.starts_with("HTTP/1.1 421"), "{bad_host}");
    let oversized = raw(
        &catalog.addr,
        &format!(
            "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ADMIN}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(oversized.starts_with("HTTP/1.1 413"), "{oversized}");
    for text in [bad_host, oversized] {
        seen.push(Seen {
            status: 0,
            text,
            body: serde_json::Value::Null,
        });
    }
    // In development the unknown error's detail is shown, redacted.
    let unknown = &seen[0];
    if development {
        let detail = unknown.body["detail"].as_str().expect("development detail");
        assert_eq!(
            detail,
            "could not connect to postgres://***@db.internal:5432/catalog: connection refused"
        );
    } else {
        assert!(unknown.body.get("detail").is_none(), "{}", unknown.text);
    }
    seen
}

fn check_run(development: bool) {
    let catalog = Catalog::start(development);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let seen = rt.block_on(drive(&catalog, development));
    let (stdout, stderr) = catalog.stop();
    for s in &seen {
        assert_no_secret("a response", &s.text);
    }
    assert_no_secret("the catalog's stdout", &stdout);
    assert_no_secret("the catalog's log", &stderr);
    // The tokens were set, so nothing was generated and printed.
    assert_eq!(stdout, "", "stdout");
    // The log did record the 5xx (three of them), with the URL redacted.
    let logged = stderr
        .lines()
        .filter(|l| l.contains("(correlation id "))
        .count();
    assert_eq!(logged, 3, "{stderr}");
    assert!(
        stderr.contains("postgres://***@db.internal:5432"),
        "{stderr}"
    );
}

#[test]
fn no_secret_in_responses_or_logs_in_production() {
    check_run(false);
}

#[test]
fn no_secret_in_responses_or_logs_in_development() {
    check_run(true);
}
