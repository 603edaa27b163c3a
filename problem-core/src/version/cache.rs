//! The response headers of a [`VersionConfig`](super::VersionConfig),
//! computed once when it is built (spec, "Response headers"; RFC 8594
//! `Sunset`, RFC 9745 `Deprecation`, RFC 8288 `Link`, RFC 9110 §12.5.5
//! `Vary`), and how they are merged into a response.

use std::sync::Arc;

use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

use super::api_version::ApiVersion;
use super::config::VersionConfig;
use super::headers::VersionHeaderName;
use super::strategy::VersionStrategy;
use crate::pipeline::merge_pairs;

/// The version headers of the configured versions and the general
/// headers, computed once when the configuration is built: resolving a
/// request then only looks them up (their values never change).
#[derive(Debug, Clone, Default)]
pub(super) struct HeaderCache {
    pub(super) general: Arc<HeaderMap>,
    /// The general headers, shared as a versioned request's are: those of
    /// a request that goes on without a version (none carried, none
    /// required, no default).
    pub(super) unversioned: SharedHeaders,
    /// Every version named by the configuration (supported, deprecated,
    /// default), sorted.
    pub(super) versions: Vec<(ApiVersion, SharedHeaders)>,
    /// The versions of `versions` that [`VersionConfig::check`] accepts,
    /// sorted: the lifecycle check of a request is one lookup.
    pub(super) accepted: Vec<ApiVersion>,
}

/// Response headers computed once, shared by every request (one reference
/// count): as a map (what the error pipeline's sticky headers read) and
/// as a list, copied into each response without walking the map.
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedHeaders(Arc<Computed>);

#[derive(Debug, Default)]
struct Computed {
    map: HeaderMap,
    list: Box<[(ListedName, ListedValue)]>,
}

/// A name of [`SharedHeaders`]' list. A version header's name is rebuilt
/// from its constant for each response rather than cloned: a clone of the
/// `Bytes` inside a name or value goes through its vtable and returns
/// through memory, which the copy into the response then reads back in
/// wider words than were written, and the CPU cannot forward such stores
/// (that stall was most of the merge's time).
#[derive(Debug, Clone)]
enum ListedName {
    Version(VersionHeaderName),
    Other(HeaderName),
}

impl ListedName {
    fn of(name: &HeaderName) -> Self {
        match VersionHeaderName::of(name) {
            Some(known) => Self::Version(known),
            None => Self::Other(name.clone()),
        }
    }

    #[inline(always)]
    fn get(&self) -> HeaderName {
        match self {
            Self::Version(known) => known.header_name(),
            Self::Other(name) => name.clone(),
        }
    }
}

/// A value of [`SharedHeaders`]' list: a `'static` text (the
/// `X-API-Version` values `0` to `99`) is rebuilt for each response, as a
/// [`ListedName`] is; any other value is cloned.
#[derive(Debug, Clone)]
enum ListedValue {
    Static(&'static str),
    Other(HeaderValue),
}

impl ListedValue {
    fn of(value: &HeaderValue) -> Self {
        match value.to_str().ok().and_then(ApiVersion::static_text) {
            Some(text) => Self::Static(text),
            None => Self::Other(value.clone()),
        }
    }

    #[inline(always)]
    fn get(&self) -> HeaderValue {
        match self {
            Self::Static(text) => HeaderValue::from_static(text),
            Self::Other(value) => value.clone(),
        }
    }
}

impl SharedHeaders {
    pub(crate) fn new(map: HeaderMap) -> Self {
        let list = map
            .iter()
            .map(|(name, value)| (ListedName::of(name), ListedValue::of(value)))
            .collect();
        Self(Arc::new(Computed { map, list }))
    }

    /// The headers as a map.
    pub(crate) fn map(&self) -> &HeaderMap {
        &self.0.map
    }

    /// Each name, once.
    pub(crate) fn names(&self) -> impl Iterator<Item = &HeaderName> {
        self.0.map.keys()
    }

    /// Each `(name, value)` pair, as a copy for a response.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (HeaderName, HeaderValue)> + '_ {
        self.0
            .list
            .iter()
            .map(|(name, value)| (name.get(), value.get()))
    }

    /// These headers merged into `into` ([`merge_pairs`]: same names
    /// replaced, `Link` added to, `Vary` merged).
    pub(crate) fn merge_into(&self, into: &mut HeaderMap) {
        merge_pairs(into, || self.names(), || self.pairs());
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
            unversioned: SharedHeaders::new(config.compute_general_headers()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::headers::{
        DEPRECATION, SUNSET, X_API_DEPRECATED, X_API_DEPRECATION_MESSAGE, X_API_SUPPORTED_VERSIONS,
        X_API_VERSION,
    };

    fn pairs(map: &HeaderMap) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = map
            .iter()
            .map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn every_version_header_name_is_kept_as_its_constant() {
        for name in [
            X_API_VERSION,
            X_API_SUPPORTED_VERSIONS,
            X_API_DEPRECATED,
            X_API_DEPRECATION_MESSAGE,
            DEPRECATION,
            SUNSET,
        ] {
            let known = VersionHeaderName::of(&name).expect("a version header");
            assert_eq!(known.header_name(), name);
        }
        assert_eq!(VersionHeaderName::of(&header::LINK), None);
        assert_eq!(
            VersionHeaderName::of(&HeaderName::from_static("x-api-versions")),
            None
        );
    }

    #[test]
    fn merged_headers_are_the_map_whatever_form_the_list_keeps() {
        let mut map = HeaderMap::new();
        map.insert(X_API_VERSION, HeaderValue::from_static("3"));
        map.insert(X_API_SUPPORTED_VERSIONS, HeaderValue::from_static("2, 3"));
        map.insert(X_API_DEPRECATED, HeaderValue::from_static("true"));
        map.insert(
            SUNSET,
            HeaderValue::from_static("Fri, 31 Dec 2027 23:59:59 GMT"),
        );
        map.append(
            header::LINK,
            HeaderValue::from_static("<https://a>; rel=\"sunset\""),
        );
        map.append(
            header::LINK,
            HeaderValue::from_static("<https://b>; rel=\"deprecation\""),
        );
        map.insert(
            HeaderName::from_static("x-other"),
            HeaderValue::from_str("99").unwrap(),
        );
        let shared = SharedHeaders::new(map.clone());
        let kinds: Vec<(bool, bool)> = shared
            .0
            .list
            .iter()
            .map(|(n, v)| {
                (
                    matches!(n, ListedName::Version(_)),
                    matches!(v, ListedValue::Static(_)),
                )
            })
            .collect();
        // Four version header names; `3` and `99` are static texts.
        assert_eq!(kinds.iter().filter(|(n, _)| *n).count(), 4);
        assert_eq!(kinds.iter().filter(|(_, v)| *v).count(), 2);

        let mut empty = HeaderMap::new();
        shared.merge_into(&mut empty);
        assert_eq!(pairs(&empty), pairs(&map));

        // Same names are replaced, `Link` is appended to.
        let mut res = HeaderMap::new();
        res.insert(X_API_VERSION, HeaderValue::from_static("2"));
        res.insert(header::LINK, HeaderValue::from_static("<https://c>"));
        res.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        shared.merge_into(&mut res);
        let mut expected = map.clone();
        expected.append(header::LINK, HeaderValue::from_static("<https://c>"));
        expected.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert_eq!(pairs(&res), pairs(&expected));

        // The uncached path merges the same way.
        let mut res2 = HeaderMap::new();
        res2.insert(X_API_VERSION, HeaderValue::from_static("2"));
        res2.insert(header::LINK, HeaderValue::from_static("<https://c>"));
        res2.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        crate::pipeline::merge_map(&mut res2, &map);
        assert_eq!(pairs(&res2), pairs(&expected));
    }
}
