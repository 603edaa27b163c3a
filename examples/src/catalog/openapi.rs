//! `GET /openapi.json`: the catalog's OpenAPI 3.1 documents, one per API
//! version (2 deprecated, 3 the default), written the way utoipa users
//! write theirs: `#[derive(ToSchema)]` on [`Book`](super::model::Book) and
//! [`NewBook`](super::model::NewBook), `#[utoipa::path(...)]` on each
//! handler (with [`BookQuery`](super::list::BookQuery)'s derived
//! parameters, [`DuplicateIsbn`](super::books::DuplicateIsbn)'s derived
//! 409 and problem-core's problem and page schemas), collected by
//! `#[derive(OpenApi)]`. A member added to `Book` is documented with no
//! other edit.
//!
//! The version-specific operation (`GET /books`: a bare array in version 2,
//! the envelope in version 3) comes from the handler whose
//! `#[versioned(...)]` constraints accept the document's version; then
//! problem-core's [`document_version`](problem_core::openapi::document_version)
//! adds the versioning.
//!
//! The path is version-neutral: `/openapi.json` answers the default
//! version's document, `/openapi.json?api-version=2` (or
//! `X-API-Version: 2`, `Accept: application/vnd.catalog.v2+json`,
//! `/v2/openapi.json`) the document of version 2, and a version with no
//! document (1, removed; 9; `x`) is ignored: the default document.
//!
//! Every operation lists its success response and each problem response it
//! can give; every operation may also answer 421 (a host that is not
//! served) and a masked 500, and one with a request body 408 (the body
//! was not received in time) ([`PipelineResponses`]). The problem type
//! page (`GET /problems/duplicate-isbn`) is documented from
//! [`DuplicateIsbn`](super::books::DuplicateIsbn) ([`problem_type_paths`]). A method a path does
//! not list answers 405 with `Allow` (`components.responses.MethodNotAllowed`).
//! A body over the size limit is answered by an empty 413.

use actix_web::{HttpRequest, HttpResponse, web};
use problem_core::HttpConfigError;
use problem_core::openapi::utoipa::openapi::encoding::EncodingBuilder;
use problem_core::openapi::utoipa::openapi::path::Operation;
use problem_core::openapi::utoipa::openapi::schema::{
    AdditionalProperties, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};
use problem_core::openapi::utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use problem_core::openapi::utoipa::openapi::{
    Components, ContentBuilder, HeaderBuilder, OpenApi as Document, Paths, RefOr, Response,
    ResponseBuilder,
};
use problem_core::openapi::utoipa::{Modify, OpenApi, PartialSchema, ToResponse, ToSchema};
use problem_core::openapi::{
    ConditionalGetResponses, PipelineResponses, ProblemSchemas, VersionedDocs, documented_versions,
    prefer_count_parameter, preference_applied_header, problem_response, problem_type_paths,
    tolerated_description, tolerated_parameters,
};
use problem_core::query::{CollectionQuery as _, CountStrategy, ToleratedParameters};
use problem_core::version::{ApiVersion, VersionConfig, constraints_of};

use super::books::{self, COVER_MEDIA_TYPES};
use super::{demo, list};

/// The security scheme of the bearer tokens (`security(("bearer" = []))`).
const BEARER: &str = "bearer";

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

/// An object with any members, said so (`additionalProperties: true`):
/// code generators then keep the members (OpenAPI Generator warns of, and
/// types as `Any`, an object that says nothing of them).
fn free_form_object() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
}

/// The 401 of the routes that need a token: a problem document and the
/// `WWW-Authenticate` challenge.
pub struct Unauthorized;

impl<'r> ToResponse<'r> for Unauthorized {
    fn response() -> (&'r str, RefOr<Response>) {
        let response = ResponseBuilder::from(problem_response(
            401,
            Some("The bearer token is missing or unknown."),
        ))
        .header(
            "WWW-Authenticate",
            HeaderBuilder::new()
                .schema(Some(string().enum_values(Some([super::auth::CHALLENGE]))))
                .build(),
        )
        .build();
        ("Unauthorized", RefOr::T(response))
    }
}

/// The 503 of the routes that read or write the database: a problem
/// document (masked) and `Retry-After` ([`db_error`](super::books::db_error)).
pub struct DatabaseUnavailable;

impl<'r> ToResponse<'r> for DatabaseUnavailable {
    fn response() -> (&'r str, RefOr<Response>) {
        let response = ResponseBuilder::from(problem_response(
            503,
            Some("The database is unavailable (masked)."),
        ))
        .header(
            "Retry-After",
            HeaderBuilder::new().schema(Some(string())).build(),
        )
        .build();
        ("DatabaseUnavailable", RefOr::T(response))
    }
}

/// The body of `PUT /books/{id}/cover`: one file part `cover`.
pub struct CoverUpload;

impl PartialSchema for CoverUpload {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "cover",
                // `format: binary`: generated clients send a file part.
                string()
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                    .description(Some(
                        "The image: PNG, JPEG, GIF or WebP, recognized by its bytes (anything else is a 415).",
                    )),
            )
            .required("cover")
            .into()
    }
}

impl ToSchema for CoverUpload {}

/// The body of `GET /health`: `{"status": "ok"}`.
pub struct Health;

impl PartialSchema for Health {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("status", string().enum_values(Some(["ok"])))
            .required("status")
            .into()
    }
}

impl ToSchema for Health {}

/// The `X-Total-Count` header of version 2: decimal digits.
pub struct TotalCount;

impl PartialSchema for TotalCount {
    fn schema() -> RefOr<Schema> {
        string().pattern(Some("^[0-9]+$")).into()
    }
}

impl ToSchema for TotalCount {}

/// The body of `GET /openapi.json`: an OpenAPI document.
pub struct OpenApiDocument;

impl PartialSchema for OpenApiDocument {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("openapi", string())
            .required("openapi")
            .property("info", free_form_object())
            .required("info")
            .property("paths", free_form_object())
            .required("paths")
            .into()
    }
}

impl ToSchema for OpenApiDocument {}

/// `components`: the bearer scheme, and the 405 every path can answer.
struct CatalogComponents;

impl Modify for CatalogComponents {
    fn modify(&self, doc: &mut Document) {
        let c = doc.components.get_or_insert_with(Components::new);
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
    }
}

fn operation<'d>(doc: &'d mut Document, path: &str, get: bool) -> Option<&'d mut Operation> {
    let item = doc.paths.paths.get_mut(path)?;
    if get {
        item.get.as_mut()
    } else {
        item.put.as_mut()
    }
}

/// The cover's media types, from [`COVER_MEDIA_TYPES`] (the one list the
/// upload check reads too): the content of `GET /books/{id}/cover`'s 200,
/// and the encoding of the upload's `cover` part.
struct CoverMediaTypes;

impl Modify for CoverMediaTypes {
    fn modify(&self, doc: &mut Document) {
        if let Some(op) = operation(doc, "/books/{id}/cover", true)
            && let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200")
        {
            for media_type in COVER_MEDIA_TYPES {
                ok.content.insert(
                    media_type.into(),
                    RefOr::T(
                        ContentBuilder::new()
                            // `format: binary` beside the media type:
                            // an annotation in OpenAPI 3.1, what code
                            // generators read to hand back bytes, not
                            // text (OpenAPI Generator's clients decoded
                            // the PNG as UTF-8 without it).
                            .schema(Some(
                                string()
                                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                                    .content_media_type(media_type),
                            ))
                            .build(),
                    ),
                );
            }
        }
        if let Some(op) = operation(doc, "/books/{id}/cover", false)
            && let Some(RefOr::T(body)) = op.request_body.as_mut()
            && let Some(RefOr::T(multipart)) = body.content.get_mut("multipart/form-data")
        {
            multipart.encoding.insert(
                "cover".into(),
                EncodingBuilder::new()
                    .content_type(Some(COVER_MEDIA_TYPES.join(", ")))
                    .build(),
            );
        }
    }
}

/// `NewBook.year`'s maximum: next year, as the validation has it.
struct NextYear;

impl Modify for NextYear {
    fn modify(&self, doc: &mut Document) {
        let next_year = time::OffsetDateTime::now_utc().year() + 1;
        if let Some(c) = doc.components.as_mut()
            && let Some(RefOr::T(Schema::Object(new_book))) = c.schemas.get_mut("NewBook")
            && let Some(RefOr::T(Schema::Object(year))) = new_book.properties.get_mut("year")
        {
            year.maximum = Some(next_year.into());
        }
    }
}

/// Every route but the version-specific list, collected from the
/// handlers' annotations.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Catalog",
        version = "",
        description = "Books behind RFC 9457 problem documents, the collection query conventions and API versioning. Every error is `application/problem+json`."
    ),
    servers((url = "/")),
    paths(
        books::create_book,
        books::get_book,
        books::delete_book,
        books::put_cover,
        books::get_cover,
        books::health,
        openapi_json_handler,
        demo::demo_error,
    ),
    components(schemas(books::DuplicateIsbn)),
    modifiers(
        &ProblemSchemas,
        &PipelineResponses,
        &CatalogComponents,
        &CoverMediaTypes,
        &NextYear
    ),
    tags((name = "books"), (name = "system"), (name = "demo"))
)]
struct CatalogApi;

/// `GET /books` of version 2.
#[derive(OpenApi)]
#[openapi(paths(list::list_books_v2), modifiers(&PipelineResponses))]
struct ListV2;

/// `GET /books` of version 3.
#[derive(OpenApi)]
#[openapi(paths(list::list_books_v3), modifiers(&PipelineResponses))]
struct ListV3;

/// The `api-version` parameter of `GET /openapi.json`: the documented
/// versions.
fn document_versions(doc: &mut Document, config: &VersionConfig) {
    let versions: Vec<String> = documented_versions(config)
        .into_iter()
        .map(|v| v.short().to_string())
        .collect();
    if let Some(item) = doc.paths.paths.get_mut("/openapi.json")
        && let Some(op) = item.get.as_mut()
    {
        for parameter in op.parameters.iter_mut().flatten() {
            if let RefOr::T(parameter) = parameter
                && (parameter.name == "api-version" || parameter.name == "X-API-Version")
            {
                parameter.schema = Some(string().enum_values(Some(versions.clone())).into());
            }
        }
    }
}

/// What `GET /books` takes and answers beyond its annotation, from the
/// query configuration: the `Prefer` header (count strategies), the
/// tolerated parameters, and `Preference-Applied` on the 200.
fn listing_conventions(doc: &mut Document, tolerated: &ToleratedParameters) {
    let Some(op) = doc
        .paths
        .paths
        .get_mut("/books")
        .and_then(|i| i.get.as_mut())
    else {
        return;
    };
    let parameters = op.parameters.get_or_insert_with(Vec::new);
    parameters.extend(
        tolerated_parameters(tolerated, list::BookQuery::SCHEMA)
            .into_iter()
            .map(RefOr::T),
    );
    parameters.push(RefOr::T(prefer_count_parameter(CountStrategy::Exact)));
    let description = op.description.get_or_insert_with(String::new);
    let extra = tolerated_description(tolerated, list::BookQuery::SCHEMA);
    if !extra.is_empty() {
        description.push(' ');
        description.push_str(&extra);
    }
    if let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") {
        ok.headers.insert(
            "Preference-Applied".into(),
            RefOr::T(preference_applied_header()),
        );
    }
}

/// The document of `version` before [`document_version`](problem_core::openapi::document_version)
/// adds the versioning: every route of [`app`](super::app), `GET /books`
/// from the handler whose `#[versioned(...)]` constraints accept `version`.
pub fn base_document(
    version: ApiVersion,
    config: &VersionConfig,
    tolerated: &ToleratedParameters,
) -> Document {
    let catalog = CatalogApi::openapi();
    let lists = [
        (constraints_of(&list::list_books_v2), ListV2::openapi()),
        (constraints_of(&list::list_books_v3), ListV3::openapi()),
    ];
    // `/books` first, as the route table lists it; then every other route
    // (`merge` keeps what is there and adds what is not: paths, their
    // operations and the component schemas).
    let mut doc = Document::new(catalog.info.clone(), Paths::new());
    for (constraints, list) in lists {
        if constraints.iter().any(|c| c.matches(version)) {
            doc.merge(list);
        }
    }
    doc.servers = catalog.servers.clone();
    doc.merge(catalog);
    // The problem type pages `app` serves (`problem_type::<DuplicateIsbn>()`),
    // version-neutral; then the pipeline's responses on them too.
    for (path, item) in problem_type_paths::<books::DuplicateIsbn>().paths {
        doc.paths.paths.entry(path).or_insert(item);
    }
    PipelineResponses.modify(&mut doc);
    document_versions(&mut doc, config);
    listing_conventions(&mut doc, tolerated);
    // Every GET answers 304 and sends ETag (ConditionalRequests, which
    // ProblemApp installs); before document_version, so that the 304 gets
    // the version headers too.
    ConditionalGetResponses.modify(&mut doc);
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

/// `GET /openapi.json`: the document of the version the request names,
/// else version 3's; never a version problem (the path is version-neutral).
#[utoipa::path(
    get,
    path = "/openapi.json",
    operation_id = "openapi",
    tag = "system",
    summary = "This document",
    description = "The OpenAPI 3.1 document of an API version: the one the request names (query parameter, header, media type or `/v<N>/openapi.json`) when it is documented, else the default version's. Not a versioned resource: it ignores a version it does not document, and its 200 carries no version headers.",
    params(
        // Its enum, the documented versions, is set from the configuration.
        ("api-version" = Option<String>, Query, description = "The API version whose document to return."),
        ("X-API-Version" = Option<String>, Header, description = "The API version whose document to return; read before `api-version` (the catalog's carrier order: path, header, query, media type)."),
    ),
    responses(
        (status = 200, description = "The OpenAPI document.", body = inline(OpenApiDocument)),
    )
)]
pub async fn openapi_json_handler(
    req: HttpRequest,
    docs: web::Data<VersionedDocs>,
) -> HttpResponse {
    docs.respond(&req)
}
