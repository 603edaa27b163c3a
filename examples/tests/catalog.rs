//! Black-box tests of the catalog: the built binary on a free loopback
//! port, embedded SQLite, a real HTTP client.

mod common;

use common::hostile::problem;
use common::lists;
use common::{ADMIN, Catalog, EDITOR, PROBLEM_JSON, header, json};
use reqwest::Method;
use serde_json::{Value, json};

macro_rules! list_test {
    ($name:ident) => {
        #[tokio::test]
        async fn $name() {
            let cat = Catalog::start(&[]);
            lists::$name(&cat).await;
        }
    };
}

list_test!(default_page_is_the_first_20_by_id);
list_test!(page_and_per_page_give_offset_and_limit);
list_test!(filter_and_sort_return_exactly_the_rows_sql_would);
list_test!(every_operator_filters_like_the_seed_data_says);
list_test!(search_ands_terms_and_ors_fields_case_insensitively);
list_test!(cursor_walk_returns_every_matching_row_once_in_order);
list_test!(sparse_fieldsets);
list_test!(values_are_matched_literally);
list_test!(bad_queries_are_400_with_every_issue);
list_test!(cursors_are_bound_to_their_query);
list_test!(case_insensitive_operators_fold_unicode_case);
list_test!(tolerated_parameters);
list_test!(emptied_cursor_pages_lead_back);

#[tokio::test]
async fn count_strategies() {
    let rows = lists::COUNT_ROWS.to_string();
    let cat = Catalog::start(&[("CATALOG_SEED_ROWS", rows.as_str())]);
    // SQLite has no planner estimate: the count stops at the threshold + 1.
    lists::count_strategies(&cat, 10_001).await;
}

#[tokio::test]
async fn versions_by_path_header_query_and_media_type() {
    let cat = Catalog::start(&[]);
    let v2 = [
        cat.get("/v2/books?per_page=3"),
        cat.get("/books?per_page=3").header("X-API-Version", "2"),
        cat.get("/books?per_page=3&api-version=2"),
        cat.get("/books?per_page=3")
            .header("Accept", "application/vnd.catalog.v2+json"),
    ];
    for req in v2 {
        let res = req.send().await.unwrap();
        let (status, h, body) = json(res).await;
        assert_eq!(status, 200);
        assert_eq!(
            body,
            json!(
                lists::seed_books()[..3]
                    .iter()
                    .map(|b| serde_json::to_value(b).unwrap())
                    .collect::<Vec<_>>()
            )
        );
        assert_eq!(header(&h, "x-api-version"), Some("2"));
        assert_eq!(header(&h, "x-api-supported-versions"), Some("2, 3"));
        assert_eq!(header(&h, "x-total-count"), Some("3000"));
        assert_eq!(header(&h, "x-api-deprecated"), Some("true"));
        assert_eq!(
            header(&h, "x-api-deprecation-message"),
            Some("API version 2 is deprecated")
        );
        assert_eq!(header(&h, "deprecation"), Some("@1767225600"));
        assert_eq!(header(&h, "sunset"), Some("Fri, 31 Dec 2027 23:59:59 GMT"));
        let links: Vec<&str> = h
            .get_all("link")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert!(
            links
                .iter()
                .any(|l| l.contains("rel=\"next\"") && l.contains("page=2")),
            "{links:?}"
        );
    }
    for req in [
        cat.get("/books?per_page=1"),
        cat.get("/v3/books?per_page=1"),
        cat.get("/books?per_page=1").header("X-API-Version", "3"),
    ] {
        let (status, h, body) = json(req.send().await.unwrap()).await;
        assert_eq!(status, 200);
        assert_eq!(header(&h, "x-api-version"), Some("3"));
        assert!(h.get("deprecation").is_none() && h.get("sunset").is_none());
        let first = serde_json::to_value(&lists::seed_books()[0]).unwrap();
        assert_eq!(body["data"], json!([first]), "{body}");
        assert_eq!(
            body["meta"],
            json!({"page": 1, "per_page": 1, "total": lists::ROWS, "total_pages": lists::ROWS})
        );
        let rels: Vec<&String> = body["links"].as_object().unwrap().keys().collect();
        assert_eq!(rels, ["self", "first", "next", "last"], "{body}");
    }
    let (status, h, body) = cat.get_json("/v1/books").await;
    assert_eq!(status, 410);
    assert_eq!(header(&h, "content-type"), Some(PROBLEM_JSON));
    assert_eq!(
        body,
        problem(
            410,
            Some("API version 1 is no longer supported"),
            "/v1/books"
        )
    );
    let (status, h, body) = json(
        cat.get("/books")
            .header("X-API-Version", "7")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(header(&h, "x-api-supported-versions"), Some("2, 3"));
    assert_eq!(body["detail"], json!("API version 7 is not supported"));
    assert_eq!(body["supportedVersions"], json!(["2", "3"]));
    let (status, _, body) = cat.get_json("/books?api-version=banana").await;
    assert_eq!(status, 400, "{body}");
    let (status, _, body) = cat.get_json("/v2/books/1").await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], json!(1));
}

#[tokio::test]
async fn health_is_version_neutral() {
    let cat = Catalog::start(&[]);
    let res = cat
        .get("/health")
        .header("X-API-Version", "1")
        .send()
        .await
        .unwrap();
    let (status, h, body) = json(res).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"status": "ok"}));
    assert!(h.get("x-api-version").is_none());
    assert!(h.get("x-api-supported-versions").is_none());
}

#[tokio::test]
async fn one_book_404_and_a_bad_id() {
    let cat = Catalog::start(&[]);
    let (status, _, body) = cat.get_json("/books/42").await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        serde_json::to_value(&lists::seed_books()[41]).unwrap()
    );
    let res = cat.get("/books/999999").send().await.unwrap();
    assert_eq!(res.headers().get("content-type").unwrap(), PROBLEM_JSON);
    assert_eq!(
        res.headers().get("x-content-type-options").unwrap(),
        "nosniff"
    );
    let (status, h, body) = json(res).await;
    assert_eq!(status, 404);
    assert_eq!(
        header(&h, "x-api-version"),
        Some("3"),
        "version headers on problem responses too"
    );
    assert_eq!(
        body,
        problem(404, Some("Book 999999 not found"), "/books/999999")
    );
    let (status, _, body) = cat.get_json("/books/abc").await;
    assert_eq!(status, 400);
    let mut expected = problem(400, Some("Request validation failed"), "/books/abc");
    expected["issues"] = json!([{"location": "path", "name": "id", "code": "invalid_value", "message": "`abc` is not a valid integer", "expected": "integer"}]);
    assert_eq!(body, expected);
    // Out of range, or written with a plus sign: one book has one URL.
    for id in ["99999999999999999999", "+1"] {
        let (status, _, body) = cat.get_json(&format!("/books/{id}")).await;
        let mut expected = problem(
            400,
            Some("Request validation failed"),
            &format!("/books/{id}"),
        );
        expected["issues"] = json!([{"location": "path", "name": "id", "code": "invalid_value",
                                     "message": format!("`{id}` is not a valid integer"), "expected": "integer"}]);
        assert_eq!((status, body), (400, expected), "{id}");
    }
    // A missing book's cover is the book's 404; a book without a cover says so.
    let (status, _, body) = cat.get_json("/books/999999/cover").await;
    assert_eq!(
        (status, body),
        (
            404,
            problem(404, Some("Book 999999 not found"), "/books/999999/cover")
        )
    );
    let (status, _, body) = cat.get_json("/books/1/cover").await;
    assert_eq!(
        (status, body),
        (
            404,
            problem(404, Some("Book 1 has no cover"), "/books/1/cover")
        )
    );
}

fn new_book(isbn: &str) -> Value {
    json!({"isbn": isbn, "title": "Dune", "author": "Frank Herbert", "genre": "fiction", "year": 1965,
           "price": 9.5, "rating": 4.5, "subtitle": null, "published_at": "1965-08-01", "in_stock": true})
}

#[tokio::test]
async fn create_needs_a_token_validates_and_rejects_duplicates() {
    let cat = Catalog::start(&[]);
    for auth in [None, Some("Bearer wrong"), Some("Basic abc"), Some(ADMIN)] {
        let mut req = cat
            .request(Method::POST, "/books")
            .json(&new_book("9780441172719"));
        if let Some(a) = auth {
            req = req.header("Authorization", a);
        }
        let (status, h, body) = json(req.send().await.unwrap()).await;
        assert_eq!(status, 401, "{auth:?}");
        assert_eq!(
            header(&h, "www-authenticate"),
            Some("Bearer realm=\"catalog\"")
        );
        assert_eq!(body, problem(401, None, "/books"));
    }
    let editor = format!("Bearer {EDITOR}");
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", &editor)
        .json(&new_book("9780441172719"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let location = res
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let (_, _, created) = json(res).await;
    assert_eq!(location, format!("/books/{}", created["id"]));
    assert_eq!(created["id"], json!(3001));
    let mut expected = new_book("9780441172719");
    expected["id"] = json!(3001);
    assert_eq!(created, expected);
    let (status, _, fetched) = cat.get_json(&location).await;
    assert_eq!((status, fetched), (200, expected));
    // Created through a path version, the new book's URI keeps it.
    let res = cat
        .request(Method::POST, "/v2/books")
        .header("Authorization", &editor)
        .json(&new_book("9780441172720"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let location = res
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let (_, _, created) = json(res).await;
    assert_eq!(location, format!("/v2/books/{}", created["id"]));
    let (status, headers, _) = cat.get_json(&location).await;
    assert_eq!(
        (status, header(&headers, "x-api-version")),
        (200, Some("2"))
    );

    let (status, _, body) = json(
        cat.request(Method::POST, "/books")
            .header("Authorization", &editor)
            .json(&new_book("9780441172719"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 409);
    assert_eq!(
        body,
        json!({"type": "/problems/duplicate-isbn", "title": "Conflict", "status": 409,
               "detail": "A book with ISBN 9780441172719 already exists", "instance": "/books",
               "isbn": "9780441172719"})
    );

    let form = "isbn=0441172717&title=Dune%20Messiah&author=Frank%20Herbert&year=1969&price=7.25";
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["title"], json!("Dune Messiah"));
    assert_eq!(body["published_at"], json!("1969-01-01"));

    let bad = json!({"isbn": "12-34", "title": " ", "author": "", "year": 1200, "price": -1, "rating": 6});
    let (status, _, body) = json(
        cat.request(Method::POST, "/books")
            .header("Authorization", &editor)
            .json(&bad)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["detail"], json!("Request validation failed"));
    let names: Vec<&str> = body["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["/author", "/isbn", "/price", "/rating", "/title", "/year"]
    );
    assert!(
        body["issues"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["location"] == json!("body"))
    );

    // Only `application/json` and forms: a `+json` type names another
    // format (issue 6: "other content types: 415").
    for content_type in ["text/plain", "application/merge-patch+json"] {
        let res = cat
            .request(Method::POST, "/books")
            .header("Authorization", &editor)
            .header("Content-Type", content_type)
            .body("{\"isbn\":\"9780441013593\",\"title\":\"T\",\"author\":\"A\",\"year\":2000,\"price\":1}")
            .send()
            .await
            .unwrap();
        let (status, _, body) = json(res).await;
        assert_eq!(status, 415);
        assert_eq!(
            body,
            problem(
                415,
                Some(&format!("Unsupported content type: {content_type}")),
                "/books"
            )
        );
    }
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", &editor)
        .header("Content-Type", "application/json")
        .body("{\"isbn\":")
        .send()
        .await
        .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(status, 400);
    assert_eq!(body, problem(400, Some("Malformed JSON body"), "/books"));
    let fields: Vec<String> = (0..1001).map(|i| format!("f{i}=1")).collect();
    let res = cat
        .request(Method::POST, "/books")
        .header("Authorization", &editor)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(fields.join("&"))
        .send()
        .await
        .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(status, 413);
    assert_eq!(
        body,
        problem(
            413,
            Some("The request body has more than 1000 fields."),
            "/books"
        )
    );
}

#[tokio::test]
async fn delete_is_for_admins_only() {
    let cat = Catalog::start(&[]);
    let (status, h, body) = json(
        cat.request(Method::DELETE, "/books/5")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(
        header(&h, "www-authenticate"),
        Some("Bearer realm=\"catalog\"")
    );
    assert_eq!(body, problem(401, None, "/books/5"));
    let (status, _, body) = json(
        cat.request(Method::DELETE, "/books/5")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(body, problem(403, None, "/books/5"));
    // Two `Authorization` lines, in either order: which the client meant
    // is not known (a singleton field), so neither is taken.
    for (first, second) in [(ADMIN, EDITOR), (EDITOR, ADMIN), (ADMIN, ADMIN)] {
        let (status, h, body) = json(
            cat.request(Method::DELETE, "/books/5")
                .header("Authorization", format!("Bearer {first}"))
                .header("Authorization", format!("Bearer {second}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 401, "{first} {second}");
        assert_eq!(
            header(&h, "www-authenticate"),
            Some("Bearer realm=\"catalog\"")
        );
        assert_eq!(body, problem(401, None, "/books/5"));
    }
    let res = cat
        .request(Method::DELETE, "/books/5")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert!(res.bytes().await.unwrap().is_empty());
    let (status, _, body) = cat.get_json("/books/5").await;
    assert_eq!(
        (status, body),
        (404, problem(404, Some("Book 5 not found"), "/books/5"))
    );
    let (status, _, _) = json(
        cat.request(Method::DELETE, "/books/5")
            .header("Authorization", format!("Bearer {ADMIN}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 404);
}

fn multipart(boundary: &str, name: &str, content_type: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"c.png\"\r\nContent-Type: {content_type}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

#[tokio::test]
async fn covers_are_stored_and_served() {
    let cat = Catalog::start(&[]);
    let (status, _, body) = cat.get_json("/books/7/cover").await;
    assert_eq!(
        (status, body),
        (
            404,
            problem(404, Some("Book 7 has no cover"), "/books/7/cover")
        )
    );
    // A PNG signature, then arbitrary bytes: covers are sniffed from their bytes.
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .chain(0..=255u8)
        .chain(0..=255u8)
        .collect();
    let put = |auth: Option<String>, body: Vec<u8>, ct: &str| {
        let mut req = cat
            .request(Method::PUT, "/books/7/cover")
            .header("Content-Type", ct.to_owned())
            .body(body);
        if let Some(a) = auth {
            req = req.header("Authorization", a);
        }
        req.send()
    };
    let res = put(
        None,
        multipart("b0und", "cover", "image/png", &png),
        "multipart/form-data; boundary=b0und",
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 401);
    let res = put(
        Some(format!("Bearer {EDITOR}")),
        multipart("b0und", "cover", "image/png", &png),
        "multipart/form-data; boundary=b0und",
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 201);
    let res = cat.get("/books/7/cover").send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("content-type").unwrap(), "image/png");
    assert_eq!(res.bytes().await.unwrap().to_vec(), png);
    // Whitespace around `;` is allowed in a media type (RFC 9110 §8.3.1).
    for content_type in [
        "multipart/form-data ; boundary=b0und",
        "multipart/form-data;\tboundary=\"b0und\" ",
    ] {
        let res = put(
            Some(format!("Bearer {EDITOR}")),
            multipart("b0und", "cover", "image/png", &png),
            content_type,
        )
        .await
        .unwrap();
        assert_eq!(res.status(), 204, "{content_type}");
    }
    let res = put(
        Some(format!("Bearer {EDITOR}")),
        b"--b0und\r\nnot a part".to_vec(),
        "multipart/form-data; boundary=b0und",
    )
    .await
    .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(
        (status, body),
        (
            400,
            problem(400, Some("Malformed multipart body"), "/books/7/cover")
        )
    );
    let res = put(
        Some(format!("Bearer {EDITOR}")),
        multipart("b0und", "other", "image/png", &png),
        "multipart/form-data; boundary=b0und",
    )
    .await
    .unwrap();
    let (status, _, body) = json(res).await;
    assert_eq!(status, 400);
    let mut expected = problem(400, Some("Request validation failed"), "/books/7/cover");
    expected["issues"] = json!([{"location": "body", "name": "/cover", "code": "required",
                                 "message": "a file part named `cover` is required"}]);
    assert_eq!(body, expected);
    let res = cat
        .request(Method::PUT, "/books/999999/cover")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("Content-Type", "multipart/form-data; boundary=b0und")
        .body(multipart("b0und", "cover", "image/png", &png))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
}

/// A multipart body that ends without its closing boundary is malformed,
/// whatever its last bytes: some endings (`\r`, `\r\n`, `\r\n-`) left
/// actix-multipart 0.7 waiting for bytes that could not come, so the
/// request hung with no answer and no timeout. An empty `boundary`
/// parameter (RFC 2046 §5.1.1: 1 to 70 characters) is malformed too.
#[tokio::test]
async fn unterminated_multipart_bodies_are_malformed() {
    let cat = Catalog::start(&[]);
    let png: &[u8] = b"\x89PNG\r\n\x1a\n0123456789";
    let head = [
        &b"--b0und\r\nContent-Disposition: form-data; name=\"cover\"\r\nContent-Type: image/png\r\n\r\n"[..],
        png,
    ]
    .concat();
    let mut bodies: Vec<(Vec<u8>, &str)> = ["", "\r", "\r\n", "\r\n-", "\r\n--", "\r\n--b0und"]
        .iter()
        .map(|tail| {
            (
                [&head[..], tail.as_bytes()].concat(),
                "multipart/form-data; boundary=b0und",
            )
        })
        .collect();
    bodies.push((
        multipart("b0und", "cover", "image/png", png),
        "multipart/form-data; boundary=",
    ));
    for (body, content_type) in bodies {
        let res = cat
            .request(Method::PUT, "/books/7/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", content_type)
            .timeout(std::time::Duration::from_secs(10))
            .body(body.clone())
            .send()
            .await
            .unwrap_or_else(|e| panic!("{:?}: {e}", String::from_utf8_lossy(&body)));
        let (status, _, got) = json(res).await;
        assert_eq!(
            (status, got),
            (
                400,
                problem(400, Some("Malformed multipart body"), "/books/7/cover")
            ),
            "{:?} ({content_type})",
            String::from_utf8_lossy(&body)
        );
    }
    let res = cat.get("/books/7/cover").send().await.unwrap();
    assert_eq!(res.status(), 404, "nothing was stored");
    // A cover far beyond actix-multipart's 64 KiB parser buffer still
    // streams through whole.
    let big: Vec<u8> = b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .chain((0..1_000_000u32).map(|i| (i % 251) as u8))
        .collect();
    let res = cat
        .request(Method::PUT, "/books/7/cover")
        .header("Authorization", format!("Bearer {EDITOR}"))
        .header("Content-Type", "multipart/form-data; boundary=b0und")
        .body(multipart("b0und", "cover", "image/png", &big))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = cat.get("/books/7/cover").send().await.unwrap();
    assert_eq!(res.bytes().await.unwrap().to_vec(), big);
}

/// A multipart body within the body limit whose preamble line, part header
/// or file name is longer than actix-multipart's 64 KiB parser buffer is
/// the 400 problem `Malformed multipart body` (was the spec's empty 413,
/// which is for bodies over the limit only); a line just under the buffer
/// is read.
#[tokio::test]
async fn multipart_lines_over_the_parser_buffer_are_malformed() {
    let cat = Catalog::start(&[]);
    let png: &[u8] = b"\x89PNG\r\n\x1a\n0123456789";
    let part = |headers: &str| {
        [
            format!("--b0und\r\n{headers}\r\n\r\n").as_bytes(),
            png,
            b"\r\n--b0und--\r\n",
        ]
        .concat()
    };
    let plain = "Content-Disposition: form-data; name=\"cover\"; filename=\"c.png\"\r\nContent-Type: image/png";
    let long = "a".repeat(70_000);
    let send = |body: Vec<u8>| {
        cat.request(Method::PUT, "/books/7/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", "multipart/form-data; boundary=b0und")
            .timeout(std::time::Duration::from_secs(10))
            .body(body)
            .send()
    };
    for (what, body) in [
        (
            "preamble line",
            [format!("{long}\r\n").as_bytes(), &part(plain)].concat(),
        ),
        (
            "file name",
            part(&format!(
                "Content-Disposition: form-data; name=\"cover\"; filename=\"{long}.png\"\r\nContent-Type: image/png"
            )),
        ),
        ("part header", part(&format!("{plain}\r\nX-Pad: {long}"))),
    ] {
        let res = send(body).await.unwrap();
        let (status, headers, got) = json(res).await;
        assert_eq!(headers.get("content-type").unwrap(), PROBLEM_JSON, "{what}");
        assert_eq!(
            (status, got),
            (
                400,
                problem(400, Some("Malformed multipart body"), "/books/7/cover")
            ),
            "{what}"
        );
    }
    let res = cat.get("/books/7/cover").send().await.unwrap();
    assert_eq!(res.status(), 404, "nothing was stored");
    let short = "a".repeat(60_000);
    let res = send([format!("{short}\r\n").as_bytes(), &part(plain)].concat())
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
}

fn correlation_line(cat: &Catalog, id: &str) -> String {
    let lines = cat.wait_for_log(id);
    assert_eq!(lines.len(), 1, "exactly one log line for {id}: {lines:#?}");
    lines.into_iter().next().unwrap()
}

#[tokio::test]
async fn demo_errors_are_masked_and_logged_in_production() {
    let cat = Catalog::start(&[]);
    let res = cat.get("/demo/errors/unknown").send().await.unwrap();
    assert_eq!(res.headers().get("content-type").unwrap(), PROBLEM_JSON);
    let (status, _, body) = json(res).await;
    assert_eq!(status, 500);
    let id = body["correlationId"].as_str().unwrap().to_owned();
    assert_eq!(uuid::Uuid::parse_str(&id).unwrap().get_version_num(), 4);
    let mut expected = problem(500, None, "/demo/errors/unknown");
    expected["correlationId"] = json!(id);
    assert_eq!(body, expected);
    let line = correlation_line(&cat, &id);
    assert!(line.ends_with(&format!(
        "[catalog] Unhandled error on GET /demo/errors/unknown (correlation id {id}): DatabaseError: could not connect to postgres://***@db.internal:5432/catalog: connection refused"
    )), "{line}");
    assert!(line.contains("ERROR"), "{line}");

    let (status, _, body) = cat.get_json("/demo/errors/panic").await;
    assert_eq!(status, 500);
    let id = body["correlationId"].as_str().unwrap().to_owned();
    let mut expected = problem(500, None, "/demo/errors/panic");
    expected["correlationId"] = json!(id);
    assert_eq!(body, expected);
    let line = correlation_line(&cat, &id);
    assert!(
        line.ends_with(&format!(
            "[catalog] Unhandled error on GET /demo/errors/panic (correlation id {id}): Panic: demo panic: the handler gave up"
        )),
        "{line}"
    );
    let (status, _, _) = cat.get_json("/health").await;
    assert_eq!(status, 200, "the worker keeps serving after a panic");

    let res = cat.get("/demo/errors/unavailable").send().await.unwrap();
    assert_eq!(res.headers().get("retry-after").unwrap(), "120");
    let (status, _, body) = json(res).await;
    assert_eq!(status, 503);
    let id = body["correlationId"].as_str().unwrap().to_owned();
    let mut expected = problem(503, None, "/demo/errors/unavailable");
    expected["correlationId"] = json!(id);
    assert_eq!(body, expected);
    assert!(correlation_line(&cat, &id).ends_with(&format!(
        "[catalog] 503 on GET /demo/errors/unavailable (correlation id {id}): ServiceUnavailableException: Maintenance window"
    )));

    let (status, _, body) = cat.get_json("/demo/errors/bad-request").await;
    assert_eq!(status, 400);
    let mut expected = problem(
        400,
        Some("This request is bad on purpose"),
        "/demo/errors/bad-request",
    );
    expected["hint"] = json!("try /books instead");
    assert_eq!(body, expected);

    let log = cat.log().join("\n");
    assert!(
        !log.contains("s3cret"),
        "credentials are redacted in the log"
    );
    assert!(!log.contains(ADMIN) && !log.contains(EDITOR));
}

#[tokio::test]
async fn demo_errors_show_details_in_development() {
    let cat = Catalog::start(&[("NODE_ENV", "development")]);
    let (status, _, body) = cat.get_json("/demo/errors/unknown").await;
    assert_eq!(status, 500);
    assert_eq!(
        body["detail"],
        json!("could not connect to postgres://***@db.internal:5432/catalog: connection refused")
    );
    assert_eq!(
        body["stack"],
        json!(
            "DatabaseError: could not connect to postgres://***@db.internal:5432/catalog: connection refused"
        )
    );
    let (status, _, body) = cat.get_json("/demo/errors/unavailable").await;
    assert_eq!(status, 503);
    let id = body["correlationId"].as_str().unwrap_or_default();
    assert_eq!(uuid::Uuid::parse_str(id).unwrap().get_version_num(), 4);
    let mut expected = problem(503, Some("Maintenance window"), "/demo/errors/unavailable");
    expected["correlationId"] = json!(id);
    expected["window"] = json!({"start": "02:00Z", "end": "03:00Z"});
    assert_eq!(body, expected);
}

#[tokio::test]
async fn framework_errors_as_a_client_sees_them() {
    let cat = Catalog::start(&[("CATALOG_MAX_BODY_BYTES", "4096")]);
    let (status, h, body) = cat.get_json("/nope?x=1").await;
    assert_eq!(
        (status, body),
        (404, problem(404, Some("No route for GET /nope"), "/nope"))
    );
    assert_eq!(header(&h, "content-type"), Some(PROBLEM_JSON));
    let (status, h, body) = json(cat.request(Method::PATCH, "/books").send().await.unwrap()).await;
    assert_eq!(
        (status, body),
        (
            405,
            problem(405, Some("PATCH is not allowed on /books"), "/books")
        )
    );
    assert_eq!(header(&h, "allow"), Some("GET, HEAD, POST, OPTIONS"));
    let (status, h, _) = json(cat.request(Method::POST, "/books/1").send().await.unwrap()).await;
    assert_eq!(status, 405);
    assert_eq!(header(&h, "allow"), Some("GET, HEAD, DELETE, OPTIONS"));
    let params: Vec<String> = (0..1001).map(|i| format!("p{i}=1")).collect();
    let (status, _, body) = cat.get_json(&format!("/books?{}", params.join("&"))).await;
    assert_eq!(
        (status, body),
        (
            400,
            problem(
                400,
                Some("The query string has more than 1000 parameters."),
                "/books"
            )
        )
    );

    let big = "x".repeat(5000);
    let reply = cat
        .raw(format!("POST /books HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer {EDITOR}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{big}", big.len()).as_bytes())
        .await;
    assert_eq!(reply.status, 413);
    assert!(
        reply.body.is_empty(),
        "the 413 over the body limit is empty"
    );
    assert_eq!(reply.header("content-type"), None);

    let reply = cat
        .raw(b"GET /books?per_page=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        .await;
    assert_eq!(reply.status, 421);
    assert_eq!(reply.header("content-type"), Some(PROBLEM_JSON));
    // A problem response like any other: the version headers and Vary.
    assert_eq!(reply.header("x-api-version"), Some("3"));
    assert_eq!(reply.header("x-api-supported-versions"), Some("2, 3"));
    assert_eq!(reply.header("vary"), Some("X-API-Version, Accept"));
    let body: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(
        body,
        problem(
            421,
            Some("This server does not serve the requested host."),
            "/books"
        )
    );
    let reply = cat
        .raw(
            format!(
                "GET /health HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
                cat.addr.port()
            )
            .as_bytes(),
        )
        .await;
    assert_eq!(reply.status, 200);
}

/// `HEAD`, `OPTIONS`, `Vary`, `ETag`/304 and `Cache-Control: no-cache` as a
/// real client sees them over HTTP.
#[tokio::test]
async fn http_semantics_over_the_wire() {
    let cat = Catalog::start(&[]);
    let get = cat.get("/books/5").send().await.unwrap();
    assert_eq!(get.status(), 200);
    let h = get.headers().clone();
    let body = get.bytes().await.unwrap();
    let etag = header(&h, "etag").unwrap().to_owned();
    assert_eq!(etag, problem_core::pipeline::entity_tag(&body).to_string());
    assert_eq!(header(&h, "cache-control"), Some("no-cache"));
    assert_eq!(header(&h, "vary"), Some("X-API-Version, Accept"));
    assert_eq!(header(&h, "content-length"), Some(&*body.len().to_string()));

    let head = cat.request(Method::HEAD, "/books/5").send().await.unwrap();
    assert_eq!(head.status(), 200);
    let mut get_names: Vec<&str> = h
        .keys()
        .map(|k| k.as_str())
        .filter(|k| *k != "date")
        .collect();
    let hh = head.headers().clone();
    let mut head_names: Vec<&str> = hh
        .keys()
        .map(|k| k.as_str())
        .filter(|k| *k != "date")
        .collect();
    get_names.sort();
    head_names.sort();
    assert_eq!(head_names, get_names);
    for name in get_names {
        assert_eq!(hh.get(name), h.get(name), "{name}");
    }
    assert!(head.bytes().await.unwrap().is_empty());

    let res = cat
        .get("/books/5")
        .header("If-None-Match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 304);
    assert_eq!(header(res.headers(), "etag"), Some(&*etag));
    assert_eq!(header(res.headers(), "vary"), Some("X-API-Version, Accept"));
    assert_eq!(header(res.headers(), "x-api-version"), Some("3"));
    assert!(res.bytes().await.unwrap().is_empty());

    // `If-Match` on a read (RFC 9110 §13.1.1): another tag is the 412
    // problem, the current one the representation.
    let res = cat
        .get("/books/5")
        .header("If-Match", "\"0123456789abcdef0123456789abcdef\"")
        .send()
        .await
        .unwrap();
    let (status, h412, problem) = json(res).await;
    assert_eq!(
        (status, problem),
        (
            412,
            json!({"type": "about:blank", "title": "Precondition Failed", "status": 412,
                   "detail": "The resource has changed since it was read", "instance": "/books/5"})
        )
    );
    assert_eq!(header(&h412, "vary"), Some("X-API-Version, Accept"));
    assert_eq!(header(&h412, "etag"), None);
    let res = cat
        .get("/books/5")
        .header("If-Match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.bytes().await.unwrap(), body);

    let res = cat
        .request(Method::OPTIONS, "/books/5")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        header(res.headers(), "allow"),
        Some("GET, HEAD, DELETE, OPTIONS")
    );

    let res = cat
        .get("/books?per_page=1&fields=id")
        .header("X-API-Version", "2")
        .send()
        .await
        .unwrap();
    // DECISIONS' value for the catalog; `Prefer` joins it only when the
    // request carries one.
    assert_eq!(header(res.headers(), "vary"), Some("X-API-Version, Accept"));
    let res = cat
        .get("/books?per_page=1&fields=id")
        .header("X-API-Version", "2")
        .header("Prefer", "count=none")
        .send()
        .await
        .unwrap();
    assert_eq!(
        header(res.headers(), "vary"),
        Some("Prefer, X-API-Version, Accept")
    );
    let res = cat.get("/health").send().await.unwrap();
    assert_eq!(header(res.headers(), "vary"), None);
}

/// `If-Match` on `DELETE /books/{id}` and `PUT /books/{id}/cover`: a stale
/// tag is the 412 problem and nothing is written; the current tag writes.
#[tokio::test]
async fn if_match_protects_deletes_and_cover_uploads() {
    let cat = Catalog::start(&[]);
    let stale = "\"0123456789abcdef0123456789abcdef\"";
    let res = cat
        .request(Method::DELETE, "/books/9")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("If-Match", stale)
        .send()
        .await
        .unwrap();
    let (status, h, body) = json(res).await;
    assert_eq!(
        (status, body),
        (
            412,
            json!({"type": "about:blank", "title": "Precondition Failed", "status": 412,
                   "detail": "The resource has changed since it was read", "instance": "/books/9"})
        )
    );
    assert_eq!(header(&h, "content-type"), Some(PROBLEM_JSON));
    assert_eq!(
        cat.get("/books/9").send().await.unwrap().status(),
        200,
        "not deleted"
    );
    let etag = cat.get("/books/9").send().await.unwrap().headers()["etag"].clone();
    let res = cat
        .request(Method::DELETE, "/books/9")
        .header("Authorization", format!("Bearer {ADMIN}"))
        .header("If-Match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(cat.get("/books/9").send().await.unwrap().status(), 404);

    // A PNG signature, then arbitrary bytes: covers are sniffed from their bytes.
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .chain(0..=255u8)
        .collect();
    let put = |if_match: &str, data: &[u8]| {
        cat.request(Method::PUT, "/books/8/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", "multipart/form-data; boundary=b0und")
            .header("If-Match", if_match.to_owned())
            .body(multipart("b0und", "cover", "image/png", data))
            .send()
    };
    // No cover yet: `If-Match: *` fails, nothing stored.
    let res = put("*", &png).await.unwrap();
    assert_eq!(res.status(), 412);
    assert_eq!(
        cat.get("/books/8/cover").send().await.unwrap().status(),
        404
    );
    let res = cat
        .request(Method::PUT, "/books/8/cover")
        .header("Authorization", format!("Bearer {EDITOR}"))
        .header("Content-Type", "multipart/form-data; boundary=b0und")
        .body(multipart("b0und", "cover", "image/png", &png))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = put(stale, &[1, 2, 3]).await.unwrap();
    assert_eq!(res.status(), 412);
    assert_eq!(
        cat.get("/books/8/cover")
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .to_vec(),
        png
    );
    let tag = problem_core::pipeline::entity_tag(&png).to_string();
    // Only images are stored (covers are sniffed): the replacement is a GIF.
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    let res = put(&tag, &gif).await.unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        cat.get("/books/8/cover")
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .to_vec(),
        gif
    );
}

/// `If-None-Match` on the same writes (RFC 9110 §13.1.2): `*` stores a
/// cover only while the book has none; a tag that is current refuses the
/// write; a list with an element that is not an entity tag refuses it too.
/// Each refusal is the 412 problem and writes nothing.
#[tokio::test]
async fn if_none_match_guards_deletes_and_cover_uploads() {
    let cat = Catalog::start(&[]);
    let precondition_failed = |instance: &str| {
        json!({"type": "about:blank", "title": "Precondition Failed", "status": 412,
               "detail": "The resource has changed since it was read", "instance": instance})
    };
    let png = b"\x89PNG\r\n\x1a\nfirst".to_vec();
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    let put = |if_none_match: &str, data: &[u8]| {
        cat.request(Method::PUT, "/books/8/cover")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .header("Content-Type", "multipart/form-data; boundary=b0und")
            .header("If-None-Match", if_none_match.to_owned())
            .body(multipart("b0und", "cover", "image/png", data))
            .send()
    };
    let cover = || async {
        let res = cat.get("/books/8/cover").send().await.unwrap();
        (res.status().as_u16(), res.bytes().await.unwrap().to_vec())
    };
    // No cover yet: `*` stores it (a 201); then there is one, and `*` refuses.
    assert_eq!(put("*", &png).await.unwrap().status(), 201);
    assert_eq!(cover().await, (200, png.clone()));
    let (status, _, body) = json(put("*", &gif).await.unwrap()).await;
    assert_eq!((status, body), (412, precondition_failed("/books/8/cover")));
    // The current tag (weakly) refuses; another tag allows.
    let tag = problem_core::pipeline::entity_tag(&png).to_string();
    for current in [tag.clone(), format!("W/{tag}"), format!("\"x\", {tag}")] {
        assert_eq!(
            put(&current, &gif).await.unwrap().status(),
            412,
            "{current}"
        );
    }
    for malformed in ["garbage", "*, \"x\""] {
        assert_eq!(
            put(malformed, &gif).await.unwrap().status(),
            412,
            "{malformed}"
        );
    }
    assert_eq!(cover().await, (200, png.clone()));
    assert_eq!(put("\"x\"", &gif).await.unwrap().status(), 204);
    assert_eq!(cover().await, (200, gif));

    let delete = |if_none_match: &str| {
        cat.request(Method::DELETE, "/books/9")
            .header("Authorization", format!("Bearer {ADMIN}"))
            .header("If-None-Match", if_none_match.to_owned())
            .send()
    };
    let etag = cat.get("/books/9").send().await.unwrap().headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    for refused in ["*", etag.as_str()] {
        let (status, _, body) = json(delete(refused).await.unwrap()).await;
        assert_eq!(
            (status, body),
            (412, precondition_failed("/books/9")),
            "{refused}"
        );
    }
    assert_eq!(cat.get("/books/9").send().await.unwrap().status(), 200);
    assert_eq!(delete("\"x\"").await.unwrap().status(), 204);
    assert_eq!(cat.get("/books/9").send().await.unwrap().status(), 404);
}

/// The 409's `type` resolves: `/problems/duplicate-isbn` documents the
/// problem type, as HTML by default and as JSON on request.
#[tokio::test]
async fn the_duplicate_isbn_type_resolves() {
    let cat = Catalog::start(&[]);
    let res = cat.get("/problems/duplicate-isbn").send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        header(res.headers(), "content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = res.text().await.unwrap();
    assert!(html.contains("<h1>Conflict</h1>"), "{html}");
    assert!(
        html.contains("<tr><td><code>isbn</code></td><td>string</td><td>yes</td><td>The ISBN that is already taken.</td></tr>"),
        "{html}"
    );
    let res = cat
        .get("/problems/duplicate-isbn")
        .header("Accept", "application/json")
        .send()
        .await
        .unwrap();
    let (status, h, body) = json(res).await;
    assert_eq!(status, 200);
    assert_eq!(header(&h, "content-type"), Some("application/json"));
    assert_eq!(
        body,
        json!({
            "type": "/problems/duplicate-isbn",
            "title": "Conflict",
            "status": 409,
            "description": "A book with this ISBN already exists.\n\n`POST /books` answers it (409, the ISBN in the `isbn` extension member)\nwhen the new book's ISBN is already in the catalog: ISBNs are unique.\nRead the existing book with `GET /books?isbn=<isbn>` instead.",
            "members": [{"name": "isbn", "type": "string", "required": true,
                         "description": "The ISBN that is already taken."}]
        })
    );
    let (status, _, _) = cat.get_json("/problems/about:blank").await;
    assert_eq!(status, 404);
}

/// A version-2 list is a bare array: its `Link` header is the only way to
/// the next page. A cursor holding a 256-character title of four-byte
/// characters is about 1.4 KB, so `prev` and `next` together are over the
/// 2 KiB budget: the header keeps `next` alone (it was left out, and the
/// walk stopped at the second page), on the last page `prev`, and on a
/// page reached walking back `prev` alone.
#[tokio::test]
async fn a_version_2_keyset_walk_follows_long_cursors_in_the_link_header() {
    let cat = Catalog::start(&[("CATALOG_SEED_ROWS", "5")]);
    let titles = ["\u{1D11E}", "\u{1D11F}", "\u{1D120}"].map(|c| c.repeat(256));
    let mut ids = Vec::new();
    for (i, title) in titles.iter().enumerate() {
        let mut book = new_book(&format!("97804411727{}", 20 + i));
        book["title"] = json!(title);
        book["genre"] = json!("edge");
        let res = cat
            .request(Method::POST, "/books")
            .header("Authorization", format!("Bearer {EDITOR}"))
            .json(&book)
            .send()
            .await
            .unwrap();
        let (status, _, created) = json(res).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_i64().unwrap());
    }
    // The first row of each page and its `Link` header, following `rel`
    // from `path` (at most three pages).
    async fn walk(cat: &Catalog, mut path: String, rel: &str) -> (Vec<i64>, Vec<String>) {
        let (mut ids, mut links) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            let res = cat
                .get(&path)
                .header("X-API-Version", "2")
                .send()
                .await
                .unwrap();
            let (status, headers, body) = json(res).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(header(&headers, "x-api-version"), Some("2"));
            ids.push(body[0]["id"].as_i64().unwrap());
            let link = header(&headers, "link").expect("a Link header").to_owned();
            assert!(
                link.len() <= problem_core::spec::MAX_LINK_HEADER_LENGTH,
                "{link}"
            );
            let next = link_of(rel, &link);
            links.push(link);
            match next {
                Some(next) => path = next,
                None => break,
            }
        }
        (ids, links)
    }
    fn link_of(rel: &str, link: &str) -> Option<String> {
        let end = format!(">; rel=\"{rel}\"");
        let at = link.find(&end)?;
        let start = link[..at].rfind('<')? + 1;
        Some(link[start..at].to_owned())
    }
    let rels = |links: &[String]| -> Vec<Vec<&str>> {
        links
            .iter()
            .map(|link| {
                ["self", "first", "prev", "next", "last"]
                    .into_iter()
                    .filter(|rel| link_of(rel, link).is_some())
                    .collect()
            })
            .collect()
    };
    let start = "/books?genre=edge&sort=title&limit=1&fields=id".to_owned();
    let (seen, links) = walk(&cat, start, "next").await;
    assert_eq!(seen, ids, "every row once, in title order");
    // The first page: `self` and `next` fit; then `next` alone; the last
    // page has only `prev`.
    assert_eq!(
        rels(&links),
        [vec!["self", "next"], vec!["next"], vec!["prev"]]
    );
    // Back from the last page: a page reached with a previous cursor keeps
    // `prev` (the link walked on) where both do not fit.
    let last_prev = link_of("prev", links.last().unwrap()).expect("the last page's prev");
    let (back, back_links) = walk(&cat, last_prev, "prev").await;
    assert_eq!(back, [ids[1], ids[0]], "back to the first row");
    // The middle page keeps `prev`; the first, reached back, has no
    // `prev`, and its `self` and `next` (both with a cursor) do not fit
    // together.
    assert_eq!(rels(&back_links), [vec!["prev"], vec!["next"]]);
}

/// Links repeat the query: a 2 KB query in an offset list made a 10 KB
/// `Link` header (and a long one hundreds of KB, which curl, Python and
/// Node.js refuse; nginx's default 4 KiB header buffer refused a 3.2 KB
/// one). Over 2 KiB the header keeps `prev` and `next`; the body's `links`
/// keep all five.
#[tokio::test]
async fn a_long_query_keeps_the_paging_links_in_the_link_header() {
    let cat = Catalog::start(&[("CATALOG_SEED_ROWS", "30")]);
    let ids: Vec<String> = (0..40)
        .map(|i| format!("{}", 9_000_000_000_000_000_000i64 + i))
        .collect();
    let query = format!("id__not_in={}&per_page=1&page=2", ids.join(","));
    let (status, headers, body) = cat.get_json(&format!("/books?{query}")).await;
    assert_eq!(status, 200, "{body}");
    let page = |n: u32| format!("/books?id__not_in={}&per_page=1&page={n}", ids.join(","));
    assert_eq!(
        body["links"],
        json!({"self": page(2), "first": page(1), "prev": page(1), "next": page(3), "last": page(30)})
    );
    let link = header(&headers, "link").expect("a Link header");
    assert_eq!(
        link,
        format!("<{}>; rel=\"prev\", <{}>; rel=\"next\"", page(1), page(3))
    );
    // A short query keeps every link.
    let (_, headers, _) = cat.get_json("/books?per_page=1&page=2").await;
    assert_eq!(
        header(&headers, "link").unwrap(),
        "</books?per_page=1&page=2>; rel=\"self\", </books?per_page=1&page=1>; rel=\"first\", \
         </books?per_page=1&page=1>; rel=\"prev\", </books?per_page=1&page=3>; rel=\"next\", \
         </books?per_page=1&page=30>; rel=\"last\""
    );
}
