//! The conditional-request parameters of single-resource writes (RFC 9110
//! §13.1.1 `If-Match`, §13.1.2 `If-None-Match`), for
//! `#[utoipa::path(params(...))]`.

use utoipa::IntoParams;
use utoipa::openapi::Required;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};

/// The optional `If-Match` request header of a write that
/// [`check_if_match`](crate::pipeline::check_if_match) guards: `*` or a
/// list of strong entity tags (the `ETag` the client read); a mismatch is
/// the `412 Precondition Failed` problem. `params(("id" = i64, Path), IfMatch)`.
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
