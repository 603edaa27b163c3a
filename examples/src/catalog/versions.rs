//! The catalog's API versions: 3 current and default, 2 deprecated with a
//! sunset, 1 removed (410); combined strategy path, header, query, then the
//! media type (issue "The catalog service", "Versions").

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use problem_core::HttpConfigError;
use problem_core::version::{Deprecation, V1, V2, V3, VersionConfig, VersionStrategy};

/// Version 2's deprecation date: Thu, 01 Jan 2026 00:00:00 GMT.
pub fn v2_deprecated_at() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

/// Version 2's sunset: Fri, 31 Dec 2027 23:59:59 GMT.
pub fn v2_sunset() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_830_297_599)
}

/// The versioning configuration.
///
/// # Errors
/// [`HttpConfigError`] if the configuration were inconsistent.
pub fn config() -> Result<VersionConfig, HttpConfigError> {
    VersionConfig::builder(VersionStrategy::combined([
        VersionStrategy::url_path(),
        VersionStrategy::header_named("X-API-Version"),
        VersionStrategy::query_named("api-version"),
        VersionStrategy::media_type("vnd.catalog"),
    ]))
    .default_version(V3)
    .supported_versions([V2, V3])
    .deprecated_with(
        V2,
        Deprecation::new()
            .date(v2_deprecated_at())
            .sunset(v2_sunset()),
    )
    .removed(V1)
    .neutral_path("/health")
    .neutral_path("/openapi.json")
    // The problem type pages (`/problems/duplicate-isbn`): `build()` makes
    // the pages it serves neutral; named here too for the OpenAPI
    // documents, which are made from this configuration.
    .neutral_path("/problems")
    .build()
}
