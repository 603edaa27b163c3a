//! `GET /demo/errors/{kind}`: the error rules, on purpose.

use actix_web::{HttpResponse, web};
use problem_core::pipeline::UnknownError;
use problem_core::{
    BadRequestException, NotFoundException, ProblemDetails, ServiceUnavailableException,
};
use serde_json::json;

/// An error that is not a problem type, as a database driver would return.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not connect to postgres://catalog:s3cret@db.internal:5432/catalog: connection refused"
)]
pub struct DatabaseError;

/// The kinds `GET /demo/errors/{kind}` knows, in the order the 404 lists
/// them.
///
/// ```
/// assert_eq!(examples::catalog::demo::DEMO_KINDS.len(), 4);
/// ```
pub const DEMO_KINDS: [&str; 4] = ["unknown", "panic", "unavailable", "bad-request"];

/// The `kind` path parameter in the OpenAPI document: its schema is the
/// enum of [`DEMO_KINDS`].
pub struct DemoKind;

impl utoipa::PartialSchema for DemoKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(DEMO_KINDS))
            .into()
    }
}

impl utoipa::ToSchema for DemoKind {}

/// `unknown`, `panic`, `unavailable` or `bad-request`; any other kind is a 404.
#[utoipa::path(
    get,
    path = "/demo/errors/{kind}",
    operation_id = "demoError",
    tag = "demo",
    summary = "The error rules, on purpose",
    description = "`unknown` (masked 500), `panic` (masked 500), `unavailable` (503 with `Retry-After`), `bad-request` (400 with a `hint`); any other kind is a 404 listing the kinds.",
    params(("kind" = inline(DemoKind), Path, description = "The error to answer with; any other kind is a 404.")),
    responses(
        (status = 400, description = "`bad-request`: extension `hint`.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "An unknown kind: extension `kinds`.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 503, description = "`unavailable`: masked outside development mode.",
            body = ProblemDetails, content_type = "application/problem+json",
            headers(("Retry-After" = String))),
    )
)]
pub async fn demo_error(kind: web::Path<String>) -> Result<HttpResponse, actix_web::Error> {
    match kind.as_str() {
        "unknown" => Err(UnknownError::from(DatabaseError).into()),
        "panic" => panic!("demo panic: the handler gave up"),
        "unavailable" => Err(ServiceUnavailableException::new()
            .with_detail("Maintenance window")
            .with_extension("window", json!({"start": "02:00Z", "end": "03:00Z"}))
            .with_header(("Retry-After", "120"))
            .into()),
        "bad-request" => Err(BadRequestException::new()
            .with_detail("This request is bad on purpose")
            .with_extension("hint", "try /books instead")
            .into()),
        other => Err(NotFoundException::new()
            .with_detail(format!("No demo error named {other}"))
            .with_extension("kinds", DEMO_KINDS)
            .into()),
    }
}
