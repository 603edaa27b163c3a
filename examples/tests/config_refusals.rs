//! A misconfigured catalog refuses to start, with one line naming the
//! variable and what to fix, exit status 1: never a panic, an aborted
//! allocation, or a server that answers every request 421. Found by an
//! outside audit: 513 workers panicked in actix-server, a billion seed rows
//! aborted on a 160 GB allocation, `CATALOG_ALLOWED_HOSTS='*'` started and
//! refused every request, equal admin and editor tokens made the editor an
//! admin, zero limits were reported by their builder names, and a `RUST_LOG`
//! that is no filter was silently replaced by the default.

use std::process::{Command, Stdio};

/// Runs the catalog with `vars` and returns its exit code and the last
/// line of its stderr; it must exit on its own (before any database).
fn refusal(vars: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.env("CATALOG_ADDR", "127.0.0.1:0")
        .env("CATALOG_ADMIN_TOKEN", "admin-token-for-tests-0123456789")
        .env("CATALOG_EDITOR_TOKEN", "editor-token-for-tests-012345678")
        .env("CATALOG_SEED_ROWS", "0")
        .env_remove("DATABASE_URL")
        .env_remove("CATALOG_ALLOWED_HOSTS")
        .env_remove("CATALOG_WORKERS")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the catalog binary starts");
    // Bounded: a catalog that did start is killed after 20 s.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the catalog started with {vars:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    (
        out.status.code(),
        stderr.lines().last().unwrap_or_default().to_owned(),
    )
}

#[test]
fn each_bad_variable_is_refused_by_name() {
    for (vars, line) in [
        (
            &[("CATALOG_WORKERS", "513")][..],
            "catalog: CATALOG_WORKERS: 513 is not from 1 to 512",
        ),
        (
            &[("CATALOG_WORKERS", "0")],
            "catalog: CATALOG_WORKERS: 0 is not from 1 to 512",
        ),
        (
            &[("CATALOG_SEED_ROWS", "1000000000")],
            "catalog: CATALOG_SEED_ROWS: 1000000000 is more than 1000000, the most the catalog seeds",
        ),
        (
            &[("CATALOG_ALLOWED_HOSTS", "*")],
            "catalog: CATALOG_ALLOWED_HOSTS: invalid listen option: allowed host `*` must be a host name or address, optionally with `:port`: wildcards are not supported, list each host",
        ),
        (
            &[("CATALOG_ALLOWED_HOSTS", "localhost:0")],
            "catalog: CATALOG_ALLOWED_HOSTS: invalid listen option: allowed host `localhost:0` has port 0, which no request names: give the port the server is reached on, or none",
        ),
        (
            &[
                ("CATALOG_ADMIN_TOKEN", "the-same-token"),
                ("CATALOG_EDITOR_TOKEN", "the-same-token"),
            ],
            "catalog: CATALOG_EDITOR_TOKEN: equals CATALOG_ADMIN_TOKEN, so the editor would be an admin: give each role its own token",
        ),
        (
            &[("CATALOG_MAX_BODY_BYTES", "0")],
            "catalog: CATALOG_MAX_BODY_BYTES: must be at least 1",
        ),
        (
            &[("CATALOG_BODY_TIMEOUT_SECS", "0")],
            "catalog: CATALOG_BODY_TIMEOUT_SECS: must be at least 1",
        ),
        (
            &[("CATALOG_ADDR", "abc")],
            "catalog: CATALOG_ADDR: `abc`: invalid socket address (write a socket address such as `127.0.0.1:8080`)",
        ),
        (
            &[("DATABASE_URL", "mysql://catalog:s3cret@db.internal/catalog")],
            "catalog: DATABASE_URL: unsupported scheme `mysql`: use `postgres://...` or `sqlite:...`",
        ),
        (
            &[("RUST_LOG", "info,sqlx=loud")],
            "catalog: RUST_LOG: error parsing level filter: expected one of \"off\", \"error\", \"warn\", \"info\", \"debug\", \"trace\", or a number 0-5: write comma-separated directives such as `info` or `info,examples=debug`, or unset it",
        ),
    ] {
        assert_eq!(refusal(vars), (Some(1), line.to_owned()), "{vars:?}");
    }
}
