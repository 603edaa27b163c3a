//! Schemas and responses of `#[derive(Problem)]` types: what the generated
//! `utoipa::ToSchema` and `utoipa::IntoResponses` impls call.
//!
//! A derived type is described case by case (the struct, or each enum
//! variant): its status, problem type and title as single-value enums, its
//! extension members with the schema of their Rust type, its header fields
//! as response headers.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{ContentBuilder, RefOr, Response, ResponseBuilder};
use utoipa::{PartialSchema, ToSchema};

use super::problem::{PROBLEM_MEDIA_TYPE, problem_object, schema_ref};
use crate::problem::status_title;

/// One extension member of a derived problem type.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::utoipa::PartialSchema;
/// use problem_core::openapi::{ProblemCase, ProblemMember, problem_case_schema};
///
/// let isbn = ProblemMember { name: "isbn", required: true, schema: String::schema() };
/// let case = ProblemCase {
///     status: 409, problem_type: "/problems/duplicate-isbn", title: "Conflict",
///     has_detail: false, members: vec![isbn], headers: Vec::new(),
/// };
/// let schema = serde_json::to_value(problem_case_schema(&case)).unwrap();
/// assert_eq!(schema["properties"]["isbn"], serde_json::json!({"type": "string"}));
/// assert_eq!(schema["required"], serde_json::json!(["type", "title", "status", "instance", "isbn"]));
/// ```
#[derive(Clone)]
pub struct ProblemMember {
    /// The member name (the field name, or its `rename`).
    pub name: &'static str,
    /// Whether the member is always present (the field is not an `Option`).
    pub required: bool,
    /// The schema of the field's type (any JSON value when the type has no
    /// `utoipa` schema).
    pub schema: RefOr<Schema>,
}

/// One case of a derived problem type: the struct, or one enum variant.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{ProblemCase, problem_case_schema};
///
/// let case = ProblemCase {
///     status: 404, problem_type: "/problems/no-book", title: "Not Found",
///     has_detail: true, members: Vec::new(), headers: Vec::new(),
/// };
/// let schema = serde_json::to_value(problem_case_schema(&case)).unwrap();
/// assert_eq!(schema["properties"]["status"]["enum"], serde_json::json!([404]));
/// assert_eq!(schema["properties"]["type"]["enum"], serde_json::json!(["/problems/no-book"]));
/// assert_eq!(schema["properties"]["title"]["enum"], serde_json::json!(["Not Found"]));
/// ```
#[derive(Clone)]
pub struct ProblemCase {
    /// The status (400 to 599).
    pub status: u16,
    /// The problem type URI (`about:blank` when not given).
    pub problem_type: &'static str,
    /// The title.
    pub title: &'static str,
    /// Whether the case always has a `detail`.
    pub has_detail: bool,
    /// The extension members, in field order.
    pub members: Vec<ProblemMember>,
    /// The response headers the case sends: `(name, always present)`.
    pub headers: Vec<(&'static str, bool)>,
}

fn single(value: impl Into<serde_json::Value>, kind: Type) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(kind)
        .enum_values(Some([value.into()]))
}

/// The schema of one case: the members of every problem document
/// ([`problem_object`]) with `status`, `type` and `title` narrowed to the
/// case's values and its extension members added. For a 5xx, `detail`
/// and the extension members are listed but not required: outside
/// development mode they are masked.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::utoipa::PartialSchema;
/// use problem_core::openapi::{ProblemCase, ProblemMember, problem_case_schema};
///
/// let case = |status| ProblemCase {
///     status, problem_type: "about:blank", title: "Error", has_detail: true,
///     members: vec![ProblemMember { name: "shard", required: true, schema: u32::schema() }],
///     headers: Vec::new(),
/// };
/// let required = |status| serde_json::to_value(problem_case_schema(&case(status))).unwrap()["required"].clone();
/// assert_eq!(required(422), serde_json::json!(["type", "title", "status", "instance", "detail", "shard"]));
/// assert_eq!(required(503), serde_json::json!(["type", "title", "status", "instance"]));
/// ```
pub fn problem_case_schema(case: &ProblemCase) -> RefOr<Schema> {
    let client_error = case.status < 500;
    let mut object = problem_object()
        .description(None::<String>)
        .property("type", single(case.problem_type, Type::String))
        .property("title", single(case.title, Type::String))
        .property("status", single(case.status, Type::Integer));
    if case.has_detail && client_error {
        object = object.required("detail");
    }
    for member in &case.members {
        object = object.property(member.name, member.schema.clone());
        if member.required && client_error {
            object = object.required(member.name);
        }
    }
    object.into()
}

/// The schema of a derived type: its one case, or `anyOf` its variants'
/// cases (an empty enum: the plain problem document).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::{ProblemCase, problem_schema};
///
/// let case = |status, title| ProblemCase {
///     status, problem_type: "about:blank", title, has_detail: false,
///     members: Vec::new(), headers: Vec::new(),
/// };
/// let schema = serde_json::to_value(problem_schema(&[case(404, "Not Found"), case(503, "Service Unavailable")])).unwrap();
/// assert_eq!(schema["anyOf"][0]["properties"]["status"]["enum"], serde_json::json!([404]));
/// assert_eq!(schema["anyOf"][1]["properties"]["status"]["enum"], serde_json::json!([503]));
/// let plain = serde_json::to_value(problem_schema(&[])).unwrap();
/// assert_eq!(plain["properties"]["status"]["maximum"], 599);
/// ```
pub fn problem_schema(cases: &[ProblemCase]) -> RefOr<Schema> {
    match cases {
        [] => problem_object().into(),
        [case] => problem_case_schema(case),
        many => many
            .iter()
            .fold(AnyOfBuilder::new(), |any, case| {
                any.item(problem_case_schema(case))
            })
            .into(),
    }
}

/// The responses of a derived type named `name`, by status: content
/// `application/problem+json`, description the first case's title, and
/// the header fields as response headers.
/// Feature `openapi`.
///
/// When one status covers every case (a struct, or an enum whose variants
/// share a status), the schema is a `$ref` to
/// `#/components/schemas/<name>`: register the type in `components`
/// (`#[openapi(components(schemas(DuplicateIsbn)))]`, or insert
/// `ToSchema::schema()` under `ToSchema::name()`), so a generator makes
/// one class of it. Otherwise each status has the schema of its own
/// cases, inline.
///
/// ```
/// use problem_core::openapi::{ProblemCase, problem_responses};
///
/// let case = ProblemCase {
///     status: 409,
///     problem_type: "/problems/duplicate-isbn",
///     title: "Conflict",
///     has_detail: true,
///     members: Vec::new(),
///     headers: Vec::new(),
/// };
/// let responses = serde_json::to_value(problem_responses("DuplicateIsbn", &[case])).unwrap();
/// assert_eq!(responses["409"]["content"]["application/problem+json"]["schema"],
///     serde_json::json!({"$ref": "#/components/schemas/DuplicateIsbn"}));
/// ```
pub fn problem_responses(name: &str, cases: &[ProblemCase]) -> BTreeMap<String, RefOr<Response>> {
    let mut by_status: BTreeMap<u16, Vec<ProblemCase>> = BTreeMap::new();
    for case in cases {
        by_status.entry(case.status).or_default().push(case.clone());
    }
    let one_status = by_status.len() == 1;
    by_status
        .into_iter()
        .map(|(status, cases)| {
            let description = cases.first().map_or(status_title(status), |c| c.title);
            let schema = if one_status {
                schema_ref(name)
            } else {
                problem_schema(&cases)
            };
            let mut response = ResponseBuilder::new().description(description).content(
                PROBLEM_MEDIA_TYPE,
                ContentBuilder::new().schema(Some(schema)).build(),
            );
            let mut seen: Vec<&str> = Vec::new();
            for case in &cases {
                for (name, _) in &case.headers {
                    if seen.contains(name) {
                        continue;
                    }
                    seen.push(name);
                    let always = cases
                        .iter()
                        .all(|c| c.headers.iter().any(|(n, req)| n == name && *req));
                    let text = if always {
                        "Sent with this problem."
                    } else {
                        "Sent with this problem when the value is set."
                    };
                    response = response.header(
                        *name,
                        HeaderBuilder::new()
                            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                            .description(Some(text))
                            .build(),
                    );
                }
            }
            (status.to_string(), RefOr::T(response.build()))
        })
        .collect()
}

/// Stands for the type `T` in the autoref-specialized calls below: the
/// schema of `T` when it implements `utoipa::PartialSchema`, else any JSON
/// value. Not a public API.
pub struct SchemaOf<T: ?Sized>(PhantomData<*const T>);

impl<T: ?Sized> SchemaOf<T> {
    /// The marker.
    pub const NEW: Self = SchemaOf(PhantomData);
}

/// First choice of `(&&&SchemaOf::<T>::NEW).member_schema()`, when
/// `T: ToSchema`.
pub trait ViaSchema {
    /// The schema of `T`.
    fn member_schema(&self) -> RefOr<Schema>;
    /// The schemas `T` refers to (`ToSchema::schemas`).
    fn member_schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>);
}

impl<T: ToSchema + ?Sized> ViaSchema for &&SchemaOf<T> {
    fn member_schema(&self) -> RefOr<Schema> {
        T::schema()
    }
    fn member_schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>) {
        T::schemas(schemas);
    }
}

/// Last choice: any JSON value, no referenced schemas.
pub trait ViaAnyValue {
    /// `{}`: any JSON value.
    fn member_schema(&self) -> RefOr<Schema>;
    /// Nothing.
    fn member_schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>);
}

impl<T: ?Sized> ViaAnyValue for SchemaOf<T> {
    fn member_schema(&self) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .into()
    }
    fn member_schemas(&self, _: &mut Vec<(String, RefOr<Schema>)>) {}
}

/// Second choice, when `T` is `PartialSchema` alone (no `ToSchema`), e.g.
/// `Vec<String>`, `Option<u32>`: the schema, no referenced schemas.
pub trait ViaPartialSchema {
    /// The schema of `T`.
    fn member_schema(&self) -> RefOr<Schema>;
    /// Nothing.
    fn member_schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>);
}

impl<T: PartialSchema + ?Sized> ViaPartialSchema for &SchemaOf<T> {
    fn member_schema(&self) -> RefOr<Schema> {
        T::schema()
    }
    fn member_schemas(&self, _: &mut Vec<(String, RefOr<Schema>)>) {}
}
