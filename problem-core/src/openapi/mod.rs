//! OpenAPI 3.1 documents from the same types and derives (feature
//! `openapi`, through [`utoipa`], re-exported here).
//!
//! - Problem documents: [`ProblemDetails`](crate::ProblemDetails),
//!   [`Issue`](crate::Issue), [`IssueLocation`](crate::IssueLocation) and
//!   [`ValidationProblem`] implement `utoipa::ToSchema`; problem responses
//!   ([`problem_response`], [`bad_request_response`]) have the content type
//!   `application/problem+json` ([`PROBLEM_MEDIA_TYPE`]);
//!   [`ProblemSchemas`] registers the schemas in `components`.
//! - `#[derive(Problem)]` types implement `utoipa::ToSchema` (their status,
//!   type and title as single-value enums, their extension members with
//!   the schema of each field's type; an enum is `anyOf` its variants) and
//!   `utoipa::IntoResponses` (one response per status, with the header
//!   fields as response headers; the response refers to the type's schema,
//!   so register it as well, `components(schemas(DuplicateIsbn))`, or the
//!   document holds a `$ref` to nothing, which [`VersionedDocs::new`]
//!   refuses). An extension field whose type has no
//!   `utoipa` schema is documented as any JSON value, so turning the
//!   feature on never breaks a build.
//! - `#[derive(CollectionQuery)]` types implement `utoipa::IntoParams`
//!   ([`query_parameters`]): `params(BookQuery)` in `#[utoipa::path]`.
//! - Listings: [`Page`](crate::query::Page),
//!   [`CursorPage`](crate::query::CursorPage) and
//!   [`BareList`](crate::query::BareList) implement `utoipa::ToSchema`
//!   for any `T: ToSchema`, their items the sparse fieldset
//!   [`Fieldset<T>`]. Name a listing through a type alias,
//!   `type BookPage = Page<Book>;` then `body = BookPage`: utoipa's path
//!   macro names a generic body written out (`body = Page<Book>`)
//!   `BookPage_Book`.
//! - Annotations: [`BadRequestProblem`] (the 400 body), [`IfMatch`] and
//!   [`IfNoneMatch`] (the conditional-write headers) and
//!   [`PipelineResponses`] (the 421 and masked 500 of every operation)
//!   and [`ConditionalGetResponses`] (`If-None-Match`, `ETag` and the 304
//!   of every `GET`) fit `#[utoipa::path(responses(...))]` and
//!   `#[openapi(modifiers(...))]`.
//! - Versioning: [`document_version`] documents the version header, query
//!   parameter, path segment and media type on every versioned operation
//!   and marks a deprecated version's operations `deprecated`;
//!   [`VersionedDocs`] holds one document per version and serves the one a
//!   request asks for.
//! - Problem type pages: [`problem_type_paths`] documents the pages
//!   [`ProblemAppBuilder::problem_type`](crate::server::ProblemAppBuilder::problem_type)
//!   serves.
//!
//! ```
//! use problem_core::Problem;
//! use problem_core::openapi::utoipa::{IntoResponses, PartialSchema};
//!
//! #[derive(Debug, Problem)]
//! #[problem(status = 409, type = "/problems/duplicate-isbn", detail = "ISBN {isbn} exists")]
//! struct DuplicateIsbn {
//!     isbn: String,
//! }
//!
//! let schema = serde_json::to_value(DuplicateIsbn::schema()).unwrap();
//! assert_eq!(schema["properties"]["status"]["enum"], serde_json::json!([409]));
//! assert_eq!(schema["properties"]["type"]["enum"], serde_json::json!(["/problems/duplicate-isbn"]));
//! assert_eq!(schema["properties"]["isbn"]["type"], "string");
//! assert!(DuplicateIsbn::responses().contains_key("409"));
//! ```

mod conditional;
mod derived;
mod page;
mod problem;
mod query;
mod type_pages;
mod version;

pub use utoipa;

/// The extension (`x-version-neutral: true`) of an operation that answers
/// every API version alike, without version headers:
/// [`document_version`] leaves such an operation as it is.
/// [`problem_type_paths`] marks the problem type pages with it, and
/// [`document_version`] the operations on the paths its configuration
/// treats as neutral; mark another route of your own that answers every
/// version alike likewise.
/// Feature `openapi`.
///
/// ```
/// assert_eq!(problem_core::openapi::VERSION_NEUTRAL_EXTENSION, "x-version-neutral");
/// ```
pub const VERSION_NEUTRAL_EXTENSION: &str = "x-version-neutral";

pub use conditional::{ConditionalGetResponses, IfMatch, IfNoneMatch};
pub use derived::{
    ProblemCase, ProblemMember, problem_case_schema, problem_responses, problem_schema,
};
pub use page::{Fieldset, OffsetOrCursorPage};
pub use problem::{
    BAD_REQUEST_PROBLEM_SCHEMA, BadRequestProblem, ISSUE_SCHEMA, PROBLEM_DETAILS_SCHEMA,
    PROBLEM_MEDIA_TYPE, PipelineResponses, ProblemSchemas, VALIDATION_PROBLEM_SCHEMA,
    ValidationProblem, bad_request_response, problem_object, problem_response,
    problem_response_with, schema_ref,
};
pub use query::{
    filter_parameter_name, prefer_count_parameter, preference_applied_header, query_parameters,
    tolerated_description, tolerated_parameters, value_schema,
};
pub use type_pages::problem_type_paths;
pub use version::{
    VersionedDocs, document_version, documented_versions, version_extension, version_parameters,
};

/// Items the code generated by `#[derive(Problem)]` and
/// `#[derive(CollectionQuery)]` names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use super::derived::{SchemaOf, ViaAnyValue, ViaPartialSchema, ViaSchema};
    pub use super::{
        ProblemCase, ProblemMember, problem_responses, problem_schema, query_parameters,
    };
    pub use std::collections::BTreeMap;
    pub use std::vec::Vec;
    pub use utoipa::openapi::path::{Parameter, ParameterIn};
    pub use utoipa::openapi::{RefOr, Response, schema::Schema};
    pub use utoipa::{IntoParams, IntoResponses, PartialSchema, ToSchema};
}
