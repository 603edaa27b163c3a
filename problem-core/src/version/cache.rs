//! The response headers of a [`VersionConfig`](super::VersionConfig),
//! computed once when it is built (spec, "Response headers"; RFC 8594
//! `Sunset`, RFC 9745 `Deprecation`, RFC 8288 `Link`, RFC 9110 §12.5.5
//! `Vary`), and how they are merged into a response.

use std::sync::Arc;

use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

use super::api_version::ApiVersion;
use super::config::VersionConfig;
use super::strategy::VersionStrategy;

/// The version headers of the configured versions and the general
/// headers, computed once when the configuration is built: resolving a
/// request then only looks them up (their values never change).
#[derive(Debug, Clone, Default)]
pub(super) struct HeaderCache {
    pub(super) general: Arc<HeaderMap>,
    /// Every version named by the configuration (supported, deprecated,
    /// default), sorted.
    pub(super) versions: Vec<(ApiVersion, SharedHeaders)>,
    /// The versions of `versions` that [`VersionConfig::check`] accepts,
    /// sorted: the lifecycle check of a request is one lookup.
    pub(super) accepted: Vec<ApiVersion>,
}

/// Response headers computed once: as a map, shared with the error
/// pipeline (sticky headers), and as a list, merged into each response
/// without walking the map.
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedHeaders {
    pub(crate) map: Arc<HeaderMap>,
    list: Arc<[(HeaderName, HeaderValue)]>,
}

impl SharedHeaders {
    pub(super) fn new(map: HeaderMap) -> Self {
        let list = map
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        Self {
            map: Arc::new(map),
            list,
        }
    }

    /// [`merge_headers`] of these headers into `into`.
    pub(crate) fn merge_into(&self, into: &mut HeaderMap) {
        merge_pairs(into, || self.list.iter().map(|(name, value)| (name, value)));
    }
}

impl HeaderCache {
    pub(super) fn of(config: &VersionConfig) -> Self {
        let mut names: Vec<ApiVersion> = config
            .supported
            .iter()
            .chain(config.deprecated.keys())
            .chain(config.default_version.iter())
            .copied()
            .collect();
        names.sort();
        names.dedup();
        let accepted = names
            .iter()
            .copied()
            .filter(|v| config.check_slow(*v).is_ok())
            .collect();
        Self {
            general: Arc::new(config.compute_general_headers()),
            accepted,
            versions: names
                .into_iter()
                .map(|v| (v, SharedHeaders::new(config.compute_version_headers(v))))
                .collect(),
        }
    }
}

/// The one-header map `Vary: <the strategy's request headers>`.
pub(super) fn vary_map(strategy: &VersionStrategy) -> Option<Arc<HeaderMap>> {
    let value = strategy.vary()?;
    let mut map = HeaderMap::new();
    map.insert(header::VARY, value);
    Some(Arc::new(map))
}

/// Copies `from` into `into`: replacing same-named values, appending `Link`.
pub(crate) fn merge_headers(into: &mut HeaderMap, from: &HeaderMap) {
    merge_pairs(into, || from.iter());
}

/// [`merge_headers`] of the `(name, value)` pairs `pairs()` yields (read
/// twice: once for the names to replace, once to append).
fn merge_pairs<'a, I>(into: &mut HeaderMap, pairs: impl Fn() -> I)
where
    I: Iterator<Item = (&'a HeaderName, &'a HeaderValue)>,
{
    if !into.is_empty() {
        for (name, _) in pairs() {
            // Most responses do not have the name yet: skip the removal then.
            if *name != header::LINK && into.contains_key(name) {
                into.remove(name);
            }
        }
    }
    for (name, value) in pairs() {
        into.append(name.clone(), value.clone());
    }
}
