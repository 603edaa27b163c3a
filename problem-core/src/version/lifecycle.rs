//! The life of an API version: supported, deprecated (optionally with a
//! sunset date), removed (spec, "States and transitions").

use std::time::SystemTime;

use super::api_version::ApiVersion;

/// How a version is deprecated: an optional message, deprecation date,
/// sunset date and links (spec, "Versioning"; RFC 9745, RFC 8594).
///
/// The responses of a deprecated version carry:
///
/// | Header | Value |
/// |---|---|
/// | `X-API-Deprecated` | `true` |
/// | `X-API-Deprecation-Message` | [`message`](Self::message), default `API version <N> is deprecated` |
/// | `Deprecation` | `true`, or `@<unix-seconds>` with a [`date`](Self::date) (RFC 9745) |
/// | `Sunset` | with a [`sunset`](Self::sunset) date: its IMF-fixdate (RFC 8594) |
/// | `Link` | with a [`link`](Self::link): `<uri>; rel="deprecation"`; with a [`sunset_link`](Self::sunset_link): `<uri>; rel="sunset"` |
///
/// Dates are anything that converts into [`SystemTime`] (for example
/// `time::OffsetDateTime`, or `httpdate::parse_http_date(..)`);
/// [`VersionConfigBuilder::build`](super::VersionConfigBuilder::build)
/// checks them.
///
/// ```
/// use problem_core::version::Deprecation;
/// let sunset = httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap();
/// let d = Deprecation::new()
///     .message("Use v3: https://example.com/migrate")
///     .sunset(sunset)
///     .link("https://example.com/deprecation");
/// assert_eq!(d.sunset_date(), Some(sunset));
/// assert_eq!(d.deprecation_date(), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deprecation {
    pub(crate) message: Option<String>,
    pub(crate) date: Option<SystemTime>,
    pub(crate) sunset: Option<SystemTime>,
    pub(crate) link: Option<String>,
    pub(crate) sunset_link: Option<String>,
}

impl Deprecation {
    /// A deprecation with no message, dates or links (`Deprecation: true`).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new())
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("deprecation").unwrap(), "true");
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "API version 2 is deprecated");
    /// assert_eq!((h.get("sunset"), h.get("link")), (None, None));
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The `X-API-Deprecation-Message` text, instead of
    /// `API version <N> is deprecated`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().message("Use v3: https://example.com/migrate"))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "Use v3: https://example.com/migrate");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// The date of the deprecation: `Deprecation: @<unix-seconds>`
    /// (RFC 9745) instead of `true`.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().date(UNIX_EPOCH + Duration::from_secs(1_767_225_600)))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("deprecation").unwrap(), "@1767225600");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn date(mut self, date: impl Into<SystemTime>) -> Self {
        self.date = Some(date.into());
        self
    }

    /// The sunset date: `Sunset: <IMF-fixdate>` (RFC 8594) on every response
    /// of the version, and on its 410 once it is removed. Not before
    /// [`date`](Self::date).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().sunset(UNIX_EPOCH + Duration::from_secs(1_830_297_599)))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// assert_eq!(h.get("deprecation").unwrap(), "true");
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn sunset(mut self, date: impl Into<SystemTime>) -> Self {
        self.sunset = Some(date.into());
        self
    }

    /// A link to the deprecation notice: `Link: <uri>; rel="deprecation"`
    /// (RFC 9745 §3). The URI is sent as a valid RFC 3986 URI reference:
    /// a character it does not allow (space, `"`, `<`, `>`, `\`, `^`,
    /// `` ` ``, `{`, `|`, `}`, controls, non-ASCII as UTF-8) is
    /// percent-encoded, and a `%` that starts no `%XX` triplet becomes
    /// `%25`; a fragment is kept. An empty URI is refused by
    /// [`VersionConfigBuilder::build`](super::VersionConfigBuilder::build).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().link("https://example.com/deprecation"))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("link").unwrap(), r#"<https://example.com/deprecation>; rel="deprecation""#);
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().link("https://example.com/v2|v3 notes#café"))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(
    ///     h.get("link").unwrap(),
    ///     r#"<https://example.com/v2%7Cv3%20notes#caf%C3%A9>; rel="deprecation""#
    /// );
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn link(mut self, uri: impl Into<String>) -> Self {
        self.link = Some(uri.into());
        self
    }

    /// A link to the sunset policy: `Link: <uri>; rel="sunset"` (RFC 8594
    /// §6), percent-encoded as [`link`](Self::link) says.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy};
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .deprecated_with(ApiVersion::V2, Deprecation::new().sunset_link("https://example.com/sunset"))
    ///     .build()?;
    /// let h = config.version_headers(ApiVersion::V2);
    /// assert_eq!(h.get("link").unwrap(), r#"<https://example.com/sunset>; rel="sunset""#);
    /// # Ok::<(), problem_core::HttpConfigError>(())
    /// ```
    pub fn sunset_link(mut self, uri: impl Into<String>) -> Self {
        self.sunset_link = Some(uri.into());
        self
    }

    /// The configured message, if any.
    ///
    /// ```
    /// use problem_core::version::Deprecation;
    /// assert_eq!(Deprecation::new().message("Use v3").message_text(), Some("Use v3"));
    /// assert_eq!(Deprecation::new().message_text(), None);
    /// ```
    pub fn message_text(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The configured deprecation date, if any.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use problem_core::version::Deprecation;
    /// let date = UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    /// assert_eq!(Deprecation::new().date(date).deprecation_date(), Some(date));
    /// assert_eq!(Deprecation::new().deprecation_date(), None);
    /// ```
    pub fn deprecation_date(&self) -> Option<SystemTime> {
        self.date
    }

    /// The configured sunset date, if any.
    ///
    /// ```
    /// use problem_core::version::Deprecation;
    /// let sunset = httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap();
    /// assert_eq!(Deprecation::new().sunset(sunset).sunset_date(), Some(sunset));
    /// assert_eq!(Deprecation::new().sunset_date(), None);
    /// ```
    pub fn sunset_date(&self) -> Option<SystemTime> {
        self.sunset
    }

    /// The `X-API-Deprecation-Message` text for `version`: the message, or
    /// `API version <N> is deprecated`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, Deprecation};
    /// assert_eq!(Deprecation::new().message_for(ApiVersion::new(2, 1)), "API version 2.1 is deprecated");
    /// assert_eq!(Deprecation::new().message("Use v3").message_for(ApiVersion::V2), "Use v3");
    /// ```
    pub fn message_for(&self, version: ApiVersion) -> String {
        match &self.message {
            Some(m) => m.clone(),
            None => super::headers::default_deprecation_message(version),
        }
    }
}

/// Where a version is in its life under a configuration
/// (spec, "States and transitions";
/// [`VersionConfig::state`](super::VersionConfig::state)).
///
/// ```
/// use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionState, VersionStrategy};
///
/// let config = VersionConfig::builder(VersionStrategy::header())
///     .supported_versions([ApiVersion::V2, ApiVersion::V3])
///     .deprecated(ApiVersion::V2)
///     .removed(ApiVersion::V1)
///     .build()?;
/// assert_eq!(config.state(ApiVersion::V3), VersionState::Supported);
/// assert_eq!(config.state(ApiVersion::V2), VersionState::Deprecated(&Deprecation::new()));
/// assert_eq!(config.state(ApiVersion::V1), VersionState::Removed);
/// assert_eq!(config.state(ApiVersion::new(4, 0)), VersionState::Unsupported);
/// # Ok::<(), problem_core::HttpConfigError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionState<'a> {
    /// Served, with no deprecation headers.
    Supported,
    /// Served, with the deprecation headers (and `Sunset` when set).
    Deprecated(&'a Deprecation),
    /// Answered with 410 Gone.
    Removed,
    /// Not in `supported_versions`: answered with 400.
    Unsupported,
}
