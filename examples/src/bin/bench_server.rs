//! The HTTP bench server of `scripts/bench-http.sh` (BENCHMARKS.md): the
//! same tiny JSON handler twice on one port,
//!
//! - `/bare/books`: a plain actix-web handler, no middleware;
//! - `/bare/query/books`: the same with actix-web's own query extractor
//!   (`web::Query` of a plain struct with the same parameters, no
//!   validation): what a user of plain actix-web would write;
//! - `/full/books`: behind the whole stack of problem-core: the error
//!   pipeline (with its `Host` check), the versioning middleware (combined
//!   strategy, version headers on every response), the route table (404
//!   and 405 as problem documents) and a typed collection query extractor
//!   (`Collection<BookQuery>`) in the handler.
//!
//! Unknown paths answer actix-web's bare 404 under `/bare/` and a 404
//! problem document (`No route for GET <path>`) under `/full/`.
//!
//! `/full/page` and `/noetag/page` answer a 20-item JSON page through the
//! same stack, the first with the conditional-request layer (strong
//! `ETag`, `If-None-Match`), the second without it: the cost of the ETag.
//!
//! A counting global allocator counts every allocation (`alloc`,
//! `alloc_zeroed`, `realloc`); `GET /stats` answers `<allocations> <bytes>`
//! since start, so the bench script reads allocations per request of each
//! mode (the difference over a run divided by the requests wrk made).
//!
//! `BENCH_ADDR` (default `127.0.0.1:0`, loopback) and `BENCH_WORKERS`
//! (default 1) set the address and worker threads. Prints
//! `bench_server listening on http://<addr>` on stdout once bound.
//!
//! `cargo run --release -p examples --bin bench_server`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::http::header::ContentType;
use actix_web::{App, HttpResponse, HttpServer, web};
use problem_core::CollectionQuery;
use problem_core::query::{Collection, QueryConfig};
use problem_core::server::ProblemApp;
use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};

/// The system allocator, counting allocations and bytes.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are relaxed atomics that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

async fn stats() -> HttpResponse {
    HttpResponse::Ok().body(format!(
        "{} {}",
        ALLOCATIONS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed)
    ))
}

/// A page of 20 books, about 2 KB of JSON (the ETag's input).
fn page20() -> String {
    let books: Vec<serde_json::Value> = (1..=20)
        .map(|id| {
            serde_json::json!({
                "id": id,
                "title": format!("Night Rain, volume {id}"),
                "author": "Ada Example",
                "year": 1990 + id,
                "price": 12.5,
                "in_stock": true
            })
        })
        .collect();
    serde_json::json!({
        "data": books,
        "meta": {"page": 1, "per_page": 20, "total": 2000, "total_pages": 100},
        "links": {"self": "/books?page=1", "next": "/books?page=2"}
    })
    .to_string()
}

async fn page(body: web::Data<String>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(ContentType::json())
        .body(body.get_ref().clone())
}

/// The response body of both modes.
const BOOKS: &str =
    r#"[{"id":1,"title":"Dune","year":1965},{"id":2,"title":"Night Rain","year":2001}]"#;

/// The queryable fields of the bench collection.
#[derive(Debug, CollectionQuery)]
#[query(key = "id", max_page_size = 100)]
#[allow(dead_code)]
struct BookQuery {
    #[query(filter(eq, gt, lt, in), sort)]
    id: i64,
    #[query(filter(eq, contains), sort, search)]
    title: String,
    #[query(filter(eq, gte, lte), sort)]
    year: i32,
}

/// The tiny JSON handler.
fn books() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(ContentType::json())
        .body(BOOKS)
}

async fn bare_books() -> HttpResponse {
    books()
}

/// The query parameters of the bench request as a plain struct.
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct PlainQuery {
    page: Option<u32>,
    per_page: Option<u32>,
    sort: Option<String>,
    #[serde(rename = "year__gte")]
    year_gte: Option<i32>,
    #[serde(rename = "title__contains")]
    title_contains: Option<String>,
    q: Option<String>,
}

async fn bare_query_books(query: web::Query<PlainQuery>) -> HttpResponse {
    std::hint::black_box(&query);
    books()
}

async fn full_books(query: Collection<BookQuery>) -> HttpResponse {
    // The parsed query is what a real handler would pass to its store.
    std::hint::black_box(&query);
    books()
}

fn full_stack(page_body: String) -> Result<ProblemApp, Box<dyn std::error::Error>> {
    let versions = VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .build()?;
    let queries = QueryConfig::default();
    let page_body = web::Data::new(page_body);
    Ok(ProblemApp::builder()
        .tag("bench")
        .development(false)
        .allowed_hosts(["127.0.0.1", "localhost"])
        .versioning(versions)
        .configure(move |cfg| {
            cfg.app_data(queries.clone()).app_data(page_body.clone());
        })
        .routes(|r| r.get("/books", full_books).get("/page", page))
        .build()?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::var("BENCH_ADDR").unwrap_or_else(|_| "127.0.0.1:0".into());
    let workers: usize = match std::env::var("BENCH_WORKERS") {
        Ok(w) => w.parse()?,
        Err(_) => 1,
    };
    let full = full_stack(page20())?;
    actix_web::rt::System::new().block_on(async move {
        let server = HttpServer::new(move || {
            let full = full.clone();
            App::new()
                .service(
                    web::scope("/bare")
                        .route("/books", web::get().to(bare_books))
                        .route("/query/books", web::get().to(bare_query_books)),
                )
                .route("/stats", web::get().to(stats))
                .service(
                    web::scope("/full")
                        .configure(|cfg| full.configure(cfg))
                        .wrap(full.versioning())
                        .wrap(full.pipeline())
                        .wrap(full.conditional()),
                )
                .service(
                    web::scope("/noetag")
                        .configure(|cfg| full.configure(cfg))
                        .wrap(full.versioning())
                        .wrap(full.pipeline()),
                )
        })
        .workers(workers)
        .bind(&addr)?;
        for a in server.addrs() {
            println!("bench_server listening on http://{a}");
        }
        server.run().await
    })?;
    Ok(())
}
