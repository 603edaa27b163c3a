//! The catalog service: books on SQLite or PostgreSQL behind the error
//! pipeline, collection query conventions and API versioning.
//!
//! Start it with `cargo run --release -p examples --bin catalog`; settings
//! are environment variables ([`Config`]).

pub mod auth;
pub mod books;
pub mod config;
pub mod db;
pub mod demo;
pub mod list;
pub mod model;
pub mod openapi;
pub mod seed;
pub mod versions;

use actix_web::web;
use problem_core::HttpConfigError;
use problem_core::query::QueryConfig;
use problem_core::server::ProblemApp;
use problem_core::version;

pub use config::Config;
pub use db::{CoverWrite, Db, Replacing};

/// Query parameters `GET /books` accepts and ignores: cache busters (`_`)
/// and tracking parameters (`utm_source`, `utm_medium`, ...).
pub const TOLERATED_PARAMETERS: [&str; 2] = ["_", "utm_*"];

/// Builds the application from its settings and database.
///
/// # Errors
/// [`HttpConfigError`] for a setup mistake (e.g. a bad allowed host).
pub fn app(config: &Config, db: Db) -> Result<ProblemApp, HttpConfigError> {
    let tokens = auth::Tokens::new(&config.admin_token, &config.editor_token);
    let data = web::Data::new(db);
    let queries = QueryConfig::default()
        .cursor_keys([config.cursor_key.clone()])?
        .tolerate(TOLERATED_PARAMETERS)?;
    let docs = web::Data::new(openapi::documents(&versions::config()?)?);
    ProblemApp::builder()
        .tag("catalog")
        .development(config.development)
        .allowed_hosts(config.allowed_hosts.clone())
        .max_request_body_size(config.max_body_bytes)
        .body_timeout(std::time::Duration::from_secs(config.body_timeout_secs))
        .versioning(versions::config()?)
        .cache_control("no-cache")
        .problem_type::<books::DuplicateIsbn>()
        .configure(move |cfg| {
            cfg.app_data(data.clone())
                .app_data(queries.clone())
                .app_data(docs.clone());
        })
        .routes(|r| {
            r.get(
                "/books",
                version::versioned![list::list_books_v2, list::list_books_v3],
            )
            .get("/books/{id}", books::get_book)
            .post("/books", books::create_book)
            .guarded(tokens.editor_or_admin())
            .delete("/books/{id}", books::delete_book)
            .guarded(tokens.admin_only())
            .put("/books/{id}/cover", books::put_cover)
            .guarded(tokens.editor_or_admin())
            .get("/books/{id}/cover", books::get_cover)
            .get("/health", books::health)
            .get("/openapi.json", openapi::openapi_json_handler)
            .get("/demo/errors/{kind}", demo::demo_error)
        })
        .build()
}
