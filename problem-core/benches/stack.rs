//! The whole request path in process, without the network: one request
//! through actix-web's service (`actix_web::test::call_service`) and its
//! body read, for each pair of the HTTP comparisons (BENCHMARKS.md), side
//! by side in one criterion group each:
//!
//! - success: the full stack of problem-core (error pipeline with its
//!   `Host` check, versioning, conditional requests, route table and a
//!   typed collection query) against a bare actix-web handler that does
//!   nothing and against one reading the same query with `web::Query` of a
//!   plain struct;
//! - 404: the problem document through the pipeline against actix-web's
//!   bare empty 404;
//! - ETag: a 20-item JSON page through the full stack with and without the
//!   conditional-request layer.
//!
//! `scripts/bench-http.sh` measures the same pairs over loopback HTTP with
//! wrk; this bench isolates the CPU cost of the stack.
//!
//! Run: `cargo bench -p problem-core --bench stack`.

use std::hint::black_box;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::ContentType;
use actix_web::{App, HttpResponse, test, web};
use criterion::{Criterion, criterion_group, criterion_main};
use problem_core::CollectionQuery;
use problem_core::query::{Collection, QueryConfig};
use problem_core::server::ProblemApp;
use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};

const QUERY: &str =
    "page=2&per_page=10&sort=-year,title&year__gte=1990&title__contains=Night&q=rain";

const BOOKS: &str =
    r#"[{"id":1,"title":"Dune","year":1965},{"id":2,"title":"Night Rain","year":2001}]"#;

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

fn books() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(ContentType::json())
        .body(BOOKS)
}

async fn bare() -> HttpResponse {
    books()
}

async fn bare_query(q: web::Query<PlainQuery>) -> HttpResponse {
    black_box(&q);
    books()
}

async fn full(q: Collection<BookQuery>) -> HttpResponse {
    black_box(&q);
    books()
}

fn page20() -> String {
    let items: Vec<serde_json::Value> = (1..=20)
        .map(|id| {
            serde_json::json!({"id": id, "title": format!("Night Rain, volume {id}"),
                "author": "Ada Example", "year": 1990 + id, "price": 12.5, "in_stock": true})
        })
        .collect();
    serde_json::json!({"data": items, "meta": {"page": 1, "per_page": 20, "total": 2000,
        "total_pages": 100}, "links": {"self": "/books?page=1", "next": "/books?page=2"}})
    .to_string()
}

async fn page(body: web::Data<String>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(ContentType::json())
        .body(body.get_ref().clone())
}

fn stack() -> ProblemApp {
    let versions = VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .build()
    .expect("versions");
    let queries = QueryConfig::default();
    let body = web::Data::new(page20());
    ProblemApp::builder()
        .tag("bench")
        .development(false)
        .allowed_hosts(["localhost"])
        .versioning(versions)
        .configure(move |cfg| {
            cfg.app_data(queries.clone()).app_data(body.clone());
        })
        .routes(|r| r.get("/books", full).get("/page", page))
        .build()
        .expect("stack")
}

/// One request, its status checked and its body read.
async fn one<S, B>(app: &S, uri: &str, status: u16)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let req = test::TestRequest::get()
        .uri(uri)
        .insert_header(("Host", "localhost"))
        .insert_header(("X-API-Version", "3"))
        .to_request();
    let res = test::call_service(app, req).await;
    assert_eq!(res.status().as_u16(), status);
    black_box(test::read_body(res).await);
}

fn http_stack(c: &mut Criterion) {
    let rt = actix_web::rt::System::new();
    let app = stack();
    let with_etag = rt.block_on(test::init_service(
        App::new()
            .configure(|cfg| app.configure(cfg))
            .wrap(app.versioning())
            .wrap(app.pipeline())
            .wrap(app.conditional()),
    ));
    let without_etag = rt.block_on(test::init_service(
        App::new()
            .configure(|cfg| app.configure(cfg))
            .wrap(app.versioning())
            .wrap(app.pipeline()),
    ));
    let plain = rt.block_on(test::init_service(
        App::new()
            .route("/bare/books", web::get().to(bare))
            .route("/bare/query/books", web::get().to(bare_query)),
    ));
    let full_uri = format!("/books?{QUERY}");
    let bare_uri = format!("/bare/books?{QUERY}");
    let query_uri = format!("/bare/query/books?{QUERY}");

    let mut g = c.benchmark_group("http_success");
    g.bench_function("full stack, typed collection query", |b| {
        b.iter(|| rt.block_on(one(&with_etag, &full_uri, 200)))
    });
    g.bench_function("bare actix-web, do-nothing handler", |b| {
        b.iter(|| rt.block_on(one(&plain, &bare_uri, 200)))
    });
    g.bench_function("bare actix-web, web::Query of a plain struct", |b| {
        b.iter(|| rt.block_on(one(&plain, &query_uri, 200)))
    });
    g.finish();

    let mut g = c.benchmark_group("http_404");
    g.bench_function("problem document through the pipeline", |b| {
        b.iter(|| rt.block_on(one(&with_etag, "/nope", 404)))
    });
    g.bench_function("actix-web's bare empty 404", |b| {
        b.iter(|| rt.block_on(one(&plain, "/nope", 404)))
    });
    g.finish();

    let mut g = c.benchmark_group("http_etag_page20");
    g.bench_function("with the conditional-request layer (ETag)", |b| {
        b.iter(|| rt.block_on(one(&with_etag, "/page", 200)))
    });
    g.bench_function("without it", |b| {
        b.iter(|| rt.block_on(one(&without_etag, "/page", 200)))
    });
    g.finish();
}

criterion_group!(benches, http_stack);
criterion_main!(benches);
