//! Schemas of problem documents (RFC 9457; spec, "Problem body") and the
//! responses that carry them, content type `application/problem+json`.

use std::borrow::Cow;

use utoipa::openapi::schema::{
    AdditionalProperties, AnyOfBuilder, ArrayBuilder, KnownFormat, ObjectBuilder, Schema,
    SchemaFormat, Type,
};
use utoipa::openapi::{Components, ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, PartialSchema, ToSchema};

use crate::problem::{ABOUT_BLANK, Issue, IssueLocation, ProblemDetails, status_title};

/// The media type of problem documents in OpenAPI documents (RFC 9457
/// §3): `application/problem+json`. Responses carry it with
/// `; charset=utf-8` ([`PROBLEM_JSON`](crate::PROBLEM_JSON)).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{PROBLEM_MEDIA_TYPE, problem_response};
/// assert_eq!(PROBLEM_MEDIA_TYPE, "application/problem+json");
/// assert!(problem_response(404, None).content.contains_key(PROBLEM_MEDIA_TYPE));
/// ```
pub const PROBLEM_MEDIA_TYPE: &str = "application/problem+json";

/// The name under which [`ProblemDetails`] is registered in
/// `components.schemas`: `ProblemDetails`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::{ProblemDetails, openapi::PROBLEM_DETAILS_SCHEMA};
/// use problem_core::openapi::utoipa::ToSchema;
/// assert_eq!(ProblemDetails::name(), PROBLEM_DETAILS_SCHEMA);
/// ```
pub const PROBLEM_DETAILS_SCHEMA: &str = "ProblemDetails";
/// The name of [`ValidationProblem`] in `components.schemas`:
/// `ValidationProblem`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{VALIDATION_PROBLEM_SCHEMA, ValidationProblem};
/// use problem_core::openapi::utoipa::ToSchema;
/// assert_eq!(ValidationProblem::name(), VALIDATION_PROBLEM_SCHEMA);
/// ```
pub const VALIDATION_PROBLEM_SCHEMA: &str = "ValidationProblem";
/// The name of [`Issue`] in `components.schemas`: `Issue`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::{Issue, openapi::ISSUE_SCHEMA};
/// use problem_core::openapi::utoipa::ToSchema;
/// assert_eq!(Issue::name(), ISSUE_SCHEMA);
/// ```
pub const ISSUE_SCHEMA: &str = "Issue";
/// The name of [`BadRequestProblem`] in `components.schemas`: the 400 body
/// every 400 response refers to (a [`ValidationProblem`] or another
/// problem document, as one object with an optional `issues`).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{BAD_REQUEST_PROBLEM_SCHEMA, BadRequestProblem, bad_request_response};
/// use problem_core::openapi::utoipa::ToSchema;
/// assert_eq!(BadRequestProblem::name(), BAD_REQUEST_PROBLEM_SCHEMA);
/// let json = serde_json::to_value(bad_request_response(None)).unwrap();
/// assert_eq!(json["content"]["application/problem+json"]["schema"]["$ref"], format!("#/components/schemas/{BAD_REQUEST_PROBLEM_SCHEMA}"));
/// ```
pub const BAD_REQUEST_PROBLEM_SCHEMA: &str = "BadRequestProblem";

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

/// The members every problem document has, as a schema object:
/// `type` (URI reference, default `about:blank`), `title`, `status`
/// (integer 400 to 599), `detail`, `instance` (the request path),
/// `correlationId` (UUID, masked 5xx only) and `stack` (development only);
/// required: `type`, `title`, `status`, `instance`; extension members are
/// allowed, and said to be (`additionalProperties: true`: code generators
/// then keep them, where a schema silent on them makes OpenAPI Generator's
/// models drop them).
/// Feature `openapi`.
///
/// Derived problem types and [`ValidationProblem`] start from it.
///
/// ```
/// use problem_core::openapi::problem_object;
///
/// let schema = serde_json::to_value(problem_object().build()).unwrap();
/// assert_eq!(schema["required"], serde_json::json!(["type", "title", "status", "instance"]));
/// assert_eq!(schema["properties"]["type"]["default"], "about:blank");
/// assert_eq!(schema["properties"]["correlationId"]["format"], "uuid");
/// assert_eq!(schema["properties"].as_object().unwrap().len(), 7);
/// assert_eq!(schema["additionalProperties"], true);
/// ```
pub fn problem_object() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .description(Some(
            "An RFC 9457 problem document. Extension members may follow the standard members.",
        ))
        .property(
            "type",
            string()
                .format(Some(SchemaFormat::Custom("uri-reference".into())))
                .default(Some(ABOUT_BLANK.into()))
                .description(Some("URI reference identifying the problem type.")),
        )
        .required("type")
        .property(
            "title",
            string().description(Some("Short summary of the problem type.")),
        )
        .required("title")
        .property(
            "status",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
                .minimum(Some(400))
                .maximum(Some(599))
                .description(Some("The HTTP status code.")),
        )
        .required("status")
        .property(
            "detail",
            string().description(Some(
                "Explanation of this occurrence; outside development mode a 5xx has none.",
            )),
        )
        .property(
            "instance",
            string().description(Some("The request path, without the query string.")),
        )
        .required("instance")
        .property(
            "correlationId",
            string()
                .format(Some(SchemaFormat::Custom("uuid".into())))
                .description(Some("Id of the log line of a 5xx response.")),
        )
        .property(
            "stack",
            string().description(Some(
                "Redacted error chain of an unknown error, development mode only.",
            )),
        )
}

/// `ProblemDetails` is the schema of every problem document: see
/// [`problem_object`] for its members.
///
/// ```
/// use problem_core::ProblemDetails;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// assert_eq!(ProblemDetails::name(), "ProblemDetails");
/// let schema = serde_json::to_value(ProblemDetails::schema()).unwrap();
/// assert_eq!(schema["required"], serde_json::json!(["type", "title", "status", "instance"]));
/// assert_eq!(schema["properties"]["status"]["minimum"], 400);
/// ```
impl PartialSchema for ProblemDetails {
    fn schema() -> RefOr<Schema> {
        problem_object().into()
    }
}

impl ToSchema for ProblemDetails {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(PROBLEM_DETAILS_SCHEMA)
    }
}

/// `IssueLocation`: the string enum `query`, `body`, `path`, `header`.
impl PartialSchema for IssueLocation {
    fn schema() -> RefOr<Schema> {
        string()
            .enum_values(Some(["query", "body", "path", "header"]))
            .description(Some("Where the offending value is."))
            .into()
    }
}

impl ToSchema for IssueLocation {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IssueLocation")
    }
}

/// `Issue`: `{"location", "name", "code", "message"}`, all required, plus
/// code-specific members such as `allowed` or `expected`
/// (`additionalProperties: true`; the `issues` extension member, RFC 9457
/// §3.2).
impl PartialSchema for Issue {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(AdditionalProperties::FreeForm(true)))
            .description(Some(
                "One problem with the request; code-specific members such as `allowed` or `expected` may follow.",
            ))
            .property("location", schema_ref("IssueLocation"))
            .required("location")
            .property(
                "name",
                string().description(Some(
                    "The parameter name, or a JSON pointer into the body.",
                )),
            )
            .required("name")
            .property(
                "code",
                string().description(Some(
                    "A stable snake_case code, e.g. `invalid_value`.",
                )),
            )
            .required("code")
            .property(
                "message",
                string().description(Some("A human-readable message.")),
            )
            .required("message")
            .into()
    }
}

impl ToSchema for Issue {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(ISSUE_SCHEMA)
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((IssueLocation::name().into_owned(), IssueLocation::schema()));
    }
}

/// The schema of a 400 [`ValidationException`](crate::ValidationException)
/// body: a problem document whose `issues` member lists every [`Issue`]
/// of the request, each a `$ref` to `#/components/schemas/Issue`
/// (`ToSchema::schemas` lists `Issue` and `IssueLocation`, so utoipa's
/// `#[derive(OpenApi)]` registers them).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::ValidationProblem;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// let schema = serde_json::to_value(ValidationProblem::schema()).unwrap();
/// assert_eq!(schema["properties"]["issues"]["items"],
///     serde_json::json!({"$ref": "#/components/schemas/Issue"}));
/// let mut refs = Vec::new();
/// ValidationProblem::schemas(&mut refs);
/// let names: Vec<&str> = refs.iter().map(|(n, _)| n.as_str()).collect();
/// assert_eq!(names, ["Issue", "IssueLocation"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidationProblem;

impl PartialSchema for ValidationProblem {
    fn schema() -> RefOr<Schema> {
        problem_object()
            .description(Some(
                "A problem document for a request that failed validation: `issues` lists every issue.",
            ))
            .property("issues", issues("Every issue of the request."))
            .required("issues")
            .into()
    }
}

impl ToSchema for ValidationProblem {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(VALIDATION_PROBLEM_SCHEMA)
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Issue::name().into_owned(), Issue::schema()));
        Issue::schemas(schemas);
    }
}

/// The `issues` member of a 400 problem: a list of `$ref`s to [`Issue`].
fn issues(description: &str) -> ArrayBuilder {
    ArrayBuilder::new()
        .items(schema_ref(ISSUE_SCHEMA))
        .description(Some(description))
}

/// A `$ref` to a schema registered in `components.schemas`.
/// Feature `openapi`.
///
/// ```
/// let r = problem_core::openapi::schema_ref("Issue");
/// assert_eq!(serde_json::to_string(&r).unwrap(), r##"{"$ref":"#/components/schemas/Issue"}"##);
/// ```
pub fn schema_ref(name: &str) -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(name))
}

/// A problem response for `status`: `description` (default: the status's
/// title), content `application/problem+json` with the schema `schema`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{problem_response_with, schema_ref};
///
/// let res = problem_response_with(429, None, schema_ref("RateLimited"));
/// assert_eq!(
///     serde_json::to_string(&res).unwrap(),
///     r##"{"description":"Too Many Requests","content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/RateLimited"}}}}"##
/// );
/// ```
pub fn problem_response_with(
    status: u16,
    description: Option<&str>,
    schema: RefOr<Schema>,
) -> Response {
    ResponseBuilder::new()
        .description(description.unwrap_or_else(|| status_title(status)))
        .content(
            PROBLEM_MEDIA_TYPE,
            ContentBuilder::new().schema(Some(schema)).build(),
        )
        .build()
}

/// A problem response for `status` whose body is a `$ref` to
/// `#/components/schemas/ProblemDetails` (register it with
/// [`ProblemSchemas`]).
/// Feature `openapi`.
///
/// ```
/// let res = problem_core::openapi::problem_response(404, Some("No such book"));
/// let json = serde_json::to_value(&res).unwrap();
/// assert_eq!(json["description"], "No such book");
/// assert_eq!(json["content"]["application/problem+json"]["schema"]["$ref"], "#/components/schemas/ProblemDetails");
/// ```
pub fn problem_response(status: u16, description: Option<&str>) -> Response {
    problem_response_with(status, description, schema_ref(PROBLEM_DETAILS_SCHEMA))
}

/// A 400 response: either a [`ValidationProblem`] (with `issues`) or
/// another problem document (e.g. an unsupported API version): a `$ref` to
/// the component [`BadRequestProblem`], so that every 400 of a document
/// shares one schema (OpenAPI 3.1 §4.8.7; code generators make one model of
/// it, not one per operation). Register the components with
/// [`ProblemSchemas`].
/// Feature `openapi`.
///
/// ```
/// let res = problem_core::openapi::bad_request_response(None);
/// let json = serde_json::to_value(&res).unwrap();
/// assert_eq!(json["description"], "Bad Request");
/// assert_eq!(
///     json["content"]["application/problem+json"]["schema"],
///     serde_json::json!({"$ref": "#/components/schemas/BadRequestProblem"})
/// );
/// ```
pub fn bad_request_response(description: Option<&str>) -> Response {
    problem_response_with(400, description, schema_ref(BAD_REQUEST_PROBLEM_SCHEMA))
}

/// Registers `ProblemDetails`, `ValidationProblem`, `BadRequestProblem`,
/// `Issue` and `IssueLocation` in `components.schemas` (a [`Modify`] for
/// `#[openapi(modifiers(&ProblemSchemas))]` or to call directly).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::ProblemSchemas;
/// use problem_core::openapi::utoipa::Modify;
/// use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths};
///
/// let mut doc = OpenApi::new(Info::new("catalog", "3"), Paths::new());
/// ProblemSchemas.modify(&mut doc);
/// let schemas = &doc.components.as_ref().unwrap().schemas;
/// assert!(schemas.contains_key("ProblemDetails") && schemas.contains_key("ValidationProblem"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProblemSchemas;

impl ProblemSchemas {
    /// The schemas, by component name.
    /// Feature `openapi`.
    ///
    /// ```
    /// use problem_core::openapi::ProblemSchemas;
    /// let names: Vec<String> = ProblemSchemas::schemas().into_iter().map(|(name, _)| name).collect();
    /// assert_eq!(
    ///     names,
    ///     ["ProblemDetails", "ValidationProblem", "BadRequestProblem", "Issue", "IssueLocation"]
    /// );
    /// ```
    pub fn schemas() -> Vec<(String, RefOr<Schema>)> {
        vec![
            (
                ProblemDetails::name().into_owned(),
                ProblemDetails::schema(),
            ),
            (
                ValidationProblem::name().into_owned(),
                ValidationProblem::schema(),
            ),
            (
                BadRequestProblem::name().into_owned(),
                BadRequestProblem::schema(),
            ),
            (Issue::name().into_owned(), Issue::schema()),
            (IssueLocation::name().into_owned(), IssueLocation::schema()),
        ]
    }
}

impl Modify for ProblemSchemas {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Components::new);
        for (name, schema) in Self::schemas() {
            components.schemas.insert(name, schema);
        }
    }
}

/// The body of a 400: a [`ValidationProblem`] (with `issues`) or another
/// problem document (an invalid API version, say), as one object schema:
/// the members of [`problem_object`] and an optional `issues` (a list of
/// `$ref`s to [`Issue`]), registered as the component `BadRequestProblem`
/// ([`BAD_REQUEST_PROBLEM_SCHEMA`]). One object, not an `anyOf` of the two
/// documents: code generators that merge an `anyOf` into one model take
/// the union of its required members (OpenAPI Generator's typescript-fetch
/// then requires `issues`, and fails on every 400 without). For
/// `#[utoipa::path(responses((status = 400, body = BadRequestProblem,
/// content_type = "application/problem+json")))]`, which refers to the
/// component (write `inline(BadRequestProblem)` only for a copy of the
/// schema in place).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::BadRequestProblem;
/// use problem_core::openapi::utoipa::PartialSchema;
///
/// let schema = serde_json::to_value(BadRequestProblem::schema()).unwrap();
/// assert_eq!(schema["required"], serde_json::json!(["type", "title", "status", "instance"]));
/// assert_eq!(schema["properties"]["issues"]["items"]["$ref"], "#/components/schemas/Issue");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadRequestProblem;

impl PartialSchema for BadRequestProblem {
    fn schema() -> RefOr<Schema> {
        problem_object()
            .description(Some(
                "A problem document of a 400: `issues` lists every issue of a request that failed validation; other 400s (an invalid API version, more than 1000 query parameters) have none.",
            ))
            .property(
                "issues",
                issues("Every issue of the request, when it failed validation."),
            )
            .into()
    }
}

impl ToSchema for BadRequestProblem {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("BadRequestProblem")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.extend(ProblemSchemas::schemas());
    }
}

/// Adds to every operation the responses the error pipeline can give on
/// any route (a [`Modify`] for `#[openapi(modifiers(&PipelineResponses))]`):
/// 400 (a NUL character in the query, a validation problem naming the
/// parameter, more than 1000 query parameters, or a `Host` that is no
/// valid host and port; RFC 9112 §3.2), 421 (the `Host` is not
/// one the application serves; RFC 9110 §15.5.20) and 500 (an unexpected
/// error, masked outside development and logged under the body's
/// `correlationId`), and to every operation with a request body 408 (the
/// body was not received within the pipeline's body timeout; RFC 9110
/// §15.5.9), 413 (the body is over the server's limit: an empty response)
/// and 415 (a `Content-Type` or `Content-Encoding` the body extractors do
/// not read); all problem documents but the 413. Responses an operation
/// already lists are kept; an operation's own 400 schema is widened to
/// admit these two documents too: `anyOf` it and the `BadRequestProblem`
/// component, or that component alone when the operation's own schema is
/// one of its two cases.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::PipelineResponses;
/// use problem_core::openapi::utoipa::Modify;
/// use problem_core::openapi::utoipa::openapi::path::{HttpMethod, OperationBuilder};
/// use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths};
///
/// let mut paths = Paths::new();
/// paths.add_path_operation("/books", vec![HttpMethod::Get], OperationBuilder::new().build());
/// let mut doc = OpenApi::new(Info::new("catalog", "3"), paths);
/// PipelineResponses.modify(&mut doc);
/// let json = serde_json::to_value(&doc).unwrap();
/// let responses = &json["paths"]["/books"]["get"]["responses"];
/// assert_eq!(responses["421"]["description"], "The `Host` is not one this server serves.");
/// assert_eq!(responses["500"]["content"]["application/problem+json"]["schema"]["$ref"],
///     "#/components/schemas/ProblemDetails");
/// assert_eq!(responses["400"]["content"]["application/problem+json"]["schema"]["$ref"],
///     "#/components/schemas/BadRequestProblem");
/// // No request body on this operation: no 408, 413 or 415.
/// assert!(responses.get("408").is_none() && responses.get("413").is_none());
///
/// use problem_core::openapi::utoipa::openapi::request_body::RequestBody;
/// let mut paths = Paths::new();
/// let post = OperationBuilder::new().request_body(Some(RequestBody::new())).build();
/// paths.add_path_operation("/books", vec![HttpMethod::Post], post);
/// let mut doc = OpenApi::new(Info::new("catalog", "3"), paths);
/// PipelineResponses.modify(&mut doc);
/// let json = serde_json::to_value(&doc).unwrap();
/// let responses = &json["paths"]["/books"]["post"]["responses"];
/// assert_eq!(responses["408"]["description"], "The request body was not received in time.");
/// assert!(responses["413"].get("content").is_none());
/// assert_eq!(responses["415"]["content"]["application/problem+json"]["schema"]["$ref"],
///     "#/components/schemas/ProblemDetails");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PipelineResponses;

/// Widens the `application/problem+json` schema of an operation's own
/// response so that it also admits the components `names` (the problems
/// the pipeline or the versioning answer with the same status): `anyOf`
/// the operation's schema and each of them it does not admit yet. For a
/// 400 (`bad_request`), both problem cases become the `BadRequestProblem`
/// component in their place.
pub(crate) fn admit_schemas(response: &mut Response, names: &[&str], bad_request: bool) {
    let names_one = |s: &RefOr<Schema>, name: &str| matches!(s, RefOr::Ref(r) if r.ref_location.rsplit('/').next() == Some(name));
    // `BadRequestProblem` admits both of its cases.
    let admitted_by = |s: &RefOr<Schema>, name: &str| {
        names_one(s, name)
            || (names_one(s, BAD_REQUEST_PROBLEM_SCHEMA)
                && [VALIDATION_PROBLEM_SCHEMA, PROBLEM_DETAILS_SCHEMA].contains(&name))
    };
    let content = response
        .content
        .entry(PROBLEM_MEDIA_TYPE.to_owned())
        .or_insert_with(|| RefOr::T(ContentBuilder::new().build()));
    // A content given by `$ref` is the application's own to widen.
    let RefOr::T(content) = content else {
        return;
    };
    let admits = |schema: &Option<RefOr<Schema>>, name: &str| match schema {
        None => false,
        Some(RefOr::T(Schema::AnyOf(any))) => any.items.iter().any(|s| admitted_by(s, name)),
        Some(RefOr::T(Schema::OneOf(one))) => one.items.iter().any(|s| admitted_by(s, name)),
        Some(other) => admitted_by(other, name),
    };
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !admits(&content.schema, n))
        .collect();
    if missing.is_empty() {
        return;
    }
    let mut items: Vec<RefOr<Schema>> = match content.schema.take() {
        Some(RefOr::T(Schema::AnyOf(any))) => any.items,
        Some(own) => vec![own],
        None => Vec::new(),
    };
    items.extend(missing.into_iter().map(schema_ref));
    // Both cases of a 400: the shared component in their place, not a copy.
    let cases = [VALIDATION_PROBLEM_SCHEMA, PROBLEM_DETAILS_SCHEMA];
    if bad_request && cases.iter().all(|n| items.iter().any(|s| names_one(s, n))) {
        let first = items
            .iter()
            .position(|s| cases.iter().any(|n| names_one(s, n)))
            .unwrap_or(0);
        items.retain(|s| !cases.iter().any(|n| names_one(s, n)));
        items.insert(
            first.min(items.len()),
            schema_ref(BAD_REQUEST_PROBLEM_SCHEMA),
        );
    }
    content.schema = Some(match items.len() {
        1 => items
            .into_iter()
            .next()
            .unwrap_or_else(|| schema_ref(PROBLEM_DETAILS_SCHEMA)),
        _ => items
            .into_iter()
            .fold(AnyOfBuilder::new(), |any, item| any.item(item))
            .into(),
    });
}

impl Modify for PipelineResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in super::version::operations_mut(item) {
                let responses = &mut operation.responses.responses;
                responses.entry("421".into()).or_insert_with(|| {
                    RefOr::T(problem_response(
                        421,
                        Some("The `Host` is not one this server serves."),
                    ))
                });
                // Answered before routing on every route: a NUL in the
                // query (a validation problem naming the parameter), more
                // than 1000 query parameters, a `Host` that is no valid
                // host (problem documents).
                const EARLY_400: &str = "The query string holds a NUL character (`issues` names the parameter) or more than 1000 parameters, or the `Host` is not a valid host and port.";
                match responses.get_mut("400") {
                    Some(RefOr::T(own)) => {
                        admit_schemas(
                            own,
                            &[VALIDATION_PROBLEM_SCHEMA, PROBLEM_DETAILS_SCHEMA],
                            true,
                        );
                    }
                    Some(RefOr::Ref(_)) => {}
                    None => {
                        responses.insert(
                            "400".into(),
                            RefOr::T(bad_request_response(Some(EARLY_400))),
                        );
                    }
                }
                if operation.request_body.is_some() {
                    responses.entry("408".into()).or_insert_with(|| {
                        RefOr::T(problem_response(
                            408,
                            Some("The request body was not received in time."),
                        ))
                    });
                    responses.entry("413".into()).or_insert_with(|| {
                        RefOr::T(
                            ResponseBuilder::new()
                                .description("The request body is larger than the server accepts: an empty response.")
                                .build(),
                        )
                    });
                    responses.entry("415".into()).or_insert_with(|| {
                        RefOr::T(problem_response(
                            415,
                            Some("The request's `Content-Type` (or `Content-Encoding`) is not one this operation reads."),
                        ))
                    });
                }
                responses.entry("500".into()).or_insert_with(|| {
                    RefOr::T(problem_response(
                        500,
                        Some("An unexpected error, masked and logged under the body's `correlationId`."),
                    ))
                });
            }
        }
    }
}
