//! The catalog service: `cargo run --release -p examples --bin catalog`.

use examples::catalog::{self, Config, Db};
use problem_core::server::ListenOptions;

fn main() -> std::process::ExitCode {
    use std::io::IsTerminal;
    // actix-http logs a request it cannot parse (a client's 400, answered
    // before any handler) at `error` as a "stream error"; 4xx are not logged
    // (spec, "Logging and correlation ids"), so its dispatcher is quiet by
    // default. sqlx logs a failed pool ping at `info` and slow statements at
    // `warn`, unredacted, beside the request's own 5xx line: only its errors
    // by default. A `RUST_LOG` that is set but cannot be read is refused by
    // name, like every other variable, not silently replaced.
    let default =
        || tracing_subscriber::EnvFilter::new("info,actix_http::h1::dispatcher=off,sqlx=error");
    let filter = match std::env::var_os("RUST_LOG") {
        // Empty counts as unset, as for every other variable.
        None => default(),
        Some(value) if value.to_str().is_some_and(|v| v.trim().is_empty()) => default(),
        Some(value) => match value
            .to_str()
            .ok_or_else(|| "is not valid UTF-8".to_owned())
            .and_then(|v| {
                // Directives that are all empty (`,`) show errors only, not
                // nothing; directives naming targets (`sqlx=warn`) filter as
                // RUST_LOG always does (the targets not named are off).
                tracing_subscriber::EnvFilter::builder()
                    .with_default_directive(tracing_subscriber::filter::LevelFilter::ERROR.into())
                    .parse(v)
                    .map_err(|e| e.to_string())
            }) {
            Ok(filter) => filter,
            Err(e) => {
                eprintln!(
                    "catalog: RUST_LOG: {e}: write comma-separated directives such as `info` or `info,examples=debug`, or unset it"
                );
                return std::process::ExitCode::FAILURE;
            }
        },
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter)
        .init();
    let result = actix_web::rt::System::new().block_on(run());
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("catalog: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::from_env()?;
    for (name, token) in &config.generated {
        // Printed once, on stdout (never in the log), for the operator.
        println!("{name} was not set; generated for this run: {token}");
    }
    let db = Db::connect(config.database_url.as_deref()).await?;
    db.prepare(config.seed_rows).await?;
    let app = catalog::app(&config, db)?;
    let (server, addrs) = app.bind(
        &config.addr,
        ListenOptions {
            workers: config.workers,
        },
    )?;
    for addr in addrs {
        tracing::info!("catalog listening on http://{addr}");
    }
    server.await?;
    Ok(())
}
