//! Starts the built catalog binary on a free loopback port and talks to it.

#![allow(dead_code)]

pub mod hostile;
pub mod lists;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

pub const ADMIN: &str = "admin-token-for-tests-0123456789";
pub const EDITOR: &str = "editor-token-for-tests-012345678";
pub const CURSOR_KEY: &str = "cursor-key-for-tests-0123456789abcdef";

/// A running catalog; killed on drop.
pub struct Catalog {
    child: Child,
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    pub client: reqwest::Client,
}

impl Catalog {
    /// Starts the catalog with extra environment variables (an empty value
    /// removes one).
    pub fn start(extra: &[(&str, &str)]) -> Self {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
        cmd.env("CATALOG_ADDR", "127.0.0.1:0")
            .env("CATALOG_SEED_ROWS", "3000")
            .env("CATALOG_ADMIN_TOKEN", ADMIN)
            .env("CATALOG_EDITOR_TOKEN", EDITOR)
            .env("CATALOG_CURSOR_KEY", CURSOR_KEY)
            .env("CATALOG_WORKERS", "2")
            .env("RUST_LOG", "info")
            .env_remove("NODE_ENV")
            .env_remove("DATABASE_URL")
            .env_remove("CATALOG_ALLOWED_HOSTS")
            .env_remove("CATALOG_MAX_BODY_BYTES")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in extra {
            // An empty value removes the variable (e.g. `RUST_LOG`, for the
            // catalog's own default filter).
            if v.is_empty() {
                cmd.env_remove(k);
            } else {
                cmd.env(k, v);
            }
        }
        let mut child = cmd.spawn().expect("the catalog binary starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("catalog listening on http://").nth(1)
                    && let (Some(tx), Ok(addr)) = (tx.take(), rest.trim().parse::<SocketAddr>())
                {
                    let _ = tx.send(addr);
                }
                sink.lock().unwrap().push(line);
            }
        });
        let addr = match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(addr) => addr,
            Err(_) => {
                let _ = child.kill();
                panic!("the catalog did not start: {:#?}", log.lock().unwrap());
            }
        };
        // Loopback only: no proxy from the environment is ever used.
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(20))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Self {
            child,
            addr,
            log,
            client,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.get(self.url(path))
    }

    /// GET `path`: status, headers and JSON body ([`json`]).
    pub async fn get_json(
        &self,
        path: &str,
    ) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
        json(self.get(path).send().await.unwrap()).await
    }

    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.client.request(method, self.url(path))
    }

    /// Every stderr line so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Waits (bounded) until a log line contains `needle`.
    pub fn wait_for_log(&self, needle: &str) -> Vec<String> {
        for _ in 0..100 {
            let lines: Vec<String> = self
                .log()
                .into_iter()
                .filter(|l| l.contains(needle))
                .collect();
            if !lines.is_empty() {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Vec::new()
    }

    /// Sends raw bytes and reads the reply until the server closes.
    pub async fn raw(&self, request: &[u8]) -> RawReply {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        tokio::time::timeout(Duration::from_secs(20), async {
            let mut stream = tokio::net::TcpStream::connect(self.addr).await.unwrap();
            stream.write_all(request).await.unwrap();
            let mut buf = Vec::new();
            let _ = stream.read_to_end(&mut buf).await;
            RawReply::parse(&buf)
        })
        .await
        .expect("the catalog answered within 20 s")
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct RawReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawReply {
    fn parse(buf: &[u8]) -> Self {
        let end = buf
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a complete head");
        let head = String::from_utf8_lossy(&buf[..end]);
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        Self {
            status,
            headers,
            body: buf[end + 4..].to_vec(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `TEST_POSTGRES_URL` (set by `.ci/run`), or `None` with a line on
/// stderr: the PostgreSQL test is skipped. With `REQUIRE_POSTGRES=1` a
/// missing URL fails the test instead.
pub fn postgres_url() -> Option<String> {
    match std::env::var("TEST_POSTGRES_URL") {
        Ok(url) => Some(url),
        Err(_) => {
            assert!(
                std::env::var("REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "REQUIRE_POSTGRES=1 but TEST_POSTGRES_URL is not set"
            );
            eprintln!("TEST_POSTGRES_URL is not set: skipping");
            None
        }
    }
}

/// `url` with the query parameter `param` (`options=...`) added, after
/// the parameters it may already have.
pub fn with_param(url: &str, param: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}{param}")
}

/// Drops the catalog's tables on the PostgreSQL server at `url`, so the
/// next catalog started on it creates and seeds them afresh.
pub async fn reset_postgres(url: &str) {
    let pool = sqlx::PgPool::connect(url)
        .await
        .expect("PostgreSQL is reachable");
    sqlx::query("DROP TABLE IF EXISTS books, covers")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// Status, headers and JSON body of a response.
pub async fn json(res: reqwest::Response) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let bytes = res.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "status {status}: not JSON ({e}): {:?}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, headers, body)
}

pub fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

pub const PROBLEM_JSON: &str = "application/problem+json; charset=utf-8";

/// A SQLite database file in a directory of its own under the temporary
/// directory, removed on drop.
pub struct SqliteFile {
    dir: std::path::PathBuf,
    file: std::path::PathBuf,
}

impl SqliteFile {
    /// `<temp>/<name>-<pid>/catalog.db` (not created yet).
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("catalog.db");
        Self { dir, file }
    }

    /// The `DATABASE_URL` of the file.
    pub fn url(&self) -> String {
        format!("sqlite:{}", self.file.display())
    }

    /// Removes the database and its journal files: the next start finds
    /// no database.
    pub fn reset(&self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.file.display()));
        }
    }
}

impl Drop for SqliteFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
