//! Worst-case latency of the catalog under its query limits (a benchmark,
//! not a test; figures in RELIABILITY.md): the slowest requests the limits
//! allow (64 filters of 256 characters, 20 search terms of 256 characters,
//! the largest `__in`, all at once, offset and keyset), each sent `--runs`
//! times to a catalog started on loopback with 10,000 rows, on SQLite or on
//! the PostgreSQL of `--database-url`.
//!
//! Usage: `cargo run --release -p examples --example worst_case -- --catalog
//! target/release/catalog [--database-url postgres://..] [--runs 20]`
//! (or `scripts/bench-worst-case.sh`). Prints one line per request: min,
//! median, p95 and max latency, and the status; exits 1 when any answer is
//! not a 200 or takes 1 s or more.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn arg(name: &str) -> Option<String> {
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == name {
            return args.next();
        }
    }
    None
}

/// The worst requests, by name.
fn requests() -> Vec<(&'static str, String)> {
    let long = |c: &str| c.repeat(256);
    let filters: Vec<String> = (0..64)
        .map(|i| match i % 4 {
            // `a%_` decoded: 85 x 3 + 1 = 256 characters, LIKE wildcards escaped.
            0 => format!("title__contains={}a", "a%25_".repeat(85)),
            1 => format!("author__starts_with={}", long("b")),
            2 => format!("title__ends_with={}", long("c")),
            _ => format!("subtitle__contains={}", long("d")),
        })
        .collect();
    let terms = (0..20)
        .map(|i| format!("{}{i:02}", "Ma".repeat(127)))
        .collect::<Vec<_>>()
        .join("+");
    let unicode_terms = (0..20)
        .map(|_| "%C3%A1".repeat(256))
        .collect::<Vec<_>>()
        .join("+");
    let list = (0..100)
        .map(|i| format!("{i:0>256}"))
        .collect::<Vec<_>>()
        .join(",");
    let mut all: Vec<String> = filters.iter().take(63).cloned().collect();
    all.push(format!("isbn__in={list}"));
    all.push(format!("q={terms}"));
    vec![
        ("64 filters x 256 chars", filters.join("&")),
        ("20 search terms x 256 chars", format!("q={terms}")),
        (
            "20 non-ASCII terms x 256 chars",
            format!("q={unicode_terms}"),
        ),
        (
            "isbn__in: 100 values x 256 chars",
            format!("isbn__in={list}"),
        ),
        ("all at once, offset + count", all.join("&")),
        (
            "all at once, keyset (sort=-price,title)",
            format!("{}&sort=-price,title&limit=100", all.join("&")),
        ),
        (
            "search, keyset, last page (sort=-rating,author)",
            format!("q={}&sort=-rating,author&limit=100", "a+e+i"),
        ),
    ]
}

fn main() -> std::process::ExitCode {
    let catalog = arg("--catalog").unwrap_or_else(|| "target/release/catalog".into());
    let runs: usize = arg("--runs").and_then(|r| r.parse().ok()).unwrap_or(20);
    let database_url = arg("--database-url");
    let mut cmd = Command::new(&catalog);
    cmd.env("CATALOG_ADDR", "127.0.0.1:0")
        .env("CATALOG_SEED_ROWS", "10000")
        .env("CATALOG_WORKERS", "1")
        .env("RUST_LOG", "info")
        .env_remove("NODE_ENV")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    match &database_url {
        Some(u) => cmd.env("DATABASE_URL", u),
        None => cmd.env_remove("DATABASE_URL"),
    };
    let mut child = cmd.spawn().expect("the catalog starts");
    let stderr = child.stderr.take().expect("piped");
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let Some(Ok(line)) = lines.next() else {
            let _ = child.kill();
            let _ = child.wait();
            eprintln!("the catalog exited before listening");
            return std::process::ExitCode::FAILURE;
        };
        if let Some(rest) = line.split("catalog listening on http://").nth(1) {
            break rest.trim().to_owned();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let db = if database_url.is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    println!(
        "worst-case requests on {db}, 10,000 rows, {runs} runs each (ms: min / median / p95 / max)"
    );
    let mut ok = true;
    rt.block_on(async {
        for (name, query) in requests() {
            let url = format!("http://{addr}/books?{query}");
            let mut times = Vec::with_capacity(runs);
            let mut statuses = std::collections::BTreeSet::new();
            for _ in 0..runs {
                let sent = Instant::now();
                let status = match client.get(&url).send().await {
                    Ok(r) => {
                        let s = r.status().as_u16();
                        let _ = r.bytes().await;
                        s
                    }
                    Err(_) => 0,
                };
                times.push(sent.elapsed());
                statuses.insert(status);
            }
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
            let max = times[times.len() - 1];
            println!(
                "{name:<48} {:>8.2} / {:>8.2} / {:>8.2} / {:>8.2}  status {statuses:?}  ({} bytes of query)",
                ms(times[0]),
                ms(times[times.len() / 2]),
                ms(p95),
                ms(max),
                query.len()
            );
            if statuses != std::collections::BTreeSet::from([200]) || max >= Duration::from_secs(1) {
                ok = false;
            }
        }
    });
    let _ = child.kill();
    let _ = child.wait();
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        println!("FAILED: an answer was not a 200 or took 1 s or more");
        std::process::ExitCode::FAILURE
    }
}
