//! One OpenAPI document per API version (spec, "Versioning"): the version header, query parameter, media type and path
//! segment documented on every versioned operation, deprecated versions'
//! operations marked `deprecated`, and [`VersionedDocs`], which serves the
//! document of the version a request asks for.

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, HttpResponse};
use serde_json::json;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{Deprecated, OpenApi, RefOr, Required, Response};

use super::problem::{bad_request_response, problem_response};
use crate::config::HttpConfigError;
use crate::version::{ApiVersion, VersionConfig, VersionError, VersionStrategy};

fn http_date(date: std::time::SystemTime) -> String {
    httpdate::fmt_http_date(date)
}

fn version_value(version: ApiVersion) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([version.short().to_string()]))
}

/// Whether the document of `version` needs the client to name the version
/// (it is not the default one).
fn must_select(config: &VersionConfig, version: ApiVersion) -> bool {
    config.default_version() != Some(version)
}

/// The parameters that carry `version` under `config`'s strategy: a header
/// parameter per header strategy (e.g. `X-API-Version`) and a query
/// parameter per query strategy (e.g. `api-version`), each restricted to
/// the version's short form (`3`, `2.1`). In the document of a version
/// that is not the default, the first of them is `required` (a client that
/// sends it gets that version; the other ways remain described).
/// Feature `openapi`.
///
/// The URL-path and media-type strategies have no parameter: they are
/// described in the operation's description and its `x-api-version`
/// extension (see [`document_version`]).
///
/// ```
/// use problem_core::openapi::version_parameters;
/// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::default()).default_version(V3).build()?;
/// let v2 = version_parameters(&config, V2);
/// let json = serde_json::to_value(&v2).unwrap();
/// assert_eq!(json[0]["name"], "X-API-Version");
/// assert_eq!(json[0]["in"], "header");
/// assert_eq!(json[0]["required"], true);
/// assert_eq!(json[0]["schema"]["enum"], serde_json::json!(["2"]));
/// assert_eq!(json[1]["name"], "api-version");
/// assert_eq!(json[1]["required"], false);
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
pub fn version_parameters(config: &VersionConfig, version: ApiVersion) -> Vec<Parameter> {
    let mut required = must_select(config, version);
    let mut params = Vec::new();
    for strategy in config.strategy().flatten() {
        let (name, place, text) = match strategy {
            VersionStrategy::Header { name } => (
                name.as_str(),
                ParameterIn::Header,
                format!(
                    "The API version; this document describes version {}.",
                    version.short()
                ),
            ),
            VersionStrategy::Query { name } => (
                name.as_str(),
                ParameterIn::Query,
                format!(
                    "The API version; this document describes version {}.",
                    version.short()
                ),
            ),
            VersionStrategy::UrlPath { .. }
            | VersionStrategy::MediaType { .. }
            | VersionStrategy::Combined(_) => continue,
        };
        let text = if must_select(config, version) {
            text
        } else {
            format!("{text} It is the default version: the parameter may be left out.")
        };
        params.push(
            ParameterBuilder::new()
                .name(name)
                .parameter_in(place)
                .required(if required {
                    Required::True
                } else {
                    Required::False
                })
                .description(Some(text))
                .schema(Some(version_value(version)))
                .build(),
        );
        required = false;
    }
    params
}

/// How a client selects `version`: the `x-api-version` extension of a
/// versioned operation. Members: `version`, `default`, `deprecated`,
/// `sunset` (IMF-fixdate, when set), and per strategy `pathPrefix`
/// (`/v2`), `header`, `query`, `mediaType`
/// (`application/vnd.catalog.v2+json`).
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::version_extension;
/// use problem_core::version::{Deprecation, V2, V3, VersionConfig, VersionStrategy};
///
/// let sunset = httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap();
/// let config = VersionConfig::builder(VersionStrategy::combined([
///     VersionStrategy::url_path_with_prefix("/api"),
///     VersionStrategy::header(),
///     VersionStrategy::media_type("vnd.catalog"),
/// ]))
/// .default_version(V3)
/// .deprecated_with(V2, Deprecation::new().sunset(sunset))
/// .build()?;
/// assert_eq!(version_extension(&config, V2), serde_json::json!({
///     "version": "2", "default": false, "deprecated": true,
///     "sunset": "Fri, 31 Dec 2027 23:59:59 GMT",
///     "pathPrefix": "/api/v2", "header": "X-API-Version",
///     "mediaType": "application/vnd.catalog.v2+json",
/// }));
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
pub fn version_extension(config: &VersionConfig, version: ApiVersion) -> serde_json::Value {
    let mut ext = serde_json::Map::new();
    ext.insert("version".into(), json!(version.short().to_string()));
    ext.insert(
        "default".into(),
        json!(config.default_version() == Some(version)),
    );
    ext.insert(
        "deprecated".into(),
        json!(config.deprecation(version).is_some()),
    );
    if let Some(sunset) = config.sunset_date(version) {
        ext.insert("sunset".into(), json!(http_date(sunset)));
    }
    for strategy in config.strategy().flatten() {
        let (key, value) = match strategy {
            VersionStrategy::UrlPath { prefix } => (
                "pathPrefix",
                format!("{}/v{}", prefix.as_deref().unwrap_or(""), version.short()),
            ),
            VersionStrategy::Header { name } => ("header", name.clone()),
            VersionStrategy::Query { name } => ("query", name.clone()),
            VersionStrategy::MediaType { vendor } => (
                "mediaType",
                format!("application/{vendor}.v{}+json", version.short()),
            ),
            VersionStrategy::Combined(_) => continue,
        };
        ext.entry(key).or_insert(json!(value));
    }
    serde_json::Value::Object(ext)
}

/// A sentence saying how to select `version`, for descriptions.
fn selection_text(config: &VersionConfig, version: ApiVersion) -> String {
    let v = version.short();
    let ways: Vec<String> = config
        .strategy()
        .flatten()
        .into_iter()
        .filter_map(|s| match s {
            VersionStrategy::UrlPath { prefix } => Some(format!(
                "the path segment `{}/v{v}`",
                prefix.as_deref().unwrap_or("")
            )),
            VersionStrategy::Header { name } => Some(format!("the header `{name}: {v}`")),
            VersionStrategy::Query { name } => Some(format!("the query parameter `{name}={v}`")),
            VersionStrategy::MediaType { vendor } => Some(format!(
                "the media type `Accept: application/{vendor}.v{v}+json`"
            )),
            VersionStrategy::Combined(_) => None,
        })
        .collect();
    let mut text = format!("API version {v}");
    if config.default_version() == Some(version) {
        text.push_str(" (the default)");
    }
    if let Some(d) = config.deprecation(version) {
        text.push_str(", deprecated");
        if let Some(date) = d.deprecation_date() {
            text.push_str(&format!(" since {}", http_date(date)));
        }
        if let Some(sunset) = config.sunset_date(version) {
            text.push_str(&format!(", sunset {}", http_date(sunset)));
        }
    }
    if !ways.is_empty() {
        text.push_str(&format!("; selected by {}", ways.join(", or ")));
    }
    text.push('.');
    text
}

fn string_header(description: String, value: Option<String>) -> utoipa::openapi::header::Header {
    let mut schema = ObjectBuilder::new().schema_type(Type::String);
    if let Some(v) = value {
        schema = schema.enum_values(Some([v]));
    }
    HeaderBuilder::new()
        .schema(Some(schema))
        .description(Some(description))
        .build()
}

/// The response headers of `version` (spec, "Response-side operations and
/// headers"), by name.
fn version_headers(
    config: &VersionConfig,
    version: ApiVersion,
) -> Vec<(String, utoipa::openapi::header::Header)> {
    let mut out = Vec::new();
    if config.add_response_headers() {
        out.push((
            "X-API-Version".to_owned(),
            string_header(
                "The API version that served the request.".into(),
                Some(version.short().to_string()),
            ),
        ));
        if !config.advertised_versions().is_empty() {
            out.push((
                "X-API-Supported-Versions".to_owned(),
                string_header(
                    "The supported API versions, comma-and-space separated.".into(),
                    None,
                ),
            ));
        }
    }
    if let Some(d) = config.deprecation(version) {
        out.push((
            "X-API-Deprecated".to_owned(),
            string_header("The API version is deprecated.".into(), Some("true".into())),
        ));
        out.push((
            "X-API-Deprecation-Message".to_owned(),
            string_header(
                "The deprecation notice.".into(),
                Some(d.message_for(version)),
            ),
        ));
        out.push((
            "Deprecation".to_owned(),
            string_header(
                "`true`, or `@<unix-seconds>` of the deprecation date (RFC 9745).".into(),
                None,
            ),
        ));
        if config.sunset_date(version).is_some() {
            out.push((
                "Sunset".to_owned(),
                string_header(
                    "When the version stops being served (RFC 8594, IMF-fixdate).".into(),
                    None,
                ),
            ));
        }
    }
    out
}

/// Every operation of a path item (each method's and the additional ones).
pub(super) fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
        &mut item.query,
    ]
    .into_iter()
    .filter_map(Option::as_mut)
    .chain(item.additional_operations.values_mut())
}

fn add_headers(
    response: &mut RefOr<Response>,
    headers: &[(String, utoipa::openapi::header::Header)],
) {
    if let RefOr::T(response) = response {
        for (name, header) in headers {
            response
                .headers
                .entry(name.clone())
                .or_insert_with(|| RefOr::T(header.clone()));
        }
    }
}

/// Turns a document into the document of `version` under `config`:
///
/// - `info.version` is the version's short form (`3`, `2.1`) and
///   `info.description` says how to select it;
/// - every operation on a path that is not version-neutral gets the
///   [`version_parameters`], the `x-api-version` extension
///   ([`version_extension`]), a sentence on the version in its
///   description, `deprecated: true` when the version is deprecated, a 400
///   response for an invalid or unsupported version (an existing 400 keeps
///   its content and says so too), a 410 response when some version is
///   removed, and the version response headers (`X-API-Version`,
///   `X-API-Supported-Versions`, and for a deprecated version
///   `X-API-Deprecated`, `X-API-Deprecation-Message`, `Deprecation`,
///   `Sunset`) on each of its responses but the 410, which gets only
///   `X-API-Supported-Versions` (it resolved no version);
/// - operations on neutral paths are left as they are, but for the
///   extension [`x-version-neutral: true`](super::VERSION_NEUTRAL_EXTENSION),
///   which marks them.
///
/// The 400 responses `$ref` `components.schemas` `BadRequestProblem`
/// (`anyOf` `ValidationProblem` and `ProblemDetails`) and the 410 responses
/// `ProblemDetails`; the schemas of
/// [`ProblemSchemas`](super::ProblemSchemas) the document does not hold
/// yet are added to it. Feature `openapi`.
///
/// ```
/// use problem_core::openapi::document_version;
/// use problem_core::openapi::utoipa::openapi::path::{HttpMethod, OperationBuilder};
/// use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths};
/// use problem_core::version::{V1, V2, V3, VersionConfig, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::header())
///     .default_version(V3)
///     .deprecated(V2)
///     .removed(V1)
///     .neutral_path("/health")
///     .build()?;
/// let mut paths = Paths::new();
/// paths.add_path_operation("/books", vec![HttpMethod::Get], OperationBuilder::new().build());
/// paths.add_path_operation("/health", vec![HttpMethod::Get], OperationBuilder::new().build());
/// let mut doc = OpenApi::new(Info::new("catalog", ""), paths);
/// document_version(&mut doc, &config, V2);
/// let json = serde_json::to_value(&doc).unwrap();
/// assert_eq!(json["info"]["version"], "2");
/// assert_eq!(json["info"]["description"],
///     "This document describes API version 2, deprecated; selected by the header `X-API-Version: 2`.");
/// let books = &json["paths"]["/books"]["get"];
/// assert_eq!(books["deprecated"], true);
/// assert_eq!(books["parameters"][0]["name"], "X-API-Version");
/// assert_eq!(books["responses"]["410"]["description"],
///     "The requested API version was removed (with `Sunset` when one was set).");
/// assert_eq!(json["paths"]["/health"]["get"].get("parameters"), None);
/// assert_eq!(json["paths"]["/health"]["get"]["x-version-neutral"], true);
///
/// // An operation's own 400 and 410 (its problem types) also admit the
/// // version problems of those statuses.
/// use problem_core::openapi::{problem_response_with, schema_ref};
/// let op = OperationBuilder::new()
///     .response("400", problem_response_with(400, Some("Bad coupon"), schema_ref("BadCoupon")))
///     .response("410", problem_response_with(410, Some("Item gone"), schema_ref("ItemGone")))
///     .build();
/// let mut paths = Paths::new();
/// paths.add_path_operation("/items/{id}", vec![HttpMethod::Delete], op);
/// let mut doc = OpenApi::new(Info::new("shop", ""), paths);
/// document_version(&mut doc, &config, V3);
/// let json = serde_json::to_value(&doc).unwrap();
/// let responses = &json["paths"]["/items/{id}"]["delete"]["responses"];
/// for (status, own) in [("400", "BadCoupon"), ("410", "ItemGone")] {
///     assert_eq!(
///         responses[status]["content"]["application/problem+json"]["schema"]["anyOf"],
///         serde_json::json!([
///             {"$ref": format!("#/components/schemas/{own}")},
///             {"$ref": "#/components/schemas/ProblemDetails"}
///         ])
///     );
/// }
/// assert_eq!(responses["410"]["description"],
///     "Item gone Also: The requested API version was removed (with `Sunset` when one was set).");
///
/// // An operation marked version-neutral (a problem type page) is left as it is.
/// use problem_core::openapi::VERSION_NEUTRAL_EXTENSION;
/// use problem_core::openapi::utoipa::openapi::extensions::ExtensionsBuilder;
/// let page = OperationBuilder::new()
///     .extensions(Some(ExtensionsBuilder::new().add(VERSION_NEUTRAL_EXTENSION, true).build()))
///     .build();
/// let mut paths = Paths::new();
/// paths.add_path_operation("/problems/gone", vec![HttpMethod::Get], page);
/// let mut doc = OpenApi::new(Info::new("shop", ""), paths);
/// document_version(&mut doc, &config, V2);
/// let json = serde_json::to_value(&doc).unwrap();
/// let get = &json["paths"]["/problems/gone"]["get"];
/// assert_eq!((get.get("parameters"), get.get("deprecated"), get["responses"].get("400")), (None, None, None));
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
pub fn document_version(doc: &mut OpenApi, config: &VersionConfig, version: ApiVersion) {
    // The version problems' schemas, which the responses below refer to
    // (the document's own, when it has them, are kept).
    let components = doc
        .components
        .get_or_insert_with(utoipa::openapi::Components::new);
    for (name, schema) in super::ProblemSchemas::schemas() {
        components.schemas.entry(name).or_insert(schema);
    }
    doc.info.version = version.short().to_string();
    let about = format!(
        "This document describes {}",
        selection_text(config, version)
    );
    doc.info.description = Some(match doc.info.description.take() {
        Some(d) if !d.is_empty() => format!("{d}\n\n{about}"),
        _ => about,
    });
    let params = version_parameters(config, version);
    let headers = version_headers(config, version);
    let general: Vec<_> = headers
        .iter()
        .filter(|(name, _)| name == "X-API-Supported-Versions")
        .cloned()
        .collect();
    let extension = version_extension(config, version);
    let sentence = selection_text(config, version);
    let deprecated = config.deprecation(version).is_some();
    let any_removed = !config.removed_versions().is_empty();
    for (path, item) in doc.paths.paths.iter_mut() {
        if config.is_neutral(path) {
            // Left as they are, and marked so for a reader of the document.
            for op in operations_mut(item) {
                op.extensions
                    .get_or_insert_with(Default::default)
                    .insert(super::VERSION_NEUTRAL_EXTENSION.to_owned(), json!(true));
            }
            continue;
        }
        for op in operations_mut(item) {
            // A version-neutral operation (a problem type page).
            if op
                .extensions
                .as_ref()
                .is_some_and(|e| e.get(super::VERSION_NEUTRAL_EXTENSION) == Some(&json!(true)))
            {
                continue;
            }
            let list = op.parameters.get_or_insert_with(Vec::new);
            for p in &params {
                let exists = list.iter().any(|q| {
                    matches!(q, RefOr::T(q) if q.name == p.name && q.parameter_in == p.parameter_in)
                });
                if !exists {
                    list.push(RefOr::T(p.clone()));
                }
            }
            op.description = Some(match op.description.take() {
                Some(d) if !d.is_empty() => format!("{d}\n\n{sentence}"),
                _ => sentence.clone(),
            });
            if deprecated {
                op.deprecated = Some(Deprecated::True);
            }
            op.extensions
                .get_or_insert_with(Extensions::default)
                .insert("x-api-version".into(), extension.clone());
            let responses = &mut op.responses.responses;
            match responses.get_mut("400") {
                Some(RefOr::T(existing)) => {
                    existing
                        .description
                        .push_str(" Also: an invalid, missing or unsupported API version.");
                    super::problem::admit_schemas(existing, &[super::PROBLEM_DETAILS_SCHEMA], true);
                }
                Some(RefOr::Ref(_)) => {}
                None => {
                    responses.insert(
                        "400".into(),
                        RefOr::T(bad_request_response(Some(
                            "Invalid, missing or unsupported API version.",
                        ))),
                    );
                }
            }
            if any_removed {
                let removed =
                    "The requested API version was removed (with `Sunset` when one was set).";
                match responses.get_mut("410") {
                    // The operation's own 410 (a problem type's): a removed
                    // version's refusal is another document.
                    Some(RefOr::T(existing)) => {
                        existing.description.push_str(" Also: ");
                        existing.description.push_str(removed);
                        super::problem::admit_schemas(
                            existing,
                            &[super::PROBLEM_DETAILS_SCHEMA],
                            false,
                        );
                    }
                    Some(RefOr::Ref(_)) => {}
                    None => {
                        responses
                            .insert("410".into(), RefOr::T(problem_response(410, Some(removed))));
                    }
                }
            }
            for (code, response) in responses.iter_mut() {
                if code == "410" {
                    // A removed version's refusal resolved no version: only
                    // the general headers (`X-API-Supported-Versions`).
                    add_headers(response, &general);
                } else {
                    add_headers(response, &headers);
                }
            }
        }
    }
}

/// The documented versions of `config`: the advertised versions
/// (supported minus removed); when no supported versions are listed, the
/// default version alone, if any.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::documented_versions;
/// use problem_core::version::{V1, V2, V3, VersionConfig, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::header())
///     .supported_versions([V1, V2, V3])
///     .removed(V1)
///     .build()?;
/// assert_eq!(documented_versions(&config), [V2, V3]);
/// let config = VersionConfig::builder(VersionStrategy::header()).default_version(V3).build()?;
/// assert_eq!(documented_versions(&config), [V3]);
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
pub fn documented_versions(config: &VersionConfig) -> Vec<ApiVersion> {
    let advertised = config.advertised_versions();
    if advertised.is_empty() {
        config.default_version().into_iter().collect()
    } else {
        advertised.to_vec()
    }
}

struct Document {
    doc: OpenApi,
    json: Bytes,
}

/// One OpenAPI document per documented version
/// ([`documented_versions`]), each passed through [`document_version`],
/// serialized once; [`respond`](Self::respond) answers a request with the
/// document of the version it asks for.
/// Feature `openapi`.
///
/// Serve it on a version-neutral path (e.g. `/openapi.json`; a neutral
/// route ignores versions and gets no version headers): a request selects
/// a document the same ways as any other request names its version
/// (header, query parameter, media type; through the versioning middleware
/// also the path segment, `/v2/openapi.json`), and gets the default
/// version's document when it names none, or names one that has no
/// document (invalid, unsupported, removed, or named twice differently):
/// never a version problem.
///
/// ```
/// use problem_core::openapi::VersionedDocs;
/// use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths};
/// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::query())
///     .default_version(V3)
///     .supported_versions([V2, V3])
///     .deprecated(V2)
///     .build()?;
/// let docs = VersionedDocs::new(&config, |_| OpenApi::new(Info::new("catalog", ""), Paths::new()))?;
/// assert_eq!(docs.versions(), vec![V2, V3]);
/// assert_eq!(docs.document(V2).unwrap().info.version, "2");
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
#[derive(Clone)]
pub struct VersionedDocs {
    config: Arc<VersionConfig>,
    documents: Arc<BTreeMap<ApiVersion, Document>>,
    /// The version of the document a request naming no documented version
    /// gets ([`default_version`](Self::default_version)).
    default: ApiVersion,
}

impl std::fmt::Debug for VersionedDocs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionedDocs")
            .field("versions", &self.versions())
            .finish_non_exhaustive()
    }
}

/// The first local `$ref` (`#/...`) under `node` that names nothing in
/// `doc` (RFC 6901 pointers in a URI fragment, percent-encoded or not, as
/// OpenAPI's `$ref`s are). Values that are data, not schema (`example`,
/// `examples`, `default`, `enum`, `const`, `x-` extensions), are not
/// searched.
fn dangling_ref<'a>(doc: &serde_json::Value, node: &'a serde_json::Value) -> Option<&'a str> {
    const DATA: [&str; 5] = ["example", "examples", "default", "enum", "const"];
    match node {
        serde_json::Value::Object(members) => {
            members
                .iter()
                .find_map(|(key, value)| match (key.as_str(), value) {
                    ("$ref", serde_json::Value::String(target)) => {
                        let pointer = target.strip_prefix('#')?;
                        let pointer = percent_encoding::percent_decode_str(pointer)
                            .decode_utf8()
                            .ok()?;
                        doc.pointer(&pointer).is_none().then_some(target.as_str())
                    }
                    (key, _) if DATA.contains(&key) || key.starts_with("x-") => None,
                    _ => dangling_ref(doc, value),
                })
        }
        serde_json::Value::Array(items) => items.iter().find_map(|item| dangling_ref(doc, item)),
        serde_json::Value::Null
        | serde_json::Value::Bool(_)
        | serde_json::Value::Number(_)
        | serde_json::Value::String(_) => None,
    }
}

impl VersionedDocs {
    /// Builds the document of every documented version with `build`, then
    /// applies [`document_version`].
    /// Feature `openapi`.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidOpenApi`] when there is no version to
    /// document, a document does not serialize, or a document's local
    /// `$ref` (`#/components/schemas/..`) names nothing it holds (a
    /// problem type or item schema not registered).
    ///
    /// ```
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::{Info, OpenApi, Paths};
    /// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).supported_versions([V2, V3]).build()?;
    /// let docs = VersionedDocs::new(&config, |v| {
    ///     OpenApi::new(Info::new(format!("catalog v{}", v.short()), String::new()), Paths::new())
    /// })?;
    /// assert_eq!(docs.document(V2).unwrap().info.title, "catalog v2");
    ///
    /// let err = VersionedDocs::new(&VersionConfig::builder(VersionStrategy::header()).build()?, |_| OpenApi::default()).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid OpenAPI document: no version to document: set supported_versions or default_version");
    ///
    /// // A `$ref` to a schema the document does not hold.
    /// use problem_core::openapi::{ProblemSchemas, problem_response_with, schema_ref};
    /// use problem_core::openapi::utoipa::Modify;
    /// use problem_core::openapi::utoipa::openapi::path::{HttpMethod, OperationBuilder};
    /// let err = VersionedDocs::new(&config, |_| {
    ///     let op = OperationBuilder::new()
    ///         .response("409", problem_response_with(409, None, schema_ref("DuplicateIsbn")))
    ///         .build();
    ///     let mut paths = Paths::new();
    ///     paths.add_path_operation("/books", vec![HttpMethod::Post], op);
    ///     let mut doc = OpenApi::new(Info::new("catalog", ""), paths);
    ///     ProblemSchemas.modify(&mut doc);
    ///     doc
    /// })
    /// .unwrap_err();
    /// assert!(err.to_string().starts_with(
    ///     "invalid OpenAPI document: the document of version 2 refers to `#/components/schemas/DuplicateIsbn`"
    /// ));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn new(
        config: &VersionConfig,
        mut build: impl FnMut(ApiVersion) -> OpenApi,
    ) -> Result<Self, HttpConfigError> {
        let versions = documented_versions(config);
        let Some(default) = config
            .default_version()
            .filter(|v| versions.contains(v))
            .or_else(|| versions.last().copied())
        else {
            return Err(HttpConfigError::InvalidOpenApi(
                "no version to document: set supported_versions or default_version".into(),
            ));
        };
        let mut documents = BTreeMap::new();
        for version in versions {
            let mut doc = build(version);
            document_version(&mut doc, config, version);
            let json = serde_json::to_vec(&doc)
                .map_err(|e| HttpConfigError::InvalidOpenApi(e.to_string()))?;
            let value: serde_json::Value = serde_json::from_slice(&json)
                .map_err(|e| HttpConfigError::InvalidOpenApi(e.to_string()))?;
            if let Some(target) = dangling_ref(&value, &value) {
                let hint = if target.starts_with("#/components/schemas/") {
                    "register that schema (`components(schemas(..))`)"
                } else {
                    "add it to the document"
                };
                return Err(HttpConfigError::InvalidOpenApi(format!(
                    "the document of version {} refers to `{target}`, which it does not hold: {hint}",
                    version.short()
                )));
            }
            documents.insert(
                version,
                Document {
                    doc,
                    json: Bytes::from(json),
                },
            );
        }
        Ok(Self {
            config: Arc::new(config.clone()),
            documents: Arc::new(documents),
            default,
        })
    }

    /// The documented versions, ascending.
    /// Feature `openapi`.
    ///
    /// ```
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{V1, V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([V3, V1, V2])
    ///     .removed(V1)
    ///     .build()?;
    /// let docs = VersionedDocs::new(&config, |_| OpenApi::default())?;
    /// assert_eq!(docs.versions(), [V2, V3]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn versions(&self) -> Vec<ApiVersion> {
        self.documents.keys().copied().collect()
    }

    /// The document of `version`.
    /// Feature `openapi`.
    ///
    /// ```
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).default_version(V3).build()?;
    /// let docs = VersionedDocs::new(&config, |_| OpenApi::default())?;
    /// assert_eq!(docs.document(V3).unwrap().info.version, "3");
    /// assert!(docs.document(V2).is_none());
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn document(&self, version: ApiVersion) -> Option<&OpenApi> {
        self.documents.get(&version).map(|d| &d.doc)
    }

    /// The serialized document of `version`.
    /// Feature `openapi`.
    ///
    /// ```
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).default_version(V3).build()?;
    /// let docs = VersionedDocs::new(&config, |_| OpenApi::default())?;
    /// let json: serde_json::Value = serde_json::from_slice(docs.json(V3).unwrap()).unwrap();
    /// assert_eq!(json["info"]["version"], "3");
    /// assert!(docs.json(V2).is_none());
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn json(&self, version: ApiVersion) -> Option<&Bytes> {
        self.documents.get(&version).map(|d| &d.json)
    }

    /// The version a request asks for: the one the versioning middleware
    /// resolved, else the strategy's, else
    /// [`default_version`](Self::default_version).
    /// Feature `openapi`.
    ///
    /// # Errors
    /// [`VersionError`] (400 invalid or unsupported, 410 removed), as for
    /// any versioned request; a supported version without a document is
    /// unsupported here.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{ApiVersion, V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::query())
    ///     .default_version(V3)
    ///     .supported_versions([V2, V3])
    ///     .build()?;
    /// let docs = VersionedDocs::new(&config, |_| OpenApi::default())?;
    /// let select = |uri| docs.select(&TestRequest::get().uri(uri).to_http_request());
    /// assert_eq!(select("/openapi.json?api-version=2"), Ok(V2));
    /// assert_eq!(select("/openapi.json"), Ok(V3));
    /// assert_eq!(select("/openapi.json?api-version=4").unwrap_err().to_string(), "API version 4 is not supported");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn select(&self, req: &HttpRequest) -> Result<ApiVersion, VersionError> {
        let resolved = req.extensions().get::<ApiVersion>().copied();
        let version = match resolved {
            Some(v) => v,
            None => match self.config.strategy().extract(req)? {
                Some(v) => self.config.check(v)?,
                None => self.default,
            },
        };
        if self.documents.contains_key(&version) {
            Ok(version)
        } else {
            Err(VersionError::Unsupported {
                version,
                supported: self.versions(),
            })
        }
    }

    /// Answers with a document: 200, `Content-Type: application/json`,
    /// and the `Vary` of every versioned response
    /// ([`VersionStrategy::vary`]) with `Accept` added when missing
    /// (`Vary: X-API-Version, Accept`: the document depends on those
    /// headers). The document is the one of the version the request names
    /// ([`select`](Self::select)); when it names none, or one without a
    /// document (invalid, unsupported, removed, conflicting), the default
    /// one ([`default_version`](Self::default_version)). The path is
    /// version-neutral: no version problem, no version headers.
    /// Feature `openapi`.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let config = VersionConfig::builder(VersionStrategy::header()).supported_versions([V2, V3]).build().unwrap();
    /// let docs = VersionedDocs::new(&config, |_| OpenApi::default()).unwrap();
    /// let version_of = |value: &str| {
    ///     let res = docs.respond(&TestRequest::get().insert_header(("X-API-Version", value)).to_http_request());
    ///     assert_eq!(res.status(), 200);
    ///     assert_eq!(res.headers().get("content-type").unwrap(), "application/json");
    ///     assert_eq!(res.headers().get("vary").unwrap(), "X-API-Version, Accept");
    ///     assert!(res.headers().get("x-api-supported-versions").is_none());
    ///     async move {
    ///         let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    ///         serde_json::from_slice::<serde_json::Value>(&body).unwrap()["info"]["version"].clone()
    ///     }
    /// };
    /// assert_eq!(version_of("2").await, "2");
    /// // Not a documented version: the default document (the newest here).
    /// assert_eq!(version_of("7").await, "3");
    /// assert_eq!(version_of("x").await, "3");
    /// # });
    /// ```
    pub fn respond(&self, req: &HttpRequest) -> HttpResponse {
        let version = self.select(req).unwrap_or(self.default);
        let body = self
            .json(version)
            .or_else(|| self.json(self.default))
            .cloned()
            .unwrap_or_default();
        let mut res = HttpResponse::Ok()
            .insert_header((
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ))
            .body(body);
        if let Some(v) = self.vary() {
            res.headers_mut().insert(header::VARY, v);
        }
        res
    }

    /// The version whose document a request that names no documented
    /// version gets: the configuration's default version when it is
    /// documented, else the newest documented one.
    /// Feature `openapi`.
    ///
    /// ```
    /// use problem_core::openapi::VersionedDocs;
    /// use problem_core::openapi::utoipa::openapi::OpenApi;
    /// use problem_core::version::{V2, V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).supported_versions([V2, V3]).build()?;
    /// assert_eq!(VersionedDocs::new(&config, |_| OpenApi::default())?.default_version(), V3);
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([V2, V3])
    ///     .default_version(V2)
    ///     .build()?;
    /// assert_eq!(VersionedDocs::new(&config, |_| OpenApi::default())?.default_version(), V2);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn default_version(&self) -> ApiVersion {
        self.default
    }

    /// The `Vary` of [`respond`](Self::respond)'s answers: the strategy's
    /// ([`VersionStrategy::vary`], as on every versioned response), with
    /// `Accept` after it when the strategy does not read `Accept`.
    fn vary(&self) -> Option<HeaderValue> {
        let Some(strategy) = self.config.strategy().vary() else {
            return Some(HeaderValue::from_static("Accept"));
        };
        let text = strategy.to_str().ok()?;
        if text
            .split(',')
            .any(|n| n.trim().eq_ignore_ascii_case("accept"))
        {
            Some(strategy)
        } else {
            HeaderValue::from_str(&format!("{text}, Accept")).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dangling_ref;
    use serde_json::json;

    #[test]
    fn dangling_refs_are_local_schema_refs_to_nothing() {
        let doc = json!({
            "components": {"schemas": {"A B": {}, "a/b": {}}},
            "paths": {"/x": {"get": {"responses": {
                "200": {"content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/A%20B"},
                    "example": {"$ref": "#/not/a/reference"}
                }}},
                "201": {"$ref": "other.json#/components/responses/Gone"},
                "202": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/a~1b"}}}},
                "203": {"x-note": {"$ref": "#/nowhere"}, "description": "", "default": {"$ref": "#/nowhere"}}
            }}}}
        });
        assert_eq!(dangling_ref(&doc, &doc), None);
        let doc =
            json!({"components": {"schemas": {}}, "schema": {"$ref": "#/components/schemas/Gone"}});
        assert_eq!(dangling_ref(&doc, &doc), Some("#/components/schemas/Gone"));
    }
}
