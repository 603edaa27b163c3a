//! Where a request carries its API version (spec, "Strategies" and
//! "Request-side operations").

use std::borrow::Cow;

use actix_web::HttpRequest;
use actix_web::dev::RequestHead;
use actix_web::http::header::{ACCEPT, HeaderName, HeaderValue};

use super::api_version::{ApiVersion, clip, parse_bytes};
use super::error::VersionError;
use crate::config::HttpConfigError;
use crate::query::form_decode;

pub use crate::spec::{DEFAULT_VERSION_HEADER, DEFAULT_VERSION_QUERY};

/// Where the version is read from a request (spec, "Strategies").
///
/// | Strategy | Reads | Example |
/// |---|---|---|
/// | [`UrlPath`](Self::UrlPath) | the first path segment after the optional prefix, `v<N>` | `/v1/users`, `/api/v2.1/users` |
/// | [`Header`](Self::Header) | a request header, default `X-API-Version` | `X-API-Version: 2` |
/// | [`Query`](Self::Query) | a query parameter, default `api-version` | `/users?api-version=2` |
/// | [`MediaType`](Self::MediaType) | `Accept: application/vnd.<name>.v<N>+json` | `Accept: application/vnd.catalog.v2+json` |
/// | [`Combined`](Self::Combined) | the strategies in order; the first that carries a version wins | default order: path, header, query |
///
/// A source *carries* a version when:
///
/// - URL path: the segment after the prefix is `v` or `V` followed by an
///   ASCII digit (`/v1`, `/v2.1`, `/v1.2.3`); `/videos` or `/v` carry none.
///   Without a prefix the segment is the first one; with prefix `/api` the
///   path must start with the segment `/api`.
/// - Header: the header is present, even empty. Several field lines mean
///   what one line of their values joined by `, ` means (RFC 9110 §5.3):
///   a list of one version repeated (`2, 2`, or two lines `2`; empty
///   members ignored, `2,`) is that version; a list of different texts (`2, 2.0`, or the lines `2` and
///   `2.0`) is the malformed version `"2, 2.0"` ([`VersionError::Invalid`]).
/// - Query: the parameter is present, even empty (`?api-version=`). The
///   raw query is decoded with `form_urlencoded`. Repeated, every value is
///   parsed: the same value repeated is that version, different values
///   (even `2` and `2.0`, as for header lines) are
///   [`VersionError::Conflicting`] (the 400 issue `conflicting_parameters`,
///   the rule for every repeated query parameter), a malformed one is
///   [`VersionError::Invalid`].
/// - Media type: an `Accept` entry (over every `Accept` header, entries
///   separated by commas, media types compared case-insensitively, params
///   such as `;q=0.9` allowed) is `application/vnd.<name>.v…+json`. When
///   several entries carry one, the one with the highest `q` wins (the first
///   on ties); entries with `q=0` are ignored; a `q` that does not parse
///   counts as `1`.
///
/// A carried value that does not parse as an [`ApiVersion`] is
/// [`VersionError::Invalid`] (400), never skipped (an `Accept` entry with
/// `q=0` carries nothing, however it is written). In a combined strategy
/// every source is read: the first that carries a well-formed version
/// wins (later ones naming another version are ignored), but a malformed
/// value in any source present, before or after the winning one, is the
/// [`VersionError::Invalid`] of the first malformed source, so a request is
/// never answered in one version while it also names an unreadable one
/// (RFC 9110 §15.5.1, 400 Bad Request).
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{ApiVersion, VersionStrategy};
///
/// let strategy = VersionStrategy::default(); // path, then header, then query
/// let req = TestRequest::get()
///     .uri("/v2/books?api-version=3")
///     .insert_header(("X-API-Version", "1"))
///     .to_http_request();
/// assert_eq!(strategy.extract(&req), Ok(Some(ApiVersion::V2)));
///
/// let accept = VersionStrategy::media_type("vnd.catalog");
/// let req = TestRequest::get()
///     .insert_header(("Accept", "text/html, application/vnd.catalog.v3+json;q=0.9"))
///     .to_http_request();
/// assert_eq!(accept.extract(&req), Ok(Some(ApiVersion::V3)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionStrategy {
    /// The first path segment after `prefix`: `v<N>`.
    UrlPath {
        /// A path prefix before the version segment (`/api` gives
        /// `/api/v1/users`), or `None`.
        prefix: Option<String>,
    },
    /// A request header.
    Header {
        /// The header name, e.g. `X-API-Version`.
        name: String,
    },
    /// A query parameter.
    Query {
        /// The parameter name, e.g. `api-version`.
        name: String,
    },
    /// The `Accept` header, `application/<vendor>.v<N>+json`.
    MediaType {
        /// The vendor part, `vnd.<name>` (e.g. `vnd.catalog`).
        vendor: String,
    },
    /// Several strategies, tried in order.
    Combined(Vec<VersionStrategy>),
}

impl Default for VersionStrategy {
    /// The combined strategy in the spec's default order: URL path (no
    /// prefix), header `X-API-Version`, query parameter `api-version`.
    fn default() -> Self {
        Self::Combined(vec![Self::url_path(), Self::header(), Self::query()])
    }
}

impl VersionStrategy {
    /// The URL-path strategy without a prefix: `/v1/users`. The segment is
    /// read as actix-web's router reads the path, its escapes decoded (RFC
    /// 3986 §6.2.2.2): `/v%32/users` is version 2.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::url_path();
    /// assert_eq!(s.extract(&TestRequest::get().uri("/v2.1/books").to_http_request()), Ok(Some(ApiVersion::new(2, 1))));
    /// assert_eq!(s.extract(&TestRequest::get().uri("/v%32/books").to_http_request()), Ok(Some(ApiVersion::V2)));
    /// assert_eq!(s.extract(&TestRequest::get().uri("/videos").to_http_request()), Ok(None));
    /// ```
    pub fn url_path() -> Self {
        Self::UrlPath { prefix: None }
    }

    /// The URL-path strategy with a prefix: `/api` gives `/api/v1/users`.
    /// A trailing `/` is dropped and a missing leading `/` added; an empty
    /// prefix (or `/`) means none.
    ///
    /// ```
    /// use problem_core::version::VersionStrategy;
    /// assert_eq!(
    ///     VersionStrategy::url_path_with_prefix("api/"),
    ///     VersionStrategy::UrlPath { prefix: Some("/api".into()) }
    /// );
    /// ```
    pub fn url_path_with_prefix(prefix: impl Into<String>) -> Self {
        let prefix = prefix.into();
        let trimmed = prefix.trim_end_matches('/');
        let prefix = if trimmed.is_empty() {
            None
        } else if trimmed.starts_with('/') {
            Some(trimmed.to_owned())
        } else {
            Some(format!("/{trimmed}"))
        };
        Self::UrlPath { prefix }
    }

    /// The header strategy with `X-API-Version`.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::header();
    /// assert_eq!(s, VersionStrategy::Header { name: "X-API-Version".into() });
    /// let req = TestRequest::get().insert_header(("X-API-Version", "3")).to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::V3)));
    /// ```
    pub fn header() -> Self {
        Self::header_named(DEFAULT_VERSION_HEADER)
    }

    /// The header strategy with any header name (checked by
    /// [`VersionConfigBuilder::build`](super::VersionConfigBuilder::build):
    /// a valid header name, and not one of HTTP's own request headers such
    /// as `Accept`, `Host` or `Authorization`, which clients send with
    /// their own meaning).
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::header_named("Api-Version");
    /// let req = TestRequest::get().insert_header(("api-version", "v2")).to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::V2)));
    /// let req = TestRequest::get().insert_header(("X-API-Version", "2")).to_http_request();
    /// assert_eq!(s.extract(&req), Ok(None));
    ///
    /// use problem_core::version::VersionConfig;
    /// let err = VersionConfig::builder(VersionStrategy::header_named("accept")).build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid version configuration: version header name \"accept\" is HTTP's own `Accept` header, which every client sends with its own meaning: choose another, such as \"X-API-Version\""
    /// );
    /// ```
    pub fn header_named(name: impl Into<String>) -> Self {
        Self::Header { name: name.into() }
    }

    /// The query strategy with `api-version`.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::query();
    /// assert_eq!(s, VersionStrategy::Query { name: "api-version".into() });
    /// let req = TestRequest::get().uri("/books?api-version=2").to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::V2)));
    /// ```
    pub fn query() -> Self {
        Self::query_named(DEFAULT_VERSION_QUERY)
    }

    /// The query strategy with any parameter name.
    ///
    /// The `Collection` extractor never reads the parameter of the
    /// [`Versioning`](super::Versioning) that resolved the request as a
    /// filter, whatever its name. A query parsed by hand
    /// (`TypedQuery::from_query_str`) ignores only its configuration's
    /// names: list it there
    /// (`QueryConfig::default().ignore_parameters(["api-version", "v"])`).
    ///
    /// # Errors (at build)
    /// An empty name, or the name of a collection query parameter
    /// (`page`, `per_page`, `limit`, `cursor`, `sort`, `q`, `search`,
    /// `search_fields`, `fields`, `exclude`), which a listing would read
    /// both ways: [`HttpConfigError::InvalidVersionConfig`](crate::HttpConfigError::InvalidVersionConfig)
    /// from [`VersionConfigBuilder::build`](super::VersionConfigBuilder::build).
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::query_named("v");
    /// let req = TestRequest::get().uri("/books?v=3.1").to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::new(3, 1))));
    /// let req = TestRequest::get().uri("/books?api-version=3").to_http_request();
    /// assert_eq!(s.extract(&req), Ok(None));
    /// ```
    pub fn query_named(name: impl Into<String>) -> Self {
        Self::Query { name: name.into() }
    }

    /// The media-type strategy for the vendor part `vnd.<name>`: pass
    /// `"vnd.catalog"` (or just `"catalog"`, to which `vnd.` is added) for
    /// `Accept: application/vnd.catalog.v2+json`.
    ///
    /// The vendor holds no `+`: the strategy writes `.v<N>+json` after it,
    /// so `"vnd.catalog+json"` is refused when the configuration is built
    /// ([`HttpConfigError::InvalidVersionConfig`](crate::HttpConfigError::InvalidVersionConfig)).
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// assert_eq!(VersionStrategy::media_type("catalog"), VersionStrategy::media_type("vnd.catalog"));
    /// let err = VersionConfig::builder(VersionStrategy::media_type("vnd.catalog+json")).build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     r#"invalid version configuration: media type vendor "vnd.catalog+json" holds a `+`: the strategy adds the version and the suffix itself (application/vnd.catalog.v2+json), so write "vnd.catalog""#
    /// );
    /// ```
    pub fn media_type(vendor: impl Into<String>) -> Self {
        let vendor = vendor.into();
        let vendor = if vendor.to_ascii_lowercase().starts_with("vnd.") {
            vendor
        } else {
            format!("vnd.{vendor}")
        };
        Self::MediaType { vendor }
    }

    /// The strategies tried in the given order.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::combined([VersionStrategy::header(), VersionStrategy::query()]);
    /// let req = TestRequest::get()
    ///     .uri("/books?api-version=1")
    ///     .insert_header(("X-API-Version", "2"))
    ///     .to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::V2)));
    /// let req = TestRequest::get().uri("/books?api-version=1").to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::V1)));
    /// ```
    pub fn combined(strategies: impl IntoIterator<Item = VersionStrategy>) -> Self {
        Self::Combined(strategies.into_iter().collect())
    }

    /// The version the request carries by this strategy: `Ok(None)` when it
    /// carries none, [`VersionError::Invalid`] when the carried value is
    /// malformed, and with the query strategy
    /// [`VersionError::Conflicting`] for a parameter repeated with
    /// different values and [`VersionError::NulCharacter`] for a value
    /// holding U+0000. Never any other error. A URL version segment is read
    /// from the path as received ([`OriginalPath`](crate::routing::OriginalPath),
    /// when the versioning middleware removed the segment before routing).
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionStrategy};
    ///
    /// let s = VersionStrategy::combined([VersionStrategy::url_path(), VersionStrategy::header()]);
    /// let req = TestRequest::get().uri("/v2/books").to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::new(2, 0))));
    /// let req = TestRequest::get().uri("/books").insert_header(("X-API-Version", "v3")).to_http_request();
    /// assert_eq!(s.extract(&req), Ok(Some(ApiVersion::new(3, 0))));
    /// ```
    pub fn extract(&self, req: &HttpRequest) -> Result<Option<ApiVersion>, VersionError> {
        match actix_web::HttpMessage::extensions(req).get::<crate::routing::OriginalPath>() {
            Some(original) => first_carried(self.flatten().into_iter().map(|s| match s {
                Self::UrlPath { prefix } => from_path_str(&original.0, prefix.as_deref()),
                Self::Header { .. }
                | Self::Query { .. }
                | Self::MediaType { .. }
                | Self::Combined(_) => s.carried(req.head(), None),
            })),
            None => self.extract_head(req.head()),
        }
    }

    pub(crate) fn extract_head(
        &self,
        head: &RequestHead,
    ) -> Result<Option<ApiVersion>, VersionError> {
        first_carried(self.flatten().into_iter().map(|s| s.carried(head, None)))
    }

    /// The strategy flattened: its sources in order, every combination
    /// replaced by its members (an empty combination stays, and carries
    /// nothing). The one flattener of the strategy: extraction, `Vary`,
    /// the path rewriting, validation and the OpenAPI documents all read
    /// it, so a new kind of source is one more arm in each of their
    /// matches, pointed at by the compiler.
    pub(crate) fn flatten(&self) -> Vec<&VersionStrategy> {
        fn walk<'s>(strategy: &'s VersionStrategy, out: &mut Vec<&'s VersionStrategy>) {
            match strategy {
                VersionStrategy::Combined(list) if !list.is_empty() => {
                    for s in list {
                        walk(s, out);
                    }
                }
                VersionStrategy::UrlPath { .. }
                | VersionStrategy::Header { .. }
                | VersionStrategy::Query { .. }
                | VersionStrategy::MediaType { .. }
                | VersionStrategy::Combined(_) => out.push(strategy),
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// The version one flattened source carries; `header`: its header
    /// name, parsed once (else the name is looked up as text).
    fn carried(
        &self,
        head: &RequestHead,
        header: Option<&HeaderName>,
    ) -> Result<Option<ApiVersion>, VersionError> {
        match self {
            Self::UrlPath { prefix } => from_path(head, prefix.as_deref()),
            Self::Header { name } => from_header(match header {
                Some(parsed) => head.headers.get_all(parsed),
                None => head.headers.get_all(name.as_str()),
            }),
            Self::Query { name } => from_query(head, name),
            Self::MediaType { vendor } => from_media_type(head, vendor),
            // Flattened, only an empty combination is left: it carries nothing.
            Self::Combined(_) => Ok(None),
        }
    }

    /// Checks the strategy (spec, "Configuration errors"): a URL-path
    /// prefix starts with `/` and has no `?`, `#` or white space; a header
    /// name is a valid field name (RFC 9110 §5.1); a query parameter name
    /// is not empty; a media-type vendor is `vnd.<name>` of token
    /// characters (RFC 9110 §5.6.2); a combination names at least one
    /// strategy.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidVersionConfig`] naming the first mistake,
    /// in strategy order.
    pub(crate) fn validate(&self) -> Result<(), HttpConfigError> {
        let fail = |m: String| Err(HttpConfigError::InvalidVersionConfig(m));
        for source in self.flatten() {
            match source {
                Self::UrlPath { prefix: Some(p) } => {
                    if !p.starts_with('/')
                        || p.contains(['?', '#'])
                        || p.contains(char::is_whitespace)
                    {
                        return fail(format!(
                            "URL path prefix {p:?} must start with '/' and contain no '?', '#' or whitespace"
                        ));
                    }
                }
                Self::UrlPath { prefix: None } => {}
                Self::Header { name } => {
                    if HeaderName::try_from(name.as_str()).is_err() {
                        return fail(format!(
                            "version header name {name:?} is not a valid header name"
                        ));
                    }
                    if let Some(taken) = HTTP_REQUEST_HEADERS
                        .iter()
                        .find(|h| h.eq_ignore_ascii_case(name))
                    {
                        return fail(format!(
                            "version header name {name:?} is HTTP's own `{taken}` header, which every client sends with its own meaning: choose another, such as {DEFAULT_VERSION_HEADER:?}"
                        ));
                    }
                }
                Self::Query { name } => {
                    if name.is_empty() {
                        return fail("version query parameter name is empty".to_owned());
                    }
                    if crate::query::is_reserved(name) {
                        return fail(format!(
                            "version query parameter name {name:?} is a collection query parameter (one of {}): choose another, such as {DEFAULT_VERSION_QUERY:?}",
                            crate::query::RESERVED_PARAMETERS.join(", ")
                        ));
                    }
                }
                Self::MediaType { vendor } => {
                    if !vendor.to_ascii_lowercase().starts_with("vnd.")
                        || !is_token(vendor)
                        || vendor.len() <= 4
                    {
                        return fail(format!(
                            "media type vendor {vendor:?} must be vnd.<name> with token characters, e.g. vnd.catalog"
                        ));
                    }
                    if let Some((name, _)) = vendor.split_once('+') {
                        return fail(format!(
                            "media type vendor {vendor:?} holds a `+`: the strategy adds the version and the suffix itself (application/{name}.v2+json), so write {name:?}"
                        ));
                    }
                }
                Self::Combined(_) => {
                    return fail("a combined strategy needs at least one strategy".to_owned());
                }
            }
        }
        Ok(())
    }

    /// The `Vary` value of responses selected by this strategy (RFC 9110
    /// §12.5.5): every request header it reads, in strategy order, each
    /// once (compared case-insensitively): the header strategy's header
    /// name, and `Accept` for the media-type strategy. `None` when it reads
    /// no header (URL path, query), or a header name is not a valid field
    /// value.
    ///
    /// ```
    /// use problem_core::version::VersionStrategy;
    /// assert_eq!(VersionStrategy::default().vary().unwrap(), "X-API-Version");
    /// assert_eq!(VersionStrategy::media_type("vnd.catalog").vary().unwrap(), "Accept");
    /// assert_eq!(VersionStrategy::url_path().vary(), None);
    /// ```
    pub fn vary(&self) -> Option<HeaderValue> {
        let mut names: Vec<&str> = Vec::new();
        for source in self.flatten() {
            let name = match source {
                Self::Header { name } => name.as_str(),
                Self::MediaType { .. } => "Accept",
                Self::UrlPath { .. } | Self::Query { .. } | Self::Combined(_) => continue,
            };
            if !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                names.push(name);
            }
        }
        if names.is_empty() {
            return None;
        }
        HeaderValue::from_str(&names.join(", ")).ok()
    }

    /// The strategy prepared for resolving requests: flattened, header
    /// names parsed once (see [`Sources`]).
    pub(crate) fn sources(&self) -> Sources {
        Sources(
            self.flatten()
                .into_iter()
                .map(|source| {
                    let header = match source {
                        Self::Header { name } => HeaderName::try_from(name.as_str()).ok(),
                        Self::UrlPath { .. }
                        | Self::Query { .. }
                        | Self::MediaType { .. }
                        | Self::Combined(_) => None,
                    };
                    (source.clone(), header)
                })
                .collect(),
        )
    }

    /// The request path with the version segment removed, when a URL-path
    /// strategy (alone or in the combination) finds one (`v` or `V` and a
    /// digit, well-formed or not): `/v2/books` gives `/books`,
    /// `/api/v2/books` gives `/api/books`, `/v2` gives `/`. Removed
    /// whichever source decided the version, so that routing never sees
    /// it. A malformed segment is stripped too: a version-neutral path
    /// under it (`/v2x/health`) ignores it, and any other path fails
    /// resolution on it (the path carrier parses the same segment).
    pub(crate) fn strip_path(&self, path: &str) -> Option<String> {
        // Depth first, the first source that strips wins: the order of
        // `flatten`, without collecting the sources on every request.
        match self {
            Self::UrlPath { prefix } => {
                let seg = path_segment(path, prefix.as_deref())?;
                let mut out = String::with_capacity(path.len());
                out.push_str(&path[..seg.start]);
                out.push_str(&path[seg.end..]);
                if out.is_empty() {
                    out.push('/');
                }
                Some(out)
            }
            Self::Combined(list) => list.iter().find_map(|s| s.strip_path(path)),
            Self::Header { .. } | Self::Query { .. } | Self::MediaType { .. } => None,
        }
    }
}

/// A [`VersionStrategy`] prepared for resolving requests: its flattened
/// sources in order (the first that carries a version wins, as in
/// [`VersionStrategy::extract`]), each with its header name parsed once,
/// not on every request.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources(Vec<(VersionStrategy, Option<HeaderName>)>);

/// Request headers with a meaning of their own in HTTP (RFC 9110, RFC
/// 9111, RFC 9112, RFC 6265, RFC 7240, RFC 7239, Fetch): a version header
/// may not take one of their names.
const HTTP_REQUEST_HEADERS: [&str; 28] = [
    "Accept",
    "Accept-Encoding",
    "Accept-Language",
    "Authorization",
    "Cache-Control",
    "Connection",
    "Content-Encoding",
    "Content-Length",
    "Content-Type",
    "Cookie",
    "Expect",
    "Forwarded",
    "Host",
    "If-Match",
    "If-Modified-Since",
    "If-None-Match",
    "If-Range",
    "If-Unmodified-Since",
    "Origin",
    "Prefer",
    "Proxy-Authorization",
    "Range",
    "Referer",
    "TE",
    "Transfer-Encoding",
    "Upgrade",
    "User-Agent",
    "Via",
];

impl Sources {
    /// The names of the query parameters that carry the version.
    pub(crate) fn query_names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|(source, _)| match source {
            VersionStrategy::Query { name } => Some(name.as_str()),
            VersionStrategy::UrlPath { .. }
            | VersionStrategy::Header { .. }
            | VersionStrategy::MediaType { .. }
            | VersionStrategy::Combined(_) => None,
        })
    }

    /// The version the request carries, as [`VersionStrategy::extract`]:
    /// every source is parsed, the first malformed one is the error, the
    /// first well-formed one the version.
    pub(crate) fn extract_head(
        &self,
        head: &RequestHead,
    ) -> Result<Option<ApiVersion>, VersionError> {
        first_carried(
            self.0
                .iter()
                .map(|(source, header)| source.carried(head, header.as_ref())),
        )
    }
}

/// The first version carried, after every source is read: the first
/// malformed one is the error (a malformed value is never skipped).
fn first_carried(
    carried: impl Iterator<Item = Result<Option<ApiVersion>, VersionError>>,
) -> Result<Option<ApiVersion>, VersionError> {
    let mut found = None;
    for c in carried {
        let c = c?;
        if found.is_none() {
            found = c;
        }
    }
    Ok(found)
}

/// Whether `s` is a non-empty token (RFC 9110 §5.6.2).
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
}

fn from_path(head: &RequestHead, prefix: Option<&str>) -> Result<Option<ApiVersion>, VersionError> {
    from_path_str(head.uri.path(), prefix)
}

fn from_path_str(path: &str, prefix: Option<&str>) -> Result<Option<ApiVersion>, VersionError> {
    match path_segment(path, prefix) {
        Some(seg) => parse_carried(&seg.text).map(Some),
        None => Ok(None),
    }
}

/// The version of a header's field lines. Several lines mean what one
/// line of their values joined by `, ` means (RFC 9110 §5.3), a list and
/// so a malformed version, unless every line is the same.
fn from_header<'v>(
    mut lines: impl Iterator<Item = &'v HeaderValue>,
) -> Result<Option<ApiVersion>, VersionError> {
    let Some(value) = lines.next() else {
        return Ok(None);
    };
    let others: Vec<&HeaderValue> = lines.collect();
    if others.iter().any(|other| *other != value) {
        let mut joined = header_text(value).into_owned();
        for other in others {
            joined.push_str(", ");
            joined.push_str(&header_text(other));
        }
        return parse_header_list(&joined).map(Some);
    }
    // A well-formed version is ASCII: parsed from the bytes as they are;
    // the text is read only to report a malformed one.
    match parse_bytes(value.as_bytes()) {
        Ok(version) => Ok(Some(version)),
        Err(_) => parse_header_list(&header_text(value)).map(Some),
    }
}

/// A header's version from its text, one line or several joined by `, `:
/// a list whose members are all the same text (`2, 2`) is that version,
/// as identical lines are; empty members are ignored (`2,` is `2`; RFC
/// 9110 §5.6.1); any other list is the malformed version it spells.
fn parse_header_list(text: &str) -> Result<ApiVersion, VersionError> {
    let mut members = text
        .split(',')
        .map(|m| m.trim_matches([' ', '\t']))
        .filter(|m| !m.is_empty());
    if let Some(first) = members.next()
        && text.contains(',')
        && members.all(|m| m == first)
        && let Ok(version) = first.parse()
    {
        return Ok(version);
    }
    parse_carried(text)
}

/// The version of the query parameter `name`. Repeated, every value is
/// parsed (a malformed one is [`VersionError::Invalid`]) and they must be
/// the same text, else [`VersionError::Conflicting`] (the crate's rule for
/// repeated query parameters).
fn from_query(head: &RequestHead, name: &str) -> Result<Option<ApiVersion>, VersionError> {
    let Some(query) = head.uri.query() else {
        return Ok(None);
    };
    let Some((first, mut next)) = query_value_at(query, 0, name) else {
        return Ok(None);
    };
    let nul = || VersionError::NulCharacter {
        name: name.to_owned(),
    };
    if first.contains('\0') {
        return Err(nul());
    }
    let version = parse_carried(&first)?;
    let mut conflicting = false;
    while let Some((value, after)) = query_value_at(query, next, name) {
        if value.contains('\0') {
            return Err(nul());
        }
        parse_carried(&value)?;
        // Different values, even of one version (`2` and `2.0`): the rule
        // for every repeated query parameter, as for header lines.
        conflicting |= value != first;
        next = after;
    }
    if conflicting {
        return Err(VersionError::Conflicting {
            name: name.to_owned(),
        });
    }
    Ok(Some(version))
}

fn from_media_type(head: &RequestHead, vendor: &str) -> Result<Option<ApiVersion>, VersionError> {
    match accept_version(head, vendor) {
        Some(text) => parse_carried(&text).map(Some),
        None => Ok(None),
    }
}

/// A version segment: its text (`v2`) and the bytes to remove (`/v2`).
struct Segment<'a> {
    /// The segment as actix-web's router reads it: `/v%32` is `v2` (RFC
    /// 3986 §6.2.2.2), borrowed when it holds no `%`.
    text: Cow<'a, str>,
    start: usize,
    end: usize,
}

fn path_segment<'a>(path: &'a str, prefix: Option<&str>) -> Option<Segment<'a>> {
    // Without a prefix most paths are ruled out by their second byte.
    if prefix.is_none() && !matches!(path.as_bytes().get(1), Some(b'v' | b'V' | b'%')) {
        return None;
    }
    let prefix = prefix.map(|p| p.trim_end_matches('/')).unwrap_or("");
    let rest = path.strip_prefix(prefix)?;
    let start = prefix.len();
    let after_slash = rest.strip_prefix('/')?;
    let raw = after_slash.split('/').next().unwrap_or("");
    // Decoded as the router decodes the path it routes (`%2F` is not a
    // `/`, so the segment ends where the raw one does).
    let text = if raw.contains('%') {
        crate::routing::path::routed_path(raw)
    } else {
        Cow::Borrowed(raw)
    };
    // `v<digit>` starts the segment, or there is no version segment.
    let mut bytes = text.bytes();
    let carries = matches!(bytes.next(), Some(b'v' | b'V'))
        && bytes.next().is_some_and(|b| b.is_ascii_digit());
    if !carries {
        return None;
    }
    Some(Segment {
        text,
        start,
        end: start + 1 + raw.len(),
    })
}

fn header_text(value: &HeaderValue) -> Cow<'_, str> {
    match value.to_str() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(value.as_bytes()),
    }
}

#[cfg(test)]
fn query_value(query: Option<&str>, name: &str) -> Option<String> {
    query_value_at(query?, 0, name).map(|(value, _)| value)
}

/// The value of the first pair named `name` at or after byte `start` of
/// the query, and the byte offset after that pair.
fn query_value_at(query: &str, start: usize, name: &str) -> Option<(String, usize)> {
    // `form_urlencoded::parse(..).find(|(key, _)| key == name)`, without
    // decoding every pair: a raw name with no `%` and no `+` decodes to
    // itself, so it is compared as it is; only the other names, and the
    // value found, are decoded. One pass over the bytes (`&`, `=`, `%` and
    // `+` are ASCII), not `str::split`'s char searcher.
    let bytes = query.as_bytes();
    let plain_name = !name.bytes().any(|b| b == b'%' || b == b'+');
    // A key decodes to the name only when its first raw byte is the name's
    // first byte, or `%` or `+` (the only bytes that decode to others): the
    // other pairs are skipped to the next `&` (memchr) without reading
    // their key. Off for an empty name and for a name that starts with a
    // non-ASCII byte (a malformed key decodes to U+FFFD).
    let first = name.as_bytes().first().copied().filter(u8::is_ascii);
    let mut start = start;
    while start <= bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        let len = memchr::memchr(b'&', rest).unwrap_or(rest.len());
        let pair = rest.get(..len).unwrap_or_default();
        start += len + 1;
        let Some(&lead) = pair.first() else {
            continue;
        };
        if first.is_some_and(|first| lead != first && lead != b'%' && lead != b'+') {
            continue;
        }
        let mut key_end = pair.len();
        let mut escaped = false;
        for (i, &b) in pair.iter().enumerate() {
            match b {
                b'=' => {
                    key_end = i;
                    break;
                }
                b'%' | b'+' => escaped = true,
                _ => {}
            }
        }
        let raw_key = pair.get(..key_end).unwrap_or_default();
        let matches = if escaped || !plain_name {
            form_decode(raw_key) == name
        } else {
            raw_key == name.as_bytes()
        };
        if matches {
            let raw_value = pair.get(key_end + 1..).unwrap_or_default();
            return Some((form_decode(raw_value).into_owned(), start));
        }
    }
    None
}

/// The version text of the preferred `application/<vendor>.v…+json` entry
/// (highest `q`, then first), or of the first malformed one.
fn accept_version(head: &RequestHead, vendor: &str) -> Option<String> {
    let mut best: Option<(f64, String)> = None;
    // The shortest entry that carries a version:
    // `application/<vendor>.v+json` (e.g. `application/json` or `*/*` is
    // shorter, and so is a whole header of them).
    let shortest = "application/".len() + vendor.len() + ".v+json".len();
    for value in head.headers.get_all(ACCEPT) {
        if value.len() < shortest {
            continue;
        }
        let text = header_text(value);
        for entry in split_unquoted(&text, b',') {
            let mut parts = split_unquoted(entry, b';');
            let media = parts.next().unwrap_or("").trim();
            // `application/<vendor>.<version>+json`, compared without
            // regard to ASCII case and without copying the entry.
            let Some(version) = strip_prefix_ignore_case(media, "application/")
                .and_then(|rest| strip_prefix_ignore_case(rest, vendor))
                .and_then(|rest| rest.strip_prefix('.'))
                .and_then(|rest| strip_suffix_ignore_case(rest, "+json"))
            else {
                continue;
            };
            // Kept as sent: a malformed one is echoed in the problem.
            if !version.starts_with(['v', 'V']) {
                continue;
            }
            let version = version.to_owned();
            let q = parts
                .filter_map(|p| p.split_once('='))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("q"))
                .map(|(_, v)| {
                    v.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|q| (0.0..=1.0).contains(q))
                        .unwrap_or(1.0)
                })
                .unwrap_or(1.0);
            if q <= 0.0 {
                continue;
            }
            // Every entry is parsed: a malformed one is the answer, before
            // or after the preferred one.
            if version.parse::<ApiVersion>().is_err() {
                return Some(version);
            }
            if best.as_ref().is_none_or(|(best_q, _)| q > *best_q) {
                best = Some((q, version));
            }
        }
    }
    best.map(|(_, v)| v)
}

/// The pieces of `text` between the `sep` bytes that are not inside a
/// quoted string (RFC 9110 §5.6.4: `"..."`, with `\` escaping the next
/// byte), so that a comma or semicolon inside a parameter value splits
/// nothing.
fn split_unquoted(text: &str, sep: u8) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut at = 0;
    let mut quoted = false;
    std::iter::from_fn(move || {
        if start > bytes.len() {
            return None;
        }
        while let Some(&b) = bytes.get(at) {
            match b {
                b'\\' if quoted => at += 1,
                b'"' => quoted = !quoted,
                b if b == sep && !quoted => {
                    // `sep` is ASCII: both sides are on character boundaries.
                    let piece = text.get(start..at);
                    at += 1;
                    start = at;
                    return piece;
                }
                _ => {}
            }
            at += 1;
        }
        let piece = text.get(start..);
        start = bytes.len() + 1;
        piece
    })
}

/// `text` without `prefix`, compared without regard to ASCII case.
fn strip_prefix_ignore_case<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix) {
        text.get(prefix.len()..)
    } else {
        None
    }
}

/// `text` without `suffix`, compared without regard to ASCII case.
fn strip_suffix_ignore_case<'t>(text: &'t str, suffix: &str) -> Option<&'t str> {
    let cut = text.len().checked_sub(suffix.len())?;
    let tail = text.get(cut..)?;
    if tail.eq_ignore_ascii_case(suffix) {
        text.get(..cut)
    } else {
        None
    }
}

fn parse_carried(text: &str) -> Result<ApiVersion, VersionError> {
    text.parse().map_err(|source| VersionError::Invalid {
        raw: clip(text),
        source,
    })
}

/// The version the request carries by `strategy` (spec: `api_version`),
/// `None` when it carries none **or a malformed one**: use
/// [`VersionStrategy::extract`] or
/// [`VersionConfig::resolve_version`](super::VersionConfig::resolve_version)
/// to tell a malformed value (400) apart.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{api_version, ApiVersion, VersionStrategy};
/// let req = TestRequest::get().uri("/books?api-version=2.1").to_http_request();
/// assert_eq!(api_version(&req, &VersionStrategy::query()), Some(ApiVersion::new(2, 1)));
/// ```
pub fn api_version(req: &HttpRequest, strategy: &VersionStrategy) -> Option<ApiVersion> {
    strategy.extract(req).ok().flatten()
}

/// The version in the first path segment (`/v2/books`), no prefix
/// (spec: `url_version`); `None` when absent or malformed.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{url_version, ApiVersion};
/// let req = TestRequest::get().uri("/v2/books").to_http_request();
/// assert_eq!(url_version(&req), Some(ApiVersion::V2));
/// let req = TestRequest::get().uri("/videos").to_http_request();
/// assert_eq!(url_version(&req), None);
/// ```
pub fn url_version(req: &HttpRequest) -> Option<ApiVersion> {
    api_version(req, &VersionStrategy::url_path())
}

/// The version in the named header (spec: `header_version`); `None` when
/// absent or malformed.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{header_version, ApiVersion};
/// let req = TestRequest::get().insert_header(("X-API-Version", "3")).to_http_request();
/// assert_eq!(header_version(&req, "X-API-Version"), Some(ApiVersion::V3));
/// ```
pub fn header_version(req: &HttpRequest, header_name: &str) -> Option<ApiVersion> {
    api_version(req, &VersionStrategy::header_named(header_name))
}

/// The version in the named query parameter (spec: `query_version`);
/// `None` when absent or malformed.
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{query_version, ApiVersion};
/// let req = TestRequest::get().uri("/users?api-version=v1").to_http_request();
/// assert_eq!(query_version(&req, "api-version"), Some(ApiVersion::V1));
/// ```
pub fn query_version(req: &HttpRequest, param_name: &str) -> Option<ApiVersion> {
    api_version(req, &VersionStrategy::query_named(param_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn v(major: u16, minor: u16) -> ApiVersion {
        ApiVersion::new(major, minor)
    }
    fn extract(s: &VersionStrategy, req: TestRequest) -> Result<Option<ApiVersion>, VersionError> {
        s.extract(&req.to_http_request())
    }
    #[test]
    fn query_value_is_what_form_urlencoded_finds() {
        let reference = |query: &str, name: &str| {
            form_urlencoded::parse(query.as_bytes())
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        let queries = [
            "",
            "&",
            "&&api-version=2&",
            "api-version",
            "api-version=",
            "api-version=2&api-version=3",
            "page=2&per_page=10&sort=-year,title&year__gte=1990&q=rain",
            "a=1&api%2Dversion=v2.1&api-version=3",
            "api+version=1&api-version=%32",
            "x=%ZZ&api-version=%E2%82%AC+2",
            "api-version=a=b&c",
            "api-version=%FF%FE",
            "%61pi-version=4",
            "=5&api-version==6",
            "a%2Bb=7&a+b=8&%2561=9",
            "+api-version=1&%20a=2&%C3%A9t%C3%A9=3&\u{e9}t\u{e9}=4&%FFx=5&=6",
            "page=2&per_page=10&sort=-year,title&year__gte=1990&title__contains=Night&q=rain&api-version=3",
        ];
        for query in queries {
            for name in [
                "api-version",
                "api version",
                " api-version",
                "a",
                "c",
                "",
                "a+b",
                "%61",
                " a",
                "\u{e9}t\u{e9}",
                "\u{fffd}x",
                "q",
            ] {
                assert_eq!(
                    query_value(Some(query), name),
                    reference(query, name),
                    "{query:?} {name:?}"
                );
            }
        }
        assert_eq!(query_value(None, "api-version"), None);
    }

    fn invalid(raw: &str) -> Result<Option<ApiVersion>, VersionError> {
        Err(VersionError::Invalid {
            raw: raw.into(),
            source: raw.parse::<ApiVersion>().unwrap_err(),
        })
    }

    #[test]
    fn url_path() {
        let s = VersionStrategy::url_path();
        let get = |uri: &str| extract(&s, TestRequest::get().uri(uri));
        assert_eq!(get("/v1/users"), Ok(Some(v(1, 0))));
        assert_eq!(get("/V2/users/7"), Ok(Some(v(2, 0))));
        assert_eq!(get("/v2.1"), Ok(Some(v(2, 1))));
        assert_eq!(get("/v3/"), Ok(Some(v(3, 0))));
        assert_eq!(get("/users"), Ok(None));
        assert_eq!(get("/videos/v1"), Ok(None));
        assert_eq!(get("/v/users"), Ok(None));
        assert_eq!(get("/"), Ok(None));
        assert_eq!(get("/v1.2.3/users"), invalid("v1.2.3"));
        assert_eq!(get("/v99999/users"), invalid("v99999"));
        assert_eq!(get("/v1x/users"), invalid("v1x"));
    }

    #[test]
    fn url_path_with_prefix() {
        let s = VersionStrategy::url_path_with_prefix("/api");
        let get = |uri: &str| extract(&s, TestRequest::get().uri(uri));
        assert_eq!(get("/api/v1/users"), Ok(Some(v(1, 0))));
        assert_eq!(get("/api/v2"), Ok(Some(v(2, 0))));
        assert_eq!(get("/v1/users"), Ok(None));
        assert_eq!(get("/apix/v1/users"), Ok(None));
        assert_eq!(get("/api/users"), Ok(None));
        assert_eq!(get("/api"), Ok(None));
    }

    #[test]
    fn strip_path() {
        let s = VersionStrategy::url_path();
        assert_eq!(s.strip_path("/v1/users").as_deref(), Some("/users"));
        assert_eq!(s.strip_path("/v1").as_deref(), Some("/"));
        assert_eq!(s.strip_path("/v1/").as_deref(), Some("/"));
        assert_eq!(s.strip_path("/v2.1/a/b").as_deref(), Some("/a/b"));
        assert_eq!(s.strip_path("/users"), None);
        assert_eq!(s.strip_path("/v1.2.3/users").as_deref(), Some("/users"));
        assert_eq!(s.strip_path("/v2x/health").as_deref(), Some("/health"));
        assert_eq!(s.strip_path("/vx/users"), None);
        // Escapes are read as the router reads them: `%32` is `2`, `%76`
        // is `v`; `%2F` is no `/`.
        for encoded in ["/v%32/users", "/%76%32/users", "/V%32/users"] {
            assert_eq!(
                s.strip_path(encoded).as_deref(),
                Some("/users"),
                "{encoded}"
            );
        }
        assert_eq!(s.strip_path("/v%32%2Fx/users").as_deref(), Some("/users"));
        assert_eq!(s.strip_path("/%76x/users"), None);
        assert_eq!(s.strip_path("/%zz/users"), None);
        let p = VersionStrategy::url_path_with_prefix("/api");
        assert_eq!(
            p.strip_path("/api/v%32/users").as_deref(),
            Some("/api/users")
        );
        assert_eq!(p.strip_path("/api/v1/users").as_deref(), Some("/api/users"));
        assert_eq!(p.strip_path("/api/v1").as_deref(), Some("/api"));
        let h = VersionStrategy::header();
        assert_eq!(h.strip_path("/v1/users"), None);
        let c = VersionStrategy::combined([VersionStrategy::header(), VersionStrategy::url_path()]);
        assert_eq!(c.strip_path("/v1/users").as_deref(), Some("/users"));
    }

    #[test]
    fn header() {
        let s = VersionStrategy::header();
        let get = |value: &str| {
            extract(
                &s,
                TestRequest::get().insert_header(("X-API-Version", value)),
            )
        };
        assert_eq!(get("2"), Ok(Some(v(2, 0))));
        assert_eq!(get("v2.1"), Ok(Some(v(2, 1))));
        assert_eq!(get("two"), invalid("two"));
        assert_eq!(get(""), invalid(""));
        assert_eq!(extract(&s, TestRequest::get()), Ok(None));
        let lower = extract(&s, TestRequest::get().insert_header(("x-api-version", "3")));
        assert_eq!(lower, Ok(Some(v(3, 0))));
        // Several field lines mean their values on one line (RFC 9110
        // §5.3): a list, so a malformed version, unless all are the same.
        let lines = |values: &[&str]| {
            let mut req = TestRequest::get();
            for value in values {
                req = req.append_header(("X-API-Version", *value));
            }
            extract(&s, req)
        };
        assert_eq!(lines(&["3", "3"]), Ok(Some(v(3, 0))));
        assert_eq!(lines(&["3", "2"]), invalid("3, 2"));
        assert_eq!(lines(&["3", "3", "zz"]), invalid("3, 3, zz"));
        assert_eq!(get("3, 2"), invalid("3, 2"));
        // One line means what the lines do: one version repeated is it.
        assert_eq!(get("3, 3"), Ok(Some(v(3, 0))));
        assert_eq!(get("v3,\tv3 ,v3"), Ok(Some(v(3, 0))));
        assert_eq!(lines(&["3", "3, 3"]), Ok(Some(v(3, 0))));
        assert_eq!(get("3, 3.0"), invalid("3, 3.0"));
        assert_eq!(get("3,"), Ok(Some(v(3, 0))));
        assert_eq!(get(", 3, ,3"), Ok(Some(v(3, 0))));
        assert_eq!(get(", "), invalid(", "));
        assert_eq!(get("x, x"), invalid("x, x"));
        let named = VersionStrategy::header_named("Api-Version");
        assert_eq!(
            extract(
                &named,
                TestRequest::get().insert_header(("api-version", "1"))
            ),
            Ok(Some(v(1, 0)))
        );
        let bad_name = VersionStrategy::header_named("bad name");
        assert_eq!(extract(&bad_name, TestRequest::get()), Ok(None));
    }

    #[test]
    fn non_utf8_header_is_invalid_not_a_panic() {
        let s = VersionStrategy::header();
        let value = HeaderValue::from_bytes(b"\xff2").unwrap();
        let got = extract(
            &s,
            TestRequest::get().insert_header(("X-API-Version", value)),
        );
        assert!(matches!(got, Err(VersionError::Invalid { ref raw, .. }) if raw == "\u{fffd}2"));
    }

    #[test]
    fn query() {
        let s = VersionStrategy::query();
        let get = |uri: &str| extract(&s, TestRequest::get().uri(uri));
        assert_eq!(get("/users?api-version=2"), Ok(Some(v(2, 0))));
        assert_eq!(get("/users?page=2&api-version=v1.5"), Ok(Some(v(1, 5))));
        assert_eq!(get("/users?api-version=%32"), Ok(Some(v(2, 0))));
        // Repeated: one value (percent-decoded) or a conflict, even of one
        // version written twice ways; a malformed repeat is the invalid
        // version, before or after.
        assert_eq!(
            get("/users?api-version=2&api-version=%32"),
            Ok(Some(v(2, 0)))
        );
        let conflict = Err(VersionError::Conflicting {
            name: "api-version".into(),
        });
        assert_eq!(get("/users?api-version=2&api-version=v2.0"), conflict);
        assert_eq!(get("/users?api-version=1&api-version=2"), conflict);
        assert_eq!(
            get("/users?api-version=3&x=1&api-version=3&api-version=2"),
            conflict
        );
        assert_eq!(get("/users?api-version=3&api-version=zz"), invalid("zz"));
        assert_eq!(get("/users?api-version=zz&api-version=3"), invalid("zz"));
        assert_eq!(get("/users?api-version="), invalid(""));
        assert_eq!(get("/users?api-version=x"), invalid("x"));
        // A NUL (raw or percent-encoded) is the NUL issue, before the
        // version is parsed, in any repeat.
        let nul = Err(VersionError::NulCharacter {
            name: "api-version".into(),
        });
        assert_eq!(get("/users?api-version=%00"), nul);
        assert_eq!(get("/users?api-version=2%00"), nul);
        assert_eq!(get("/users?api-version=2&api-version=%002"), nul);
        assert_eq!(get("/users?version=2"), Ok(None));
        assert_eq!(get("/users"), Ok(None));
        let named = VersionStrategy::query_named("v");
        assert_eq!(
            extract(&named, TestRequest::get().uri("/u?v=3")),
            Ok(Some(v(3, 0)))
        );
    }

    #[test]
    fn media_type() {
        let s = VersionStrategy::media_type("vnd.catalog");
        let get = |accept: &str| extract(&s, TestRequest::get().insert_header(("Accept", accept)));
        assert_eq!(get("application/vnd.catalog.v2+json"), Ok(Some(v(2, 0))));
        assert_eq!(get("Application/VND.Catalog.V2.1+JSON"), Ok(Some(v(2, 1))));
        assert_eq!(
            get("text/html, application/vnd.catalog.v3+json; charset=utf-8;q=0.9, */*;q=0.1"),
            Ok(Some(v(3, 0)))
        );
        assert_eq!(
            get("application/vnd.catalog.v2+json;q=0.5, application/vnd.catalog.v3+json"),
            Ok(Some(v(3, 0)))
        );
        assert_eq!(
            get("application/vnd.catalog.v2+json, application/vnd.catalog.v3+json"),
            Ok(Some(v(2, 0)))
        );
        assert_eq!(
            get("application/vnd.catalog.v2+json;q=0, application/json"),
            Ok(None)
        );
        assert_eq!(
            get("application/vnd.catalog.v2+json;q=abc"),
            Ok(Some(v(2, 0)))
        );
        assert_eq!(get("application/json"), Ok(None));
        assert_eq!(get("application/vnd.catalog+json"), Ok(None));
        assert_eq!(get("application/vnd.catalog.hal+json"), Ok(None));
        assert_eq!(get("application/vnd.catalogue.v2+json"), Ok(None));
        assert_eq!(get("application/vnd.other.v2+json"), Ok(None));
        assert_eq!(get("application/vnd.catalog.vx+json"), invalid("vx"));
        // The malformed text is echoed as sent.
        assert_eq!(get("application/vnd.catalog.vX+json"), invalid("vX"));
        assert_eq!(get("application/vnd.catalog.V2.+json"), invalid("V2."));
        // A comma or semicolon inside a quoted parameter value splits
        // nothing (RFC 9110 §5.6.4): the only media range here is text/html.
        assert_eq!(
            get(r#"text/html;foo="a,application/vnd.catalog.v2+json;b=c""#),
            Ok(None)
        );
        assert_eq!(
            get(
                r#"text/html;foo="x\",application/vnd.catalog.vX+json", application/vnd.catalog.v2+json"#
            ),
            Ok(Some(v(2, 0)))
        );
        assert_eq!(
            get(r#"application/vnd.catalog.v3+json;ext="a;q=0", text/html"#),
            Ok(Some(v(3, 0)))
        );
        // A malformed entry is the answer, before or after a good one.
        assert_eq!(
            get("application/vnd.catalog.v3+json, application/vnd.catalog.vzz+json"),
            invalid("vzz")
        );
        assert_eq!(
            get("application/vnd.catalog.vzz+json;q=0.1, application/vnd.catalog.v3+json"),
            invalid("vzz")
        );
        // Several Accept header lines.
        let req = TestRequest::get()
            .append_header(("Accept", "text/html"))
            .append_header(("Accept", "application/vnd.catalog.v3+json"));
        assert_eq!(extract(&s, req), Ok(Some(v(3, 0))));
    }

    #[test]
    fn combined_first_source_that_carries_wins() {
        let s = VersionStrategy::default();
        let req = || {
            TestRequest::get()
                .uri("/v1/users?api-version=3")
                .insert_header(("X-API-Version", "2"))
        };
        assert_eq!(extract(&s, req()), Ok(Some(v(1, 0))));
        let req2 = TestRequest::get()
            .uri("/users?api-version=3")
            .insert_header(("X-API-Version", "2"));
        assert_eq!(extract(&s, req2), Ok(Some(v(2, 0))));
        assert_eq!(
            extract(&s, TestRequest::get().uri("/users?api-version=3")),
            Ok(Some(v(3, 0)))
        );
        assert_eq!(extract(&s, TestRequest::get().uri("/users")), Ok(None));
        // A malformed value in the first carrying source is a 400, not skipped.
        let bad = TestRequest::get()
            .uri("/users?api-version=3")
            .insert_header(("X-API-Version", "nope"));
        assert_eq!(extract(&s, bad), invalid("nope"));
        // Order is the given one.
        let q_first =
            VersionStrategy::combined([VersionStrategy::query(), VersionStrategy::header()]);
        assert_eq!(extract(&q_first, req()), Ok(Some(v(3, 0))));
    }

    #[test]
    fn request_side_functions_hide_malformed_values() {
        let req = TestRequest::get()
            .uri("/v1.2.3/users?api-version=zz")
            .insert_header(("X-API-Version", "?"))
            .to_http_request();
        assert_eq!(url_version(&req), None);
        assert_eq!(header_version(&req, "X-API-Version"), None);
        assert_eq!(query_version(&req, "api-version"), None);
        assert_eq!(api_version(&req, &VersionStrategy::default()), None);
    }

    #[test]
    fn strategy_constructors() {
        assert_eq!(
            VersionStrategy::url_path_with_prefix("/"),
            VersionStrategy::UrlPath { prefix: None }
        );
        assert_eq!(
            VersionStrategy::media_type("catalog"),
            VersionStrategy::MediaType {
                vendor: "vnd.catalog".into()
            }
        );
        assert_eq!(
            VersionStrategy::default(),
            VersionStrategy::Combined(vec![
                VersionStrategy::UrlPath { prefix: None },
                VersionStrategy::Header {
                    name: "X-API-Version".into()
                },
                VersionStrategy::Query {
                    name: "api-version".into()
                },
            ])
        );
    }
}
