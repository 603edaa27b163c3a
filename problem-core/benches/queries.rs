//! Collection queries: a 9-parameter query string parsed and validated into
//! a derived typed query, against `serde_urlencoded` and `serde_qs`
//! deserializing the same string into a plain struct (no validation), in
//! one criterion group; a keyset cursor encoded, verified and decoded, and
//! a backward page from a previous cursor; `Prefer: count=estimated`
//! read for an offset page; and a 20-item page rendered with a sparse
//! fieldset, against the `serde_json::Value` round trip it replaced and
//! against `serde_json::to_vec` of the bare items.
//!
//! Run: `cargo bench -p problem-core --bench queries`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use problem_core::CollectionQuery;
use problem_core::query::{Page, QueryConfig, TypedQuery};
use serde::{Deserialize, Serialize};

/// The query string of the issue: offset pagination, a two-field sort,
/// four filters (`gte`, `in`, `contains`, `eq`), a search and a sparse
/// fieldset.
const QUERY: &str = "page=3&per_page=50&sort=-year,title&year__gte=1990&genre__in=poetry,drama&title__contains=night&q=rain&fields=id,title,year&in_stock=true";

/// The catalog's book query (examples/src/catalog/list.rs).
#[derive(Debug, CollectionQuery)]
#[query(key = "id", default_sort = "id", max_page_size = 100)]
#[allow(dead_code)]
struct BookQuery {
    #[query(filter(eq, ne, in, not_in, gt, gte, lt, lte), sort)]
    id: i64,
    #[query(filter(eq, in))]
    isbn: String,
    #[query(filter(eq, contains, starts_with, ends_with), sort, search)]
    title: String,
    #[query(filter(eq, ne, in, not_in, contains, starts_with), sort, search)]
    author: String,
    #[query(filter(eq, ne, in, not_in))]
    genre: String,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    year: i32,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    price: f64,
    #[query(filter(eq))]
    in_stock: bool,
}

/// What a user of `serde_urlencoded` / `serde_qs` would write: the same
/// nine values in a plain struct, lists left as text, nothing checked.
#[derive(Debug, Deserialize, PartialEq)]
struct PlainQuery {
    page: u32,
    per_page: u32,
    sort: String,
    #[serde(rename = "year__gte")]
    year_gte: i32,
    #[serde(rename = "genre__in")]
    genre_in: String,
    #[serde(rename = "title__contains")]
    title_contains: String,
    q: String,
    fields: String,
    in_stock: bool,
}

fn ours(config: &QueryConfig) -> TypedQuery<BookQuery> {
    TypedQuery::<BookQuery>::from_query_str(QUERY, config).expect("valid query")
}

fn serde_urlencoded_plain() -> PlainQuery {
    serde_urlencoded::from_str(QUERY).expect("valid query")
}

fn serde_qs_plain() -> PlainQuery {
    serde_qs::from_str(QUERY).expect("valid query")
}

fn collection_query(c: &mut Criterion) {
    let config = QueryConfig::default();
    // Not timed: every side reads the nine values.
    let q = ours(&config);
    assert_eq!(q.pagination().offset(), 100);
    assert_eq!(q.filter().conditions().len(), 4);
    assert_eq!(q.order().to_string(), "-year,title,id");
    assert_eq!(serde_urlencoded_plain(), serde_qs_plain());
    assert_eq!(serde_urlencoded_plain().per_page, 50);

    let mut g = c.benchmark_group("collection_query_9_params");
    g.bench_function("ours (parse + validate, typed)", |b| {
        b.iter(|| black_box(ours(black_box(&config))))
    });
    g.bench_function("serde_urlencoded (plain struct)", |b| {
        b.iter(|| black_box(serde_urlencoded_plain()))
    });
    g.bench_function("serde_qs (plain struct)", |b| {
        b.iter(|| black_box(serde_qs_plain()))
    });
    g.finish();
}

/// A row as the database returns it.
#[derive(Serialize)]
struct Row {
    id: i64,
    title: &'static str,
    year: i32,
}

const CURSOR_QUERY: &str = "sort=-year,title&limit=1";

fn cursor(c: &mut Criterion) {
    let config = QueryConfig::default()
        .cursor_keys([b"bench-cursor-key-0123456789abcdef".to_vec()])
        .expect("key");
    let first = TypedQuery::<BookQuery>::from_query_str(CURSOR_QUERY, &config).expect("valid");
    // limit 1 and two rows: the page keeps one row and signs its sort keys.
    let rows = || {
        vec![
            Row {
                id: 7,
                title: "Night Rain",
                year: 2001,
            },
            Row {
                id: 8,
                title: "Dune",
                year: 1965,
            },
        ]
    };
    let encode = |q: &TypedQuery<BookQuery>| {
        q.cursor_page(rows())
            .expect("page")
            .meta
            .next_cursor
            .expect("a next page")
    };
    let decode = |token: &str| {
        let qs = format!("{CURSOR_QUERY}&cursor={token}");
        TypedQuery::<BookQuery>::from_query_str(&qs, &config).expect("valid cursor")
    };
    let token = encode(&first);
    assert!(decode(&token).has_cursor());

    let mut g = c.benchmark_group("keyset_cursor");
    g.bench_function("encode (sign the last row's sort keys)", |b| {
        b.iter(|| black_box(encode(black_box(&first))))
    });
    // The query string is built once, as the baseline's is a constant: the
    // figure is parse + verify + decode, not formatting a string.
    let with_cursor = format!("{CURSOR_QUERY}&cursor={token}");
    g.bench_function("parse query with cursor (verify + decode)", |b| {
        b.iter(|| {
            black_box(TypedQuery::<BookQuery>::from_query_str(
                black_box(&with_cursor),
                &config,
            ))
        })
    });
    g.bench_function("parse same query without cursor (baseline)", |b| {
        b.iter(|| {
            black_box(TypedQuery::<BookQuery>::from_query_str(
                black_box(CURSOR_QUERY),
                &config,
            ))
        })
    });
    g.bench_function("encode + verify + decode", |b| {
        b.iter(|| black_box(decode(&encode(black_box(&first)))))
    });
    // Backward: the page reached with `token` signs its previous cursor;
    // following it parses a version-2 cursor and cuts the rows fetched in
    // reverse (limit + 1 of them) back into order, signing both cursors.
    let second = decode(&token);
    let prev = second
        .cursor_page(vec![rows().remove(1)])
        .expect("page")
        .meta
        .prev_cursor
        .expect("a previous page");
    assert!(decode(&prev).before().is_some());
    g.bench_function(
        "backward page: verify + decode prev cursor, cut the page, sign both cursors",
        |b| {
            b.iter(|| {
                let q = decode(black_box(&prev));
                black_box(q.cursor_page(rows()).expect("page"))
            })
        },
    );
    g.finish();
}

/// `Prefer: count=estimated` read from the request headers (RFC 7240),
/// through the typed query, as the extractor does for every offset page.
fn count_preference(c: &mut Criterion) {
    use actix_web::http::header::{HeaderMap, HeaderValue};
    let config = QueryConfig::default();
    let mut headers = HeaderMap::new();
    headers.insert(
        problem_core::query::PREFER,
        HeaderValue::from_static("return=minimal, count=estimated"),
    );
    let q = TypedQuery::<BookQuery>::from_query_str(QUERY, &config).expect("valid");
    assert_eq!(
        q.clone().with_prefer(&headers).count_strategy(),
        problem_core::query::CountStrategy::Estimated
    );
    let mut g = c.benchmark_group("count_preference");
    g.bench_function("read Prefer: count=estimated", |b| {
        b.iter(|| black_box(q.clone().with_prefer(black_box(&headers))))
    });
    g.bench_function("clone the query without Prefer (baseline)", |b| {
        b.iter(|| black_box(q.clone()))
    });
    g.finish();
}

/// An item of the page rendered by `list_render`: the catalog's book.
#[derive(Clone, Serialize)]
struct Book {
    id: i64,
    isbn: String,
    title: String,
    author: String,
    genre: String,
    year: i32,
    price: f64,
    rating: f64,
    subtitle: Option<String>,
    in_stock: bool,
}

fn twenty_books() -> Vec<Book> {
    (1..=20)
        .map(|i| Book {
            id: i,
            isbn: format!("978000000{i:04}"),
            title: format!("Book number {i}"),
            author: "Ursula K. Le Guin".to_owned(),
            genre: "fantasy".to_owned(),
            year: 1960 + i32::try_from(i).expect("small"),
            price: 9.99 + f64::from(i32::try_from(i).expect("small")),
            rating: 4.5,
            subtitle: (i % 2 == 0).then(|| "A subtitle".to_owned()),
            in_stock: i % 3 != 0,
        })
        .collect()
}

/// The rendering before 2026-12-07: each item to a `serde_json::Value`,
/// the fieldset applied to the value, the envelope built as a value, then
/// written.
fn value_round_trip(page: &Page<Book>, links: &problem_core::query::Links) -> Vec<u8> {
    let data: Vec<serde_json::Value> = page
        .data
        .iter()
        .map(|item| {
            page.fields
                .apply(serde_json::to_value(item).expect("serializes"))
        })
        .collect();
    let mut envelope = serde_json::Map::new();
    envelope.insert("data".into(), serde_json::Value::Array(data));
    envelope.insert(
        "meta".into(),
        serde_json::to_value(page.meta).expect("serializes"),
    );
    envelope.insert(
        "links".into(),
        serde_json::to_value(links).expect("serializes"),
    );
    serde_json::to_vec(&serde_json::Value::Object(envelope)).expect("serializes")
}

fn list_render(c: &mut Criterion) {
    use actix_web::Responder as _;
    use actix_web::body::MessageBody as _;
    use problem_core::query::{FieldSelection, Pagination};

    const SELECTED: &str =
        "/books?page=2&per_page=20&fields=id,title,author,year,price&exclude=author";
    let fields = FieldSelection::from_query_str("fields=id,title,author,year,price&exclude=author")
        .expect("valid");
    let pagination = Pagination {
        page: 2,
        per_page: 20,
    };
    let page = Page::new(twenty_books(), pagination, Some(2000)).with_fields(fields);
    let all = Page::new(twenty_books(), pagination, Some(2000));
    let req = actix_web::test::TestRequest::get()
        .uri(SELECTED)
        .to_http_request();
    let rendered = |page: &Page<Book>| {
        page.clone()
            .respond_to(&req)
            .into_body()
            .try_into_bytes()
            .expect("a full body")
    };
    // Not timed: the three write the same bytes (no `f32` among the members).
    let links = page.links(
        "/books",
        "page=2&per_page=20&fields=id,title,author,year,price&exclude=author",
    );
    assert_eq!(rendered(&page), value_round_trip(&page, &links));
    let mut g = c.benchmark_group("list_render");
    g.bench_function(
        "ours: 20-item page, sparse fieldset, links (respond_to)",
        |b| {
            b.iter_batched(
                || page.clone(),
                |page| black_box(page.respond_to(black_box(&req))),
                BatchSize::SmallInput,
            )
        },
    );
    g.bench_function("Value round trip: the same page as rendered before", |b| {
        b.iter(|| black_box(value_round_trip(black_box(&page), black_box(&links))))
    });
    g.bench_function("ours: 20-item page, every member (respond_to)", |b| {
        b.iter_batched(
            || all.clone(),
            |page| black_box(page.respond_to(black_box(&req))),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("serde_json::to_vec of the 20 items (baseline)", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&all.data)).expect("serializes")))
    });
    g.finish();
}

criterion_group!(
    benches,
    collection_query,
    cursor,
    count_preference,
    list_render
);
criterion_main!(benches);
