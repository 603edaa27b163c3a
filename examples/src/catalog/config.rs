//! The catalog's settings, read from the environment once at start.

use std::env;

use problem_core::server::MAX_WORKERS;
use rand::RngCore;

/// Settings of the catalog service (see the README for each variable).
#[derive(Clone)]
pub struct Config {
    /// `DATABASE_URL`: `sqlite:...` or `postgres://...`; unset means an
    /// in-memory SQLite database.
    pub database_url: Option<String>,
    /// `CATALOG_ADDR`, default `127.0.0.1:8080`.
    pub addr: String,
    /// `CATALOG_SEED_ROWS`, default 10000.
    pub seed_rows: u32,
    /// `CATALOG_ALLOWED_HOSTS`, default `localhost,127.0.0.1`.
    pub allowed_hosts: Vec<String>,
    /// `CATALOG_MAX_BODY_BYTES`, default 1048576.
    pub max_body_bytes: usize,
    /// `CATALOG_BODY_TIMEOUT_SECS`: seconds a request body may take to
    /// arrive, from its first read, before a 408 (default 30).
    pub body_timeout_secs: u64,
    /// `CATALOG_CURSOR_KEY`: HMAC key of cursors; random per start when unset.
    pub cursor_key: Vec<u8>,
    /// `CATALOG_ADMIN_TOKEN`.
    pub admin_token: String,
    /// `CATALOG_EDITOR_TOKEN`.
    pub editor_token: String,
    /// `NODE_ENV=development`.
    pub development: bool,
    /// `CATALOG_WORKERS`: worker threads; default actix-web's.
    pub workers: Option<usize>,
    /// Tokens that were generated because their variable was unset, to print once.
    pub generated: Vec<(&'static str, String)>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("seed_rows", &self.seed_rows)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("development", &self.development)
            .finish_non_exhaustive()
    }
}

/// A setting could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {message}")]
pub struct ConfigError {
    /// The variable.
    pub name: &'static str,
    /// What is wrong.
    pub message: String,
}

fn var(name: &str) -> Option<String> {
    env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn parsed<T: std::str::FromStr>(name: &'static str, default: T) -> Result<T, ConfigError>
where
    T::Err: std::fmt::Display,
{
    match var(name) {
        None => Ok(default),
        Some(v) => v.trim().parse().map_err(|e: T::Err| ConfigError {
            name,
            message: format!("`{v}`: {e}"),
        }),
    }
}

fn random_token() -> String {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The most books `CATALOG_SEED_ROWS` may ask for: the seed is built in
/// memory (about 160 bytes a book) before it is written, so a billion would
/// abort the process on an allocation failure rather than name the
/// variable.
pub const MAX_SEED_ROWS: u32 = 1_000_000;

/// A [`ConfigError`] for `name` unless `ok`.
fn check(
    ok: bool,
    name: &'static str,
    message: impl FnOnce() -> String,
) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError {
            name,
            message: message(),
        })
    }
}

impl Config {
    /// Reads the settings.
    ///
    /// # Errors
    /// [`ConfigError`], naming the variable, for one that does not parse or
    /// that the server would refuse (a zero body limit, timeout or worker
    /// count, more than 512 workers, an address that is no socket address,
    /// an allowed host the pipeline refuses, more than [`MAX_SEED_ROWS`]
    /// seed rows), and for an editor token equal to the admin token (the
    /// editor would be an admin).
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut generated = Vec::new();
        let mut token = |name: &'static str| match var(name) {
            Some(t) => t,
            None => {
                let t = random_token();
                generated.push((name, t.clone()));
                t
            }
        };
        let admin_token = token("CATALOG_ADMIN_TOKEN");
        let editor_token = token("CATALOG_EDITOR_TOKEN");
        let cursor_key = match var("CATALOG_CURSOR_KEY") {
            // Keys shorter than 32 bytes are stretched with SHA-256 (the
            // query runtime requires 32-byte HMAC keys).
            Some(k) if k.len() < 32 => {
                use sha2::Digest;
                sha2::Sha256::digest(k.as_bytes()).to_vec()
            }
            Some(k) => k.into_bytes(),
            None => {
                let mut k = vec![0u8; 32];
                rand::rng().fill_bytes(&mut k);
                k
            }
        };
        check(editor_token != admin_token, "CATALOG_EDITOR_TOKEN", || {
            "equals CATALOG_ADMIN_TOKEN, so the editor would be an admin: give each role its own token".to_owned()
        })?;
        let addr = var("CATALOG_ADDR").unwrap_or_else(|| "127.0.0.1:8080".into());
        if let Err(e) = std::net::ToSocketAddrs::to_socket_addrs(addr.as_str()) {
            return Err(ConfigError {
                name: "CATALOG_ADDR",
                message: format!("`{addr}`: {e} (write a socket address such as `127.0.0.1:8080`)"),
            });
        }
        let seed_rows = parsed("CATALOG_SEED_ROWS", 10_000)?;
        check(seed_rows <= MAX_SEED_ROWS, "CATALOG_SEED_ROWS", || {
            format!("{seed_rows} is more than {MAX_SEED_ROWS}, the most the catalog seeds")
        })?;
        let allowed_hosts: Vec<String> = var("CATALOG_ALLOWED_HOSTS")
            .unwrap_or_else(|| "localhost,127.0.0.1".into())
            .split(',')
            .map(|h| h.trim().to_owned())
            .filter(|h| !h.is_empty())
            .collect();
        // The pipeline's own rules, named after the variable.
        if let Err(e) = problem_core::pipeline::AllowedHosts::new(&allowed_hosts) {
            return Err(ConfigError {
                name: "CATALOG_ALLOWED_HOSTS",
                message: e.to_string(),
            });
        }
        let max_body_bytes = parsed("CATALOG_MAX_BODY_BYTES", 1_048_576)?;
        check(max_body_bytes > 0, "CATALOG_MAX_BODY_BYTES", || {
            "must be at least 1".to_owned()
        })?;
        let body_timeout_secs = parsed("CATALOG_BODY_TIMEOUT_SECS", 30)?;
        check(body_timeout_secs > 0, "CATALOG_BODY_TIMEOUT_SECS", || {
            "must be at least 1".to_owned()
        })?;
        let workers = match var("CATALOG_WORKERS") {
            None => None,
            Some(_) => {
                let n = parsed("CATALOG_WORKERS", 1)?;
                check((1..=MAX_WORKERS).contains(&n), "CATALOG_WORKERS", || {
                    format!("{n} is not from 1 to {MAX_WORKERS}")
                })?;
                Some(n)
            }
        };
        let database_url = var("DATABASE_URL");
        if let Some(scheme) = database_url.as_deref().and_then(super::db::other_scheme) {
            // Refused here, beside the other variables, rather than when
            // the pool is opened; the URL itself (a password) is not shown.
            return Err(ConfigError {
                name: "DATABASE_URL",
                message: format!(
                    "unsupported scheme `{scheme}`: use `postgres://...` or `sqlite:...`"
                ),
            });
        }
        Ok(Self {
            database_url,
            addr,
            seed_rows,
            allowed_hosts,
            max_body_bytes,
            body_timeout_secs,
            cursor_key,
            admin_token,
            editor_token,
            development: var("NODE_ENV").is_some_and(|v| v == "development"),
            workers,
            generated,
        })
    }
}
