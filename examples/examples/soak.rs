//! Load, soak and fault generator for the catalog (`scripts/soak.sh`,
//! `scripts/faults.sh`; results in RELIABILITY.md).
//!
//! Starts the catalog binary on a free loopback port with known secrets,
//! drives it on loopback with bounded concurrency for a bounded time with a
//! mix of traffic, checks every response, and prints a report:
//!
//! - connection errors and timeouts (must be 0);
//! - every 4xx/5xx is `application/problem+json` (except the empty 413),
//!   with `status` equal to the HTTP status; every 5xx is masked (only
//!   `type`, `title`, `status`, `instance`, `correlationId`);
//! - every 5xx has a distinct `correlationId`, and the catalog's log has
//!   exactly one line per 5xx with that id;
//! - no response body, log line or stdout line holds a secret (bearer
//!   tokens, cursor key, database password);
//! - RSS at the end within 10% of RSS after warm-up;
//! - requests/s and p50/p99 latency per kind;
//! - slow clients (a request head trickled one byte per 500 ms) and a
//!   `/health` probe every 50 ms, outside the mix.
//!
//! Options (all optional): `--catalog PATH` (default: the release binary
//! next to this one), `--seconds N` (60), `--warmup N` (10), `--concurrency
//! N` (32), `--slow-clients N` (8), `--database-url URL`, `--workdir DIR`,
//! `--timeline`, `--exec-at SECONDS:COMMAND` (repeatable; runs `sh -c
//! COMMAND` at that second, e.g. to stop PostgreSQL), `--recover-within N`
//! (after the last `--exec-at` plus N seconds, database routes must answer
//! without 5xx again; with `--exec-at`, 503/500 on database routes are
//! expected before that), `--max-latency-ms N` (10000: any slower answer is
//! a failure).
//!
//! Exits 0 when every check passed, 1 otherwise.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const ADMIN_TOKEN: &str = "soak-admin-token-6f1c2b9e0d8a4f37";
const EDITOR_TOKEN: &str = "soak-editor-token-93ab52e1c7d04f68";
const CURSOR_KEY: &str = "soak-cursor-key-0b8e4d2c9a7f61e3-5d27";
const MAX_BODY: usize = 65_536;
/// The catalog's body timeout in soak runs (`CATALOG_BODY_TIMEOUT_SECS`).
const BODY_TIMEOUT_SECS: u64 = 3;
const PROBLEM_JSON: &str = "application/problem+json; charset=utf-8";
const MASKED_MEMBERS: [&str; 5] = ["type", "title", "status", "instance", "correlationId"];

#[derive(Debug, Clone)]
struct Args {
    catalog: PathBuf,
    seconds: u64,
    warmup: u64,
    concurrency: usize,
    slow_clients: usize,
    database_url: Option<String>,
    workdir: PathBuf,
    timeline: bool,
    exec_at: Vec<(u64, String)>,
    recover_within: u64,
    max_latency: Duration,
}

fn parse_args() -> Result<Args, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    // target/release/examples/soak -> target/release/catalog
    let default_catalog = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("catalog"))
        .unwrap_or_else(|| PathBuf::from("catalog"));
    let mut args = Args {
        catalog: default_catalog,
        seconds: 60,
        warmup: 10,
        concurrency: 32,
        slow_clients: 8,
        database_url: None,
        workdir: std::env::temp_dir().join(format!("catalog-soak-{}", std::process::id())),
        timeline: false,
        exec_at: Vec::new(),
        recover_within: 10,
        max_latency: Duration::from_secs(10),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--catalog" => args.catalog = value()?.into(),
            "--seconds" => args.seconds = num(value()?)?,
            "--warmup" => args.warmup = num(value()?)?,
            "--concurrency" => args.concurrency = num(value()?)? as usize,
            "--slow-clients" => args.slow_clients = num(value()?)? as usize,
            "--database-url" => args.database_url = Some(value()?),
            "--workdir" => args.workdir = value()?.into(),
            "--timeline" => args.timeline = true,
            "--recover-within" => args.recover_within = num(value()?)?,
            "--max-latency-ms" => args.max_latency = Duration::from_millis(num(value()?)?),
            "--exec-at" => {
                let v = value()?;
                let (at, cmd) = v.split_once(':').ok_or("--exec-at SECONDS:COMMAND")?;
                args.exec_at.push((num(at.to_owned())?, cmd.to_owned()));
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if args.warmup >= args.seconds {
        return Err("--warmup must be shorter than --seconds".into());
    }
    Ok(args)
}

/// The secrets no body, log line or stdout line may contain.
fn secrets(args: &Args) -> Vec<String> {
    let mut s = vec![
        ADMIN_TOKEN.to_owned(),
        EDITOR_TOKEN.to_owned(),
        CURSOR_KEY.to_owned(),
    ];
    if let Some(pw) = args.database_url.as_deref().and_then(db_password) {
        s.push(pw);
    }
    s
}

/// The password of `scheme://user:password@host...`.
fn db_password(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let userinfo = rest.split_once('@')?.0;
    let pw = userinfo.split_once(':')?.1;
    (!pw.is_empty()).then(|| pw.to_owned())
}

// ---------------------------------------------------------------- catalog

struct Catalog {
    child: Child,
    addr: String,
    log: PathBuf,
    stdout: PathBuf,
}

impl Catalog {
    fn start(args: &Args) -> Result<Self, String> {
        std::fs::create_dir_all(&args.workdir).map_err(|e| e.to_string())?;
        let log = args.workdir.join("catalog.stderr.log");
        let stdout = args.workdir.join("catalog.stdout.log");
        let mut cmd = Command::new(&args.catalog);
        cmd.env("CATALOG_ADDR", "127.0.0.1:0")
            .env("CATALOG_ADMIN_TOKEN", ADMIN_TOKEN)
            .env("CATALOG_EDITOR_TOKEN", EDITOR_TOKEN)
            .env("CATALOG_CURSOR_KEY", CURSOR_KEY)
            .env("CATALOG_MAX_BODY_BYTES", MAX_BODY.to_string())
            .env("CATALOG_BODY_TIMEOUT_SECS", BODY_TIMEOUT_SECS.to_string())
            .env("CATALOG_WORKERS", "2")
            .env("RUST_LOG", "info")
            .env_remove("NODE_ENV")
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&stdout).map_err(|e| e.to_string())?)
            .stderr(std::fs::File::create(&log).map_err(|e| e.to_string())?);
        match &args.database_url {
            Some(url) => cmd.env("DATABASE_URL", url),
            None => cmd.env_remove("DATABASE_URL"),
        };
        let child = cmd
            .spawn()
            .map_err(|e| format!("{}: {e}", args.catalog.display()))?;
        let mut catalog = Catalog {
            child,
            addr: String::new(),
            log,
            stdout,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            let text = std::fs::read_to_string(&catalog.log).unwrap_or_default();
            if let Some(rest) = text.split("catalog listening on http://").nth(1) {
                catalog.addr = rest.split_whitespace().next().unwrap_or("").to_owned();
                return Ok(catalog);
            }
            if let Ok(Some(status)) = catalog.child.try_wait() {
                return Err(format!("catalog exited ({status}): {text}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("catalog did not start within 120 s".into())
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    }

    fn stop(&mut self) {
        // SIGTERM first (graceful), then kill.
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.pid().to_string())
            .status();
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

// ---------------------------------------------------------------- traffic

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    ListValid,
    ListCursor,
    ListInvalid,
    GetBook,
    UnknownRoute,
    WrongMethod,
    DemoError,
    DemoPanic,
    Auth,
    Write,
    Oversized,
    StreamOverLimit,
    MidBodyDisconnect,
    BadHost,
    /// The hostile inputs of RELIABILITY.md (non-finite numbers, NUL,
    /// oversized queries, trailing JSON, absolute-form targets, HTML covers,
    /// Unicode search, the largest allowed query).
    Hostile,
    /// A body trickled one byte every 2 s: a 408 at the body timeout.
    SlowBody,
    Health,
    /// One task asking `/health` every 50 ms, outside the mix: shows that
    /// the server answers others while workers wait on the database.
    Probe,
}

impl Kind {
    const MIX: [(Kind, u32); 17] = [
        (Kind::ListValid, 30),
        (Kind::ListCursor, 10),
        (Kind::ListInvalid, 12),
        (Kind::GetBook, 10),
        (Kind::UnknownRoute, 5),
        (Kind::WrongMethod, 5),
        (Kind::DemoError, 6),
        (Kind::DemoPanic, 2),
        (Kind::Auth, 4),
        (Kind::Write, 3),
        (Kind::Oversized, 3),
        (Kind::StreamOverLimit, 2),
        (Kind::MidBodyDisconnect, 2),
        (Kind::BadHost, 3),
        (Kind::Hostile, 6),
        (Kind::SlowBody, 1),
        (Kind::Health, 3),
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::ListValid => "list_valid",
            Kind::ListCursor => "list_cursor",
            Kind::ListInvalid => "list_invalid",
            Kind::GetBook => "get_book",
            Kind::UnknownRoute => "unknown_route",
            Kind::WrongMethod => "wrong_method",
            Kind::DemoError => "demo_errors",
            Kind::DemoPanic => "demo_panic",
            Kind::Auth => "auth",
            Kind::Write => "write",
            Kind::Oversized => "oversized_body",
            Kind::StreamOverLimit => "stream_over_limit",
            Kind::MidBodyDisconnect => "mid_body_disconnect",
            Kind::BadHost => "bad_host",
            Kind::Hostile => "hostile",
            Kind::SlowBody => "slow_body",
            Kind::Health => "health",
            Kind::Probe => "probe_health",
        }
    }

    /// Routes that read the database (may fail while it is down).
    fn uses_db(self) -> bool {
        matches!(
            self,
            Kind::ListValid | Kind::ListCursor | Kind::GetBook | Kind::Write
        )
    }

    fn pick(rng: &mut SmallRng) -> Kind {
        let total: u32 = Self::MIX.iter().map(|(_, w)| w).sum();
        let mut n = rng.random_range(0..total);
        for (k, w) in Self::MIX {
            if n < w {
                return k;
            }
            n -= w;
        }
        Kind::Health
    }
}

/// One answered (or failed) request.
#[derive(Debug)]
struct Outcome {
    kind: Kind,
    at: Duration,
    latency: Duration,
    status: Option<u16>,
    /// Connection error or timeout.
    error: Option<String>,
    violations: Vec<String>,
    correlation_id: Option<String>,
}

/// A response, from reqwest or from a raw connection.
struct Resp {
    status: u16,
    content_type: Option<String>,
    allow: Option<String>,
    body: Vec<u8>,
}

struct Ctx {
    base: String,
    addr: String,
    client: reqwest::Client,
    secrets: Vec<String>,
    start: Instant,
    deadline: Instant,
    /// Before this instant, database routes may answer 5xx (fault runs).
    db_faults_until: Option<Instant>,
    max_latency: Duration,
    outcomes: Mutex<Vec<Outcome>>,
}

impl Ctx {
    fn record(
        &self,
        kind: Kind,
        sent: Instant,
        result: Result<Resp, String>,
        expected: &[u16],
        extra: impl FnOnce(&Resp, &Value, &mut Vec<String>),
    ) -> Option<Value> {
        let latency = sent.elapsed();
        let mut violations = Vec::new();
        let mut correlation_id = None;
        let mut json = None;
        let (status, error) = match result {
            Err(e) => (None, Some(e)),
            Ok(resp) => {
                let allowed_db_fault = kind.uses_db()
                    && self.db_faults_until.is_some_and(|t| sent < t)
                    && matches!(resp.status, 500 | 503);
                if !expected.contains(&resp.status) && !allowed_db_fault {
                    violations.push(format!(
                        "status {} (expected {expected:?}): {}",
                        resp.status,
                        String::from_utf8_lossy(&resp.body[..resp.body.len().min(300)])
                    ));
                }
                let text = String::from_utf8_lossy(&resp.body);
                for s in &self.secrets {
                    if text.contains(s.as_str()) {
                        violations.push(format!("body holds a secret: {text}"));
                    }
                }
                let parsed: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
                if resp.status >= 400 {
                    check_problem(&resp, &parsed, &mut violations);
                    if resp.status >= 500 {
                        correlation_id = parsed
                            .get("correlationId")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                    }
                }
                if (200..300).contains(&resp.status) {
                    extra(&resp, &parsed, &mut violations);
                }
                json = Some(parsed);
                (Some(resp.status), None)
            }
        };
        if error.is_none() && latency > self.max_latency {
            violations.push(format!("answered after {latency:?}"));
        }
        self.outcomes.lock().expect("lock").push(Outcome {
            kind,
            at: sent.duration_since(self.start),
            latency,
            status,
            error,
            violations,
            correlation_id,
        });
        json
    }

    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Result<Resp, String> {
        self.send(reqwest::Method::GET, path, headers, None).await
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Result<Resp, String> {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(b) = body {
            req = req.body(b);
        }
        let res = req.send().await.map_err(describe)?;
        let status = res.status().as_u16();
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let content_type = header("content-type");
        let allow = header("allow");
        let body = res.bytes().await.map_err(describe)?.to_vec();
        Ok(Resp {
            status,
            content_type,
            allow,
            body,
        })
    }
}

fn describe(e: reqwest::Error) -> String {
    if e.is_timeout() {
        format!("timeout: {e}")
    } else {
        format!("connection error: {e}")
    }
}

fn check_problem(resp: &Resp, body: &Value, violations: &mut Vec<String>) {
    if resp.status == 413 {
        if !resp.body.is_empty() {
            violations.push("413 with a body".into());
        }
        return;
    }
    if resp.content_type.as_deref() != Some(PROBLEM_JSON) {
        violations.push(format!(
            "{} with content type {:?}",
            resp.status, resp.content_type
        ));
    }
    let Some(obj) = body.as_object() else {
        violations.push(format!("{} without a JSON object body", resp.status));
        return;
    };
    if obj.get("status").and_then(Value::as_u64) != Some(u64::from(resp.status)) {
        violations.push(format!("body status differs from {}", resp.status));
    }
    if resp.status >= 500 {
        let extra: Vec<&String> = obj
            .keys()
            .filter(|k| !MASKED_MEMBERS.contains(&k.as_str()))
            .collect();
        if !extra.is_empty() {
            violations.push(format!("5xx not masked: members {extra:?}"));
        }
        match obj.get("correlationId").and_then(Value::as_str) {
            Some(id) if uuid::Uuid::parse_str(id).is_ok() => {}
            other => violations.push(format!("5xx correlationId {other:?}")),
        }
    }
}

/// A raw HTTP/1.1 exchange on its own connection (`Connection: close`):
/// for requests reqwest will not send (bad `Host`, a declared body that is
/// never sent, a body streamed past the limit). The body is written while
/// the answer is read, and writing stops once the answer is complete (the
/// server stops reading a body over its limit).
async fn raw(addr: &str, head: &str, body: RawBody) -> Result<Resp, String> {
    let io = async {
        let s = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connection error: {e}"))?;
        let (mut rd, mut wr) = s.into_split();
        wr.write_all(head.as_bytes())
            .await
            .map_err(|e| format!("connection error: {e}"))?;
        let writer = tokio::spawn(async move {
            if let RawBody::Trickle { every } = body {
                loop {
                    if wr.write_all(b" ").await.is_err() {
                        return;
                    }
                    tokio::time::sleep(every).await;
                }
            }
            if let RawBody::Chunked { chunk, max_total } = body {
                let data = format!("{:x}\r\n{}\r\n", chunk, "x".repeat(chunk));
                let mut sent = 0;
                while sent < max_total {
                    if wr.write_all(data.as_bytes()).await.is_err() {
                        return;
                    }
                    sent += chunk;
                }
                let _ = wr.write_all(b"0\r\n\r\n").await;
            }
            // Keep the write half open until the reader is done.
            std::future::pending::<()>().await;
        });
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        let result = loop {
            if let Some(resp) = complete_response(&buf) {
                break Ok(resp);
            }
            match rd.read(&mut chunk).await {
                Ok(0) | Err(_) => {
                    break complete_response(&buf).ok_or_else(|| {
                        format!(
                            "connection error: closed after {} bytes of answer: {:?}",
                            buf.len(),
                            String::from_utf8_lossy(&buf)
                        )
                    });
                }
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        writer.abort();
        result
    };
    tokio::time::timeout(Duration::from_secs(10), io)
        .await
        .map_err(|_| "timeout: raw request".to_owned())?
}

/// The response in `buf` once its head and whole body have arrived.
fn complete_response(buf: &[u8]) -> Option<Resp> {
    let text = String::from_utf8_lossy(buf);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let complete = match length {
        Some(n) => body.len() >= n,
        None if lower.contains("transfer-encoding: chunked") => body.contains("0\r\n\r\n"),
        None => false,
    };
    if complete { parse_raw(buf).ok() } else { None }
}

enum RawBody {
    None,
    Chunked {
        chunk: usize,
        max_total: usize,
    },
    /// One byte, then one more every `every`, until the server answers.
    Trickle {
        every: Duration,
    },
}

fn parse_raw(buf: &[u8]) -> Result<Resp, String> {
    let text = String::from_utf8_lossy(buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("connection error: incomplete response {:?}", &text))?;
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("connection error: no status line")?;
    let mut content_type = None;
    let mut allow = None;
    let mut chunked = false;
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            match k.trim().to_ascii_lowercase().as_str() {
                "content-type" => content_type = Some(v.trim().to_owned()),
                "allow" => allow = Some(v.trim().to_owned()),
                "transfer-encoding" => chunked = v.contains("chunked"),
                _ => {}
            }
        }
    }
    let body = if chunked {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 || after.len() < n {
                break;
            }
            out.push_str(&after[..n]);
            rest = after[n..].trim_start_matches("\r\n");
        }
        out.into_bytes()
    } else {
        body.as_bytes().to_vec()
    };
    Ok(Resp {
        status,
        content_type,
        allow,
        body,
    })
}

const FILTERS: [&str; 14] = [
    "genre=fantasy",
    "genre__in=fantasy,science,history",
    "year__gte=1990",
    "year__lt=2005&year__gte=1950",
    "price__lt=30",
    "rating__gte=3.5",
    "in_stock=true",
    "author__contains=a",
    "title__starts_with=The",
    "subtitle__is_null=true",
    "id__in=1,2,3,50,500,5000",
    "published_at__gte=2000-01-01",
    "id__not_in=1,2,3&id__gt=10",
    "genre__ne=poetry",
];
const SORTS: [&str; 7] = [
    "",
    "-year,title",
    "price",
    "-rating,-id",
    "title",
    "published_at,-price",
    "author,-year",
];
const INVALID: [&str; 16] = [
    "page=0",
    "per_page=abc",
    "foo=bar",
    "year__contains=1",
    "sort=isbn",
    "cursor=bm90LWEtY3Vyc29y",
    "price=NaN",
    "published_at=2024-02-30",
    "q=a&search=b",
    "page=2&cursor=x",
    "per_page=10&limit=20",
    "fields=id,secret",
    "search_fields=genre&q=x",
    "in_stock=yes",
    "id=99999999999999999999999",
    "subtitle__is_null=maybe",
];

fn version_variant(rng: &mut SmallRng) -> (&'static str, Vec<(&'static str, &'static str)>) {
    match rng.random_range(0..5) {
        0 => ("/books", vec![("X-API-Version", "2")]),
        1 => ("/v3/books", vec![]),
        2 => (
            "/books",
            vec![("Accept", "application/vnd.catalog.v2+json")],
        ),
        _ => ("/books", vec![]),
    }
}

fn valid_list_query(rng: &mut SmallRng) -> String {
    let mut parts = Vec::new();
    // A filter repeated with another value is a 400 (`conflicting_parameters`):
    // only filters whose parameter names are not taken yet.
    let mut names: Vec<&str> = Vec::new();
    for _ in 0..rng.random_range(0..3) {
        let filter = FILTERS[rng.random_range(0..FILTERS.len())];
        let these: Vec<&str> = filter
            .split('&')
            .filter_map(|p| p.split('=').next())
            .collect();
        if these.iter().any(|n| names.contains(n)) {
            continue;
        }
        names.extend(these);
        parts.push(filter.to_owned());
    }
    let sort = SORTS[rng.random_range(0..SORTS.len())];
    if !sort.is_empty() {
        parts.push(format!("sort={sort}"));
    }
    if rng.random_bool(0.3) {
        parts.push(format!("page={}", rng.random_range(1..6)));
    }
    if rng.random_bool(0.5) {
        let sizes = [5, 10, 20, 50, 100, 500];
        parts.push(format!(
            "per_page={}",
            sizes[rng.random_range(0..sizes.len())]
        ));
    }
    if rng.random_bool(0.2) {
        parts.push("q=the".into());
    }
    if rng.random_bool(0.2) {
        parts.push("fields=id,title,year&exclude=year".into());
    }
    parts.join("&")
}

async fn run_one(ctx: &Ctx, kind: Kind, rng: &mut SmallRng) {
    let now = Instant::now();
    match kind {
        Kind::Health | Kind::Probe => {
            let r = ctx.get("/health", &[]).await;
            ctx.record(kind, now, r, &[200], |_, _, _| {});
        }
        Kind::ListValid => {
            let (path, headers) = version_variant(rng);
            let qs = valid_list_query(rng);
            let r = ctx.get(&format!("{path}?{qs}"), &headers).await;
            let v2 = headers.iter().any(|(_, v)| v.contains('2'));
            ctx.record(kind, now, r, &[200], |_, body, vs| {
                let ok = if v2 {
                    body.is_array()
                } else {
                    body.get("data").is_some_and(Value::is_array)
                };
                if !ok {
                    vs.push(format!("unexpected list shape for {path}?{qs}"));
                }
            });
        }
        Kind::ListCursor => {
            let sort = SORTS[rng.random_range(0..SORTS.len())];
            let filter = FILTERS[rng.random_range(0..FILTERS.len())];
            let mut qs = format!("limit=20&{filter}");
            if !sort.is_empty() {
                qs.push_str(&format!("&sort={sort}"));
            }
            let mut cursor: Option<String> = None;
            for _ in 0..3 {
                let sent = Instant::now();
                let url = match &cursor {
                    None => format!("/books?{qs}"),
                    Some(c) => format!("/books?{qs}&cursor={c}"),
                };
                let r = ctx.get(&url, &[]).await;
                let body = ctx.record(kind, sent, r, &[200], |_, body, vs| {
                    if body.pointer("/meta/limit").is_none() {
                        vs.push(format!("no cursor meta for {url}"));
                    }
                });
                cursor = body
                    .as_ref()
                    .and_then(|b| b.pointer("/meta/next_cursor"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                if cursor.is_none() {
                    break;
                }
            }
        }
        Kind::ListInvalid => {
            let n = rng.random_range(0..INVALID.len() + 4);
            let (url, headers, expected): (String, Vec<(&str, &str)>, u16) = match n {
                i if i < INVALID.len() => (format!("/books?{}", INVALID[i]), vec![], 400),
                16 => ("/books".into(), vec![("X-API-Version", "7")], 400),
                17 => ("/books".into(), vec![("X-API-Version", "two")], 400),
                18 => ("/v1/books".into(), vec![], 410),
                _ => (format!("/books?{}", "a=1&".repeat(1001)), vec![], 400),
            };
            let r = ctx.get(&url, &headers).await;
            ctx.record(kind, now, r, &[expected], |_, _, _| {});
        }
        Kind::GetBook => {
            let (path, expected) = match rng.random_range(0..10) {
                0 => ("/books/abc".to_owned(), 400),
                1 => ("/books/99999999".to_owned(), 404),
                _ => (format!("/books/{}", rng.random_range(1..=10_000)), 200),
            };
            let r = ctx.get(&path, &[]).await;
            ctx.record(kind, now, r, &[expected], |_, _, _| {});
        }
        Kind::UnknownRoute => {
            let path = match rng.random_range(0..3) {
                0 => format!("/nope/{}", rng.random_range(0..1000)),
                1 => "/books/1/reviews".to_owned(),
                _ => "/%E2%9C%93/..%2F..%2Fetc%2Fpasswd".to_owned(),
            };
            let r = ctx.get(&path, &[]).await;
            ctx.record(kind, now, r, &[404], |_, _, _| {});
        }
        Kind::WrongMethod => {
            let (method, path) = match rng.random_range(0..3) {
                0 => (reqwest::Method::PATCH, "/books"),
                1 => (reqwest::Method::PUT, "/books/1"),
                _ => (reqwest::Method::DELETE, "/health"),
            };
            let r = ctx.send(method, path, &[], None).await;
            ctx.record(kind, now, r, &[405], |resp, _, vs| {
                if resp.allow.is_none() {
                    vs.push("405 without Allow".into());
                }
            });
        }
        Kind::DemoError => {
            let (name, expected) = match rng.random_range(0..4) {
                0 => ("unknown", 500),
                1 => ("unavailable", 503),
                2 => ("bad-request", 400),
                _ => ("nothing-here", 404),
            };
            let r = ctx.get(&format!("/demo/errors/{name}"), &[]).await;
            ctx.record(kind, now, r, &[expected], |_, _, _| {});
        }
        Kind::DemoPanic => {
            let r = ctx.get("/demo/errors/panic", &[]).await;
            ctx.record(kind, now, r, &[500], |_, _, _| {});
        }
        Kind::Auth => {
            let (method, path, headers, expected) = match rng.random_range(0..3) {
                0 => (
                    reqwest::Method::POST,
                    "/books",
                    vec![("Content-Type", "application/json")],
                    401,
                ),
                1 => (
                    reqwest::Method::POST,
                    "/books",
                    vec![
                        ("Content-Type", "application/json"),
                        ("Authorization", "Bearer wrong-token"),
                    ],
                    401,
                ),
                _ => (
                    reqwest::Method::DELETE,
                    "/books/1",
                    vec![("Authorization", "Bearer soak-editor-token-93ab52e1c7d04f68")],
                    403,
                ),
            };
            let r = ctx.send(method, path, &headers, Some(b"{}".to_vec())).await;
            ctx.record(kind, now, r, &[expected], |_, _, _| {});
        }
        Kind::Write => {
            let isbn: u64 = rng.random_range(1_000_000_000_000..9_999_999_999_999);
            let body = serde_json::json!({
                "isbn": isbn.to_string(), "title": "Soak", "author": "Load Generator",
                "year": 2020, "price": 9.5
            });
            let editor = format!("Bearer {EDITOR_TOKEN}");
            let r = ctx
                .send(
                    reqwest::Method::POST,
                    "/books",
                    &[
                        ("Content-Type", "application/json"),
                        ("Authorization", editor.as_str()),
                    ],
                    Some(body.to_string().into_bytes()),
                )
                .await;
            let created = ctx.record(kind, now, r, &[201, 409], |_, _, _| {});
            if let Some(id) = created
                .as_ref()
                .and_then(|b| b.get("id"))
                .and_then(Value::as_i64)
            {
                let admin = format!("Bearer {ADMIN_TOKEN}");
                let sent = Instant::now();
                let r = ctx
                    .send(
                        reqwest::Method::DELETE,
                        &format!("/books/{id}"),
                        &[("Authorization", admin.as_str())],
                        None,
                    )
                    .await;
                ctx.record(kind, sent, r, &[204], |_, _, _| {});
            }
            // Malformed and invalid bodies.
            let sent = Instant::now();
            let r = ctx
                .send(
                    reqwest::Method::POST,
                    "/books",
                    &[
                        ("Content-Type", "application/json"),
                        ("Authorization", editor.as_str()),
                    ],
                    Some(b"{\"isbn\": \"12\", \"title\": \"\"".to_vec()),
                )
                .await;
            ctx.record(kind, sent, r, &[400], |_, _, _| {});
        }
        Kind::Oversized => {
            // Declared too large: the 413 comes before the body is read.
            let head = format!(
                "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                MAX_BODY + 1
            );
            let r = raw(&ctx.addr, &head, RawBody::None).await;
            ctx.record(kind, now, r, &[413], |_, _, _| {});
        }
        Kind::StreamOverLimit => {
            let head = "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            let r = raw(
                &ctx.addr,
                head,
                RawBody::Chunked {
                    chunk: 8192,
                    max_total: MAX_BODY * 4,
                },
            )
            .await;
            ctx.record(kind, now, r, &[413], |_, _, _| {});
        }
        Kind::MidBodyDisconnect => {
            // Declares 4096 bytes, sends 1000, hangs up. No answer expected.
            let io = async {
                let mut s = TcpStream::connect(&ctx.addr).await?;
                s.write_all(
                    format!(
                        "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer {EDITOR_TOKEN}\r\nContent-Length: 4096\r\n\r\n{{\"isbn\": \"{}",
                        "1".repeat(1000)
                    )
                    .as_bytes(),
                )
                .await?;
                tokio::time::sleep(Duration::from_millis(20)).await;
                drop(s);
                Ok::<(), std::io::Error>(())
            };
            let error = match io.await {
                Ok(()) => None,
                Err(e) => Some(format!("connection error: {e}")),
            };
            ctx.outcomes.lock().expect("lock").push(Outcome {
                kind,
                at: now.duration_since(ctx.start),
                latency: now.elapsed(),
                status: None,
                error,
                violations: Vec::new(),
                correlation_id: None,
            });
        }
        Kind::Hostile => hostile(ctx, rng).await,
        Kind::SlowBody => {
            let head = format!(
                "POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer {EDITOR_TOKEN}\r\nContent-Length: 60000\r\n\r\n"
            );
            let r = raw(
                &ctx.addr,
                &head,
                RawBody::Trickle {
                    every: Duration::from_secs(2),
                },
            )
            .await;
            ctx.record(kind, now, r, &[408], |_, _, _| {});
        }
        Kind::BadHost => {
            let host = ["evil.example", "127.0.0.2", "localhost.evil", ""][rng.random_range(0..4)];
            let head = format!("GET /books HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
            let r = raw(&ctx.addr, &head, RawBody::None).await;
            ctx.record(kind, now, r, &[421], |_, _, _| {});
        }
    }
}

/// One hostile input of RELIABILITY.md's table, checked against its answer.
async fn hostile(ctx: &Ctx, rng: &mut SmallRng) {
    let kind = Kind::Hostile;
    let now = Instant::now();
    let editor = format!("Bearer {EDITOR_TOKEN}");
    let post = |content_type: &'static str, body: String| {
        let editor = editor.clone();
        async move {
            ctx.send(
                reqwest::Method::POST,
                "/books",
                &[
                    ("Content-Type", content_type),
                    ("Authorization", editor.as_str()),
                ],
                Some(body.into_bytes()),
            )
            .await
        }
    };
    let book = r#"{"isbn": "9780000000017", "title": "Hostile", "author": "Soak", "year": 2001, "price": 1}"#;
    match rng.random_range(0..11) {
        0 => {
            let value = ["NaN", "inf", "-inf", "Infinity", "1e999"][rng.random_range(0..5)];
            let r = post(
                "application/x-www-form-urlencoded",
                format!("isbn=9780000000017&title=T&author=A&year=2001&price={value}"),
            )
            .await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        1 => {
            let r = post(
                "application/json",
                book.replace("\"price\": 1", "\"price\": NaN"),
            )
            .await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        2 => {
            let r = post("application/json", format!("{book}{book}")).await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        3 => {
            let q = ["title__contains=a%00", "q=%00x", "author=%00"][rng.random_range(0..3)];
            let r = ctx.get(&format!("/books?{q}"), &[]).await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        4 => {
            let r = ctx
                .get(&format!("/books?q={}", "a".repeat(16_000)), &[])
                .await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        5 => {
            let r = ctx
                .get(
                    &format!("/books?{}", ["title__contains=a"; 998].join("&")),
                    &[],
                )
                .await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        6 => {
            let r = ctx
                .get(
                    &format!("/books?title__contains={}", "a".repeat(25_000)),
                    &[],
                )
                .await;
            ctx.record(kind, now, r, &[400], |_, _, _| {});
        }
        7 => {
            let head = "GET http://evil.example/books HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            let r = raw(&ctx.addr, head, RawBody::None).await;
            ctx.record(kind, now, r, &[421], |_, _, _| {});
        }
        8 => {
            let q = ["M%C3%81RQUEZ", "m%C3%A1rquez", "%CE%A3"][rng.random_range(0..3)];
            let r = ctx.get(&format!("/books?q={q}"), &[]).await;
            ctx.record(kind, now, r, &[200], |_, _, _| {});
        }
        9 => {
            let body = "--b0und\r\nContent-Disposition: form-data; name=\"cover\"; filename=\"x.html\"\r\nContent-Type: text/html\r\n\r\n<html><script>alert(1)</script></html>\r\n--b0und--\r\n";
            let r = ctx
                .send(
                    reqwest::Method::PUT,
                    &format!("/books/{}/cover", rng.random_range(1..=100)),
                    &[
                        ("Content-Type", "multipart/form-data; boundary=b0und"),
                        ("Authorization", editor.as_str()),
                    ],
                    Some(body.as_bytes().to_vec()),
                )
                .await;
            ctx.record(kind, now, r, &[415], |_, _, _| {});
        }
        _ => {
            // The largest query the limits allow: answered quickly.
            let mut parts: Vec<String> = (0..63)
                .map(|i| format!("title__contains={}{i}", "x".repeat(250)))
                .collect();
            parts.push(format!(
                "q={}",
                (0..20)
                    .map(|_| "Ab".repeat(128))
                    .collect::<Vec<_>>()
                    .join("+")
            ));
            let r = ctx.get(&format!("/books?{}", parts.join("&")), &[]).await;
            ctx.record(kind, now, r, &[200], |_, _, _| {});
        }
    }
}

/// A client that sends its request head one byte every 500 ms and holds
/// its connection as long as the server lets it.
async fn slow_client(ctx: Arc<Ctx>, stats: Arc<Mutex<SlowStats>>) {
    let head = b"GET /books?per_page=5 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    while Instant::now() < ctx.deadline {
        let opened = Instant::now();
        let Ok(mut s) = TcpStream::connect(&ctx.addr).await else {
            stats.lock().expect("lock").connect_errors += 1;
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let mut ended = "sent whole head";
        for b in head {
            if Instant::now() >= ctx.deadline {
                ended = "run over";
                break;
            }
            if s.write_all(&[*b]).await.is_err() {
                ended = "closed by server";
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(2), s.read_to_end(&mut buf)).await;
        let status = parse_raw(&buf).ok().map(|r| {
            format!(
                "{} ({}, {} body bytes)",
                r.status,
                r.content_type.as_deref().unwrap_or("no content type"),
                r.body.len()
            )
        });
        let mut st = stats.lock().expect("lock");
        st.connections += 1;
        st.held.push(opened.elapsed());
        *st.endings
            .entry(match status {
                Some(code) => format!("answered {code}"),
                None => ended.to_owned(),
            })
            .or_default() += 1;
    }
}

#[derive(Default)]
struct SlowStats {
    connections: u64,
    connect_errors: u64,
    held: Vec<Duration>,
    endings: BTreeMap<String, u64>,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("soak: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    match rt.block_on(run(args)) {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("soak: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

async fn run(args: Args) -> Result<bool, String> {
    let mut catalog = Catalog::start(&args)?;
    println!(
        "catalog pid {} on http://{} (log {})",
        catalog.pid(),
        catalog.addr,
        catalog.log.display()
    );
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .pool_max_idle_per_host(args.concurrency)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.seconds);
    let db_faults_until = args
        .exec_at
        .iter()
        .map(|(at, _)| *at)
        .max()
        .map(|last| start + Duration::from_secs(last + args.recover_within));
    let ctx = Arc::new(Ctx {
        base: format!("http://{}", catalog.addr),
        addr: catalog.addr.clone(),
        client,
        secrets: secrets(&args),
        start,
        deadline,
        db_faults_until,
        max_latency: args.max_latency,
        outcomes: Mutex::new(Vec::new()),
    });

    let mut tasks = Vec::new();
    for worker in 0..args.concurrency {
        let ctx = ctx.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(0x5eed + worker as u64);
            while Instant::now() < ctx.deadline {
                let kind = Kind::pick(&mut rng);
                run_one(&ctx, kind, &mut rng).await;
            }
        }));
    }
    {
        let ctx = ctx.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(7);
            while Instant::now() < ctx.deadline {
                run_one(&ctx, Kind::Probe, &mut rng).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    let slow = Arc::new(Mutex::new(SlowStats::default()));
    for _ in 0..args.slow_clients {
        tasks.push(tokio::spawn(slow_client(ctx.clone(), slow.clone())));
    }
    // Fault commands at their second.
    for (at, cmd) in args.exec_at.clone() {
        let when = start + Duration::from_secs(at);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(tokio::time::Instant::from_std(when)).await;
            let t = Instant::now();
            let shell = cmd.clone();
            let status = tokio::task::spawn_blocking(move || {
                Command::new("sh")
                    .arg("-c")
                    .arg(&shell)
                    .stdout(Stdio::null())
                    .status()
            })
            .await;
            println!(
                "[{:>5.1} s] ran `{cmd}`: {status:?} ({} ms)",
                at as f64,
                t.elapsed().as_millis()
            );
        }));
    }
    // RSS: after warm-up, then every second.
    let mut rss_samples: Vec<(u64, u64)> = Vec::new();
    let mut rss_after_warmup = None;
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let sec = start.elapsed().as_secs();
        if let Some(rss) = catalog.rss_kib() {
            rss_samples.push((sec, rss));
            if rss_after_warmup.is_none() && sec >= args.warmup {
                rss_after_warmup = Some(rss);
            }
        }
    }
    let rss_end = catalog.rss_kib();
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
    }
    let elapsed = start.elapsed();
    // Let the last log lines reach the file, then stop the catalog.
    tokio::time::sleep(Duration::from_millis(500)).await;
    catalog.stop();
    let log = std::fs::read_to_string(&catalog.log).map_err(|e| e.to_string())?;
    let stdout = std::fs::read_to_string(&catalog.stdout).unwrap_or_default();
    let outcomes = std::mem::take(&mut *ctx.outcomes.lock().expect("lock"));
    let slow = std::mem::take(&mut *slow.lock().expect("lock"));
    Ok(report(
        &args,
        &ctx,
        &outcomes,
        &slow,
        elapsed,
        &log,
        &stdout,
        rss_after_warmup,
        rss_end,
        &rss_samples,
    ))
}

#[allow(clippy::too_many_arguments)]
fn report(
    args: &Args,
    ctx: &Ctx,
    outcomes: &[Outcome],
    slow: &SlowStats,
    elapsed: Duration,
    log: &str,
    stdout: &str,
    rss_after_warmup: Option<u64>,
    rss_end: Option<u64>,
    rss_samples: &[(u64, u64)],
) -> bool {
    let mut ok = true;
    let mut out = std::io::stdout().lock();
    let secs = elapsed.as_secs_f64();
    let _ = writeln!(
        out,
        "\n== {} requests in {:.1} s ({:.0} req/s), concurrency {}, {} slow clients",
        outcomes.len(),
        secs,
        outcomes.len() as f64 / secs,
        args.concurrency,
        args.slow_clients
    );

    // Per kind.
    let mut by_kind: BTreeMap<Kind, Vec<&Outcome>> = BTreeMap::new();
    for o in outcomes {
        by_kind.entry(o.kind).or_default().push(o);
    }
    let _ = writeln!(
        out,
        "{:<20} {:>8} {:>8} {:>9} {:>9} {:>9}  statuses",
        "kind", "requests", "req/s", "p50 ms", "p99 ms", "max ms"
    );
    for (kind, list) in &by_kind {
        let mut lat: Vec<Duration> = list.iter().map(|o| o.latency).collect();
        lat.sort();
        let mut statuses: BTreeMap<String, u64> = BTreeMap::new();
        for o in list {
            let key = o.status.map_or_else(
                || {
                    if o.error.is_some() {
                        "error".into()
                    } else {
                        "-".into()
                    }
                },
                |s| s.to_string(),
            );
            *statuses.entry(key).or_default() += 1;
        }
        let _ = writeln!(
            out,
            "{:<20} {:>8} {:>8.1} {:>9} {:>9} {:>9}  {statuses:?}",
            kind.name(),
            list.len(),
            list.len() as f64 / secs,
            ms(percentile(&lat, 0.5)),
            ms(percentile(&lat, 0.99)),
            ms(lat.last().copied().unwrap_or_default()),
        );
    }

    // Connection errors and timeouts.
    let errors: Vec<&Outcome> = outcomes.iter().filter(|o| o.error.is_some()).collect();
    let timeouts = errors
        .iter()
        .filter(|o| o.error.as_deref().is_some_and(|e| e.starts_with("timeout")))
        .count();
    let _ = writeln!(
        out,
        "\nconnection errors: {}, timeouts: {}",
        errors.len() - timeouts,
        timeouts
    );
    for o in errors.iter().take(5) {
        let _ = writeln!(out, "  {} at {:?}: {:?}", o.kind.name(), o.at, o.error);
    }
    ok &= errors.is_empty();

    // Response checks.
    let bad: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| !o.violations.is_empty())
        .collect();
    let errors_4xx5xx = outcomes
        .iter()
        .filter(|o| o.status.is_some_and(|s| s >= 400))
        .count();
    let _ = writeln!(
        out,
        "4xx/5xx responses: {errors_4xx5xx}; responses failing a check (problem+json, masking, status, secrets, latency): {}",
        bad.len()
    );
    for o in bad.iter().take(10) {
        let _ = writeln!(out, "  {} at {:?}: {:?}", o.kind.name(), o.at, o.violations);
    }
    ok &= bad.is_empty();

    // 5xx correlation ids against the log.
    let five: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.status.is_some_and(|s| s >= 500))
        .collect();
    let ids: Vec<&str> = five
        .iter()
        .filter_map(|o| o.correlation_id.as_deref())
        .collect();
    let distinct: HashSet<&str> = ids.iter().copied().collect();
    let mut per_id: HashMap<&str, usize> = ids.iter().map(|id| (*id, 0)).collect();
    let mut id_lines = 0usize;
    for line in log.lines() {
        if let Some(rest) = line.split("(correlation id ").nth(1) {
            id_lines += 1;
            let id = rest.split(')').next().unwrap_or("");
            if let Some(n) = per_id.get_mut(id) {
                *n += 1;
            }
        }
    }
    let not_once = per_id.values().filter(|n| **n != 1).count();
    let _ = writeln!(
        out,
        "5xx responses: {}, with correlationId: {}, distinct: {}; log lines with a correlation id: {id_lines}; ids not logged exactly once: {not_once}",
        five.len(),
        ids.len(),
        distinct.len()
    );
    ok &= ids.len() == five.len() && distinct.len() == ids.len() && not_once == 0;
    if id_lines != five.len() {
        let _ = writeln!(
            out,
            "  note: {} log lines with a correlation id vs {} 5xx seen by clients",
            id_lines,
            five.len()
        );
        ok = false;
    }

    // Secrets in the log and stdout.
    let mut leaks = 0;
    for (name, text) in [("stderr log", log), ("stdout", stdout)] {
        for s in &ctx.secrets {
            let n = text.lines().filter(|l| l.contains(s.as_str())).count();
            if n > 0 {
                let _ = writeln!(out, "  SECRET in catalog {name}: {n} line(s)");
                leaks += n;
            }
        }
    }
    let _ = writeln!(
        out,
        "secrets ({} checked) in bodies: {}, in log/stdout lines: {leaks}",
        ctx.secrets.len(),
        outcomes
            .iter()
            .filter(|o| o.violations.iter().any(|v| v.contains("secret")))
            .count()
    );
    ok &= leaks == 0;
    let panics = log.lines().filter(|l| l.contains("panicked at")).count();
    let _ = writeln!(
        out,
        "panic messages in the log (from /demo/errors/panic): {panics}"
    );

    // Slow clients.
    let mut held = slow.held.clone();
    held.sort();
    let _ = writeln!(
        out,
        "slow clients: {} connections, held p50 {} ms / max {} ms, endings {:?}, connect errors {}",
        slow.connections,
        ms(percentile(&held, 0.5)),
        ms(held.last().copied().unwrap_or_default()),
        slow.endings,
        slow.connect_errors
    );
    ok &= slow.connect_errors == 0;

    // Memory.
    match (rss_after_warmup, rss_end) {
        (Some(w), Some(e)) => {
            let growth = (e as f64 - w as f64) / w as f64 * 100.0;
            let max = rss_samples.iter().map(|(_, r)| *r).max().unwrap_or(e);
            let _ = writeln!(
                out,
                "RSS after warm-up ({} s): {} KiB, at end: {} KiB ({growth:+.1}%), max: {max} KiB",
                args.warmup, w, e
            );
            ok &= growth.abs() <= 10.0;
            let every_10: Vec<String> = rss_samples
                .iter()
                .filter(|(sec, _)| sec % 10 == 0)
                .map(|(sec, rss)| format!("{sec}s:{rss}"))
                .collect();
            let _ = writeln!(out, "RSS KiB every 10 s: {}", every_10.join(" "));
        }
        _ => {
            let _ = writeln!(out, "RSS: not measured");
            ok = false;
        }
    }

    if args.timeline || !args.exec_at.is_empty() {
        let _ = writeln!(
            out,
            "\nsecond  requests  2xx  4xx  500  503  errors  db-5xx  max-ms"
        );
        let mut per_sec: BTreeMap<u64, Vec<&Outcome>> = BTreeMap::new();
        for o in outcomes {
            per_sec.entry(o.at.as_secs()).or_default().push(o);
        }
        for (sec, list) in &per_sec {
            let count = |f: &dyn Fn(&Outcome) -> bool| list.iter().filter(|o| f(o)).count();
            let _ = writeln!(
                out,
                "{sec:>6}  {:>8}  {:>3}  {:>3}  {:>3}  {:>3}  {:>6}  {:>6}  {:>6}",
                list.len(),
                count(&|o| o.status.is_some_and(|s| (200..300).contains(&s))),
                count(&|o| o.status.is_some_and(|s| (400..500).contains(&s))),
                count(&|o| o.status == Some(500)),
                count(&|o| o.status == Some(503)),
                count(&|o| o.error.is_some()),
                count(&|o| o.kind.uses_db() && o.status.is_some_and(|s| s >= 500)),
                ms(list.iter().map(|o| o.latency).max().unwrap_or_default()),
            );
        }
    }
    if let Some(until) = ctx.db_faults_until {
        let after = until.duration_since(ctx.start);
        let late: Vec<&Outcome> = outcomes
            .iter()
            .filter(|o| o.at >= after && o.kind.uses_db() && o.status.is_some_and(|s| s >= 500))
            .collect();
        let during = outcomes
            .iter()
            .filter(|o| o.at < after && o.kind.uses_db() && o.status.is_some_and(|s| s >= 500))
            .count();
        let _ = writeln!(
            out,
            "\ndatabase-route 5xx before {:?}: {during}; after (must be 0: service resumed): {}",
            after,
            late.len()
        );
        ok &= late.is_empty();
    }
    let _ = writeln!(out, "\nresult: {}", if ok { "PASS" } else { "FAIL" });
    ok
}
