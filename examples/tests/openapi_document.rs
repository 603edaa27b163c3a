//! The catalog's `GET /openapi.json` (issue 9): every route with its
//! success response and its problem responses, one document per version.

use actix_web::{App, test};
use examples::catalog::list::BookQuery;
use examples::catalog::{self, Config, Db};
use problem_core::openapi::utoipa::{IntoParams, IntoResponses};
use serde_json::{Value, json};

fn config() -> Config {
    let mut c = Config::from_env().unwrap();
    c.allowed_hosts = vec!["localhost".into()];
    c.development = false;
    c
}

async fn documents() -> (Value, Value) {
    let config = config();
    let db = Db::connect(None).await.unwrap();
    db.prepare(10).await.unwrap();
    let app = catalog::app(&config, db).unwrap();
    let service = test::init_service(
        App::new()
            .configure(|c| app.configure(c))
            .wrap(app.versioning())
            .wrap(app.pipeline()),
    )
    .await;
    let get = |uri: &str| {
        test::TestRequest::get()
            .uri(uri)
            .insert_header(("Host", "localhost"))
            .to_request()
    };
    let res = test::call_service(&service, get("/openapi.json")).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().get("x-api-version").is_none(), "neutral path");
    let v3: Value = test::read_body_json(res).await;
    let res = test::call_service(&service, get("/openapi.json?api-version=2")).await;
    assert_eq!(res.status(), 200);
    let v2: Value = test::read_body_json(res).await;
    // The path is version-neutral: a version without a document (removed,
    // unsupported, invalid, named twice differently) is ignored, and the
    // answer is the default document, with the `Vary` of the documents and
    // no version header.
    for (uri, header) in [
        ("/openapi.json?api-version=1", None),
        ("/openapi.json?api-version=9", None),
        ("/openapi.json?api-version=x", None),
        ("/openapi.json", Some(("X-API-Version", "zz"))),
        ("/openapi.json?api-version=2", Some(("X-API-Version", "3"))),
        ("/v1/openapi.json", None),
    ] {
        let mut req = test::TestRequest::get()
            .uri(uri)
            .insert_header(("Host", "localhost"));
        if let Some(h) = header {
            req = req.insert_header(h);
        }
        let res = test::call_service(&service, req.to_request()).await;
        assert_eq!(res.status(), 200, "{uri} {header:?}");
        assert_eq!(
            res.headers().get("vary").unwrap(),
            "X-API-Version, Accept",
            "{uri}"
        );
        for name in [
            "x-api-version",
            "x-api-supported-versions",
            "deprecation",
            "sunset",
        ] {
            assert!(res.headers().get(name).is_none(), "{uri} {name}");
        }
        let doc: Value = test::read_body_json(res).await;
        assert_eq!(doc, v3, "{uri} {header:?}");
    }
    (v3, v2)
}

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            out.push((method.to_uppercase(), path.clone(), op));
        }
    }
    out
}

fn codes(op: &Value) -> Vec<&str> {
    op["responses"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// Counts the schemas under `node` that are composed (`anyOf`, `oneOf`,
/// `allOf`) or objects with properties, written out in place (no `$ref`),
/// by their JSON text.
fn inline_schemas(node: &Value, counts: &mut std::collections::BTreeMap<String, usize>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "schema"
                    && value.get("$ref").is_none()
                    && ["anyOf", "oneOf", "allOf", "properties"]
                        .iter()
                        .any(|k| value.get(k).is_some())
                {
                    *counts.entry(value.to_string()).or_default() += 1;
                }
                inline_schemas(value, counts);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| inline_schemas(v, counts)),
        _ => {}
    }
}

/// Every `$ref` of the document names a component that exists.
fn check_refs(doc: &Value, node: &Value) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                let name = r.strip_prefix("#/components/schemas/").unwrap();
                assert!(
                    doc["components"]["schemas"].get(name).is_some(),
                    "dangling {r}"
                );
            }
            map.values().for_each(|v| check_refs(doc, v));
        }
        Value::Array(items) => items.iter().for_each(|v| check_refs(doc, v)),
        _ => {}
    }
}

#[actix_web::test]
async fn the_catalog_describes_every_route_with_its_problem_responses() {
    let (v3, v2) = documents().await;
    // A removed version's 410 resolved no version: it documents only the
    // header it carries. Version 2's list says where its cursors are.
    for doc in [&v3, &v2] {
        let headers = doc["paths"]["/books"]["get"]["responses"]["410"]["headers"]
            .as_object()
            .unwrap();
        assert_eq!(
            headers.keys().collect::<Vec<_>>(),
            ["X-API-Supported-Versions"]
        );
    }
    let list_v2 = v2["paths"]["/books"]["get"]["description"]
        .as_str()
        .unwrap();
    assert!(
        list_v2.contains("`next` and `prev` links of the `Link` header"),
        "{list_v2}"
    );
    assert!(!list_v2.contains("meta."), "{list_v2}");
    for doc in [&v3, &v2] {
        assert_eq!(doc["openapi"], "3.1.0");
        check_refs(doc, doc);
        let routes: Vec<(String, String, Vec<&str>)> = operations(doc)
            .into_iter()
            .map(|(m, p, op)| (m, p, codes(op)))
            .collect();
        assert_eq!(
            routes,
            [
                (
                    "GET".into(),
                    "/books".into(),
                    vec!["200", "304", "400", "410", "412", "421", "500", "503"]
                ),
                (
                    "POST".into(),
                    "/books".into(),
                    vec![
                        "201", "400", "401", "408", "409", "410", "413", "415", "421", "500", "503"
                    ]
                ),
                (
                    "GET".into(),
                    "/books/{id}".into(),
                    vec![
                        "200", "304", "400", "404", "410", "412", "421", "500", "503"
                    ]
                ),
                (
                    "DELETE".into(),
                    "/books/{id}".into(),
                    vec![
                        "204", "400", "401", "403", "404", "410", "412", "421", "500", "503"
                    ]
                ),
                (
                    "GET".into(),
                    "/books/{id}/cover".into(),
                    vec![
                        "200", "304", "400", "404", "410", "412", "421", "500", "503"
                    ]
                ),
                (
                    "PUT".into(),
                    "/books/{id}/cover".into(),
                    vec![
                        "201", "204", "400", "401", "404", "408", "410", "412", "413", "415",
                        "421", "500", "503"
                    ]
                ),
                (
                    "GET".into(),
                    "/health".into(),
                    // The 400 every route can answer (a NUL in the query,
                    // more than 1000 parameters), neutral ones included.
                    vec!["200", "304", "400", "412", "421", "500"]
                ),
                (
                    "GET".into(),
                    "/openapi.json".into(),
                    // The 400 every route can answer (a NUL in the query,
                    // more than 1000 parameters), neutral ones included.
                    vec!["200", "304", "400", "412", "421", "500"]
                ),
                (
                    "GET".into(),
                    "/demo/errors/{kind}".into(),
                    vec!["400", "404", "410", "421", "500", "503"]
                ),
                (
                    "GET".into(),
                    "/problems/duplicate-isbn".into(),
                    // The 400 every route can answer (a NUL in the query,
                    // more than 1000 parameters), neutral ones included.
                    vec!["200", "304", "400", "412", "421", "500"]
                ),
            ]
        );
        // Every error response is a problem document.
        for (method, path, op) in operations(doc) {
            for (code, response) in op["responses"].as_object().unwrap() {
                if code.starts_with('4') || code.starts_with('5') {
                    assert!(
                        response["content"]
                            .get("application/problem+json")
                            .is_some(),
                        "{method} {path} {code}"
                    );
                }
            }
        }
        assert_eq!(
            doc["paths"]["/books"]["post"]["responses"]["409"],
            serde_json::to_value(&examples::catalog::books::DuplicateIsbn::responses()["409"])
                .unwrap()
                .as_object()
                .map(|o| {
                    let mut o = o.clone();
                    // The versioning adds its response headers.
                    o.insert(
                        "headers".into(),
                        doc["paths"]["/books"]["post"]["responses"]["409"]["headers"].clone(),
                    );
                    Value::Object(o)
                })
                .unwrap()
        );
        assert_eq!(
            doc["paths"]["/books"]["post"]["responses"]["401"]["headers"]["WWW-Authenticate"]["schema"]
                ["enum"],
            json!(["Bearer realm=\"catalog\""])
        );
        assert_eq!(
            doc["paths"]["/books/{id}"]["delete"]["security"],
            json!([{"bearer": []}])
        );
    }
    assert_eq!(v3["info"]["version"], "3");
    assert_eq!(v2["info"]["version"], "2");
    let schemas: Vec<&String> = v3["components"]["schemas"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        schemas,
        [
            "BadRequestProblem",
            "Book",
            "BookCursorPage",
            "BookFields",
            "BookPage",
            "DuplicateIsbn",
            "Issue",
            "IssueLocation",
            "NewBook",
            "ProblemDetails",
            "ValidationProblem"
        ]
    );
}

#[actix_web::test]
async fn list_books_has_the_derived_query_parameters_and_the_version_parameters() {
    let (v3, v2) = documents().await;
    let mut expected: Vec<String> = BookQuery::into_params(|| None)
        .into_iter()
        .map(|p| p.name)
        .collect();
    expected.extend([
        "_".into(),
        "Prefer".into(),
        "If-None-Match".into(),
        "X-API-Version".into(),
        "api-version".into(),
    ]);
    for doc in [&v3, &v2] {
        let names: Vec<&str> = doc["paths"]["/books"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, expected);
    }
    let op = &v3["paths"]["/books"]["get"];
    let sort = op["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "sort")
        .unwrap();
    assert_eq!(
        sort["schema"],
        json!({"type": "array", "maxItems": 100, "uniqueItems": true, "items": {"type": "string",
            "pattern": "^[+-]?(?:id|title|author|year|price|rating|published_at)$"}})
    );
    assert_eq!(
        op["responses"]["200"]["content"]["application/json"]["schema"],
        json!({"oneOf": [{"$ref": "#/components/schemas/BookPage"},
                         {"$ref": "#/components/schemas/BookCursorPage"}]})
    );
    assert_eq!(
        v2["paths"]["/books"]["get"]["responses"]["200"]["content"]["application/json"]["schema"],
        json!({"type": "array", "items": {"$ref": "#/components/schemas/BookFields"}})
    );
    assert!(
        v2["paths"]["/books"]["get"]["responses"]["200"]["headers"]
            .get("X-Total-Count")
            .is_some()
    );
}

/// Backward pages, count strategies and tolerated parameters as the
/// document describes them.
#[actix_web::test]
async fn list_books_documents_prev_cursors_count_preferences_and_tolerated_parameters() {
    let (v3, v2) = documents().await;
    let param = |doc: &Value, name: &str| {
        doc["paths"]["/books"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    for doc in [&v3, &v2] {
        let prefer = param(doc, "Prefer");
        assert_eq!(
            (&prefer["in"], &prefer["required"], &prefer["schema"]),
            (&json!("header"), &json!(false), &json!({"type": "string"}))
        );
        assert!(
            prefer["description"]
                .as_str()
                .unwrap()
                .contains("count=estimated")
        );
        let underscore = param(doc, "_");
        assert_eq!(
            (
                &underscore["in"],
                &underscore["required"],
                &underscore["schema"]
            ),
            (&json!("query"), &json!(false), &json!({"type": "string"}))
        );
        let op = &doc["paths"]["/books"]["get"];
        assert!(
            op["description"]
                .as_str()
                .unwrap()
                .contains("Tolerated parameters, accepted and ignored (not filters, left out of the links and cursors): `_`, any parameter starting with `utm_`.\n"),
            "{}",
            op["description"]
        );
        assert_eq!(
            op["responses"]["200"]["headers"]["Preference-Applied"]["schema"],
            json!({"type": "string", "enum": ["count=exact", "count=estimated", "count=none"]}),
            "{}",
            op["responses"]["200"]
        );
        assert_eq!(
            op["responses"]["200"]["headers"]["Preference-Applied"]["schema"],
            json!({"type": "string", "enum": ["count=exact", "count=estimated", "count=none"]})
        );
    }
    let schemas = &v3["components"]["schemas"];
    let cursor_meta = &schemas["BookCursorPage"]["properties"]["meta"];
    // `prev_cursor` is absent on the first page, a string on the others.
    assert_eq!(cursor_meta["required"], json!(["limit", "next_cursor"]));
    assert_eq!(
        cursor_meta["properties"]["prev_cursor"]["type"],
        json!("string")
    );
    let links: Vec<&String> = schemas["BookCursorPage"]["properties"]["links"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(links, ["self", "prev", "next"]);
    let page_meta = &schemas["BookPage"]["properties"]["meta"];
    assert_eq!(page_meta["required"], json!(["page", "per_page"]));
    assert_eq!(
        page_meta["properties"]["total_is_estimate"]["enum"],
        json!([true])
    );
}

#[actix_web::test]
async fn version_2_operations_are_deprecated_and_neutral_ones_are_not() {
    let (v3, v2) = documents().await;
    for (method, path, op) in operations(&v2) {
        let neutral = ["/health", "/openapi.json", "/problems/duplicate-isbn"].contains(&&*path);
        assert_eq!(
            op.get("deprecated"),
            if neutral { None } else { Some(&json!(true)) },
            "{method} {path}"
        );
        // The neutral operations are marked so, the others not.
        assert_eq!(
            op.get("x-version-neutral"),
            neutral.then_some(&json!(true)),
            "{method} {path}"
        );
        if !neutral {
            assert_eq!(op["x-api-version"]["version"], "2");
            assert_eq!(
                op["x-api-version"]["mediaType"],
                "application/vnd.catalog.v2+json"
            );
            assert_eq!(
                op["x-api-version"]["sunset"],
                "Fri, 31 Dec 2027 23:59:59 GMT"
            );
        }
    }
    for (method, path, op) in operations(&v3) {
        assert_eq!(op.get("deprecated"), None, "{method} {path}");
        let neutral = ["/health", "/openapi.json", "/problems/duplicate-isbn"].contains(&&*path);
        assert_eq!(
            op.get("x-version-neutral"),
            neutral.then_some(&json!(true)),
            "{method} {path}"
        );
    }
    let header = |doc: &Value| {
        doc["paths"]["/books/{id}"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "X-API-Version")
            .unwrap()
            .clone()
    };
    assert_eq!(header(&v2)["required"], true);
    assert_eq!(header(&v2)["schema"]["enum"], json!(["2"]));
    assert_eq!(header(&v3)["required"], false);
    assert_eq!(header(&v3)["schema"]["enum"], json!(["3"]));
    assert_eq!(
        v2["paths"]["/books/{id}"]["get"]["responses"]["200"]["headers"]["Sunset"]["description"],
        "When the version stops being served (RFC 8594, IMF-fixdate)."
    );
}

fn parameter<'d>(op: &'d Value, name: &str) -> &'d Value {
    op["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no parameter {name}"))
}

/// The document faults of issue 14 that made generated clients wrong.
#[actix_web::test]
async fn generators_get_no_defaults_exploded_lists_references_and_media_types() {
    let (v3, v2) = documents().await;
    for doc in [&v3, &v2] {
        assert_eq!(doc["servers"], json!([{"url": "/"}]));
        let list = &doc["paths"]["/books"]["get"];
        // Mutually exclusive: no default a generated client would send.
        assert_eq!(
            parameter(list, "page")["schema"],
            json!({"type": "integer", "format": "int64", "minimum": 1})
        );
        for name in ["per_page", "limit"] {
            assert_eq!(
                parameter(list, name)["schema"],
                json!({"type": "integer", "minimum": 1}),
                "{name}"
            );
        }
        assert_eq!(
            parameter(list, "cursor")["schema"],
            json!({"type": "string"})
        );
        // The query limits' default length of a text value (`too_long`).
        assert_eq!(
            parameter(list, "title__contains")["schema"],
            json!({"type": "string", "maxLength": 256})
        );
        assert_eq!(
            parameter(list, "author")["schema"],
            json!({"type": "string", "maxLength": 256})
        );
        assert!(
            parameter(list, "q")["description"]
                .as_str()
                .unwrap()
                .contains("(at most 20, each at most 256 characters)")
        );
        assert_eq!(
            parameter(list, "per_page")["description"],
            "Page size (default 20); larger sizes are clamped to 100. `limit` is the same parameter: given both, they must be equal."
        );
        // List-valued parameters: exploded arrays; nothing else has a style.
        let mut exploded: Vec<&str> = Vec::new();
        for p in list["parameters"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap();
            match (p.get("style"), p.get("explode")) {
                (Some(style), Some(explode)) => {
                    assert_eq!((style, explode), (&json!("form"), &json!(true)), "{name}");
                    assert_eq!(p["schema"]["type"], "array", "{name}");
                    exploded.push(name);
                }
                (None, None) => assert_ne!(p["schema"]["type"], "array", "{name}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        assert_eq!(
            exploded,
            [
                "sort",
                "id__in",
                "id__not_in",
                "isbn__in",
                "author__in",
                "author__not_in",
                "genre__in",
                "genre__not_in",
                "year__in",
                "price__in",
                "rating__in",
                "search_fields",
                "fields",
                "exclude"
            ]
        );
        // Schemas used twice are components, referenced.
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["ValidationProblem"]["properties"]["issues"]["items"],
            json!({"$ref": "#/components/schemas/Issue"})
        );
        assert_eq!(
            schemas["Issue"]["properties"]["location"],
            json!({"$ref": "#/components/schemas/IssueLocation"})
        );
        let body = |path: &str, method: &str, code: &str, media: &str| {
            doc["paths"][path][method]["responses"][code]["content"][media]["schema"].clone()
        };
        // Every 400 (a validation problem, or another problem document such
        // as an unsupported version) refers to one component.
        for (method, path, op) in operations(doc) {
            assert_eq!(
                op["responses"]["400"]["content"]["application/problem+json"]["schema"],
                json!({"$ref": "#/components/schemas/BadRequestProblem"}),
                "{method} {path}"
            );
        }
        // One object (not an `anyOf`, which generators merge into one
        // model requiring `issues`): the problem members, `issues` optional.
        let bad_request = &schemas["BadRequestProblem"];
        assert_eq!(
            bad_request["required"],
            json!(["type", "title", "status", "instance"])
        );
        assert_eq!(
            bad_request["properties"]["issues"]["items"],
            json!({"$ref": "#/components/schemas/Issue"})
        );
        assert_eq!(
            bad_request["properties"].as_object().unwrap().len(),
            schemas["ProblemDetails"]["properties"]
                .as_object()
                .unwrap()
                .len()
                + 1
        );
        // Extension members are said to be allowed, so generated models
        // keep them (`supportedVersions`, an issue's `allowed`).
        for name in [
            "ProblemDetails",
            "ValidationProblem",
            "BadRequestProblem",
            "DuplicateIsbn",
            "Issue",
        ] {
            assert_eq!(schemas[name]["additionalProperties"], json!(true), "{name}");
        }
        // No composed or object schema is written out twice in the paths.
        let mut inline = std::collections::BTreeMap::new();
        inline_schemas(&doc["paths"], &mut inline);
        let twice: Vec<_> = inline.iter().filter(|(_, n)| **n > 1).collect();
        assert!(twice.is_empty(), "{twice:#?}");
        assert_eq!(
            body("/books", "post", "409", "application/problem+json"),
            json!({"$ref": "#/components/schemas/DuplicateIsbn"})
        );
        assert_eq!(
            body("/books", "post", "201", "application/json"),
            json!({"$ref": "#/components/schemas/Book"})
        );
        assert_eq!(
            body("/books/{id}", "get", "200", "application/json"),
            json!({"$ref": "#/components/schemas/Book"})
        );
        // The document names its version by query parameter or header, each
        // an enum of the documented versions.
        for (name, place) in [("api-version", "query"), ("X-API-Version", "header")] {
            let p = parameter(&doc["paths"]["/openapi.json"]["get"], name);
            assert_eq!(p["in"], place, "{name}");
            assert_eq!(
                p["schema"],
                json!({"type": "string", "enum": ["2", "3"]}),
                "{name}"
            );
        }
        // The cover declares the media types it is served with, and the
        // headers that keep it from running as a page.
        let headers = doc["paths"]["/books/{id}/cover"]["get"]["responses"]["200"]["headers"]
            .as_object()
            .unwrap();
        for name in ["X-Content-Type-Options", "Content-Security-Policy"] {
            assert_eq!(headers[name]["schema"], json!({"type": "string"}), "{name}");
        }
        let cover = &doc["paths"]["/books/{id}/cover"]["get"]["responses"]["200"]["content"];
        assert_eq!(
            cover.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["image/png", "image/jpeg", "image/gif", "image/webp"]
        );
        for media in ["image/png", "image/jpeg", "image/gif", "image/webp"] {
            assert_eq!(
                cover[media]["schema"],
                json!({"type": "string", "format": "binary", "contentMediaType": media}),
                "{media}"
            );
        }
        // A problem type's page: JSON first, the media type generators
        // type the operation by.
        let page = &doc["paths"]["/problems/duplicate-isbn"]["get"]["responses"]["200"]["content"];
        assert_eq!(
            page.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["application/json", "text/html"]
        );
        let document = &doc["paths"]["/openapi.json"]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"]["properties"];
        for member in ["info", "paths"] {
            assert_eq!(
                document[member],
                json!({"type": "object", "additionalProperties": true}),
                "{member}"
            );
        }
        assert_eq!(
            doc["paths"]["/books/{id}/cover"]["put"]["requestBody"]["content"]["multipart/form-data"]
                ["encoding"],
            json!({"cover": {"contentType": "image/png, image/jpeg, image/gif, image/webp"}})
        );
        assert_eq!(
            parameter(&doc["paths"]["/demo/errors/{kind}"]["get"], "kind"),
            &json!({"name": "kind", "in": "path", "required": true,
                    "description": "The error to answer with; any other kind is a 404.",
                    "schema": {"type": "string",
                               "enum": ["unknown", "panic", "unavailable", "bad-request"]}})
        );
        // HEAD and OPTIONS are answered but not documented.
        for item in doc["paths"].as_object().unwrap().values() {
            assert_eq!(item.get("head"), None);
            assert_eq!(item.get("options"), None);
        }
    }
}

/// `Book` and `BookFields` come from `#[derive(ToSchema)]` on the struct:
/// their properties are exactly the members a book serializes, in order
/// (every one required in `Book`, none in `BookFields`), so a member added
/// to the struct is documented with no other edit.
#[actix_web::test]
async fn book_schemas_are_the_struct_s_members() {
    let (v3, v2) = documents().await;
    let book = examples::catalog::model::Book {
        id: 1,
        isbn: "9780000000001".into(),
        title: "Dune".into(),
        author: "Frank Herbert".into(),
        genre: "fiction".into(),
        year: 1965,
        price: 9.5,
        rating: 4.5,
        subtitle: None,
        published_at: time::macros::date!(1965 - 08 - 01),
        in_stock: true,
    };
    let serialized = serde_json::to_value(&book).unwrap();
    let members: Vec<String> = serialized.as_object().unwrap().keys().cloned().collect();
    for doc in [&v3, &v2] {
        let schemas = &doc["components"]["schemas"];
        let keys = |name: &str| -> Vec<String> {
            schemas[name]["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        assert_eq!(keys("Book"), members);
        assert_eq!(schemas["Book"]["required"], json!(members));
        assert_eq!(schemas["Book"]["additionalProperties"], false);
        assert_eq!(keys("BookFields"), members);
        assert_eq!(schemas["BookFields"].get("required"), None);
        assert_eq!(schemas["BookFields"]["additionalProperties"], false);
    }
}

/// Every `GET` with a body answers 304 to a matching `If-None-Match` and
/// sends `ETag` (the conditional layer ProblemApp installs): the document
/// says so, and the 304 carries the version headers like every other
/// response of a versioned operation (none on the neutral `/health`).
#[actix_web::test]
async fn every_get_documents_if_none_match_its_etag_and_the_304() {
    let (v3, v2) = documents().await;
    for doc in [&v3, &v2] {
        for (method, path, op) in operations(doc) {
            if method != "GET" || path == "/demo/errors/{kind}" {
                continue;
            }
            let inm = parameter(op, "If-None-Match");
            assert_eq!(
                (&inm["in"], &inm["required"], &inm["schema"]),
                (&json!("header"), &json!(false), &json!({"type": "string"})),
                "{path}"
            );
            let etag = &op["responses"]["200"]["headers"]["ETag"];
            assert_eq!(etag["schema"], json!({"type": "string"}), "{path}");
            let not_modified = &op["responses"]["304"];
            assert_eq!(
                not_modified["description"],
                "Not Modified: `If-None-Match` names the current `ETag`; no body.",
                "{path}"
            );
            assert!(not_modified.get("content").is_none(), "{path}");
            let mut headers: Vec<&str> = not_modified["headers"]
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            headers.sort_unstable();
            let expected: &[&str] = match (path.as_str(), doc == &v2) {
                ("/health" | "/openapi.json" | "/problems/duplicate-isbn", _) => &["ETag"],
                (_, false) => &["ETag", "X-API-Supported-Versions", "X-API-Version"],
                (_, true) => &[
                    "Deprecation",
                    "ETag",
                    "Sunset",
                    "X-API-Deprecated",
                    "X-API-Deprecation-Message",
                    "X-API-Supported-Versions",
                    "X-API-Version",
                ],
            };
            assert_eq!(headers, expected, "{path}");
        }
    }
    // No GET without a success body gets them.
    let demo = &v3["paths"]["/demo/errors/{kind}"]["get"];
    assert!(demo["responses"].get("304").is_none());
}
