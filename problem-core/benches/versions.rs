//! API versioning: resolve the version of a request (combined strategy,
//! version in the header) and apply the response headers. No anchor crate;
//! the target is an absolute one (< 200 ns), reported with the catalog's
//! configuration, twice: on cold responses built before the clock (one
//! allocation each, as criterion batches them) and on warm responses taken
//! from actix-web's response pool in the loop, minus the baseline of taking
//! and dropping one (what a server does for each request).
//!
//! Run: `cargo bench -p problem-core --bench versions`.

use std::hint::black_box;
use std::time::{Duration, UNIX_EPOCH};

use actix_web::HttpResponse;
use actix_web::test::TestRequest;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use problem_core::version::{Deprecation, V1, V2, V3, VersionConfig, VersionStrategy};

/// The catalog's configuration (examples/src/catalog/versions.rs): path,
/// header, query, media type; 3 current, 2 deprecated with a sunset, 1 removed.
fn config() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .deprecated_with(
        V2,
        Deprecation::new()
            .date(UNIX_EPOCH + Duration::from_secs(1_767_225_600))
            .sunset(UNIX_EPOCH + Duration::from_secs(1_830_297_599)),
    )
    .removed(V1)
    .neutral_path("/health")
    .build()
    .expect("valid configuration")
}

fn resolve_and_apply(c: &mut Criterion) {
    let config = config();
    let request = |version: &str| {
        TestRequest::get()
            .uri("/books?page=2")
            .insert_header(("X-API-Version", version))
            .insert_header(("Accept", "application/json"))
            .to_http_request()
    };
    let current = request("3");
    let deprecated = request("2");

    // Not timed: the answers are the configured ones.
    let mut res = HttpResponse::Ok().finish();
    let v = config.resolve_version(&current).expect("supported");
    config.apply_headers(&mut res, v);
    assert_eq!(res.headers().get("x-api-version").unwrap(), "3");
    assert_eq!(
        res.headers().get("x-api-supported-versions").unwrap(),
        "2, 3"
    );

    let mut g = c.benchmark_group("version_resolve_and_headers");
    for (name, req) in [
        ("header v3 (current)", &current),
        ("header v2 (deprecated, sunset)", &deprecated),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched_ref(
                || HttpResponse::Ok().finish(),
                |res| {
                    let v = config
                        .resolve_version(black_box(req))
                        .expect("supported version");
                    config.apply_headers(res, v);
                },
                BatchSize::SmallInput,
            )
        });
    }
    // The same work on a response taken from actix-web's pool and dropped
    // back into it in the loop, as a server does, next to the baseline of
    // taking and dropping the response alone: the difference is the
    // version's cost on a warm response (the batched inputs above are
    // cold, each its own allocation).
    g.bench_function("warm response: baseline (take + drop)", |b| {
        b.iter(|| black_box(HttpResponse::Ok().finish()))
    });
    for (name, req) in [
        ("warm response: header v3 (current)", &current),
        ("warm response: header v2 (deprecated, sunset)", &deprecated),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut res = HttpResponse::Ok().finish();
                let v = config
                    .resolve_version(black_box(req))
                    .expect("supported version");
                config.apply_headers(&mut res, v);
                black_box(res)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, resolve_and_apply);
criterion_main!(benches);
