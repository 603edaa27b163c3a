//! Applying typed queries in memory, cursors, envelopes, links and the
//! actix-web extractor.

mod query_support;

use actix_web::{App, HttpResponse, test as atest, web};
use problem_core::query::{ApplyError, Collection, CursorPage, Page, QueryConfig, TypedQuery};
use query_support::{Book, KEY, book, book_issues, config};
use serde_json::{Value as Json, json};

fn books() -> Vec<Json> {
    vec![
        json!({"id": 1, "title": "Dune", "year": 1965, "subtitle": null, "published": "1965-08-01", "available": true, "isbn": "a"}),
        json!({"id": 2, "title": "Dune Messiah", "year": 1969, "subtitle": "Book 2", "published": "1969-10-15", "available": false, "isbn": "b"}),
        json!({"id": 3, "title": "100% Rust_", "year": 2020, "subtitle": "' OR 1=1 --", "published": "2020-01-01", "available": true, "isbn": "c"}),
        json!({"id": 4, "title": "rust in action", "year": 2020, "subtitle": null, "published": "2021-06-01", "available": true, "isbn": "d"}),
        json!({"id": 5, "title": "The Rust Book", "year": 2018, "subtitle": "Second edition", "published": "2018-08-01", "available": false, "isbn": "e"}),
    ]
}

fn ids(q: &str) -> Vec<i64> {
    book(q)
        .page_in_memory(books())
        .unwrap()
        .data
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn filters_in_memory() {
    assert_eq!(ids("year=2020"), [3, 4]);
    assert_eq!(ids("id__ne=1&id__lt=4"), [2, 3]);
    assert_eq!(ids("id__gte=4"), [4, 5]);
    assert_eq!(ids("id__lte=2&id__gt=1"), [2]);
    assert_eq!(ids("id__in=1,3,9"), [1, 3]);
    assert_eq!(ids("id__not_in=1,3"), [2, 4, 5]);
    assert_eq!(ids("year__in=1965,2018"), [1, 5]);
    assert_eq!(ids("title__contains=Rust"), [3, 5]);
    assert_eq!(ids("title__starts_with=Dune"), [1, 2]);
    assert_eq!(ids("title__ends_with=Book"), [5]);
    assert_eq!(ids("subtitle__is_null=true"), [1, 4]);
    assert_eq!(ids("subtitle__is_null=false"), [2, 3, 5]);
    assert_eq!(ids("subtitle__is_not_null=false"), [1, 4]);
    assert_eq!(ids("subtitle__contains=edition"), [5]);
    assert_eq!(
        ids("published__gt=2019-12-31&published__lt=2021-01-01"),
        [3]
    );
    assert_eq!(ids("available=false"), [2, 5]);
    // literal matching: LIKE wildcards and SQL text are plain characters
    assert_eq!(ids("title__contains=%25"), [3]);
    assert_eq!(ids("title__contains=_"), [3]);
    assert_eq!(ids("title__ends_with=t_"), [3]);
    assert_eq!(ids("subtitle__contains=%27+OR+1%3D1+--"), [3]);
    assert_eq!(ids("title=%27+OR+1%3D1+--"), Vec::<i64>::new());
}

#[test]
fn search_sort_and_paginate_in_memory() {
    assert_eq!(ids("q=rust"), [3, 4, 5]);
    assert_eq!(ids("q=RUST+book"), [5]);
    assert_eq!(ids("q=book"), [2, 5]);
    assert_eq!(ids("q=book&search_fields=title"), [5]);
    assert_eq!(ids("q=%25"), [3]);
    assert_eq!(ids("sort=-year"), [3, 4, 5, 2, 1]);
    assert_eq!(ids("sort=-year,-id"), [4, 3, 5, 2, 1]);
    assert_eq!(ids("sort=title"), [3, 1, 2, 5, 4]);
    assert_eq!(ids("sort=available,-published"), [5, 2, 4, 3, 1]);
    assert_eq!(ids("per_page=2&page=2"), [3, 4]);
    assert_eq!(ids("per_page=2&page=4"), Vec::<i64>::new());
    let page = book("per_page=2&page=2&fields=id,title&exclude=title")
        .page_in_memory(books())
        .unwrap();
    assert_eq!(
        page.to_json("/books", "per_page=2&page=2&fields=id,title&exclude=title")
            .unwrap(),
        json!({
            "data": [{"id": 3}, {"id": 4}],
            "meta": {"page": 2, "per_page": 2, "total": 5, "total_pages": 3},
            "links": {
                "self": "/books?per_page=2&page=2&fields=id,title&exclude=title",
                "first": "/books?per_page=2&page=1&fields=id,title&exclude=title",
                "prev": "/books?per_page=2&page=1&fields=id,title&exclude=title",
                "next": "/books?per_page=2&page=3&fields=id,title&exclude=title",
                "last": "/books?per_page=2&page=3&fields=id,title&exclude=title"
            }
        })
    );
}

#[test]
fn envelope_without_total_and_edges() {
    let q = TypedQuery::<Book>::from_query_str("per_page=2", &config().count_total(false)).unwrap();
    let page = q.page_in_memory(books()).unwrap();
    assert_eq!(
        page.to_json("/books", "per_page=2").unwrap()["meta"],
        json!({"page": 1, "per_page": 2})
    );
    assert_eq!(
        page.to_json("/books", "per_page=2").unwrap()["links"],
        json!({"self": "/books?per_page=2", "first": "/books?per_page=2&page=1", "next": "/books?per_page=2&page=2"})
    );
    let empty = Page::<Json>::new(vec![], problem_core::query::Pagination::default(), Some(0));
    assert_eq!(
        empty.to_json("/b", "").unwrap(),
        json!({"data": [], "meta": {"page": 1, "per_page": 20, "total": 0, "total_pages": 0},
               "links": {"self": "/b", "first": "/b?page=1", "last": "/b?page=1"}})
    );
}

#[test]
fn memory_errors_are_values() {
    let q = book("year=1");
    assert_eq!(
        q.page_in_memory([json!([1, 2])]).unwrap_err(),
        ApplyError::NotAnObject {
            index: 0,
            message: "got [1,2]".into()
        }
    );
    assert_eq!(
        q.page_in_memory([json!({"id": 1, "year": "x"})])
            .unwrap_err(),
        ApplyError::FieldType {
            index: 0,
            field: "year",
            expected: "integer"
        }
    );
    let no_key = TypedQuery::<Book>::from_query_str("limit=1", &QueryConfig::default()).unwrap();
    assert_eq!(
        no_key.cursor_page_in_memory(books()).unwrap_err(),
        ApplyError::NoCursorKey
    );
}

fn walk(qs: &str, cfg: &QueryConfig) -> Vec<i64> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let full = match &cursor {
            Some(c) => format!("{qs}&cursor={c}"),
            None => qs.to_owned(),
        };
        let q = TypedQuery::<Book>::from_query_str(&full, cfg).unwrap();
        let page: CursorPage<Json> = q.cursor_page_in_memory(books()).unwrap();
        out.extend(page.data.iter().map(|b| b["id"].as_i64().unwrap()));
        match page.meta.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
    panic!("cursor walk did not end");
}

#[test]
fn cursor_walks_match_the_offset_order() {
    for (sort, filter) in [
        ("sort=-year", ""),
        ("sort=-year,title", "&year__gte=1969"),
        ("sort=available,-published", ""),
        ("sort=-id", "&q=rust"),
        ("", ""),
    ] {
        for limit in 1..=6 {
            let qs = format!("limit={limit}&{sort}{filter}");
            let expected = ids(&format!("per_page=100&{sort}{filter}"));
            assert_eq!(walk(&qs, &config()), expected, "{qs}");
        }
    }
}

fn first_cursor(qs: &str) -> String {
    book(qs)
        .cursor_page_in_memory(books())
        .unwrap()
        .meta
        .next_cursor
        .unwrap()
}

#[test]
fn cursor_errors() {
    let invalid = json!([{"location": "query", "name": "cursor", "code": "invalid_cursor",
        "message": "the cursor is malformed, tampered with or was not issued by this collection"}]);
    assert_eq!(book_issues("cursor=garbage"), invalid);
    let c = first_cursor("limit=2&sort=-year");
    // tampered / truncated
    let mut tampered = c.clone().into_bytes();
    tampered[5] = if tampered[5] == b'A' { b'B' } else { b'A' };
    assert_eq!(
        book_issues(&format!(
            "limit=2&sort=-year&cursor={}",
            String::from_utf8(tampered).unwrap()
        )),
        invalid
    );
    assert_eq!(
        book_issues(&format!("limit=2&sort=-year&cursor={}", &c[..c.len() - 3])),
        invalid
    );
    // another key (foreign) and no key at all
    let other = QueryConfig::default().cursor_keys([vec![9u8; 32]]).unwrap();
    let err =
        TypedQuery::<Book>::from_query_str(&format!("sort=-year&cursor={c}"), &other).unwrap_err();
    assert_eq!(serde_json::to_value(err.issues()).unwrap(), invalid);
    let err = TypedQuery::<Book>::from_query_str(
        &format!("sort=-year&cursor={c}"),
        &QueryConfig::default(),
    )
    .unwrap_err();
    assert_eq!(serde_json::to_value(err.issues()).unwrap(), invalid);
    // rotation: a new first key, the old key still verifies
    let rotated = QueryConfig::default()
        .cursor_keys([vec![9u8; 32], KEY.to_vec()])
        .unwrap();
    assert!(
        TypedQuery::<Book>::from_query_str(&format!("sort=-year&cursor={c}"), &rotated).is_ok()
    );
    // a different sort, filter or search
    assert_eq!(
        book_issues(&format!("sort=year&cursor={c}")),
        json!([{"location": "query", "name": "cursor", "code": "cursor_mismatch",
            "message": "the cursor was issued for a different sort: send the same sort, filters and search as the first page, or drop the cursor"}])
    );
    for other in ["year__gte=1", "q=dune", "title=x"] {
        assert_eq!(
            book_issues(&format!("sort=-year&{other}&cursor={c}")),
            json!([{"location": "query", "name": "cursor", "code": "cursor_mismatch",
                "message": "the cursor was issued for a different filter or search: send the same sort, filters and search as the first page, or drop the cursor"}]),
            "{other}"
        );
    }
    // the page size and the fieldset may change between pages
    assert!(
        TypedQuery::<Book>::from_query_str(
            &format!("sort=-year&limit=5&fields=id&cursor={c}"),
            &config()
        )
        .is_ok()
    );
    // filters in another order are the same filters
    let c2 = first_cursor("limit=1&year__gte=1&id__lt=9");
    assert!(
        TypedQuery::<Book>::from_query_str(&format!("id__lt=9&year__gte=1&cursor={c2}"), &config())
            .is_ok()
    );
}

async fn list(q: Collection<Book>) -> actix_web::Result<HttpResponse> {
    let page = q.page_in_memory(books())?;
    Ok(HttpResponse::Ok()
        .json(json!({"ids": page.data.iter().map(|b| b["id"].clone()).collect::<Vec<_>>()})))
}

async fn list_page(q: Collection<Book>) -> actix_web::Result<Page<Json>> {
    Ok(q.page_in_memory(books())?)
}

async fn list_cursor(q: Collection<Book>) -> actix_web::Result<CursorPage<Json>> {
    Ok(q.cursor_page_in_memory(books())?)
}

#[actix_web::test]
async fn extractor_answers_400_before_the_handler() {
    let app = atest::init_service(
        App::new()
            .app_data(config())
            .route("/books", web::get().to(list))
            .route("/pages", web::get().to(list_page)),
    )
    .await;
    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/books?year__gte=2000&sort=-id")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Json = atest::read_body_json(res).await;
    assert_eq!(body, json!({"ids": [5, 4, 3]}));

    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/books?year__ne=1&per_page=0")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/problem+json; charset=utf-8"
    );
    let body: Json = atest::read_body_json(res).await;
    assert_eq!(body["detail"], "Request validation failed");
    assert_eq!(
        body["issues"],
        json!([
            {"location": "query", "name": "per_page", "code": "out_of_range", "message": "`per_page` must be 1 or more, got 0", "minimum": 1, "maximum": 100},
            {"location": "query", "name": "year__ne", "code": "operator_not_allowed", "message": "operator `ne` is not allowed on `year`", "allowed": ["eq", "gt", "gte", "lt", "lte", "in"]}
        ])
    );

    let many = vec!["a=1"; 1001].join("&");
    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri(&format!("/books?{many}"))
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    let body: Json = atest::read_body_json(res).await;
    assert_eq!(
        body["detail"],
        "The query string has more than 1000 parameters."
    );
    assert!(body.get("issues").is_none());

    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/pages?per_page=2&page=2&sort=-id")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers().get("link").unwrap(),
        r#"</pages?per_page=2&page=2&sort=-id>; rel="self", </pages?per_page=2&page=1&sort=-id>; rel="first", </pages?per_page=2&page=1&sort=-id>; rel="prev", </pages?per_page=2&page=3&sort=-id>; rel="next", </pages?per_page=2&page=3&sort=-id>; rel="last""#
    );
    let body: Json = atest::read_body_json(res).await;
    assert_eq!(
        body["meta"],
        json!({"page": 2, "per_page": 2, "total": 5, "total_pages": 3})
    );
    assert_eq!(body["data"].as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn cursor_envelope_and_error_handler_hook() {
    let hooked = config().error_handler(|err, _req| {
        actix_web::error::InternalError::from_response(
            "hooked",
            HttpResponse::ImATeapot().body(format!("{} issue(s)", err.issues().len())),
        )
        .into()
    });
    let app = atest::init_service(
        App::new()
            .service(
                web::scope("/hooked")
                    .app_data(hooked)
                    .route("/books", web::get().to(list)),
            )
            .app_data(config())
            .route("/cursor", web::get().to(list_cursor)),
    )
    .await;
    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/hooked/books?nope=1&sort=x")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 418);
    assert_eq!(atest::read_body(res).await, "2 issue(s)");

    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/cursor?limit=2&sort=-year&api-version=1")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    let link = res
        .headers()
        .get("link")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let body: Json = atest::read_body_json(res).await;
    let next = body["meta"]["next_cursor"].as_str().unwrap().to_owned();
    assert_eq!(body["meta"], json!({"limit": 2, "next_cursor": next}));
    let next_link = format!("/cursor?limit=2&sort=-year&api-version=1&cursor={next}");
    assert_eq!(
        body["links"],
        json!({"self": "/cursor?limit=2&sort=-year&api-version=1", "next": next_link})
    );
    assert_eq!(
        link,
        format!(
            r#"</cursor?limit=2&sort=-year&api-version=1>; rel="self", <{next_link}>; rel="next""#
        )
    );
    let ids: Vec<i64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [3, 4]);

    let res =
        atest::call_service(&app, atest::TestRequest::get().uri(&next_link).to_request()).await;
    let body: Json = atest::read_body_json(res).await;
    assert_eq!(body["data"][0]["id"], 5);
    assert_eq!(body["data"][1]["id"], 2);
    let last = format!(
        "/cursor?limit=2&sort=-year&cursor={}",
        body["meta"]["next_cursor"].as_str().unwrap()
    );
    let res = atest::call_service(&app, atest::TestRequest::get().uri(&last).to_request()).await;
    let body: Json = atest::read_body_json(res).await;
    let prev = body["meta"]["prev_cursor"].as_str().unwrap().to_owned();
    assert_eq!(
        body["meta"],
        json!({"limit": 2, "next_cursor": null, "prev_cursor": prev})
    );
    let prev_link = format!("/cursor?limit=2&sort=-year&cursor={prev}");
    assert_eq!(body["links"], json!({"self": last, "prev": prev_link}));
    assert_eq!(body["data"][0]["id"], 1);
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    // Back from the last page: the middle page again, with both cursors.
    let res =
        atest::call_service(&app, atest::TestRequest::get().uri(&prev_link).to_request()).await;
    let body: Json = atest::read_body_json(res).await;
    let ids: Vec<i64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [5, 2]);
    assert!(body["meta"]["next_cursor"].is_string());
    assert!(body["meta"]["prev_cursor"].is_string());
}

/// An item of a list is written as `serde_json::to_vec` writes it, as a
/// handler returning `web::Json(item)` would send it: an `f32` as its
/// shortest text (not the digits of its `f64` widening), a `u128` above
/// `u64::MAX` whole; the sparse fieldset applied all the same.
#[actix_web::test]
async fn list_items_are_written_as_serde_json_writes_them() {
    #[derive(serde::Serialize)]
    struct Parcel {
        id: i64,
        weight: f32,
        serial: u128,
    }
    let parcels = || {
        vec![
            Parcel {
                id: 1,
                weight: 0.1,
                serial: u128::MAX,
            },
            Parcel {
                id: 2,
                weight: 2.7,
                serial: 5,
            },
        ]
    };
    let pagination = problem_core::query::Pagination {
        page: 1,
        per_page: 2,
    };
    let app = atest::init_service(
        App::new()
            .route(
                "/offset",
                web::get().to(move || async move {
                    Page::new(parcels(), pagination, Some(2)).with_fields(
                        problem_core::query::FieldSelection::from_query_str("exclude=id").unwrap(),
                    )
                }),
            )
            .route(
                "/cursor",
                web::get().to(move || async move { CursorPage::new(parcels(), 2, None) }),
            )
            .route(
                "/bare",
                web::get().to(move || async move {
                    Page::new(parcels(), pagination, Some(2)).into_bare()
                }),
            ),
    )
    .await;
    let get = |uri: &'static str| atest::TestRequest::get().uri(uri).to_request();
    let res = atest::call_service(&app, get("/offset")).await;
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/json"
    );
    assert_eq!(
        atest::read_body(res).await,
        concat!(
            r#"{"data":[{"weight":0.1,"serial":340282366920938463463374607431768211455},{"weight":2.7,"serial":5}],"#,
            r#""meta":{"page":1,"per_page":2,"total":2,"total_pages":1},"#,
            r#""links":{"self":"/offset","first":"/offset?page=1","last":"/offset?page=1"}}"#
        )
    );
    assert_eq!(
        atest::call_and_read_body(&app, get("/cursor")).await,
        concat!(
            r#"{"data":[{"id":1,"weight":0.1,"serial":340282366920938463463374607431768211455},{"id":2,"weight":2.7,"serial":5}],"#,
            r#""meta":{"limit":2,"next_cursor":null},"links":{"self":"/cursor"}}"#
        )
    );
    assert_eq!(
        atest::call_and_read_body(&app, get("/bare")).await,
        r#"[{"id":1,"weight":0.1,"serial":340282366920938463463374607431768211455},{"id":2,"weight":2.7,"serial":5}]"#
    );
    // `to_json` reads the same bytes back.
    assert_eq!(
        Page::new(parcels(), pagination, Some(2))
            .to_json("/p", "")
            .unwrap()["data"][1],
        json!({"id": 2, "weight": 2.7, "serial": 5})
    );
}

/// An item that does not serialize is named by its position.
#[test]
fn an_item_that_does_not_serialize_is_named() {
    use std::collections::BTreeMap;
    let items = vec![
        BTreeMap::new(),
        BTreeMap::new(),
        BTreeMap::from([(vec![2], 2)]),
    ];
    let err = Page::new(items, problem_core::query::Pagination::default(), None)
        .to_json("/p", "")
        .unwrap_err();
    assert_eq!(
        err,
        ApplyError::NotAnObject {
            index: 2,
            message: "key must be a string".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "item #2 does not serialize to a JSON object: key must be a string"
    );
}

/// In memory too: a page's items are what `serde_json::to_vec` writes for
/// them, not the values the filters read (where an `f32` is widened to the
/// `f64` whose digits `serde_json` then writes).
#[test]
fn in_memory_pages_hold_items_as_serde_json_writes_them() {
    #[derive(serde::Serialize, problem_core::CollectionQuery)]
    #[query(key = "id")]
    struct Parcel {
        #[query(filter(eq), sort)]
        id: i64,
        #[query(filter(eq, gt), sort)]
        weight: f32,
    }
    let parcels = [
        Parcel { id: 1, weight: 0.1 },
        Parcel { id: 2, weight: 2.7 },
        Parcel { id: 3, weight: 0.3 },
    ];
    let config = QueryConfig::default().cursor_keys([KEY]).unwrap();
    let q = TypedQuery::<Parcel>::from_query_str("weight__gt=0.1&sort=weight", &config).unwrap();
    let page = q.page_in_memory(&parcels).unwrap();
    assert_eq!(
        serde_json::to_string(&page.data).unwrap(),
        r#"[{"id":3,"weight":0.3},{"id":2,"weight":2.7}]"#
    );
    let q = TypedQuery::<Parcel>::from_query_str("weight=0.1&limit=5", &config).unwrap();
    let page = q.cursor_page_in_memory(&parcels).unwrap();
    assert_eq!(
        page.to_json("/parcels", "weight=0.1&limit=5").unwrap(),
        json!({"data": [{"id": 1, "weight": 0.1}], "meta": {"limit": 5, "next_cursor": null},
               "links": {"self": "/parcels?weight=0.1&limit=5"}})
    );
    assert_eq!(
        serde_json::to_string(&page.data).unwrap(),
        r#"[{"id":1,"weight":0.1}]"#
    );
}
