//! Issue 15, row 12: `BareList`, a list answered as a bare JSON array, applies
//! field selection and sets `Link` and `X-Total-Count`.

mod header_support;

use actix_web::{App, test as atest, web};
use problem_core::CollectionQuery;
use problem_core::query::{BareList, Collection, QueryConfig};
use serde_json::{Value, json};

#[derive(CollectionQuery)]
#[query(key = "id", default_sort = "id")]
#[allow(dead_code)]
struct OrderQuery {
    #[query(filter(eq, gt), sort)]
    id: u64,
    #[query(filter(eq))]
    customer: String,
}

fn orders() -> Vec<Value> {
    (1..=5)
        .map(|id| json!({"id": id, "customer": if id % 2 == 0 { "ada" } else { "bob" }, "total": id * 10}))
        .collect()
}

async fn list(q: Collection<OrderQuery>) -> Result<BareList<Value>, actix_web::Error> {
    Ok(if q.wants_cursor_page() {
        q.cursor_page_in_memory(orders())?.into_bare()
    } else {
        q.page_in_memory(orders())?.into_bare()
    })
}

/// Status, sorted headers and body text of `GET uri` on `svc`.
macro_rules! get {
    ($svc:expr, $uri:expr) => {{
        let res = atest::call_service($svc, atest::TestRequest::get().uri($uri).to_request()).await;
        let status = res.status().as_u16();
        let headers = header_support::headers(&res);
        let body = String::from_utf8(atest::read_body(res).await.to_vec()).unwrap();
        (status, headers, body)
    }};
}

#[actix_web::test]
async fn offset_page_as_a_bare_array_with_fields_link_and_total() {
    let svc = atest::init_service(App::new().route("/orders", web::get().to(list))).await;
    assert_eq!(
        get!(
            &svc,
            "/orders?per_page=2&page=2&fields=id,customer&exclude=customer"
        ),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                ("x-total-count", "5"),
                (
                    "link",
                    concat!(
                        r#"</orders?per_page=2&page=2&fields=id,customer&exclude=customer>; rel="self", "#,
                        r#"</orders?per_page=2&page=1&fields=id,customer&exclude=customer>; rel="first", "#,
                        r#"</orders?per_page=2&page=1&fields=id,customer&exclude=customer>; rel="prev", "#,
                        r#"</orders?per_page=2&page=3&fields=id,customer&exclude=customer>; rel="next", "#,
                        r#"</orders?per_page=2&page=3&fields=id,customer&exclude=customer>; rel="last""#
                    )
                ),
            ]),
            r#"[{"id":3},{"id":4}]"#.to_owned()
        )
    );
    assert_eq!(
        get!(&svc, "/orders?customer=ada&exclude=customer"),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                ("x-total-count", "2"),
                (
                    "link",
                    concat!(
                        r#"</orders?customer=ada&exclude=customer>; rel="self", "#,
                        r#"</orders?customer=ada&exclude=customer&page=1>; rel="first", "#,
                        r#"</orders?customer=ada&exclude=customer&page=1>; rel="last""#
                    )
                ),
            ]),
            r#"[{"id":2,"total":20},{"id":4,"total":40}]"#.to_owned()
        )
    );
}

/// A request that carries `Prefer` gets `Vary: Prefer` (its page depends
/// on the preference), and `Preference-Applied` when it was honoured; one
/// without gets no `Vary` (the tests above).
#[actix_web::test]
async fn a_request_stating_a_preference_gets_vary_prefer() {
    let svc = atest::init_service(App::new().route("/orders", web::get().to(list))).await;
    for (prefer, applied) in [("count=none", Some("count=none")), ("respond-async", None)] {
        let res = atest::call_service(
            &svc,
            atest::TestRequest::get()
                .uri("/orders?per_page=2&fields=id")
                .insert_header(("Prefer", prefer))
                .to_request(),
        )
        .await;
        assert_eq!(res.headers().get("vary").unwrap(), "Prefer", "{prefer}");
        assert_eq!(
            res.headers()
                .get("preference-applied")
                .map(|v| v.to_str().unwrap()),
            applied,
            "{prefer}"
        );
        assert_eq!(
            res.headers().get("x-total-count").is_some(),
            applied.is_none(),
            "{prefer}"
        );
    }
}

#[actix_web::test]
async fn uncounted_total_sends_no_x_total_count() {
    let svc = atest::init_service(
        App::new()
            .app_data(QueryConfig::default().count_total(false))
            .route("/orders", web::get().to(list)),
    )
    .await;
    assert_eq!(
        get!(&svc, "/orders?per_page=4&page=2&fields=id"),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                (
                    "link",
                    concat!(
                        r#"</orders?per_page=4&page=2&fields=id>; rel="self", "#,
                        r#"</orders?per_page=4&page=1&fields=id>; rel="first", "#,
                        r#"</orders?per_page=4&page=1&fields=id>; rel="prev""#
                    )
                ),
            ]),
            r#"[{"id":5}]"#.to_owned()
        )
    );
}

#[actix_web::test]
async fn cursor_page_as_a_bare_array_links_the_next_cursor() {
    let config = QueryConfig::default()
        .cursor_keys([b"0123456789abcdef0123456789abcdef".to_vec()])
        .unwrap();
    let svc = atest::init_service(
        App::new()
            .app_data(config)
            .route("/orders", web::get().to(list)),
    )
    .await;
    let (status, headers, body) = get!(&svc, "/orders?limit=3&fields=id");
    let link = headers
        .iter()
        .find(|(k, _)| k == "link")
        .map(|(_, v)| v.clone())
        .unwrap();
    let cursor = link
        .split("cursor=")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap()
        .to_owned();
    assert_eq!(
        (status, headers, body),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                (
                    "link",
                    &format!(
                        r#"</orders?limit=3&fields=id>; rel="self", </orders?limit=3&fields=id&cursor={cursor}>; rel="next""#
                    )
                ),
            ]),
            r#"[{"id":1},{"id":2},{"id":3}]"#.to_owned()
        )
    );
    let next = format!("/orders?limit=3&fields=id&cursor={cursor}");
    let (status, headers, body) = get!(&svc, &next);
    let link = headers
        .iter()
        .find(|(k, _)| k == "link")
        .map(|(_, v)| v.clone())
        .unwrap();
    let prev_cursor = link
        .split("cursor=")
        .nth(2)
        .and_then(|rest| rest.split('>').next())
        .unwrap()
        .to_owned();
    assert_ne!(prev_cursor, cursor);
    assert_eq!(
        (status, headers, body),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                (
                    "link",
                    &format!(
                        r#"<{next}>; rel="self", </orders?limit=3&fields=id&cursor={prev_cursor}>; rel="prev""#
                    )
                ),
            ]),
            r#"[{"id":4},{"id":5}]"#.to_owned()
        )
    );
    // The previous page is the first page again: no prev, the same next.
    let prev = format!("/orders?limit=3&fields=id&cursor={prev_cursor}");
    assert_eq!(
        get!(&svc, &prev),
        (
            200,
            header_support::pairs(&[
                ("content-type", "application/json"),
                (
                    "link",
                    &format!(
                        r#"<{prev}>; rel="self", </orders?limit=3&fields=id&cursor={cursor}>; rel="next""#
                    )
                ),
            ]),
            r#"[{"id":1},{"id":2},{"id":3}]"#.to_owned()
        )
    );
}
