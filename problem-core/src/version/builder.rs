//! [`VersionConfigBuilder`]: a [`VersionConfig`] configured step by step,
//! checked when built (spec, "VersionConfig", "Configuration errors").

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use super::api_version::ApiVersion;
use super::cache::{HeaderCache, vary_map};
use super::config::VersionConfig;
use super::headers::http_date;
use super::lifecycle::Deprecation;
use super::strategy::VersionStrategy;
use crate::config::HttpConfigError;

/// Builder of a [`VersionConfig`] (spec: "built from a strategy and then
/// configured"); [`build`](Self::build) checks it.
///
/// ```
/// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::header())
///     .supported_versions([ApiVersion::V3, ApiVersion::V2, ApiVersion::V3])
///     .default_version(ApiVersion::V3)
///     .build()?;
/// assert_eq!(config.supported_versions(), [ApiVersion::V2, ApiVersion::V3]);
/// assert_eq!(config.default_version(), Some(ApiVersion::V3));
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VersionConfigBuilder {
    pub(super) strategy: VersionStrategy,
    pub(super) default_version: Option<ApiVersion>,
    pub(super) supported: Vec<ApiVersion>,
    pub(super) deprecated: BTreeMap<ApiVersion, Deprecation>,
    pub(super) removed: BTreeMap<ApiVersion, Option<SystemTime>>,
    pub(super) require_version: bool,
    pub(super) add_response_headers: bool,
    pub(super) neutral_paths: Vec<String>,
}

impl VersionConfigBuilder {
    /// The version used when the request carries none.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).default_version(ApiVersion::V2).build()?;
    /// let req = TestRequest::get().uri("/books").to_http_request();
    /// assert_eq!(config.resolve_version(&req), Ok(ApiVersion::V2));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn default_version(mut self, version: ApiVersion) -> Self {
        self.default_version = Some(version);
        self
    }

    /// The supported versions (replacing earlier ones): an array, a `Vec`,
    /// a slice (`&[V2, V3]`) or any iterator of versions or references to
    /// them, as [`VersionHeaders::with_supported_versions`](super::VersionHeaders::with_supported_versions)
    /// takes. Order and duplicates do not matter; an empty list accepts
    /// every well-formed version.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1])
    ///     .supported_versions([ApiVersion::V3, ApiVersion::V2, ApiVersion::V2])
    ///     .build()?;
    /// assert_eq!(config.supported_versions(), [ApiVersion::V2, ApiVersion::V3]);
    /// assert_eq!(config.check(ApiVersion::V1).unwrap_err().to_string(), "API version 1 is not supported");
    /// let listed = [ApiVersion::V2, ApiVersion::V3];
    /// let config = VersionConfig::builder(VersionStrategy::header()).supported_versions(&listed).build()?;
    /// assert_eq!(config.supported_versions(), listed);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn supported_versions<I>(mut self, versions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Borrow<ApiVersion>,
    {
        self.supported = versions.into_iter().map(|v| *v.borrow()).collect();
        self
    }

    /// Marks `version` as deprecated, with the default message and no
    /// dates (spec, "States and transitions": supported → deprecated).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).deprecated(ApiVersion::V2).build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("x-api-deprecated").unwrap(), "true");
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "API version 2 is deprecated");
    /// assert_eq!(h.get("deprecation").unwrap(), "true");
    /// assert_eq!(h.get("sunset"), None);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn deprecated(self, version: ApiVersion) -> Self {
        self.deprecated_with(version, Deprecation::new())
    }

    /// Marks `version` as deprecated with a message, dates and links
    /// (deprecated → deprecated with a `Sunset` header when it has a sunset
    /// date).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new()
    ///         .message("Use v3")
    ///         .date(UNIX_EPOCH + Duration::from_secs(1_767_225_600))
    ///         .sunset(httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap()))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "Use v3");
    /// assert_eq!(h.get("deprecation").unwrap(), "@1767225600");
    /// assert_eq!(h.get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn deprecated_with(mut self, version: ApiVersion, deprecation: Deprecation) -> Self {
        // A sunset set before by `sunset` stays, unless this one has its own.
        let earlier = self
            .deprecated
            .remove(&version)
            .and_then(|d| d.sunset_date());
        let deprecation = match (deprecation.sunset_date(), earlier) {
            (None, Some(sunset)) => deprecation.sunset(sunset),
            (Some(_), _) | (None, None) => deprecation,
        };
        self.deprecated.insert(version, deprecation);
        self
    }

    /// Sets the sunset date of `version`: its responses carry `Sunset`
    /// (RFC 8594) from then on (spec, "States and transitions": deprecated →
    /// deprecated with a `Sunset` header). A version not yet deprecated is
    /// deprecated by it, with the default message. In either order with
    /// [`deprecated`](Self::deprecated) or
    /// [`deprecated_with`](Self::deprecated_with): a later deprecation keeps
    /// this sunset unless it has one of its own. [`build`](Self::build)
    /// refuses a sunset before the deprecation date.
    ///
    /// ```
    /// use problem_core::version::{V2, VersionConfig, VersionStrategy};
    ///
    /// let sunset = httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap();
    /// for config in [
    ///     VersionConfig::builder(VersionStrategy::header()).deprecated(V2).sunset(V2, sunset),
    ///     VersionConfig::builder(VersionStrategy::header()).sunset(V2, sunset).deprecated(V2),
    /// ] {
    ///     let h = config.build()?.version_headers(V2);
    ///     assert_eq!(h.get("deprecation").unwrap(), "true");
    ///     assert_eq!(h.get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// }
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn sunset(mut self, version: ApiVersion, date: impl Into<SystemTime>) -> Self {
        let deprecation = self.deprecated.remove(&version).unwrap_or_default();
        self.deprecated.insert(version, deprecation.sunset(date));
        self
    }

    /// Removes support for `version`: its requests get 410 Gone, with the
    /// `Sunset` of its deprecation when it had one (deprecated → removed).
    /// Checked before `supported_versions`, so a removed version may stay
    /// in that list; it is then left out of `X-API-Supported-Versions` and
    /// `supportedVersions`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V1, ApiVersion::V2])
    ///     .removed(ApiVersion::V1)
    ///     .build()?;
    /// let err = config.check(ApiVersion::V1).unwrap_err();
    /// assert_eq!(err.status(), 410);
    /// assert_eq!(err.to_string(), "API version 1 is no longer supported");
    /// assert_eq!(config.advertised_versions(), [ApiVersion::V2]);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn removed(mut self, version: ApiVersion) -> Self {
        self.removed.entry(version).or_insert(None);
        self
    }

    /// Like [`removed`](Self::removed), with the `Sunset` date sent on the
    /// 410. [`build`](Self::build) refuses a sunset before the version's
    /// deprecation date.
    ///
    /// ```
    /// use actix_web::{test, web, App};
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy, Versioning};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let sunset = httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap();
    /// let config = VersionConfig::builder(VersionStrategy::url_path())
    ///     .removed_with_sunset(ApiVersion::V1, sunset)
    ///     .build()
    ///     .unwrap();
    /// let app = test::init_service(
    ///     App::new().wrap(Versioning::new(config)).route("/books", web::get().to(|| async { "books" })),
    /// )
    /// .await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/v1/books").to_request()).await;
    /// assert_eq!(res.status(), 410);
    /// assert_eq!(res.headers().get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// # });
    /// ```
    pub fn removed_with_sunset(
        mut self,
        version: ApiVersion,
        sunset: impl Into<SystemTime>,
    ) -> Self {
        self.removed.insert(version, Some(sunset.into()));
        self
    }

    /// Whether a request without a version is refused with 400 (default
    /// `false`; conflicts with `default_version`). Off and without a
    /// `default_version`, the [`Versioning`](super::Versioning) middleware
    /// lets such a request go on without a version (see
    /// [`VersionConfig`]'s resolution order).
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::version::{VersionConfig, VersionError, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).require_version(true).build()?;
    /// let err = config.resolve_version(&TestRequest::get().to_http_request()).unwrap_err();
    /// assert_eq!(err, VersionError::Missing);
    /// assert_eq!(err.to_string(), "API version is required");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn require_version(mut self, require: bool) -> Self {
        self.require_version = require;
        self
    }

    /// Whether responses carry `X-API-Version` and
    /// `X-API-Supported-Versions` (default `true`). The deprecation and
    /// sunset headers of a deprecated version, and the headers of the
    /// version problems, are sent either way.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V2, ApiVersion::V3])
    ///     .deprecated(ApiVersion::V2)
    ///     .add_response_headers(false)
    ///     .build()?;
    /// assert!(config.version_headers(ApiVersion::V3).is_empty());
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("x-api-version"), None);
    /// assert_eq!(h.get("x-api-deprecated").unwrap(), "true");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn add_response_headers(mut self, add: bool) -> Self {
        self.add_response_headers = add;
        self
    }

    /// Marks a path as version-neutral: requests to it, or below it
    /// (`/health` covers `/health/live`, not `/healthz`), skip resolution
    /// and get no version headers, whatever version they carry. Matched
    /// against the path as received and, with URL-path versioning, against
    /// the path without its version segment: `/v3/health` and `/v1/health`
    /// (even for a removed version 1) are routed as `/health`, neutral.
    /// `/` makes every path neutral.
    ///
    /// ```
    /// use problem_core::version::{V3, VersionConfig, VersionStrategy};
    ///
    /// let config = VersionConfig::builder(VersionStrategy::url_path())
    ///     .default_version(V3)
    ///     .neutral_path("/health")
    ///     .build()
    ///     .unwrap();
    /// assert!(config.is_neutral("/health/live"));
    /// assert!(!config.is_neutral("/healthz"));
    /// ```
    pub fn neutral_path(mut self, path: impl Into<String>) -> Self {
        self.neutral_paths.push(path.into());
        self
    }

    /// Checks the configuration.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidVersionConfig`] when:
    /// - `require_version` is set together with `default_version`;
    /// - the default version is not in a non-empty `supported_versions`, or
    ///   is removed;
    /// - every version of a non-empty `supported_versions` is removed;
    /// - a deprecated version is not in a non-empty `supported_versions`
    ///   (and not removed): it could never be served;
    /// - a deprecation message is empty (or only whitespace), holds a
    ///   control character other than tab (a line break cannot be sent in
    ///   a header field), or a character outside US-ASCII (a header value
    ///   holds only US-ASCII; RFC 9110 §5.5);
    /// - a sunset date is earlier than the deprecation date (in whole
    ///   seconds, as the headers carry them);
    /// - a date has no IMF-fixdate (before 1970 or after 9999);
    /// - a deprecation or sunset link is empty or only whitespace (any
    ///   other is sent percent-encoded where RFC 3986 does not allow its
    ///   characters);
    /// - the strategy is unusable: an invalid header name or one of HTTP's
    ///   own request headers (`Accept`, `Host`...), an empty query
    ///   parameter name or a collection parameter's (`page`, `sort`...), a
    ///   vendor that is not `vnd.<name>` with token characters or that
    ///   holds a `+` (the `.v<N>+json` suffix is the strategy's), a prefix
    ///   with `?` or `#`, an empty combination;
    /// - a neutral path does not start with `/`, or holds `?`, `#` or a
    ///   character a request path carries percent-encoded (space, `|`,
    ///   non-ASCII...): it could never match.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConfig, VersionStrategy};
    /// let err = VersionConfig::builder(VersionStrategy::header())
    ///     .require_version(true)
    ///     .default_version(ApiVersion::V1)
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid version configuration: require_version cannot be combined with default_version (1.0): a request without a version would never use it"
    /// );
    ///
    /// use problem_core::version::Deprecation;
    /// let err = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([ApiVersion::V2, ApiVersion::V3])
    ///     .deprecated(ApiVersion::V1)
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("version 1.0 is deprecated but not one of supported_versions (2.0, 3.0)"));
    /// let err = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().message("Use v3\r\nX-Evil: 1"))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("the deprecation message of version 2.0 cannot be sent in a header"));
    /// let err = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().message("Passez à la v3"))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("the deprecation message of version 2.0 holds the non-ASCII character 'à'"));
    /// ```
    pub fn build(self) -> Result<VersionConfig, HttpConfigError> {
        let fail = |m: String| Err(HttpConfigError::InvalidVersionConfig(m));
        self.strategy.validate()?;
        let mut supported = self.supported;
        supported.sort();
        supported.dedup();
        if let Some(default) = self.default_version {
            if self.require_version {
                return fail(format!(
                    "require_version cannot be combined with default_version ({default}): a request without a version would never use it"
                ));
            }
            if !supported.is_empty() && !supported.contains(&default) {
                return fail(format!(
                    "default_version {default} is not one of supported_versions ({})",
                    list(&supported)
                ));
            }
            if self.removed.contains_key(&default) {
                return fail(format!("default_version {default} is removed"));
            }
        }
        // Compared in whole seconds, as `Sunset` and `Deprecation` carry
        // them: a sunset in the deprecation's second is not earlier.
        let earlier = |sunset: SystemTime, date: SystemTime| {
            let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
            secs(sunset) < secs(date)
        };
        let early_sunset = |version: ApiVersion, sunset: SystemTime, date: SystemTime| {
            fail(format!(
                "the sunset date of version {version} ({}) is earlier than its deprecation date ({})",
                show(sunset),
                show(date)
            ))
        };
        for (version, d) in &self.deprecated {
            if !supported.is_empty()
                && !supported.contains(version)
                && !self.removed.contains_key(version)
            {
                return fail(format!(
                    "version {version} is deprecated but not one of supported_versions ({}): a request for it is refused as unsupported, never served with its deprecation headers; add it to supported_versions",
                    list(&supported)
                ));
            }
            if let Some(message) = &d.message
                && message.trim().is_empty()
            {
                return fail(format!(
                    "the deprecation message of version {version} is empty: give the text of X-API-Deprecation-Message, or leave it out for the default \"{}\"",
                    super::headers::default_deprecation_message(*version)
                ));
            }
            if let Some(message) = &d.message
                && message.chars().any(|c| c.is_control() && c != '\t')
            {
                return fail(format!(
                    "the deprecation message of version {version} cannot be sent in a header: {message:?} holds a control character (a line break?)"
                ));
            }
            if let Some(message) = &d.message
                && let Some(c) = message.chars().find(|c| !c.is_ascii())
            {
                return fail(format!(
                    "the deprecation message of version {version} holds the non-ASCII character {c:?}: header values are US-ASCII (RFC 9110 §5.5; clients read other bytes as ISO-8859-1), so write the text in ASCII and put the rest behind a deprecation link"
                ));
            }
            for (what, date) in [("deprecation date", d.date), ("sunset date", d.sunset)] {
                if let Some(date) = date {
                    check_date(*version, what, date)?;
                }
            }
            if let (Some(date), Some(sunset)) = (d.date, d.sunset)
                && earlier(sunset, date)
            {
                return early_sunset(*version, sunset, date);
            }
            for (rel, what, link) in [
                ("deprecation", "deprecation notice", &d.link),
                ("sunset", "sunset policy", &d.sunset_link),
            ] {
                if let Some(link) = link
                    && link.trim().is_empty()
                {
                    return fail(format!(
                        "the {rel} link of version {version} is empty: give the URI of the {what}, or no link"
                    ));
                }
            }
        }
        for (version, sunset) in &self.removed {
            if let Some(sunset) = sunset {
                check_date(*version, "sunset date", *sunset)?;
                // The 410's sunset against the version's deprecation date,
                // as for a deprecation's own sunset.
                if let Some(date) = self.deprecated.get(version).and_then(|d| d.date)
                    && earlier(*sunset, date)
                {
                    return early_sunset(*version, *sunset, date);
                }
            }
        }
        for path in &self.neutral_paths {
            if !path.starts_with('/') {
                return fail(format!("neutral path {path:?} must start with '/'"));
            }
            // A request path as received never holds `?` or `#` (they end
            // it), nor a character RFC 3986 does not allow in it (space,
            // `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, controls,
            // non-ASCII: they arrive percent-encoded): such a path could
            // never match.
            if path.contains(['?', '#']) {
                return fail(format!(
                    "neutral path {path:?} can never match a request path: write it without '?' or '#' (a path never holds them)"
                ));
            }
            if let std::borrow::Cow::Owned(encoded) =
                crate::uri::reference(path, &crate::uri::LINK_TARGET)
            {
                return fail(format!(
                    "neutral path {path:?} can never match a request path: write it percent-encoded, as requests carry it: {encoded:?}"
                ));
            }
        }
        let advertised: Vec<ApiVersion> = supported
            .iter()
            .copied()
            .filter(|v| !self.removed.contains_key(v))
            .collect();
        if !supported.is_empty() && advertised.is_empty() {
            return fail(format!(
                "every supported version ({}) is removed, so no request can be served: support a version that is not removed",
                list(&supported)
            ));
        }
        let neutral_paths = self
            .neutral_paths
            .into_iter()
            .map(|p| {
                let t = p.trim_end_matches('/');
                if t.is_empty() {
                    "/".to_owned()
                } else {
                    t.to_owned()
                }
            })
            .collect();
        let mut config = VersionConfig {
            sources: self.strategy.sources(),
            vary: vary_map(&self.strategy),
            strategy: self.strategy,
            default_version: self.default_version,
            supported,
            advertised,
            deprecated: self.deprecated,
            removed: self.removed,
            require_version: self.require_version,
            add_response_headers: self.add_response_headers,
            neutral_paths,
            neutral_pages: Vec::new(),
            cache: HeaderCache::default(),
        };
        config.cache = HeaderCache::of(&config);
        config.note_renamed_query();
        Ok(config)
    }
}

/// Versions as `2.0, 3.0`, for configuration errors.
pub(crate) fn list(versions: &[ApiVersion]) -> String {
    versions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn show(date: SystemTime) -> String {
    match http_date(date) {
        Some(v) => v.to_str().unwrap_or("?").to_owned(),
        None => format!("{date:?}"),
    }
}

fn check_date(version: ApiVersion, what: &str, date: SystemTime) -> Result<(), HttpConfigError> {
    if http_date(date).is_none() {
        return Err(HttpConfigError::InvalidVersionConfig(format!(
            "the {what} of version {version} is not between 1970 and 9999, so it has no HTTP date"
        )));
    }
    Ok(())
}
