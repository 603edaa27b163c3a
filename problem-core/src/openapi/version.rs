//! One OpenAPI document per API version (spec, "Versioning"; the crate's design rules,
//! "Versioning"): the version header, query parameter, media type and path
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
///   `Sunset`) on each of its responses;
/// - operations on neutral paths are left as they are.
///
/// The 400 and 410 responses `$ref` `components.schemas`
/// `ProblemDetails`/`ValidationProblem`
/// ([`ProblemSchemas`](super::ProblemSchemas)).
pub fn document_version(doc: &mut OpenApi, config: &VersionConfig, version: ApiVersion) {
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
    let extension = version_extension(config, version);
    let sentence = selection_text(config, version);
    let deprecated = config.deprecation(version).is_some();
    let any_removed = !config.removed_versions().is_empty();
    for (path, item) in doc.paths.paths.iter_mut() {
        if config.is_neutral(path) {
            continue;
        }
        for op in operations_mut(item) {
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
                responses.entry("410".into()).or_insert_with(|| {
                    RefOr::T(problem_response(
                        410,
                        Some("The requested API version was removed (with `Sunset` when one was set)."),
                    ))
                });
            }
            for response in responses.values_mut() {
                add_headers(response, &headers);
            }
        }
    }
}

/// The documented versions of `config`: the advertised versions
/// (supported minus removed); when no supported versions are listed, the
/// default version alone, if any.
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
///
/// Serve it on a version-neutral path (e.g. `/openapi.json`): a request
/// selects the version the same ways as any other request (header, query
/// parameter, media type; through the versioning middleware also the path
/// segment, `/v2/openapi.json`), and gets the default version's document
/// when it names none.
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
}

impl std::fmt::Debug for VersionedDocs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionedDocs")
            .field("versions", &self.versions())
            .finish_non_exhaustive()
    }
}

impl VersionedDocs {
    /// Builds the document of every documented version with `build`, then
    /// applies [`document_version`].
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidOpenApi`] when there is no version to
    /// document or a document does not serialize.
    pub fn new(
        config: &VersionConfig,
        mut build: impl FnMut(ApiVersion) -> OpenApi,
    ) -> Result<Self, HttpConfigError> {
        let versions = documented_versions(config);
        if versions.is_empty() {
            return Err(HttpConfigError::InvalidOpenApi(
                "no version to document: set supported_versions or default_version".into(),
            ));
        }
        let mut documents = BTreeMap::new();
        for version in versions {
            let mut doc = build(version);
            document_version(&mut doc, config, version);
            let json = serde_json::to_vec(&doc)
                .map_err(|e| HttpConfigError::InvalidOpenApi(e.to_string()))?;
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
        })
    }

    /// The documented versions, ascending.
    pub fn versions(&self) -> Vec<ApiVersion> {
        self.documents.keys().copied().collect()
    }

    /// The document of `version`.
    pub fn document(&self, version: ApiVersion) -> Option<&OpenApi> {
        self.documents.get(&version).map(|d| &d.doc)
    }

    /// The serialized document of `version`.
    pub fn json(&self, version: ApiVersion) -> Option<&Bytes> {
        self.documents.get(&version).map(|d| &d.json)
    }

    /// The version a request asks for: the one the versioning middleware
    /// resolved, else the strategy's, else the default version (else the
    /// latest documented one).
    ///
    /// # Errors
    /// [`VersionError`] (400 invalid or unsupported, 410 removed), as for
    /// any versioned request; a supported version without a document is
    /// unsupported here.
    pub fn select(&self, req: &HttpRequest) -> Result<ApiVersion, VersionError> {
        let resolved = req.extensions().get::<ApiVersion>().copied();
        let version = match resolved {
            Some(v) => v,
            None => match self.config.strategy().extract(req)? {
                Some(v) => self.config.check(v)?,
                None => match self.config.default_version() {
                    Some(v) => v,
                    None => self
                        .versions()
                        .last()
                        .copied()
                        .ok_or(VersionError::Missing)?,
                },
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

    /// Answers with the selected version's document: 200,
    /// `Content-Type: application/json`, `Vary: Accept, <version header>`.
    ///
    /// # Errors
    /// The [`VersionError`] of [`select`](Self::select), as a problem.
    pub fn respond(&self, req: &HttpRequest) -> Result<HttpResponse, actix_web::Error> {
        let version = self.select(req)?;
        let body = self.json(version).cloned().ok_or(VersionError::Missing)?;
        let mut res = HttpResponse::Ok()
            .insert_header((
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ))
            .body(body);
        let vary: Vec<&str> = std::iter::once("Accept")
            .chain(
                self.config
                    .strategy()
                    .flatten()
                    .into_iter()
                    .filter_map(|s| match s {
                        VersionStrategy::Header { name } => Some(name.as_str()),
                        VersionStrategy::UrlPath { .. }
                        | VersionStrategy::Query { .. }
                        | VersionStrategy::MediaType { .. }
                        | VersionStrategy::Combined(_) => None,
                    }),
            )
            .collect();
        if let Ok(v) = HeaderValue::from_str(&vary.join(", ")) {
            res.headers_mut().insert(header::VARY, v);
        }
        Ok(res)
    }
}
