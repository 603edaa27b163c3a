//! [`VersionConfig`]: the strategy, the version lifecycle and the response
//! headers (spec, "VersionConfig", "States and transitions").

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::SystemTime;

use actix_web::HttpRequest;
use actix_web::dev::RequestHead;
use actix_web::http::header::{self, HeaderMap, HeaderValue};

use super::api_version::ApiVersion;
use super::builder::VersionConfigBuilder;
use super::cache::{HeaderCache, SharedHeaders, vary_map};
use super::error::VersionError;
use super::headers::{VersionHeaders, X_API_SUPPORTED_VERSIONS, link_value, supported_value};
use super::lifecycle::{Deprecation, VersionState};
use super::strategy::{Sources, VersionStrategy};
use crate::pipeline::merge_map;

/// How the application versions its API: the strategy, the versions and
/// their lifecycle, and the response headers (spec, "VersionConfig").
///
/// Build it with [`VersionConfig::builder`]; install it with
/// [`Versioning`](super::Versioning).
///
/// | Option | Default | Meaning |
/// |---|---|---|
/// | `default_version` | none | Used when the request carries no version. |
/// | `supported_versions` | empty: every well-formed version is accepted | Other versions get 400. |
/// | `deprecated` | none | Responses of the version carry the deprecation headers. |
/// | `removed` | none | Requests for the version get 410 Gone. |
/// | `require_version` | `false` | A request without a version gets 400. |
/// | `add_response_headers` | `true` | Responses carry `X-API-Version` and `X-API-Supported-Versions`. |
/// | `neutral_path` | none | Paths that skip versioning entirely. |
///
/// Resolution ([`resolve_version`](Self::resolve_version)), in order:
///
/// 1. the strategy's version; a malformed one is
///    [`VersionError::Invalid`] (400), a repeated query parameter with
///    different values [`VersionError::Conflicting`] (400) and a query
///    value holding U+0000 [`VersionError::NulCharacter`] (400);
/// 2. none carried: [`VersionError::Missing`] (400) with
///    `require_version`, else `default_version`, else also `Missing`
///    here (there is no version to return), but the
///    [`Versioning`](super::Versioning) middleware then lets the request
///    go on without a version: the spec's resolution fails only when
///    `require_version` is set. Its response carries the general headers
///    (`X-API-Supported-Versions`) and no `X-API-Version`; a handler that
///    takes [`ApiVersion`] gets the 400 `Missing` (take
///    `Option<ApiVersion>` to serve such requests), and a `versioned![...]`
///    route its fallback, else that 400;
/// 3. a removed version: [`VersionError::Removed`] (410, with `Sunset` when
///    set) — checked before "supported";
/// 4. `supported_versions` non-empty and the version not in it:
///    [`VersionError::Unsupported`] (400, `supportedVersions`).
///
/// ```
/// use actix_web::test::TestRequest;
/// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionError, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::header())
///     .default_version(ApiVersion::V3)
///     .supported_versions([ApiVersion::V2, ApiVersion::V3])
///     .deprecated(ApiVersion::V2)
///     .removed(ApiVersion::V1)
///     .build()?;
///
/// let req = TestRequest::get().to_http_request();
/// assert_eq!(config.resolve_version(&req), Ok(ApiVersion::V3));
/// let req = TestRequest::get().insert_header(("X-API-Version", "1")).to_http_request();
/// assert_eq!(config.resolve_version(&req).unwrap_err().to_string(), "API version 1 is no longer supported");
/// let req = TestRequest::get().insert_header(("X-API-Version", "7")).to_http_request();
/// assert_eq!(config.resolve_version(&req).unwrap_err().to_string(), "API version 7 is not supported");
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VersionConfig {
    pub(super) strategy: VersionStrategy,
    pub(super) default_version: Option<ApiVersion>,
    pub(super) supported: Vec<ApiVersion>,
    pub(super) advertised: Vec<ApiVersion>,
    pub(super) deprecated: BTreeMap<ApiVersion, Deprecation>,
    pub(super) removed: BTreeMap<ApiVersion, Option<SystemTime>>,
    pub(super) require_version: bool,
    pub(super) add_response_headers: bool,
    pub(super) neutral_paths: Vec<String>,
    /// Paths version-neutral themselves but not the paths below them: a
    /// `ProblemApp`'s problem type pages.
    pub(super) neutral_pages: Vec<String>,
    /// The response headers, computed once (see [`HeaderCache`]).
    pub(super) cache: HeaderCache,
    /// The strategy prepared for resolving requests.
    pub(super) sources: Sources,
    /// `Vary` of the strategy ([`VersionStrategy::vary`]), as one header.
    pub(super) vary: Option<Arc<HeaderMap>>,
}

/// Whether a configuration built in this process reads the version from a
/// query parameter not named `api-version`: until one does, the
/// `Collection` extractor need not look up the resolving configuration
/// (the default query configuration already ignores `api-version`).
static RENAMED_QUERY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// See [`RENAMED_QUERY`].
pub(crate) fn renamed_query_in_use() -> bool {
    RENAMED_QUERY.load(std::sync::atomic::Ordering::Relaxed)
}

impl Default for VersionConfig {
    /// The default strategy (path, header, query) with the builder's
    /// defaults: no default version, every well-formed version accepted,
    /// response headers on.
    fn default() -> Self {
        Self {
            strategy: VersionStrategy::default(),
            default_version: None,
            supported: Vec::new(),
            advertised: Vec::new(),
            deprecated: BTreeMap::new(),
            removed: BTreeMap::new(),
            require_version: false,
            add_response_headers: true,
            neutral_paths: Vec::new(),
            neutral_pages: Vec::new(),
            cache: HeaderCache::default(),
            sources: VersionStrategy::default().sources(),
            vary: vary_map(&VersionStrategy::default()),
        }
    }
}

impl VersionConfig {
    /// A builder for the given strategy, with the defaults in the table
    /// above.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).build()?;
    /// assert_eq!(config.default_version(), None);
    /// assert!(config.supported_versions().is_empty());
    /// assert!(!config.require_version());
    /// assert!(config.add_response_headers());
    /// assert!(config.neutral_paths().is_empty());
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn builder(strategy: VersionStrategy) -> VersionConfigBuilder {
        VersionConfigBuilder {
            strategy,
            default_version: None,
            supported: Vec::new(),
            deprecated: BTreeMap::new(),
            removed: BTreeMap::new(),
            require_version: false,
            add_response_headers: true,
            neutral_paths: Vec::new(),
        }
    }

    /// The strategy.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::query_named("v")).build()?;
    /// assert_eq!(config.strategy(), &VersionStrategy::Query { name: "v".into() });
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn strategy(&self) -> &VersionStrategy {
        &self.strategy
    }

    /// The default version, if any.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).default_version(ApiVersion::V2).build()?;
    /// assert_eq!(config.default_version(), Some(ApiVersion::V2));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn default_version(&self) -> Option<ApiVersion> {
        self.default_version
    }

    /// The supported versions, ascending, duplicates removed (empty: every
    /// well-formed version is accepted).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V3, ApiVersion::V1, ApiVersion::V3])
    ///     .build()?;
    /// assert_eq!(config.supported_versions(), [ApiVersion::V1, ApiVersion::V3]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn supported_versions(&self) -> &[ApiVersion] {
        &self.supported
    }

    /// The versions listed in `X-API-Supported-Versions` and
    /// `supportedVersions`: the supported versions minus the removed ones,
    /// ascending.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2, ApiVersion::V3])
    ///     .removed(ApiVersion::V1)
    ///     .build()?;
    /// assert_eq!(config.supported_versions(), [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3]);
    /// assert_eq!(config.advertised_versions(), [ApiVersion::V2, ApiVersion::V3]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn advertised_versions(&self) -> &[ApiVersion] {
        &self.advertised
    }

    /// Whether a request without a version is refused.
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header()).require_version(true).build()?;
    /// assert!(config.require_version());
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn require_version(&self) -> bool {
        self.require_version
    }

    /// Whether responses carry `X-API-Version` and `X-API-Supported-Versions`.
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header()).add_response_headers(false).build()?;
    /// assert!(!config.add_response_headers());
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn add_response_headers(&self) -> bool {
        self.add_response_headers
    }

    /// The deprecation of `version`, if it is deprecated.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().message("Use v3"))
    ///     .build()?;
    /// assert_eq!(config.deprecation(ApiVersion::V2).unwrap().message_text(), Some("Use v3"));
    /// assert_eq!(config.deprecation(ApiVersion::V3), None);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn deprecation(&self, version: ApiVersion) -> Option<&Deprecation> {
        self.deprecated.get(&version)
    }

    /// Whether `version` is removed (410).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).removed(ApiVersion::V1).build()?;
    /// assert!(config.is_removed(ApiVersion::V1));
    /// assert!(!config.is_removed(ApiVersion::V2));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn is_removed(&self, version: ApiVersion) -> bool {
        self.removed.contains_key(&version)
    }

    /// The removed versions (410 Gone), ascending.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .removed(ApiVersion::V2)
    ///     .removed(ApiVersion::V1)
    ///     .build()?;
    /// assert_eq!(config.removed_versions(), [ApiVersion::V1, ApiVersion::V2]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn removed_versions(&self) -> Vec<ApiVersion> {
        self.removed.keys().copied().collect()
    }

    /// The sunset date of `version`: the one given when it was removed,
    /// else the one of its deprecation, if any.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    ///
    /// let at = |secs| UNIX_EPOCH + Duration::from_secs(secs);
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V1, Deprecation::new().sunset(at(1_830_297_599)))
    ///     .removed_with_sunset(ApiVersion::V1, at(1_767_225_600))
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().sunset(at(1_830_297_599)))
    ///     .build()?;
    /// assert_eq!(config.sunset_date(ApiVersion::V1), Some(at(1_767_225_600)));
    /// assert_eq!(config.sunset_date(ApiVersion::V2), Some(at(1_830_297_599)));
    /// assert_eq!(config.sunset_date(ApiVersion::V3), None);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn sunset_date(&self, version: ApiVersion) -> Option<SystemTime> {
        self.sunset_of(version)
    }

    /// The neutral paths (see [`VersionConfigBuilder::neutral_path`]).
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::url_path())
    ///     .neutral_path("/health/")
    ///     .neutral_path("/openapi.json")
    ///     .build()?;
    /// assert_eq!(config.neutral_paths(), ["/health", "/openapi.json"]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn neutral_paths(&self) -> &[String] {
        &self.neutral_paths
    }

    /// Whether `path` is version-neutral: equal to a neutral path, or below
    /// it (`/health` covers `/health` and `/health/live`, not `/healthz`),
    /// or the path of a problem type page a `ProblemApp` serves (that path
    /// alone: a route below it stays versioned). `path` is compared as
    /// actix-web's router matches it, percent-escapes decoded but `%25`,
    /// `%2F` and `%2B`, so every request routed to a neutral path is
    /// neutral (`/h%65alth` is `/health`).
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::url_path()).neutral_path("/health").build()?;
    /// assert!(config.is_neutral("/health"));
    /// assert!(config.is_neutral("/health/live"));
    /// assert!(config.is_neutral("/h%65alth"));
    /// assert!(!config.is_neutral("/healthz"));
    /// assert!(!config.is_neutral("/health%2Flive"));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn is_neutral(&self, path: &str) -> bool {
        if self.neutral_paths.is_empty() && self.neutral_pages.is_empty() {
            false
        } else if path.contains('%') {
            self.is_neutral_routed(&crate::routing::path::routed_path(path))
        } else {
            self.is_neutral_routed(path)
        }
    }

    /// [`Self::is_neutral`] of a path as the router matches it.
    fn is_neutral_routed(&self, path: &str) -> bool {
        self.neutral_paths.iter().any(|n| {
            n == "/"
                || path
                    .strip_prefix(n.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        }) || self.neutral_pages.iter().any(|page| page == path)
    }

    /// The names of the query parameters that carry the version (none
    /// without a query strategy).
    pub(crate) fn query_names(&self) -> impl Iterator<Item = &str> {
        self.sources.query_names()
    }

    /// Notes, for [`renamed_query_in_use`], that this configuration reads
    /// the version from a query parameter not named `api-version`.
    pub(super) fn note_renamed_query(&self) {
        if self
            .query_names()
            .any(|n| n != crate::spec::DEFAULT_VERSION_QUERY)
        {
            RENAMED_QUERY.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Makes the path of a `ProblemApp`'s problem type page, which
    /// documents the same problem type for every version, version-neutral,
    /// unless it is already; the paths below it are not (an application's
    /// `GET /orders/{id}` stays versioned beside a type `/orders`). `path`
    /// is the page's route, decoded as the router decodes request paths.
    pub(crate) fn add_neutral_page(&mut self, path: &str) {
        if !self.is_neutral_routed(path) {
            self.neutral_pages.push(path.to_owned());
        }
    }

    /// Where `version` is in its life (spec, "States and transitions").
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionState, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().message("Use v3"))
    ///     .build()?;
    /// assert_eq!(config.state(ApiVersion::V2), VersionState::Deprecated(&Deprecation::new().message("Use v3")));
    /// assert_eq!(config.state(ApiVersion::new(42, 7)), VersionState::Supported);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn state(&self, version: ApiVersion) -> VersionState<'_> {
        if self.is_removed(version) {
            VersionState::Removed
        } else if !self.supported.is_empty() && !self.supported.contains(&version) {
            VersionState::Unsupported
        } else if let Some(d) = self.deprecated.get(&version) {
            VersionState::Deprecated(d)
        } else {
            VersionState::Supported
        }
    }

    /// The request's version (spec: `config.resolve_version(request)`), in
    /// the order given above. Never panics on any request.
    ///
    /// # Errors
    /// [`VersionError`]: `Invalid`, `Conflicting`, `NulCharacter`,
    /// `Missing`, `Removed` or `Unsupported`.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::query()).default_version(ApiVersion::V1).build()?;
    /// let req = TestRequest::get().uri("/books?api-version=2.1").to_http_request();
    /// assert_eq!(config.resolve_version(&req), Ok(ApiVersion::new(2, 1)));
    /// let req = TestRequest::get().uri("/books?api-version=two").to_http_request();
    /// assert_eq!(config.resolve_version(&req).unwrap_err().to_string(), r#"Invalid API version "two""#);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn resolve_version(&self, req: &HttpRequest) -> Result<ApiVersion, VersionError> {
        self.resolve_head(req.head())
    }

    pub(crate) fn resolve_head(&self, head: &RequestHead) -> Result<ApiVersion, VersionError> {
        let carried = self.sources.extract_head(head)?;
        let version = match carried {
            Some(v) => v,
            None if self.require_version => return Err(VersionError::Missing),
            None => self.default_version.ok_or(VersionError::Missing)?,
        };
        self.check(version)
    }

    /// Checks a version against the lifecycle: removed (410), then
    /// supported (400).
    ///
    /// # Errors
    /// [`VersionError::Removed`] or [`VersionError::Unsupported`].
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionError, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2])
    ///     .removed(ApiVersion::V1)
    ///     .build()?;
    /// assert_eq!(config.check(ApiVersion::V2), Ok(ApiVersion::V2));
    /// assert_eq!(config.check(ApiVersion::V1), Err(VersionError::Removed { version: ApiVersion::V1, sunset: None }));
    /// assert_eq!(
    ///     config.check(ApiVersion::V3),
    ///     Err(VersionError::Unsupported { version: ApiVersion::V3, supported: vec![ApiVersion::V2] })
    /// );
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn check(&self, version: ApiVersion) -> Result<ApiVersion, VersionError> {
        if self.cache.accepted.binary_search(&version).is_ok() {
            return Ok(version);
        }
        self.check_slow(version)
    }

    /// [`check`](Self::check) from the configuration itself.
    pub(super) fn check_slow(&self, version: ApiVersion) -> Result<ApiVersion, VersionError> {
        match self.state(version) {
            VersionState::Removed => Err(VersionError::Removed {
                version,
                sunset: self.sunset_of(version),
            }),
            VersionState::Unsupported => Err(VersionError::Unsupported {
                version,
                supported: self.advertised.clone(),
            }),
            VersionState::Supported | VersionState::Deprecated(_) => Ok(version),
        }
    }

    /// The sunset date of a version: the removal's, else the deprecation's.
    fn sunset_of(&self, version: ApiVersion) -> Option<SystemTime> {
        self.removed
            .get(&version)
            .copied()
            .flatten()
            .or_else(|| self.deprecated.get(&version).and_then(|d| d.sunset))
    }

    /// The headers of every response for `version` (spec, "Response-side
    /// operations and headers"), as applied by
    /// [`apply_headers`](Self::apply_headers):
    ///
    /// - with `add_response_headers` (default): `X-API-Version: <v>` and,
    ///   when `supported_versions` is not empty,
    ///   `X-API-Supported-Versions: <advertised, e.g. 2, 3>`;
    /// - for a deprecated version, always (the lifecycle is driven by the
    ///   configuration alone): `X-API-Deprecated: true`,
    ///   `X-API-Deprecation-Message`, `Deprecation` (`true` or
    ///   `@<unix-seconds>`), `Sunset` with a sunset date, and `Link`
    ///   `rel="deprecation"` / `rel="sunset"` with links.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V2, ApiVersion::V3])
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().link("https://example.com/v2"))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("x-api-version").unwrap(), "2");
    /// assert_eq!(h.get("x-api-supported-versions").unwrap(), "2, 3");
    /// assert_eq!(h.get("x-api-deprecated").unwrap(), "true");
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "API version 2 is deprecated");
    /// assert_eq!(h.get("deprecation").unwrap(), "true");
    /// assert_eq!(h.get("link").unwrap(), r#"<https://example.com/v2>; rel="deprecation""#);
    /// assert_eq!(config.version_headers(ApiVersion::V3).len(), 2);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn version_headers(&self, version: ApiVersion) -> HeaderMap {
        self.headers_of(version).map().clone()
    }

    /// [`version_headers`](Self::version_headers), shared: looked up for
    /// the configured versions, computed for any other.
    pub(crate) fn headers_of(&self, version: ApiVersion) -> SharedHeaders {
        match self.cached_headers(version) {
            Some(headers) => headers.clone(),
            None => SharedHeaders::new(self.compute_version_headers(version)),
        }
    }

    /// The precomputed headers of a configured version, borrowed.
    fn cached_headers(&self, version: ApiVersion) -> Option<&SharedHeaders> {
        let versions = &self.cache.versions;
        versions
            .binary_search_by(|(v, _)| v.cmp(&version))
            .ok()
            .and_then(|i| versions.get(i))
            .map(|(_, headers)| headers)
    }

    pub(super) fn compute_version_headers(&self, version: ApiVersion) -> HeaderMap {
        let mut h = self.compute_general_headers();
        if self.add_response_headers {
            h = h.with_api_version(version);
        }
        if let Some(d) = self.deprecated.get(&version) {
            h = h.with_deprecation_warning(d.message_for(version));
            if let Some(date) = d.date {
                h = h.with_deprecation_date(date);
            }
            if let Some(sunset) = d.sunset {
                h = h.with_sunset_date(sunset);
            }
            if let Some(link) = d.link.as_deref().and_then(|l| link_value(l, "deprecation")) {
                h.append(header::LINK, link);
            }
            if let Some(link) = d
                .sunset_link
                .as_deref()
                .and_then(|l| link_value(l, "sunset"))
            {
                h.append(header::LINK, link);
            }
        }
        h
    }

    /// The `Vary` value of responses to versioned requests (RFC 9110
    /// §12.5.5): the request headers the strategy reads
    /// ([`VersionStrategy::vary`]), e.g. `X-API-Version, Accept`; `None`
    /// when it reads none (URL path, query). Added by
    /// [`Versioning::vary`](super::Versioning::vary).
    ///
    /// ```
    /// use problem_core::version::{VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::combined([
    ///     VersionStrategy::url_path(),
    ///     VersionStrategy::header(),
    ///     VersionStrategy::media_type("vnd.catalog"),
    /// ]))
    /// .build()?;
    /// assert_eq!(config.vary().unwrap(), "X-API-Version, Accept");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn vary(&self) -> Option<&HeaderValue> {
        self.vary.as_ref().and_then(|h| h.get(header::VARY))
    }

    /// [`vary`](Self::vary) as a shared one-header map (sticky headers).
    pub(crate) fn shared_vary(&self) -> Option<&Arc<HeaderMap>> {
        self.vary.as_ref()
    }

    /// The headers of responses that have no resolved version (the version
    /// problems): `X-API-Supported-Versions` with `add_response_headers`
    /// and a non-empty `supported_versions`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2, ApiVersion::V3])
    ///     .removed(ApiVersion::V1)
    ///     .build()?;
    /// let h = config.general_headers();
    /// assert_eq!(h.len(), 1);
    /// assert_eq!(h.get("x-api-supported-versions").unwrap(), "2, 3");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn general_headers(&self) -> HeaderMap {
        HeaderMap::clone(&self.cache.general)
    }

    /// [`general_headers`](Self::general_headers), shared.
    pub(crate) fn shared_general_headers(&self) -> Arc<HeaderMap> {
        self.cache.general.clone()
    }

    /// The headers of a request that goes on without a version: the
    /// general ones.
    pub(crate) fn unversioned_headers(&self) -> SharedHeaders {
        self.cache.unversioned.clone()
    }

    /// Whether a request that carries no version goes on without one:
    /// `require_version` is off and there is no `default_version`.
    pub(crate) fn version_optional(&self) -> bool {
        !self.require_version && self.default_version.is_none()
    }

    pub(super) fn compute_general_headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        if self.add_response_headers
            && let Some(value) = supported_value(&self.advertised)
        {
            h.insert(X_API_SUPPORTED_VERSIONS, value);
        }
        h
    }

    /// Applies the version headers of `version` to a response per this
    /// configuration (spec: `config.apply_headers(response, version)`; the
    /// headers of [`version_headers`](Self::version_headers)). Existing
    /// values of the same names are replaced, except `Link`, which is
    /// appended.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2, ApiVersion::V3])
    ///     .build()?;
    /// let mut res = HttpResponse::Ok().finish();
    /// config.apply_headers(&mut res, ApiVersion::V2);
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    /// assert_eq!(res.headers().get("x-api-supported-versions").unwrap(), "1, 2, 3");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn apply_headers<R: VersionHeaders>(&self, response: &mut R, version: ApiVersion) {
        match self.cached_headers(version) {
            Some(headers) => headers.merge_into(response.version_headers_mut()),
            None => merge_map(
                response.version_headers_mut(),
                &self.compute_version_headers(version),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::headers::SUNSET;
    use actix_web::http::header::HeaderValue;

    fn hv(s: &'static str) -> HeaderValue {
        HeaderValue::from_static(s)
    }
    use actix_web::test::TestRequest;
    use std::time::{Duration, UNIX_EPOCH};

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }
    fn err(b: VersionConfigBuilder) -> String {
        b.build().unwrap_err().to_string()
    }

    #[test]
    fn defaults() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .build()
            .unwrap();
        assert_eq!(c.default_version(), None);
        assert!(c.supported_versions().is_empty());
        assert!(!c.require_version());
        assert!(c.add_response_headers());
        // Every well-formed version is accepted; none carried and no default is Missing.
        let req = TestRequest::get()
            .insert_header(("X-API-Version", "42.7"))
            .to_http_request();
        assert_eq!(c.resolve_version(&req), Ok(ApiVersion::new(42, 7)));
        let req = TestRequest::get().to_http_request();
        assert_eq!(c.resolve_version(&req), Err(VersionError::Missing));
    }

    #[test]
    fn build_checks() {
        let b = || VersionConfig::builder(VersionStrategy::header());
        assert_eq!(
            err(b()
                .supported_versions([ApiVersion::V2, ApiVersion::V3])
                .default_version(ApiVersion::V1)),
            "invalid version configuration: default_version 1.0 is not one of supported_versions (2.0, 3.0)"
        );
        assert_eq!(
            err(b().default_version(ApiVersion::V1).removed(ApiVersion::V1)),
            "invalid version configuration: default_version 1.0 is removed"
        );
        assert_eq!(
            err(b().deprecated_with(
                ApiVersion::V2,
                Deprecation::new()
                    .date(at(2_000_000_000))
                    .sunset(at(1_900_000_000))
            )),
            "invalid version configuration: the sunset date of version 2.0 (Sun, 17 Mar 2030 17:46:40 GMT) is earlier than its deprecation date (Wed, 18 May 2033 03:33:20 GMT)"
        );
        // Whole seconds, as the headers carry them: half a second before
        // the deprecation, in its second, is not earlier.
        assert!(
            b().deprecated_with(
                ApiVersion::V2,
                Deprecation::new()
                    .date(at(2_000_000_000) + Duration::from_millis(900))
                    .sunset(at(2_000_000_000) + Duration::from_millis(400))
            )
            .build()
            .is_ok()
        );
        // The 410's sunset too, in either order.
        for config in [
            b().deprecated_with(ApiVersion::V2, Deprecation::new().date(at(2_000_000_000)))
                .removed_with_sunset(ApiVersion::V2, at(1_900_000_000)),
            b().removed_with_sunset(ApiVersion::V2, at(1_900_000_000))
                .deprecated_with(ApiVersion::V2, Deprecation::new().date(at(2_000_000_000))),
        ] {
            assert_eq!(
                err(config),
                "invalid version configuration: the sunset date of version 2.0 (Sun, 17 Mar 2030 17:46:40 GMT) is earlier than its deprecation date (Wed, 18 May 2033 03:33:20 GMT)"
            );
        }
        assert_eq!(
            err(b().deprecated_with(
                ApiVersion::V2,
                Deprecation::new().sunset(UNIX_EPOCH - Duration::from_secs(1))
            )),
            "invalid version configuration: the sunset date of version 2.0 is not between 1970 and 9999, so it has no HTTP date"
        );
        assert_eq!(
            err(b().removed_with_sunset(ApiVersion::V1, at(300_000_000_000))),
            "invalid version configuration: the sunset date of version 1.0 is not between 1970 and 9999, so it has no HTTP date"
        );
        assert_eq!(
            err(b().deprecated_with(ApiVersion::V2, Deprecation::new().link(""))),
            "invalid version configuration: the deprecation link of version 2.0 is empty: give the URI of the deprecation notice, or no link"
        );
        assert_eq!(
            err(b().deprecated_with(ApiVersion::V2, Deprecation::new().link("  "))),
            "invalid version configuration: the deprecation link of version 2.0 is empty: give the URI of the deprecation notice, or no link"
        );
        assert_eq!(
            err(b().deprecated_with(ApiVersion::V2, Deprecation::new().sunset_link(""))),
            "invalid version configuration: the sunset link of version 2.0 is empty: give the URI of the sunset policy, or no link"
        );
        assert_eq!(
            err(b().deprecated_with(ApiVersion::V2, Deprecation::new().message(" "))),
            "invalid version configuration: the deprecation message of version 2.0 is empty: give the text of X-API-Deprecation-Message, or leave it out for the default \"API version 2 is deprecated\""
        );
        assert_eq!(
            err(b().neutral_path("health")),
            "invalid version configuration: neutral path \"health\" must start with '/'"
        );
        for path in ["/health?x", "/health#x"] {
            assert_eq!(
                err(b().neutral_path(path)),
                format!(
                    "invalid version configuration: neutral path {path:?} can never match a request path: write it without '?' or '#' (a path never holds them)"
                )
            );
        }
        for (path, encoded) in [
            ("/a b", "/a%20b"),
            ("/a\tb", "/a%09b"),
            ("/café", "/caf%C3%A9"),
            ("/a|b", "/a%7Cb"),
            ("/100%", "/100%25"),
        ] {
            assert_eq!(
                err(b().neutral_path(path)),
                format!(
                    "invalid version configuration: neutral path {path:?} can never match a request path: write it percent-encoded, as requests carry it: {encoded:?}"
                )
            );
        }
        assert!(b().neutral_path("/caf%C3%A9").build().is_ok());
        assert_eq!(
            err(VersionConfig::builder(VersionStrategy::header_named(
                "bad name"
            ))),
            "invalid version configuration: version header name \"bad name\" is not a valid header name"
        );
        assert_eq!(
            err(VersionConfig::builder(VersionStrategy::query_named(""))),
            "invalid version configuration: version query parameter name is empty"
        );
        assert_eq!(
            err(VersionConfig::builder(VersionStrategy::MediaType {
                vendor: "vnd.".into()
            })),
            "invalid version configuration: media type vendor \"vnd.\" must be vnd.<name> with token characters, e.g. vnd.catalog"
        );
        assert_eq!(
            err(VersionConfig::builder(VersionStrategy::combined([]))),
            "invalid version configuration: a combined strategy needs at least one strategy"
        );
        assert_eq!(
            err(VersionConfig::builder(VersionStrategy::UrlPath {
                prefix: Some("/a?b".into())
            })),
            "invalid version configuration: URL path prefix \"/a?b\" must start with '/' and contain no '?', '#' or whitespace"
        );
        // Equal dates are fine, and a removed version may stay supported.
        assert!(
            b().deprecated_with(ApiVersion::V2, Deprecation::new().date(at(5)).sunset(at(5)))
                .supported_versions([ApiVersion::V1, ApiVersion::V2])
                .removed(ApiVersion::V1)
                .build()
                .is_ok()
        );
    }

    #[test]
    fn removed_is_checked_before_supported_and_not_advertised() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .supported_versions([
                ApiVersion::V3,
                ApiVersion::V1,
                ApiVersion::V2,
                ApiVersion::V2,
            ])
            .removed(ApiVersion::V1)
            .build()
            .unwrap();
        assert_eq!(
            c.supported_versions(),
            [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3]
        );
        assert_eq!(c.advertised_versions(), [ApiVersion::V2, ApiVersion::V3]);
        assert_eq!(
            c.check(ApiVersion::V1),
            Err(VersionError::Removed {
                version: ApiVersion::V1,
                sunset: None
            })
        );
        assert_eq!(
            c.check(ApiVersion::new(9, 0)),
            Err(VersionError::Unsupported {
                version: ApiVersion::new(9, 0),
                supported: vec![ApiVersion::V2, ApiVersion::V3]
            })
        );
        assert_eq!(
            c.general_headers().get("x-api-supported-versions").unwrap(),
            hv("2, 3")
        );
    }

    #[test]
    fn removed_sunset_comes_from_removal_else_deprecation() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .deprecated_with(ApiVersion::V1, Deprecation::new().sunset(at(1_830_297_599)))
            .removed(ApiVersion::V1)
            .removed_with_sunset(ApiVersion::new(0, 9), at(0))
            .build()
            .unwrap();
        assert_eq!(
            c.check(ApiVersion::V1),
            Err(VersionError::Removed {
                version: ApiVersion::V1,
                sunset: Some(at(1_830_297_599))
            })
        );
        assert_eq!(
            c.check(ApiVersion::new(0, 9)),
            Err(VersionError::Removed {
                version: ApiVersion::new(0, 9),
                sunset: Some(at(0))
            })
        );
    }

    #[test]
    fn require_version() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .require_version(true)
            .build()
            .unwrap();
        let req = TestRequest::get().to_http_request();
        assert_eq!(c.resolve_version(&req), Err(VersionError::Missing));
    }

    #[test]
    fn deprecation_headers_with_dates_and_links() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .deprecated_with(
                ApiVersion::V2,
                Deprecation::new()
                    .message("Use v3")
                    .date(at(1_767_225_600))
                    .sunset(at(1_830_297_599))
                    .link("https://example.com/deprecation")
                    .sunset_link("https://example.com/sunset"),
            )
            .add_response_headers(false)
            .build()
            .unwrap();
        let h = c.version_headers(ApiVersion::V2);
        assert_eq!(h.get("x-api-version"), None);
        assert_eq!(h.get("x-api-deprecated").unwrap(), hv("true"));
        assert_eq!(h.get("x-api-deprecation-message").unwrap(), hv("Use v3"));
        assert_eq!(h.get("deprecation").unwrap(), hv("@1767225600"));
        assert_eq!(
            h.get("sunset").unwrap(),
            hv("Fri, 31 Dec 2027 23:59:59 GMT")
        );
        let links: Vec<_> = h.get_all("link").map(|v| v.to_str().unwrap()).collect();
        assert_eq!(
            links,
            [
                r#"<https://example.com/deprecation>; rel="deprecation""#,
                r#"<https://example.com/sunset>; rel="sunset""#
            ]
        );
        assert_eq!(h.len(), 6);
        assert!(c.version_headers(ApiVersion::V3).is_empty());
    }

    #[test]
    fn apply_headers_replaces_but_appends_links() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .deprecated_with(ApiVersion::V2, Deprecation::new().link("https://e/d"))
            .build()
            .unwrap();
        let mut res = actix_web::HttpResponse::Ok()
            .insert_header(("X-API-Version", "9"))
            .insert_header(("Link", "</books?page=2>; rel=\"next\""))
            .finish();
        c.apply_headers(&mut res, ApiVersion::V2);
        assert_eq!(res.headers().get("x-api-version").unwrap(), hv("2"));
        assert_eq!(res.headers().get_all(header::LINK).count(), 2);
    }

    #[test]
    fn sunset_header_on_general_removed_only_via_error() {
        let c = VersionConfig::builder(VersionStrategy::header())
            .build()
            .unwrap();
        assert!(c.general_headers().get(SUNSET).is_none());
    }

    #[test]
    fn neutral_paths() {
        let c = VersionConfig::builder(VersionStrategy::url_path())
            .neutral_path("/health/")
            .neutral_path("/openapi.json")
            .build()
            .unwrap();
        assert_eq!(c.neutral_paths(), ["/health", "/openapi.json"]);
        assert!(c.is_neutral("/health"));
        assert!(c.is_neutral("/health/ready"));
        assert!(!c.is_neutral("/healthy"));
        assert!(c.is_neutral("/openapi.json"));
        assert!(!c.is_neutral("/v1/health"));
        assert!(!c.is_neutral("/"));
    }
}
