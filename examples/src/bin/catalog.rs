//! The catalog service: `cargo run --release -p examples --bin catalog`.

use examples::catalog::{self, Config, Db};
use problem_core::server::ListenOptions;

fn main() -> std::process::ExitCode {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // actix-http logs a request it cannot parse (a client's
                // 400, answered before any handler) at `error` as a "stream
                // error"; 4xx are not logged (spec, "Logging and
                // correlation ids"), so its dispatcher is quiet by default.
                // sqlx logs a failed pool ping at `info` and slow statements
                // at `warn`, unredacted, beside the request's own 5xx line:
                // only its errors by default.
                .unwrap_or_else(|_| {
                    tracing_subscriber::EnvFilter::new(
                        "info,actix_http::h1::dispatcher=off,sqlx=error",
                    )
                }),
        )
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
