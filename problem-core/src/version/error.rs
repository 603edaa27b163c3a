//! [`VersionError`]: why a request's API version was refused, and the
//! problem document each answer is.

use std::time::SystemTime;

use actix_web::http::header::{HeaderName, HeaderValue};

use super::api_version::{ApiVersion, VersionParseError};
use super::headers::{SUNSET, X_API_SUPPORTED_VERSIONS, http_date, supported_value};
use crate::problem::{
    BadRequestException, HttpException, Issue, IssueLocation, ProblemExt, ValidationException,
};
use crate::query::{nul_issue, repeated_parameter};
use crate::spec;

/// Why version resolution refused a request. Each variant is answered as a
/// problem document; the `Display` of a
/// variant is exactly its `detail`:
///
/// | Variant | Status | `detail` | Extras |
/// |---|---|---|---|
/// | [`Missing`](Self::Missing) | 400 | `API version is required` | |
/// | [`Invalid`](Self::Invalid) | 400 | `Invalid API version "<raw>"` | |
/// | [`Conflicting`](Self::Conflicting) | 400 | `Request validation failed` | extension `issues`: one issue, location `query`, the parameter's `name`, code `conflicting_parameters`, member `parameters` |
/// | [`NulCharacter`](Self::NulCharacter) | 400 | `Request validation failed` | extension `issues`: one issue, location `query`, the parameter's `name`, code `invalid_value`, member `expected` |
/// | [`Unsupported`](Self::Unsupported) | 400 | `API version <v> is not supported` | extension `supportedVersions` (array of short-form strings) and header `X-API-Supported-Versions`, the same list (an empty value for an empty one) |
/// | [`Removed`](Self::Removed) | 410 | `API version <v> is no longer supported` | `Sunset` header when the version had a sunset date |
///
/// `<v>` is the short form (`1`, `2.1`, see [`ApiVersion::short`]); `<raw>`
/// is the value as the request carried it, shortened to 64 characters
/// followed by `…` (non-UTF-8 bytes replaced by `U+FFFD`).
///
/// Converting into `actix_web::Error` gives a [`BadRequestException`] for
/// the 400s (a [`ValidationException`] for `Conflicting` and
/// `NulCharacter`; an exception
/// filter for `BadRequestException` receives them all) and an [`HttpException`] with status 410 for `Removed`; the
/// response is the ordinary problem response of that type.
///
/// ```
/// use problem_core::version::{ApiVersion, VersionError};
/// use problem_core::{HttpException, Problem};
///
/// let err = VersionError::Unsupported {
///     version: ApiVersion::new(7, 0),
///     supported: vec![ApiVersion::V2, ApiVersion::V3],
/// };
/// assert_eq!(err.to_string(), "API version 7 is not supported");
/// let problem = HttpException::from(err);
/// assert_eq!(
///     serde_json::to_string(&problem.to_problem("/books")?)?,
///     r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version 7 is not supported","instance":"/books","supportedVersions":["2","3"]}"#
/// );
/// assert_eq!(problem.headers()?.get("x-api-supported-versions").unwrap(), "2, 3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VersionError {
    /// The request carries no version and `require_version` is set, or
    /// none is configured as `default_version` (then the
    /// [`Versioning`](super::Versioning) middleware lets the request go on
    /// without a version, and this is the answer of a handler that takes
    /// an [`ApiVersion`](super::ApiVersion) only).
    #[error("{}", spec::VERSION_REQUIRED.detail)]
    Missing,
    /// The request carries a version that does not parse.
    #[error("{}", spec::invalid_version(raw))]
    Invalid {
        /// The value as carried by the request (shortened, see above).
        raw: String,
        /// Why it does not parse.
        #[source]
        source: VersionParseError,
    },
    /// The query parameter of the query strategy is repeated with different
    /// values (`api-version=2&api-version=3`, and `2` with `2.0`; the same
    /// value repeated is accepted). A malformed value among the repeats is
    /// [`Invalid`](Self::Invalid) instead.
    #[error("{}", spec::VALIDATION_FAILED.detail)]
    Conflicting {
        /// The parameter's name, as configured.
        name: String,
    },
    /// The query parameter of the query strategy holds U+0000, raw or
    /// percent-encoded (`api-version=%00`): like every query value that
    /// does, an
    /// `invalid_value` issue naming the parameter, not the invalid-version
    /// problem (which would echo the NUL in its `detail`).
    #[error("{}", spec::VALIDATION_FAILED.detail)]
    NulCharacter {
        /// The parameter's name, as configured.
        name: String,
    },
    /// The version is not one of `supported_versions` (or, from a
    /// versioned route, no handler of the route accepts it).
    #[error("{}", spec::unsupported_version(version.short()))]
    Unsupported {
        /// The requested version.
        version: ApiVersion,
        /// The versions that are supported, ascending.
        supported: Vec<ApiVersion>,
    },
    /// The version has been removed (RFC 9110 410 Gone).
    #[error("{}", spec::removed_version(version.short()))]
    Removed {
        /// The requested version.
        version: ApiVersion,
        /// Its sunset date, sent as the `Sunset` header (RFC 8594).
        sunset: Option<SystemTime>,
    },
}

impl VersionError {
    /// The HTTP status of the answer: 400, or 410 for
    /// [`Removed`](Self::Removed).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionError};
    /// assert_eq!(VersionError::Missing.status(), 400);
    /// assert_eq!(VersionError::Removed { version: ApiVersion::V1, sunset: None }.status(), 410);
    /// ```
    pub fn status(&self) -> u16 {
        match self {
            Self::Removed { .. } => 410,
            Self::Missing
            | Self::Invalid { .. }
            | Self::Conflicting { .. }
            | Self::NulCharacter { .. }
            | Self::Unsupported { .. } => 400,
        }
    }

    fn bad_request(&self) -> BadRequestException {
        let err = BadRequestException::new().with_detail(self.to_string());
        match self {
            Self::Unsupported { supported, .. } => {
                let list: Vec<String> = supported.iter().map(|v| v.short().to_string()).collect();
                let err = err.with_extension("supportedVersions", list);
                // The header names the list the extension does, empty too.
                let value = supported_value(supported)
                    .unwrap_or_else(|| actix_web::http::header::HeaderValue::from_static(""));
                err.with_header((X_API_SUPPORTED_VERSIONS, value))
            }
            Self::Invalid { source, .. } => err.with_cause(source.clone()),
            Self::Conflicting { .. } | Self::NulCharacter { .. } => {
                err.with_extension("issues", self.issues())
            }
            Self::Missing | Self::Removed { .. } => err,
        }
    }

    /// The `issues` of [`Conflicting`](Self::Conflicting) and
    /// [`NulCharacter`](Self::NulCharacter) (none for the other variants).
    fn issues(&self) -> Vec<Issue> {
        match self {
            Self::Conflicting { name } => vec![repeated_parameter(name)],
            Self::NulCharacter { name } => vec![nul_issue(IssueLocation::Query, name)],
            Self::Missing
            | Self::Invalid { .. }
            | Self::Unsupported { .. }
            | Self::Removed { .. } => Vec::new(),
        }
    }

    fn gone(&self, sunset: Option<SystemTime>) -> HttpException {
        let err = HttpException::from_status(actix_web::http::StatusCode::GONE)
            .with_detail(self.to_string());
        match sunset.and_then(http_date) {
            Some(date) => err.with_header((SUNSET, date)),
            None => err,
        }
    }
}

/// The problem of a [`VersionError`]: a `BadRequestException`'s inner
/// exception for the 400s, a 410 `HttpException` for `Removed`.
impl From<VersionError> for HttpException {
    fn from(err: VersionError) -> Self {
        match err {
            VersionError::Removed { sunset, .. } => err.gone(sunset),
            VersionError::Missing
            | VersionError::Invalid { .. }
            | VersionError::Conflicting { .. }
            | VersionError::NulCharacter { .. }
            | VersionError::Unsupported { .. } => err.bad_request().into_inner(),
        }
    }
}

impl From<VersionError> for actix_web::Error {
    fn from(err: VersionError) -> Self {
        err.into_error_with(None)
    }
}

impl VersionError {
    /// The problem of this error (as `actix_web::Error::from`) with `extra`
    /// added to its headers, e.g. the `Vary` of a response chosen by the
    /// version.
    pub(crate) fn into_error_with(
        self,
        extra: impl IntoIterator<Item = (HeaderName, HeaderValue)>,
    ) -> actix_web::Error {
        let mut extra = extra.into_iter().peekable();
        match self {
            err @ Self::Removed { sunset, .. } => extra
                .fold(err.gone(sunset), HttpException::with_header)
                .into(),
            err @ (Self::Conflicting { .. } | Self::NulCharacter { .. })
                if extra.peek().is_none() =>
            {
                ValidationException::new(err.issues()).into()
            }
            err @ (Self::Conflicting { .. } | Self::NulCharacter { .. }) => extra
                .fold(
                    ValidationException::new(err.issues()).customize(),
                    |c, h| c.with_header(h),
                )
                .into(),
            err @ (Self::Missing | Self::Invalid { .. } | Self::Unsupported { .. }) => extra
                .fold(err.bad_request(), BadRequestException::with_header)
                .into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;
    use std::time::{Duration, UNIX_EPOCH};

    fn body(err: VersionError) -> String {
        let p = HttpException::from(err);
        serde_json::to_string(&p.to_problem("").unwrap()).unwrap()
    }

    #[test]
    fn missing() {
        let err = VersionError::Missing;
        assert_eq!(err.status(), 400);
        assert_eq!(
            body(err),
            r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"API version is required","instance":""}"#
        );
    }

    #[test]
    fn invalid_echoes_the_raw_value() {
        let err = VersionError::Invalid {
            raw: "abc".into(),
            source: VersionParseError::Malformed("abc".into()),
        };
        assert_eq!(
            body(err),
            r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid API version \"abc\"","instance":""}"#
        );
    }

    #[test]
    fn a_nul_is_the_invalid_value_issue_of_the_parameter() {
        let err = VersionError::NulCharacter {
            name: "api-version".into(),
        };
        assert_eq!(err.status(), 400);
        assert_eq!(
            body(err.clone()),
            r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"Request validation failed","instance":"","issues":[{"location":"query","name":"api-version","code":"invalid_value","message":"`api-version` must not contain NUL characters (U+0000)","expected":"text without NUL characters"}]}"#
        );
        let err: actix_web::Error = err.into();
        assert!(BadRequestException::catch(&err).is_some());
    }

    #[test]
    fn removed_is_gone_with_sunset() {
        let sunset = UNIX_EPOCH + Duration::from_secs(1_830_297_599);
        let err = VersionError::Removed {
            version: ApiVersion::V1,
            sunset: Some(sunset),
        };
        assert_eq!(err.status(), 410);
        let p = HttpException::from(err.clone());
        assert_eq!(p.status().as_u16(), 410);
        assert_eq!(
            p.headers().unwrap().get("sunset").unwrap(),
            "Fri, 31 Dec 2027 23:59:59 GMT"
        );
        assert_eq!(
            body(err),
            r#"{"type":"about:blank","title":"Gone","status":410,"detail":"API version 1 is no longer supported","instance":""}"#
        );
    }

    #[test]
    fn actix_error_is_a_bad_request_exception() {
        let err: actix_web::Error = VersionError::Missing.into();
        assert!(BadRequestException::catch(&err).is_some());
        let err: actix_web::Error = VersionError::Removed {
            version: ApiVersion::V1,
            sunset: None,
        }
        .into();
        assert_eq!(HttpException::catch(&err).unwrap().status().as_u16(), 410);
    }
}
