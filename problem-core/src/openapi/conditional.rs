//! The conditional-request parameters of single-resource writes (RFC 9110
//! §13.1.1 `If-Match`, §13.1.2 `If-None-Match`), for
//! `#[utoipa::path(params(...))]`, and what the conditional layer adds to
//! every `GET` ([`ConditionalGetResponses`]).

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Required, ResponseBuilder};
use utoipa::{IntoParams, Modify};

/// The optional `If-Match` request header of a write that
/// [`check_if_match`](crate::pipeline::check_if_match) guards: `*` or a
/// list of strong entity tags (the `ETag` the client read); a mismatch is
/// the `412 Precondition Failed` problem. `params(("id" = i64, Path), IfMatch)`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::IfMatch;
/// use problem_core::openapi::utoipa::IntoParams;
///
/// let params = serde_json::to_value(IfMatch::into_params(|| None)).unwrap();
/// assert_eq!(params[0]["name"], "If-Match");
/// assert_eq!(params[0]["in"], "header");
/// assert_eq!(params[0]["required"], false);
/// assert_eq!(params[0]["schema"], serde_json::json!({"type": "string"}));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IfMatch;

impl IntoParams for IfMatch {
    fn into_params(_parameter_in_provider: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![optional_header(
            "If-Match",
            "`*`, or the `ETag` of the representation the client read: the write happens only while it is current, else 412 and nothing changes (RFC 9110 §13.1.1).",
        )]
    }
}

/// An optional string request header with its description.
fn optional_header(name: &str, description: &str) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

/// The optional `If-None-Match` request header of a write that
/// [`check_preconditions`](crate::pipeline::check_preconditions) guards:
/// `*` (write only when there is no current representation) or a list of
/// entity tags (write only when none of them is current); otherwise the
/// `412 Precondition Failed` problem. `params(("id" = i64, Path), IfMatch,
/// IfNoneMatch)`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::IfNoneMatch;
/// use problem_core::openapi::utoipa::IntoParams;
///
/// let params = serde_json::to_value(IfNoneMatch::into_params(|| None)).unwrap();
/// assert_eq!(params[0]["name"], "If-None-Match");
/// assert_eq!(params[0]["in"], "header");
/// assert_eq!(params[0]["required"], false);
/// assert_eq!(params[0]["schema"], serde_json::json!({"type": "string"}));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IfNoneMatch;

impl IntoParams for IfNoneMatch {
    fn into_params(_parameter_in_provider: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![optional_header(
            "If-None-Match",
            "`*`: the write happens only while there is no current representation; entity tags: only while none of them is current. Else 412 and nothing changes (RFC 9110 §13.1.2).",
        )]
    }
}

/// Adds to every `GET` operation what
/// [`ConditionalRequests`](crate::pipeline::ConditionalRequests) gives
/// every `GET` success with a body (RFC 9110 §8.8.3, §13.1.2, §15.4.5), a
/// [`Modify`] for `#[openapi(modifiers(&ConditionalGetResponses))]`:
///
/// - the optional `If-None-Match` request header (`*` or a list of entity
///   tags), unless the operation declares it;
/// - an `ETag` header (a strong entity tag, quoted hex) on each `2xx`
///   response that has content;
/// - a `304 Not Modified` response (no body, its `ETag`), when some `2xx`
///   response has content and the operation lists no 304 of its own;
/// - the `412 Precondition Failed` problem the layer answers to an
///   `If-Match` that names no current tag (RFC 9110 §13.1.1, evaluated
///   before `If-None-Match`), unless the operation lists a 412 of its own.
///   `If-Match` is not declared as a parameter of a `GET`: it is a header
///   of writes (declare it with [`IfMatch`] there), and a client that sends
///   it on a read learns of the 412 from the response list.
///
/// Apply it before [`document_version`](super::document_version), which
/// then adds the version headers to the 304 like to every other response
/// (a 304 carries them; RFC 9110 §15.4.5 and the `ETag` row of the
/// specification's HTTP rules). Feature `openapi`.
///
/// ```
/// use problem_core::openapi::ConditionalGetResponses;
/// use problem_core::openapi::utoipa::Modify;
/// use problem_core::openapi::utoipa::openapi::path::{HttpMethod, OperationBuilder};
/// use problem_core::openapi::utoipa::openapi::{
///     ContentBuilder, Info, OpenApi, Paths, ResponseBuilder, ResponsesBuilder,
/// };
///
/// let ok = ResponseBuilder::new()
///     .description("The book.")
///     .content("application/json", ContentBuilder::new().build())
///     .build();
/// let get = OperationBuilder::new()
///     .responses(ResponsesBuilder::new().response("200", ok).build())
///     .build();
/// let mut paths = Paths::new();
/// paths.add_path_operation("/books/{id}", vec![HttpMethod::Get], get);
/// let mut doc = OpenApi::new(Info::new("catalog", "3"), paths);
/// ConditionalGetResponses.modify(&mut doc);
/// let op = &serde_json::to_value(&doc).unwrap()["paths"]["/books/{id}"]["get"];
/// assert_eq!(op["parameters"][0]["name"], "If-None-Match");
/// assert_eq!(op["parameters"][0]["in"], "header");
/// assert_eq!(op["responses"]["200"]["headers"]["ETag"]["schema"]["type"], "string");
/// assert_eq!(op["responses"]["304"]["description"],
///     "Not Modified: `If-None-Match` names the current `ETag`; no body.");
/// assert!(op["responses"]["304"].get("content").is_none());
/// assert_eq!(op["parameters"].as_array().unwrap().len(), 1);
/// assert_eq!(op["responses"]["412"]["content"]["application/problem+json"]["schema"]["$ref"],
///     "#/components/schemas/ProblemDetails");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConditionalGetResponses;

impl Modify for ConditionalGetResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let etag = || {
            HeaderBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .description(Some(
                    "A strong entity tag of the body (quoted hex): send it back in `If-None-Match` to revalidate, or in `If-Match` to write only while it is current.",
                ))
                .build()
        };
        for item in openapi.paths.paths.values_mut() {
            let Some(get) = item.get.as_mut() else {
                continue;
            };
            let mut tagged = false;
            for (status, response) in get.responses.responses.iter_mut() {
                if let RefOr::T(response) = response
                    && status.starts_with('2')
                    && !response.content.is_empty()
                {
                    tagged = true;
                    response
                        .headers
                        .entry("ETag".into())
                        .or_insert_with(|| RefOr::T(etag()));
                }
            }
            if !tagged {
                continue;
            }
            let parameters = get.parameters.get_or_insert_with(Vec::new);
            let declared = parameters.iter().any(|p| {
                matches!(p, RefOr::T(p) if p.parameter_in == ParameterIn::Header
                    && p.name.eq_ignore_ascii_case("If-None-Match"))
            });
            if !declared {
                parameters.push(RefOr::T(optional_header(
                    "If-None-Match",
                    "`*` or entity tags the client holds: when one matches the current `ETag` (weak comparison), the answer is 304 with no body (RFC 9110 §13.1.2).",
                )));
            }
            get.responses
                .responses
                .entry("412".into())
                .or_insert_with(|| {
                    RefOr::T(super::problem_response(
                        412,
                        Some("Precondition Failed: the request's `If-Match` names no current `ETag` (strong comparison; RFC 9110 §13.1.1)."),
                    ))
                });
            get.responses
                .responses
                .entry("304".into())
                .or_insert_with(|| {
                    RefOr::T(
                        ResponseBuilder::new()
                            .description(
                                "Not Modified: `If-None-Match` names the current `ETag`; no body.",
                            )
                            .header("ETag", etag())
                            .build(),
                    )
                });
        }
    }
}
