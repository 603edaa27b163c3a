//! `GET /openapi.json`: the catalog's OpenAPI 3.1 documents, one per API
//! version (2 deprecated, 3 the default), built from the same types and
//! derives as the service: [`BookQuery`]'s parameters, [`DuplicateIsbn`]'s
//! 409, the problem schemas, and the versioning configuration.
//!
//! The path is version-neutral: `/openapi.json` answers the default
//! version's document, `/openapi.json?api-version=2` (or
//! `X-API-Version: 2`, `Accept: application/vnd.catalog.v2+json`,
//! `/v2/openapi.json`) the document of version 2.
//!
//! Every operation lists its success response and each problem response it
//! can give; every operation may also answer 421 (a host that is not
//! served) and a masked 500. A method a path does not list answers 405 with
//! `Allow` (`components.responses.MethodNotAllowed`). A body over the size
//! limit is answered by an empty 413.

use actix_web::{HttpRequest, HttpResponse, web};
use problem_core::HttpConfigError;
use problem_core::openapi::utoipa::openapi::encoding::EncodingBuilder;
use problem_core::openapi::utoipa::openapi::path::{
    Operation, OperationBuilder, ParameterBuilder, ParameterIn,
};
use problem_core::openapi::utoipa::openapi::request_body::RequestBodyBuilder;
use problem_core::openapi::utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema,
    SchemaFormat, SchemaType, Type,
};
use problem_core::openapi::utoipa::openapi::security::{
    Http, HttpAuthScheme, SecurityRequirement, SecurityScheme,
};
use problem_core::openapi::utoipa::openapi::{
    Components, ContentBuilder, HeaderBuilder, HttpMethod, Info, OpenApi, Paths, RefOr, Required,
    Response, ResponseBuilder, Server, Tag,
};
use problem_core::openapi::utoipa::{IntoParams, IntoResponses, PartialSchema, ToSchema};
use problem_core::openapi::{
    ProblemSchemas, VersionedDocs, bad_request_response, documented_versions, problem_response,
    schema_ref,
};
use problem_core::openapi::{
    prefer_count_parameter, preference_applied_header, tolerated_description, tolerated_parameters,
};
use problem_core::query::{CountStrategy, ToleratedParameters};
use problem_core::version::{ApiVersion, V2, VersionConfig};

use super::books::{COVER_MEDIA_TYPES, DuplicateIsbn};
use super::demo::DEMO_KINDS;
use super::list::BookQuery;

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";
const MULTIPART: &str = "multipart/form-data";
const BEARER: &str = "bearer";

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn int(format: KnownFormat) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(format)))
}

fn number() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
}

fn nullable(kind: Type) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(SchemaType::from_iter([kind, Type::Null]))
}

fn date() -> ObjectBuilder {
    string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
}

/// The members of a book, each with its schema.
fn book_members() -> Vec<(&'static str, ObjectBuilder)> {
    vec![
        ("id", int(KnownFormat::Int64).description(Some("The key."))),
        (
            "isbn",
            string().description(Some("ISBN-10 or ISBN-13 digits; unique.")),
        ),
        ("title", string()),
        ("author", string()),
        ("genre", string()),
        (
            "year",
            int(KnownFormat::Int32).description(Some("Publication year.")),
        ),
        ("price", number().minimum(Some(0))),
        ("rating", number().minimum(Some(0)).maximum(Some(5))),
        ("subtitle", nullable(Type::String)),
        (
            "published_at",
            date().description(Some("Publication date (RFC 3339 full-date).")),
        ),
        ("in_stock", ObjectBuilder::new().schema_type(Type::Boolean)),
    ]
}

/// `Book`: every member present.
fn book_schema() -> Schema {
    let mut o = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("A book."));
    for (name, schema) in book_members() {
        o = o.property(name, schema).required(name);
    }
    o.additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .into()
}

/// `BookFields`: a book in a list, reduced by `fields`/`exclude`.
fn book_fields_schema() -> Schema {
    let mut o = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "A book in a list: the members the sparse fieldset (`fields`, `exclude`) keeps.",
        ));
    for (name, schema) in book_members() {
        o = o.property(name, schema);
    }
    o.additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .into()
}

/// `NewBook`: the body of `POST /books`, JSON or form.
fn new_book_schema() -> Schema {
    let next_year = time::OffsetDateTime::now_utc().year() + 1;
    let text = || string().min_length(Some(1)).pattern(Some(r"\S"));
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "A new book. Defaults: `genre` `fiction`, `rating` 0, `subtitle` null, `published_at` January 1st of `year`, `in_stock` true.",
        ))
        .property(
            "isbn",
            string()
                .pattern(Some("^([0-9]{10}|[0-9]{13})$"))
                .description(Some("10 or 13 digits; unique.")),
        )
        .required("isbn")
        .property("title", text().description(Some("Not blank.")))
        .required("title")
        .property("author", text().description(Some("Not blank.")))
        .required("author")
        .property(
            "genre",
            text()
                .description(Some("Not blank."))
                .default(Some("fiction".into())),
        )
        .property(
            "year",
            int(KnownFormat::Int32)
                .minimum(Some(1450))
                .maximum(Some(next_year)),
        )
        .required("year")
        .property("price", number().minimum(Some(0)))
        .required("price")
        .property(
            "rating",
            number()
                .minimum(Some(0))
                .maximum(Some(5))
                .default(Some(0.into())),
        )
        .property("subtitle", nullable(Type::String))
        .property(
            "published_at",
            nullable(Type::String).format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
        )
        .property(
            "in_stock",
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .default(Some(true.into())),
        )
        .into()
}

fn links_schema(names: &[&str]) -> ObjectBuilder {
    let mut o = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("Relative links; absent ones are omitted."))
        .property("self", string())
        .required("self");
    for name in names {
        o = o.property(*name, string());
    }
    o.additional_properties(Some(AdditionalProperties::FreeForm(false)))
}

/// `BookPage`: the offset envelope of version 3.
fn book_page_schema() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("One page of books (offset pagination)."))
        .property("data", ArrayBuilder::new().items(schema_ref("BookFields")))
        .required("data")
        .property(
            "meta",
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .property("page", int(KnownFormat::Int64).minimum(Some(1)))
                .required("page")
                .property("per_page", int(KnownFormat::Int64).minimum(Some(1)))
                .required("per_page")
                .property(
                    "total",
                    int(KnownFormat::Int64)
                        .minimum(Some(0))
                        .description(Some("Matching books; absent with `Prefer: count=none`.")),
                )
                .property(
                    "total_pages",
                    int(KnownFormat::Int64)
                        .minimum(Some(0))
                        .description(Some("`ceil(total / per_page)`; absent with `Prefer: count=none`.")),
                )
                .property(
                    "total_is_estimate",
                    ObjectBuilder::new()
                        .schema_type(Type::Boolean)
                        .enum_values(Some([true]))
                        .description(Some("Present, `true`, only when `total` is an estimate (`Prefer: count=estimated` above 10,000 matching books); then there is no `last` link.")),
                )
                .additional_properties(Some(AdditionalProperties::FreeForm(false))),
        )
        .required("meta")
        .property("links", links_schema(&["first", "prev", "next", "last"]))
        .required("links")
        .into()
}

/// `BookCursorPage`: the cursor envelope of version 3.
fn book_cursor_page_schema() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("One page of books (keyset cursor pagination)."))
        .property("data", ArrayBuilder::new().items(schema_ref("BookFields")))
        .required("data")
        .property(
            "meta",
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .property("limit", int(KnownFormat::Int64).minimum(Some(1)))
                .required("limit")
                .property(
                    "next_cursor",
                    nullable(Type::String).description(Some("`null` on the last page.")),
                )
                .required("next_cursor")
                .property(
                    "prev_cursor",
                    nullable(Type::String).description(Some(
                        "The cursor of the previous page (the same sort, filters and search); `null` on the first page.",
                    )),
                )
                .required("prev_cursor")
                .additional_properties(Some(AdditionalProperties::FreeForm(false))),
        )
        .required("meta")
        .property("links", links_schema(&["prev", "next"]))
        .required("links")
        .into()
}

fn components() -> Components {
    let mut c = Components::new();
    for (name, schema) in ProblemSchemas::schemas() {
        c.schemas.insert(name, schema);
    }
    c.schemas
        .insert(DuplicateIsbn::name().into_owned(), DuplicateIsbn::schema());
    c.schemas.insert("Book".into(), RefOr::T(book_schema()));
    c.schemas
        .insert("BookFields".into(), RefOr::T(book_fields_schema()));
    c.schemas
        .insert("NewBook".into(), RefOr::T(new_book_schema()));
    c.schemas
        .insert("BookPage".into(), RefOr::T(book_page_schema()));
    c.schemas
        .insert("BookCursorPage".into(), RefOr::T(book_cursor_page_schema()));
    c.security_schemes.insert(
        BEARER.into(),
        RefOr::T(SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer))),
    );
    c.responses.insert(
        "MethodNotAllowed".into(),
        RefOr::T(
            ResponseBuilder::from(problem_response(
                405,
                Some("A method the path does not list: the `Allow` header lists the ones it does."),
            ))
            .header("Allow", HeaderBuilder::new().schema(Some(string())).build())
            .build(),
        ),
    );
    c
}

fn json(description: &str, schema: impl Into<RefOr<Schema>>) -> ResponseBuilder {
    ResponseBuilder::new()
        .description(description)
        .content(JSON, ContentBuilder::new().schema(Some(schema)).build())
}

fn id_parameter() -> ParameterBuilder {
    ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some("The book's id."))
        .schema(Some(int(KnownFormat::Int64)))
}

fn unauthorized() -> Response {
    ResponseBuilder::from(problem_response(
        401,
        Some("The bearer token is missing or unknown."),
    ))
    .header(
        "WWW-Authenticate",
        HeaderBuilder::new()
            .schema(Some(string().enum_values(Some([super::auth::CHALLENGE]))))
            .build(),
    )
    .build()
}

fn too_large() -> Response {
    problem_response(
        413,
        Some("More than 1000 form fields; a body over the size limit gets an empty 413 instead."),
    )
}

fn unavailable() -> Response {
    ResponseBuilder::from(problem_response(
        503,
        Some("The database is unavailable (masked)."),
    ))
    .header(
        "Retry-After",
        HeaderBuilder::new().schema(Some(string())).build(),
    )
    .build()
}

/// Adds the responses every operation can give: 421 and a masked 500.
fn common(mut op: Operation) -> Operation {
    let r = &mut op.responses.responses;
    r.insert(
        "421".into(),
        RefOr::T(problem_response(
            421,
            Some("The `Host` is not one this server serves."),
        )),
    );
    r.insert(
        "500".into(),
        RefOr::T(problem_response(
            500,
            Some("An unexpected error, masked and logged under the body's `correlationId`."),
        )),
    );
    op
}

fn list_books(version: ApiVersion, tolerated: &ToleratedParameters) -> Operation {
    let link = || {
        HeaderBuilder::new()
            .schema(Some(string()))
            .description(Some(
                "RFC 8288 links of the page (`self`, `first`, `prev`, `next`, `last`).",
            ))
            .build()
    };
    let ok = if version == V2 {
        json(
            "The books of the page, as a bare array.",
            ArrayBuilder::new().items(schema_ref("BookFields")),
        )
        .header(
            "X-Total-Count",
            HeaderBuilder::new()
                .schema(Some(string().pattern(Some("^[0-9]+$"))))
                .description(Some("The number of matching books (offset pagination); an estimate with `Prefer: count=estimated` above 10,000; absent with `count=none` and on cursor pages."))
                .build(),
        )
        .header("Link", link())
        .header("Preference-Applied", preference_applied_header())
    } else {
        json(
            "One page of books: the offset envelope, or the cursor envelope when the request carries `cursor`, or `limit` without `page`/`per_page`.",
            OneOfBuilder::new()
                .item(schema_ref("BookPage"))
                .item(schema_ref("BookCursorPage")),
        )
        .header("Link", link())
        .header("Preference-Applied", preference_applied_header())
    };
    let mut parameters = BookQuery::into_params(|| None);
    parameters.extend(tolerated_parameters(tolerated));
    parameters.push(prefer_count_parameter(CountStrategy::Exact));
    common(
        OperationBuilder::new()
            .operation_id(Some("listBooks"))
            .tag("books")
            .summary(Some("List books"))
            .description(Some(format!(
                "The collection query conventions: offset or keyset pagination (forward with `meta.next_cursor`, backward with `meta.prev_cursor`), multi-field sorting, filters, search and sparse fieldsets, all in SQL. Offset pages count their total as the `Prefer` header asks (`count=exact`, the default, `count=estimated` or `count=none`). {}",
                tolerated_description(tolerated)
            )))
            .parameters(Some(parameters))
            .response("200", ok)
            .response(
                "400",
                bad_request_response(Some(
                    "An invalid query: `issues` names each parameter (unknown parameter or field, operator not allowed, value of the wrong type, invalid or mismatched cursor, more than 64 filter conditions in all (`too_many_filters`), ...).",
                )),
            )
            .response("503", unavailable())
            .build(),
    )
}

fn get_book() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("getBook"))
            .tag("books")
            .summary(Some("One book"))
            .parameter(id_parameter())
            .response("200", json("The book.", schema_ref("Book")))
            .response(
                "400",
                bad_request_response(Some("The id is not an integer (`issues` names it).")),
            )
            .response("404", problem_response(404, Some("No book has this id.")))
            .response("503", unavailable())
            .build(),
    )
}

fn create_book() -> Operation {
    let mut op = OperationBuilder::new()
        .operation_id(Some("createBook"))
        .tag("books")
        .summary(Some("Create a book (editor or admin)"))
        .security(SecurityRequirement::new(BEARER, Vec::<String>::new()))
        .request_body(Some(
            RequestBodyBuilder::new()
                .required(Some(Required::True))
                .content(
                    JSON,
                    ContentBuilder::new().schema(Some(schema_ref("NewBook"))).build(),
                )
                .content(
                    FORM,
                    ContentBuilder::new().schema(Some(schema_ref("NewBook"))).build(),
                )
                .build(),
        ))
        .response(
            "201",
            json("The created book.", schema_ref("Book")).header(
                "Location",
                HeaderBuilder::new()
                    .schema(Some(string()))
                    .description(Some("`/books/<id>`."))
                    .build(),
            ),
        )
        .response(
            "400",
            bad_request_response(Some(
                "A malformed body, or one that failed validation (`issues` holds a JSON pointer per member).",
            )),
        )
        .response("401", unauthorized())
        .response("413", too_large())
        .response(
            "415",
            problem_response(415, Some("The body is neither JSON nor a form.")),
        )
        .response("503", unavailable())
        .build();
    for (status, response) in DuplicateIsbn::responses() {
        op.responses.responses.insert(status, response);
    }
    common(op)
}

fn delete_book() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("deleteBook"))
            .tag("books")
            .summary(Some("Delete a book (admin)"))
            .security(SecurityRequirement::new(BEARER, Vec::<String>::new()))
            .parameter(id_parameter())
            .response("204", ResponseBuilder::new().description("Deleted."))
            .response(
                "400",
                bad_request_response(Some("The id is not an integer.")),
            )
            .response("401", unauthorized())
            .response(
                "403",
                problem_response(403, Some("The token is an editor's: only admins delete.")),
            )
            .response("404", problem_response(404, Some("No book has this id.")))
            .response("503", unavailable())
            .build(),
    )
}

fn put_cover() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("putCover"))
            .tag("books")
            .summary(Some("Upload a book's cover (editor or admin)"))
            .security(SecurityRequirement::new(BEARER, Vec::<String>::new()))
            .parameter(id_parameter())
            .request_body(Some(
                RequestBodyBuilder::new()
                    .required(Some(Required::True))
                    .content(
                        MULTIPART,
                        ContentBuilder::new()
                            .schema(Some(
                                ObjectBuilder::new()
                                    .schema_type(Type::Object)
                                    .property(
                                        "cover",
                                        string().description(Some(
                                            "The image: PNG, JPEG, GIF or WebP, recognized by its bytes (anything else is a 415).",
                                        )),
                                    )
                                    .required("cover"),
                            ))
                            .encoding(
                                "cover",
                                EncodingBuilder::new()
                                    .content_type(Some(COVER_MEDIA_TYPES.join(", ")))
                                    .build(),
                            )
                            .build(),
                    )
                    .build(),
            ))
            .response("204", ResponseBuilder::new().description("Stored."))
            .response(
                "400",
                bad_request_response(Some(
                    "The id is not an integer, the multipart body is malformed, or it has no `cover` part.",
                )),
            )
            .response("401", unauthorized())
            .response("404", problem_response(404, Some("No book has this id.")))
            .response("413", too_large())
            .response(
                "415",
                problem_response(415, Some("The body is not `multipart/form-data`.")),
            )
            .response("503", unavailable())
            .build(),
    )
}

fn get_cover() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("getCover"))
            .tag("books")
            .summary(Some("A book's cover"))
            .parameter(id_parameter())
            .response("200", {
                let mut ok = ResponseBuilder::new().description(
                    "The stored image, with the media type sniffed when it was uploaded.",
                );
                for media_type in COVER_MEDIA_TYPES {
                    ok = ok.content(
                        media_type,
                        ContentBuilder::new()
                            .schema(Some(string().content_media_type(media_type)))
                            .build(),
                    );
                }
                ok
            })
            .response(
                "400",
                bad_request_response(Some("The id is not an integer.")),
            )
            .response(
                "404",
                problem_response(404, Some("No book has this id, or it has no cover.")),
            )
            .response("503", unavailable())
            .build(),
    )
}

fn health() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("health"))
            .tag("system")
            .summary(Some("Liveness (version-neutral)"))
            .response(
                "200",
                json(
                    "The service is up.",
                    ObjectBuilder::new()
                        .schema_type(Type::Object)
                        .property("status", string().enum_values(Some(["ok"])))
                        .required("status"),
                ),
            )
            .build(),
    )
}

fn openapi_json(config: &VersionConfig) -> Operation {
    let versions: Vec<String> = documented_versions(config)
        .into_iter()
        .map(|v| v.short().to_string())
        .collect();
    common(
        OperationBuilder::new()
            .operation_id(Some("openapi"))
            .tag("system")
            .summary(Some("This document (version-neutral)"))
            .description(Some(
                "The OpenAPI 3.1 document of an API version: the default one unless the request names another (query parameter, header, media type or `/v<N>/openapi.json`).",
            ))
            .parameter(
                ParameterBuilder::new()
                    .name("api-version")
                    .parameter_in(ParameterIn::Query)
                    .required(Required::False)
                    .description(Some("The API version whose document to return."))
                    .schema(Some(string().enum_values(Some(versions)))),
            )
            .response(
                "200",
                json(
                    "The OpenAPI document.",
                    ObjectBuilder::new()
                        .schema_type(Type::Object)
                        .property("openapi", string())
                        .required("openapi")
                        .property("info", ObjectBuilder::new().schema_type(Type::Object))
                        .required("info")
                        .property("paths", ObjectBuilder::new().schema_type(Type::Object))
                        .required("paths"),
                ),
            )
            .response(
                "400",
                bad_request_response(Some("An invalid or unsupported API version.")),
            )
            .response(
                "410",
                problem_response(410, Some("The API version was removed.")),
            )
            .build(),
    )
}

fn demo_error() -> Operation {
    common(
        OperationBuilder::new()
            .operation_id(Some("demoError"))
            .tag("demo")
            .summary(Some("The error rules, on purpose"))
            .description(Some(
                "`unknown` (masked 500), `panic` (masked 500), `unavailable` (503 with `Retry-After`), `bad-request` (400 with a `hint`); any other kind is a 404 listing the kinds.",
            ))
            .parameter(
                ParameterBuilder::new()
                    .name("kind")
                    .parameter_in(ParameterIn::Path)
                    .required(Required::True)
                    .description(Some("The error to answer with; any other kind is a 404."))
                    .schema(Some(string().enum_values(Some(DEMO_KINDS)))),
            )
            .response(
                "400",
                problem_response(400, Some("`bad-request`: extension `hint`.")),
            )
            .response(
                "404",
                problem_response(404, Some("An unknown kind: extension `kinds`.")),
            )
            .response(
                "503",
                ResponseBuilder::from(problem_response(
                    503,
                    Some("`unavailable`: masked outside development mode."),
                ))
                .header(
                    "Retry-After",
                    HeaderBuilder::new().schema(Some(string())).build(),
                )
                .build(),
            )
            .build(),
    )
}

/// The document of `version` before [`document_version`](problem_core::openapi::document_version)
/// adds the versioning: every route of [`app`](super::app).
pub fn base_document(
    version: ApiVersion,
    config: &VersionConfig,
    tolerated: &ToleratedParameters,
) -> OpenApi {
    let mut paths = Paths::new();
    paths.add_path_operation(
        "/books",
        vec![HttpMethod::Get],
        list_books(version, tolerated),
    );
    paths.add_path_operation("/books", vec![HttpMethod::Post], create_book());
    paths.add_path_operation("/books/{id}", vec![HttpMethod::Get], get_book());
    paths.add_path_operation("/books/{id}", vec![HttpMethod::Delete], delete_book());
    paths.add_path_operation("/books/{id}/cover", vec![HttpMethod::Put], put_cover());
    paths.add_path_operation("/books/{id}/cover", vec![HttpMethod::Get], get_cover());
    paths.add_path_operation("/health", vec![HttpMethod::Get], health());
    paths.add_path_operation("/openapi.json", vec![HttpMethod::Get], openapi_json(config));
    paths.add_path_operation("/demo/errors/{kind}", vec![HttpMethod::Get], demo_error());
    let mut doc = OpenApi::new(
        Info::builder()
            .title("Catalog")
            .version("")
            .description(Some(
                "Books behind RFC 9457 problem documents, the collection query conventions and API versioning. Every error is `application/problem+json`.",
            ))
            .build(),
        paths,
    );
    doc.servers = Some(vec![Server::new("/")]);
    doc.components = Some(components());
    doc.tags = Some(vec![
        Tag::new("books"),
        Tag::new("system"),
        Tag::new("demo"),
    ]);
    doc
}

/// One document per documented version (2 and 3).
///
/// # Errors
/// [`HttpConfigError::InvalidOpenApi`] if a document does not serialize;
/// [`HttpConfigError::InvalidQueryConfig`] if the tolerated parameters are.
pub fn documents(config: &VersionConfig) -> Result<VersionedDocs, HttpConfigError> {
    let tolerated = ToleratedParameters::new(super::TOLERATED_PARAMETERS)?;
    VersionedDocs::new(config, |version| base_document(version, config, &tolerated))
}

/// `GET /openapi.json`.
///
/// # Errors
/// A 400 or 410 problem for an invalid, unsupported or removed version.
pub async fn openapi_json_handler(
    req: HttpRequest,
    docs: web::Data<VersionedDocs>,
) -> Result<HttpResponse, actix_web::Error> {
    docs.respond(&req)
}
