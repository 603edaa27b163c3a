//! Feature `openapi`: schemas of problem documents and derived problem
//! types, parameters of derived collection queries, per-version documents.

#![deny(warnings)]

use actix_web::{App, test as atest, web};
use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths, path::OperationBuilder};
use problem_core::openapi::utoipa::{IntoParams, IntoResponses, PartialSchema, ToSchema};
use problem_core::openapi::{
    ProblemSchemas, ValidationProblem, VersionedDocs, document_version, problem_response,
};
use problem_core::version::{
    ApiVersion, Deprecation, V1, V2, V3, VersionConfig, VersionStrategy, Versioning,
};
use problem_core::{CollectionQuery, Issue, IssueLocation, ProblemDetails};
use serde_json::{Value, json};

fn js<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap()
}

#[test]
fn problem_details_schema_is_exact() {
    assert_eq!(ProblemDetails::name(), "ProblemDetails");
    assert_eq!(
        js(ProblemDetails::schema()),
        json!({
            "type": "object",
            "description": "An RFC 9457 problem document. Extension members may follow the standard members.",
            "additionalProperties": true,
            "required": ["type", "title", "status", "instance"],
            "properties": {
                "type": {"type": "string", "format": "uri-reference", "default": "about:blank",
                         "description": "URI reference identifying the problem type."},
                "title": {"type": "string", "description": "Short summary of the problem type."},
                "status": {"type": "integer", "format": "int32", "minimum": 400, "maximum": 599,
                           "description": "The HTTP status code."},
                "detail": {"type": "string",
                           "description": "Explanation of this occurrence; outside development mode a 5xx has none."},
                "instance": {"type": "string", "description": "The request path, without the query string."},
                "correlationId": {"type": "string", "format": "uuid",
                                  "description": "Id of the log line of a 5xx response."},
                "stack": {"type": "string",
                          "description": "Redacted error chain of an unknown error, development mode only."}
            }
        })
    );
}

#[test]
fn issue_and_validation_problem_schemas() {
    assert_eq!(Issue::name(), "Issue");
    let issue = js(Issue::schema());
    assert_eq!(
        issue["required"],
        json!(["location", "name", "code", "message"])
    );
    // Used by every `Issue`: a component, referenced.
    assert_eq!(
        issue["properties"]["location"],
        json!({"$ref": "#/components/schemas/IssueLocation"})
    );
    assert_eq!(
        js(IssueLocation::schema()),
        json!({"type": "string", "enum": ["query", "body", "path", "header"],
               "description": "Where the offending value is."})
    );
    let v = js(ValidationProblem::schema());
    assert_eq!(
        v["required"],
        json!(["type", "title", "status", "instance", "issues"])
    );
    assert_eq!(v["properties"]["issues"]["type"], "array");
    assert_eq!(
        v["properties"]["issues"]["items"],
        json!({"$ref": "#/components/schemas/Issue"})
    );
    let mut refs = Vec::new();
    ValidationProblem::schemas(&mut refs);
    assert_eq!(
        refs.into_iter()
            .map(|(n, s)| (n, js(s)))
            .collect::<Vec<_>>(),
        [
            ("Issue".to_owned(), issue),
            ("IssueLocation".to_owned(), js(IssueLocation::schema()))
        ]
    );
}

#[test]
fn problem_responses_are_problem_json() {
    let r = js(problem_response(409, None));
    assert_eq!(
        r,
        json!({
            "description": "Conflict",
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemDetails"}}}
        })
    );
    let names: Vec<String> = ProblemSchemas::schemas()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        [
            "ProblemDetails",
            "ValidationProblem",
            "BadRequestProblem",
            "Issue",
            "IssueLocation"
        ]
    );
}

mod derived {
    use problem_core::Problem;

    /// A book with this ISBN exists.
    #[derive(Debug, Problem)]
    #[problem(
        status = 409,
        title = "Conflict",
        type = "/problems/duplicate-isbn",
        detail = "A book with ISBN {isbn} already exists"
    )]
    pub struct DuplicateIsbn {
        pub isbn: String,
        #[problem(rename = "bookId")]
        pub book_id: Option<u64>,
        #[problem(header = "Retry-After")]
        pub retry: u32,
    }

    /// A type without any `utoipa` schema, used as an extension member.
    #[derive(Debug, serde::Serialize)]
    pub struct Opaque {
        pub a: u8,
    }

    #[derive(Debug, Problem)]
    #[problem(type = "/problems/catalog")]
    #[allow(dead_code)]
    pub enum CatalogError {
        #[problem(status = 404, detail = "No book {id}")]
        Missing { id: i64, opaque: Opaque },
        #[problem(status = 404, title = "Cover Not Found")]
        NoCover { tags: Vec<String> },
        #[problem(status = 503, detail = "Down for {minutes} minutes")]
        Down {
            minutes: u32,
            #[problem(header = "Retry-After")]
            retry: Option<u32>,
        },
    }

    #[derive(Debug, Problem)]
    #[problem(status = 422)]
    pub struct Generic<T: std::fmt::Debug + serde::Serialize + Send + Sync + 'static> {
        pub value: T,
    }
}

#[test]
fn derived_struct_schema_names_status_type_title_and_members() {
    use derived::DuplicateIsbn;
    assert_eq!(DuplicateIsbn::name(), "DuplicateIsbn");
    let s = js(DuplicateIsbn::schema());
    assert_eq!(
        s["properties"]["status"],
        json!({"type": "integer", "enum": [409]})
    );
    assert_eq!(
        s["properties"]["type"],
        json!({"type": "string", "enum": ["/problems/duplicate-isbn"]})
    );
    assert_eq!(
        s["properties"]["title"],
        json!({"type": "string", "enum": ["Conflict"]})
    );
    assert_eq!(s["properties"]["isbn"], json!({"type": "string"}));
    assert_eq!(
        s["properties"]["bookId"],
        json!({"type": "integer", "format": "int64", "minimum": 0})
    );
    assert!(s["properties"].get("retry").is_none());
    assert_eq!(
        s["required"],
        json!(["type", "title", "status", "instance", "detail", "isbn"])
    );
    let responses = js(DuplicateIsbn::responses());
    assert_eq!(
        responses.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["409"]
    );
    assert_eq!(responses["409"]["description"], "Conflict");
    // One status: the component, referenced (a generator makes one class).
    assert_eq!(
        responses["409"]["content"]["application/problem+json"]["schema"],
        json!({"$ref": "#/components/schemas/DuplicateIsbn"})
    );
    assert_eq!(
        responses["409"]["headers"]["Retry-After"]["description"],
        "Sent with this problem."
    );
}

#[test]
fn derived_enum_schema_is_any_of_its_variants_and_responses_group_by_status() {
    use derived::CatalogError;
    let s = js(CatalogError::schema());
    let cases = s["anyOf"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    // A member type without a schema is any JSON value.
    assert_eq!(cases[0]["properties"]["opaque"], json!({}));
    assert_eq!(
        cases[0]["properties"]["title"]["enum"],
        json!(["Not Found"])
    );
    assert_eq!(
        cases[0]["required"],
        json!([
            "type", "title", "status", "instance", "detail", "id", "opaque"
        ])
    );
    assert_eq!(
        cases[1]["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        cases[1]["properties"]["title"]["enum"],
        json!(["Cover Not Found"])
    );
    // 5xx: masked outside development, so neither detail nor members are required.
    assert_eq!(
        cases[2]["required"],
        json!(["type", "title", "status", "instance"])
    );
    assert_eq!(cases[2]["properties"]["status"]["enum"], json!([503]));
    let r = js(CatalogError::responses());
    assert_eq!(
        r.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["404", "503"]
    );
    assert_eq!(
        r["404"]["content"]["application/problem+json"]["schema"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        r["503"]["headers"]["Retry-After"]["description"],
        "Sent with this problem when the value is set."
    );
}

#[test]
fn derived_generic_member_is_any_value() {
    let s = js(derived::Generic::<u8>::schema());
    assert_eq!(s["properties"]["value"], json!({}));
    assert_eq!(s["properties"]["status"]["enum"], json!([422]));
    assert_eq!(
        s["properties"]["title"]["enum"],
        json!(["Unprocessable Content"])
    );
}

#[derive(CollectionQuery)]
#[query(key = "id", default_sort = "-year", max_page_size = 50)]
#[allow(dead_code)]
struct BookQuery {
    #[query(filter(eq, in, gte), sort)]
    id: i64,
    #[query(filter(eq, contains, not_in), sort, search)]
    title: String,
    #[query(filter(lt), sort)]
    year: i32,
    #[query(filter(gt))]
    price: f64,
    #[query(filter(is_null))]
    subtitle: Option<String>,
    #[query(filter(eq))]
    published_at: time::Date,
    #[query(filter(eq), select = false)]
    in_stock: bool,
}

#[test]
fn derived_query_parameters() {
    let params = js(BookQuery::into_params(|| None));
    let params = params.as_array().unwrap();
    let names: Vec<&str> = params.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "page",
            "per_page",
            "limit",
            "cursor",
            "sort",
            "id",
            "id__in",
            "id__gte",
            "title",
            "title__contains",
            "title__not_in",
            "year__lt",
            "price__gt",
            "subtitle__is_null",
            "published_at",
            "in_stock",
            "q",
            "search",
            "search_fields",
            "fields",
            "exclude"
        ]
    );
    assert!(
        params
            .iter()
            .all(|p| p["in"] == "query" && p["required"] == false)
    );
    let by = |name: &str| params.iter().find(|p| p["name"] == name).unwrap().clone();
    // Mutually exclusive: no `default` (a generated client would send it);
    // the default is in the description.
    assert_eq!(
        by("page")["schema"],
        json!({"type": "integer", "format": "int64", "minimum": 1})
    );
    // Any size is accepted (clamped): no int64 bound.
    for name in ["per_page", "limit"] {
        assert_eq!(
            by(name)["schema"],
            json!({"type": "integer", "minimum": 1}),
            "{name}"
        );
    }
    assert_eq!(by("cursor")["schema"], json!({"type": "string"}));
    assert_eq!(
        by("page")["description"],
        "Page number of offset pagination, from 1 (default 1), at most (2^63 - 1) / page size + 1 (the offset must fit a signed 64-bit integer). Not together with `cursor`."
    );
    assert_eq!(
        by("per_page")["description"],
        "Page size (default 20); larger sizes are clamped to 50. `limit` is the same parameter: given both, they must be equal."
    );
    assert_eq!(
        by("limit")["description"],
        "Page size (default 20, clamped to 50), the name used with cursor pagination; the same as `per_page`."
    );
    assert!(
        params
            .iter()
            .all(|p| !p.to_string().contains("\"default\"")),
        "no parameter has a default"
    );
    assert!(
        by("per_page")["description"]
            .as_str()
            .unwrap()
            .contains("clamped to 50")
    );
    let sort = by("sort");
    assert_eq!(
        sort["schema"],
        json!({"type": "array", "maxItems": 100, "uniqueItems": true,
               "items": {"type": "string", "pattern": "^[+-]?(?:id|title|year)$"}})
    );
    assert!(
        sort["description"]
            .as_str()
            .unwrap()
            .contains("Sortable fields: `id`, `title`, `year`. Default: `-year`")
    );
    assert_eq!(
        by("id")["schema"],
        json!({"type": "integer", "format": "int64",
               "minimum": i64::MIN, "maximum": i64::MAX})
    );
    assert_eq!(
        by("year__lt")["schema"],
        json!({"type": "integer", "format": "int32",
               "minimum": i32::MIN, "maximum": i32::MAX})
    );
    assert_eq!(
        by("price__gt")["schema"],
        json!({"type": "number", "format": "double"})
    );
    assert_eq!(
        by("subtitle__is_null")["schema"],
        json!({"type": "boolean"})
    );
    assert_eq!(
        by("published_at")["schema"],
        json!({"type": "string", "format": "date"})
    );
    assert_eq!(by("in_stock")["schema"], json!({"type": "boolean"}));
    // List-valued parameters: exploded arrays (`k=a&k=b`), what generated
    // clients send; scalar ones have no style.
    let lists = [
        "sort",
        "id__in",
        "title__not_in",
        "search_fields",
        "fields",
        "exclude",
    ];
    for p in params {
        let name = p["name"].as_str().unwrap();
        if lists.contains(&name) {
            assert_eq!(
                (&p["style"], &p["explode"], &p["schema"]["type"]),
                (&json!("form"), &json!(true), &json!("array")),
                "{name}"
            );
        } else {
            assert_eq!((p.get("style"), p.get("explode")), (None, None), "{name}");
        }
    }
    let id_in = by("id__in");
    assert_eq!(id_in["schema"]["type"], "array");
    assert_eq!(id_in["schema"]["maxItems"], 100);
    assert_eq!(id_in["schema"]["items"]["format"], "int64");
    assert_eq!(
        by("title__not_in")["schema"]["items"],
        json!({"type": "string", "minLength": 1, "maxLength": 256, "pattern": "^[^,]+$"})
    );
    assert_eq!(
        by("search_fields")["schema"]["items"]["enum"],
        json!(["title"])
    );
    assert_eq!(
        by("fields")["schema"]["items"]["enum"],
        json!(["id", "title", "year", "price", "subtitle", "published_at"])
    );
}

#[derive(serde::Serialize)]
#[allow(dead_code)]
enum Binding {
    Hardcover,
    Paperback,
}

impl problem_core::query::QueryValue for Binding {
    const KIND: problem_core::query::ValueKind =
        problem_core::query::ValueKind::OneOf(&["Hardcover", "Paperback"]);
}

#[derive(CollectionQuery)]
#[allow(dead_code)]
struct EditionQuery {
    id: i64,
    #[query(filter(eq, not_in), sort)]
    binding: Binding,
    tags: Vec<String>,
}

/// An enum field's parameters list its names (`enum`), so a generated
/// client offers them; a field only selected has no parameter but is in
/// `fields`.
#[test]
fn enum_query_parameters_list_the_names() {
    let params = js(EditionQuery::into_params(|| None));
    let by = |name: &str| {
        params
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .clone()
    };
    assert_eq!(
        by("binding")["schema"],
        json!({"type": "string", "enum": ["Hardcover", "Paperback"]})
    );
    assert_eq!(
        by("binding__not_in")["schema"],
        json!({"type": "array", "minItems": 1, "maxItems": 100,
               "items": {"type": "string", "enum": ["Hardcover", "Paperback"]}})
    );
    assert_eq!(
        by("fields")["schema"]["items"]["enum"],
        json!(["id", "binding", "tags"])
    );
    assert!(
        params
            .as_array()
            .unwrap()
            .iter()
            .all(|p| !p["name"].as_str().unwrap().starts_with("tags"))
    );
}

fn config() -> VersionConfig {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header(),
        VersionStrategy::query(),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .deprecated_with(
        V2,
        Deprecation::new()
            .sunset(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_830_297_599)),
    )
    .removed(V1)
    .neutral_path("/openapi.json")
    .build()
    .unwrap()
}

fn base() -> OpenApi {
    let mut doc = OpenApi::new(Info::new("t", ""), Paths::new());
    doc.paths.add_path_operation(
        "/books",
        vec![problem_core::openapi::utoipa::openapi::HttpMethod::Get],
        OperationBuilder::new()
            .operation_id(Some("list"))
            .response(
                "200",
                problem_core::openapi::utoipa::openapi::Response::new("ok"),
            )
            .build(),
    );
    doc.paths.add_path_operation(
        "/openapi.json",
        vec![problem_core::openapi::utoipa::openapi::HttpMethod::Get],
        OperationBuilder::new()
            .response(
                "200",
                problem_core::openapi::utoipa::openapi::Response::new("doc"),
            )
            .build(),
    );
    doc
}

#[test]
fn versioned_documents_mark_deprecated_operations_and_document_the_version() {
    let config = config();
    let mut v2 = base();
    document_version(&mut v2, &config, V2);
    let v2 = js(&v2);
    assert_eq!(v2["info"]["version"], "2");
    let op = &v2["paths"]["/books"]["get"];
    assert_eq!(op["deprecated"], true);
    assert_eq!(
        op["parameters"],
        json!([
            {"name": "X-API-Version", "in": "header", "required": true,
             "description": "The API version; this document describes version 2.",
             "schema": {"type": "string", "enum": ["2"]}},
            {"name": "api-version", "in": "query", "required": false,
             "description": "The API version; this document describes version 2.",
             "schema": {"type": "string", "enum": ["2"]}}
        ])
    );
    assert_eq!(
        op["x-api-version"],
        json!({"version": "2", "default": false, "deprecated": true,
               "sunset": "Fri, 31 Dec 2027 23:59:59 GMT", "pathPrefix": "/v2",
               "header": "X-API-Version", "query": "api-version",
               "mediaType": "application/vnd.catalog.v2+json"})
    );
    let headers = op["responses"]["200"]["headers"].as_object().unwrap();
    assert_eq!(
        headers.keys().collect::<Vec<_>>(),
        [
            "Deprecation",
            "Sunset",
            "X-API-Deprecated",
            "X-API-Deprecation-Message",
            "X-API-Supported-Versions",
            "X-API-Version"
        ]
    );
    assert_eq!(
        op["responses"]["400"]["content"]["application/problem+json"]["schema"],
        json!({"$ref": "#/components/schemas/BadRequestProblem"})
    );
    assert_eq!(
        op["responses"]["410"]["content"]["application/problem+json"]["schema"]["$ref"],
        "#/components/schemas/ProblemDetails"
    );
    // A neutral path is left as it is.
    let neutral = &v2["paths"]["/openapi.json"]["get"];
    assert!(neutral.get("deprecated").is_none());
    assert!(neutral.get("parameters").is_none());

    let mut v3 = base();
    document_version(&mut v3, &config, V3);
    let v3 = js(&v3);
    let op = &v3["paths"]["/books"]["get"];
    assert!(op.get("deprecated").is_none());
    assert_eq!(op["parameters"][0]["required"], false);
    assert_eq!(op["parameters"][0]["schema"]["enum"], json!(["3"]));
    assert!(
        op["responses"]["200"]["headers"]
            .get("Deprecation")
            .is_none()
    );
}

#[actix_web::test]
async fn versioned_docs_serve_the_requested_version() {
    let config = config();
    let docs = VersionedDocs::new(&config, |_| base()).unwrap();
    assert_eq!(docs.versions(), vec![V2, V3]);
    let app = atest::init_service(
        App::new()
            .wrap(Versioning::new(config))
            .app_data(web::Data::new(docs))
            .route(
                "/openapi.json",
                web::get().to(
                    |req: actix_web::HttpRequest, docs: web::Data<VersionedDocs>| async move {
                        docs.respond(&req)
                    },
                ),
            ),
    )
    .await;
    let get = |uri: &str, header: Option<(&'static str, &'static str)>| {
        let mut req = atest::TestRequest::get().uri(uri);
        if let Some(h) = header {
            req = req.insert_header(h);
        }
        req.to_request()
    };
    for (uri, header, version) in [
        ("/openapi.json", None, "3"),
        ("/openapi.json?api-version=2", None, "2"),
        ("/openapi.json", Some(("X-API-Version", "2")), "2"),
        (
            "/openapi.json",
            Some(("Accept", "application/vnd.catalog.v2+json")),
            "2",
        ),
        ("/v2/openapi.json", None, "2"),
        // Version-neutral: a version without a document (removed,
        // unsupported, invalid) is ignored and the default document
        // answered.
        ("/openapi.json?api-version=1", None, "3"),
        ("/openapi.json?api-version=7", None, "3"),
        ("/openapi.json?api-version=x", None, "3"),
        ("/v1/openapi.json", None, "3"),
    ] {
        let res = atest::call_service(&app, get(uri, header)).await;
        assert_eq!(res.status(), 200, "{uri}");
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "application/json"
        );
        // No version header, whatever was asked.
        assert!(
            res.headers().get("x-api-supported-versions").is_none(),
            "{uri}"
        );
        let body: Value = atest::read_body_json(res).await;
        assert_eq!(body["info"]["version"], version, "{uri} {header:?}");
        assert_eq!(body["openapi"], "3.1.0");
    }
    let _ = ApiVersion::V1;
}

/// The pipeline's early 400s widen an operation's own 400: both problem
/// cases become the one `BadRequestProblem` component in their place,
/// whatever the operation listed first.
#[test]
fn pipeline_400s_refer_to_the_bad_request_component() {
    use problem_core::openapi::utoipa::Modify;
    use problem_core::openapi::utoipa::openapi::path::HttpMethod;
    use problem_core::openapi::{PipelineResponses, problem_response_with, schema_ref};
    let cases = [
        ("/own-problem", problem_response(400, Some("Bad"))),
        (
            "/own-validation",
            problem_response_with(400, None, schema_ref("ValidationProblem")),
        ),
        (
            "/own-type",
            problem_response_with(400, None, schema_ref("BadCoupon")),
        ),
    ];
    let mut paths = Paths::new();
    for (path, response) in cases {
        let op = OperationBuilder::new().response("400", response).build();
        paths.add_path_operation(path, vec![HttpMethod::Get], op);
    }
    paths.add_path_operation(
        "/none",
        vec![HttpMethod::Get],
        OperationBuilder::new().build(),
    );
    let mut doc = OpenApi::new(Info::new("t", "1"), paths);
    PipelineResponses.modify(&mut doc);
    let doc = js(&doc);
    let schema = |path: &str| {
        doc["paths"][path]["get"]["responses"]["400"]["content"]["application/problem+json"]
            ["schema"]
            .clone()
    };
    let component = json!({"$ref": "#/components/schemas/BadRequestProblem"});
    assert_eq!(schema("/own-problem"), component);
    assert_eq!(schema("/own-validation"), component);
    assert_eq!(schema("/none"), component);
    assert_eq!(
        schema("/own-type"),
        json!({"anyOf": [{"$ref": "#/components/schemas/BadCoupon"}, component]})
    );
    assert_eq!(
        js(ProblemSchemas::schemas()
            .into_iter()
            .find(|(n, _)| n == "BadRequestProblem")
            .unwrap()
            .1),
        {
            // One object: the problem members and an optional `issues`.
            let mut one = js(ProblemDetails::schema());
            one["description"] = json!(
                "A problem document of a 400: `issues` lists every issue of a request that failed validation; other 400s (an invalid API version, more than 1000 query parameters) have none."
            );
            one["properties"]["issues"] = json!({
                "type": "array",
                "items": {"$ref": "#/components/schemas/Issue"},
                "description": "Every issue of the request, when it failed validation."
            });
            one
        }
    );
}
