//! Headers that every response of a request carries, problem responses included.

use std::sync::Arc;

use actix_web::HttpMessage;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

use super::vary::merge_vary;
use crate::version::VersionConfig;
use crate::version::cache::SharedHeaders;

/// Headers that every response to this request carries, success and problem
/// responses alike. A middleware (e.g. API versioning) records them here so
/// the error pipeline adds them to any problem response it builds or
/// rebuilds. Stored in the request's extensions.
///
/// The headers are kept as shared layers (`Arc<HeaderMap>`), in the order
/// they were added: a name in a later layer replaces every value of that
/// name from the earlier ones ([`get`](Self::get), [`iter`](Self::iter)).
/// Applied to a response ([`apply_to`](Self::apply_to),
/// [`to_header_map`](Self::to_header_map)), two names are combined
/// instead, across layers and with the response's own: `Link` values are
/// added to (RFC 8288) and `Vary` field names merged (RFC 9110 §12.5.5).
/// A middleware whose headers are computed once
/// (like the versioning middleware's) records them with
/// [`add_shared_sticky_headers`] without copying them per request.
///
/// ```
/// use actix_web::test::TestRequest;
/// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
/// use actix_web::HttpMessage;
/// use problem_core::pipeline::{add_sticky_headers, StickyHeaders};
///
/// let req = TestRequest::default().to_srv_request();
/// let mut h = HeaderMap::new();
/// h.insert(HeaderName::from_static("x-api-version"), HeaderValue::from_static("2"));
/// add_sticky_headers(&req, &h);
/// h.insert(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
/// add_sticky_headers(&req, &h);
/// let ext = req.extensions();
/// let sticky = ext.get::<StickyHeaders>().unwrap();
/// assert_eq!(sticky.get("x-api-version").unwrap(), "3");
/// assert_eq!(sticky.iter().count(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct StickyHeaders {
    /// The first layer.
    first: Option<Layer>,
    /// The second layer (the versioning middleware adds two: its version
    /// headers and its `Vary`; no allocation for the list).
    second: Option<Layer>,
    /// Later layers, in the order they were added.
    more: Vec<Layer>,
    /// The versioning configuration that resolved the request's version
    /// (versioned routes read it to list the supported versions), kept
    /// here by the versioning middleware so that it adds one request
    /// extension (a box, and the growth of the extension map) less.
    pub(crate) resolved_by: Option<Arc<VersionConfig>>,
}

/// One layer of [`StickyHeaders`].
#[derive(Debug, Clone)]
enum Layer {
    /// A map given to [`StickyHeaders::push`].
    Map(Arc<HeaderMap>),
    /// The versioning middleware's headers, computed once: copied into a
    /// response from their list form (names and static values rebuilt from
    /// constants, not cloned).
    Shared(SharedHeaders),
}

impl Layer {
    fn map(&self) -> &HeaderMap {
        match self {
            Self::Map(map) => map,
            Self::Shared(shared) => shared.map(),
        }
    }

    /// Sets the layer's headers on `out`, as [`StickyHeaders::apply_to`]
    /// describes.
    fn apply_to(&self, out: &mut HeaderMap) {
        match self {
            Self::Map(map) => merge_map(out, map),
            Self::Shared(shared) => merge_pairs(out, || shared.names(), || shared.pairs()),
        }
    }
}

/// Sets the headers of `from` on `out`: each name `from` holds replaces
/// the values `out` had for it, with every value `from` holds for it (two
/// `Set-Cookie` or `Link` values both stay). The merge of headers an
/// application gives its own response: [`with_headers`](super::with_headers),
/// an exception's added headers. (Headers computed by the crate, and the
/// response-header draft applied after them, add to `Link` and merge
/// `Vary`: [`merge_map`].)
pub(crate) fn replace_headers(out: &mut HeaderMap, from: &HeaderMap) {
    for name in from.keys() {
        out.remove(name);
        for value in from.get_all(name) {
            out.append(name.clone(), value.clone());
        }
    }
}

/// [`merge_pairs`] of the headers of `from` into `out`.
pub(crate) fn merge_map(out: &mut HeaderMap, from: &HeaderMap) {
    merge_pairs(
        out,
        || from.keys(),
        || {
            from.iter()
                .map(|(name, value)| (name.clone(), value.clone()))
        },
    );
}

/// Sets the `(name, value)` pairs `pairs()` yields on `out`: each name
/// `names()` yields replaces the values `out` had for it, except `Link`,
/// whose links are added to (RFC 8288), and `Vary`, whose field names are
/// merged ([`merge_vary`], RFC 9110 §12.5.5). The one merge of headers
/// computed elsewhere into a response: the sticky headers into a problem
/// response, the version headers into a success.
pub(crate) fn merge_pairs<'n, N, P>(
    out: &mut HeaderMap,
    names: impl FnOnce() -> N,
    pairs: impl FnOnce() -> P,
) where
    N: Iterator<Item = &'n HeaderName>,
    P: Iterator<Item = (HeaderName, HeaderValue)>,
{
    if !out.is_empty() {
        for name in names() {
            // Most responses do not have the name yet: a lookup is cheaper
            // than a removal that finds nothing.
            if *name != header::VARY && *name != header::LINK && out.contains_key(name) {
                out.remove(name);
            }
        }
    }
    for (name, value) in pairs() {
        if name == header::VARY {
            merge_vary(out, &value);
        } else {
            out.append(name, value);
        }
    }
}

impl StickyHeaders {
    /// No headers.
    ///
    /// ```
    /// use problem_core::pipeline::StickyHeaders;
    /// let sticky = StickyHeaders::new();
    /// assert!(sticky.is_empty());
    /// assert_eq!(sticky.iter().count(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a layer: its names replace the same names of earlier layers.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut v2 = HeaderMap::new();
    /// v2.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("2"));
    /// v2.append(HeaderName::from_static("deprecation"), HeaderValue::from_static("true"));
    /// let mut v3 = HeaderMap::new();
    /// v3.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(v2));
    /// sticky.push(Arc::new(v3));
    /// assert_eq!(sticky.get("x-api-version").unwrap(), "3");
    /// assert_eq!(sticky.get("deprecation").unwrap(), "true");
    /// ```
    pub fn push(&mut self, headers: Arc<HeaderMap>) {
        self.push_layer(Layer::Map(headers));
    }

    /// [`push`](Self::push) of headers computed once.
    pub(crate) fn push_shared(&mut self, headers: SharedHeaders) {
        self.push_layer(Layer::Shared(headers));
    }

    fn push_layer(&mut self, layer: Layer) {
        if self.first.is_none() {
            self.first = Some(layer);
        } else if self.second.is_none() {
            self.second = Some(layer);
        } else {
            self.more.push(layer);
        }
    }

    fn layers(&self) -> impl DoubleEndedIterator<Item = &Layer> {
        self.first
            .iter()
            .chain(self.second.iter())
            .chain(self.more.iter())
    }

    fn maps(&self) -> impl DoubleEndedIterator<Item = &HeaderMap> {
        self.layers().map(Layer::map)
    }

    /// Whether there is no header at all.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(HeaderMap::new()));
    /// assert!(sticky.is_empty());
    /// let mut h = HeaderMap::new();
    /// h.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
    /// sticky.push(Arc::new(h));
    /// assert!(!sticky.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.maps().all(HeaderMap::is_empty)
    }

    /// The first value of `name` in the latest layer that has it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut h = HeaderMap::new();
    /// h.append(HeaderName::from_static("link"), HeaderValue::from_static(r#"</v2>; rel="successor-version""#));
    /// h.append(HeaderName::from_static("link"), HeaderValue::from_static(r#"</docs>; rel="help""#));
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(h));
    /// assert_eq!(sticky.get("Link").unwrap(), r#"</v2>; rel="successor-version""#);
    /// assert_eq!(sticky.get("x-api-version"), None);
    /// ```
    pub fn get(&self, name: impl AsRef<str>) -> Option<&HeaderValue> {
        let name = name.as_ref();
        self.maps().rev().find_map(|h| h.get(name))
    }

    /// Every effective `(name, value)` pair: the pairs of each layer, in
    /// layer order, without those whose name a later layer replaces.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut first = HeaderMap::new();
    /// first.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("2"));
    /// first.append(HeaderName::from_static("deprecation"), HeaderValue::from_static("true"));
    /// let mut second = HeaderMap::new();
    /// second.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(first));
    /// sticky.push(Arc::new(second));
    /// let mut pairs: Vec<(&str, &str)> = sticky.iter().map(|(n, v)| (n.as_str(), v.to_str().unwrap())).collect();
    /// pairs.sort();
    /// assert_eq!(pairs, [("deprecation", "true"), ("x-api-version", "3")]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&HeaderName, &HeaderValue)> {
        let layers: Vec<&HeaderMap> = self.maps().collect();
        let mut pairs = Vec::new();
        for (i, layer) in layers.iter().enumerate() {
            let later = layers.get(i + 1..).unwrap_or_default();
            pairs.extend(
                layer
                    .iter()
                    .filter(|(name, _)| !later.iter().any(|l| l.contains_key(*name))),
            );
        }
        pairs.into_iter()
    }

    /// The headers applied to an empty map ([`apply_to`](Self::apply_to)).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut first = HeaderMap::new();
    /// first.append(HeaderName::from_static("vary"), HeaderValue::from_static("Accept"));
    /// first.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("2"));
    /// let mut second = HeaderMap::new();
    /// second.append(HeaderName::from_static("vary"), HeaderValue::from_static("Accept-Version"));
    /// second.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(first));
    /// sticky.push(Arc::new(second));
    /// let map = sticky.to_header_map();
    /// assert_eq!(map.get("vary").unwrap(), "Accept, Accept-Version");
    /// assert_eq!(map.get_all("x-api-version").collect::<Vec<_>>(), ["3"]);
    /// ```
    pub fn to_header_map(&self) -> HeaderMap {
        let mut out = HeaderMap::new();
        self.apply_to(&mut out);
        out
    }

    /// Sets these headers on `out`: every name they have replaces the
    /// values `out` had for it, except `Link`, whose links are added to
    /// those `out` has (RFC 8288), and `Vary`, whose field names are merged
    /// into those `out` lists ([`merge_vary`], RFC 9110 §12.5.5).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
    /// use problem_core::pipeline::StickyHeaders;
    /// let mut h = HeaderMap::new();
    /// h.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
    /// h.append(HeaderName::from_static("vary"), HeaderValue::from_static("Accept-Version"));
    /// h.append(HeaderName::from_static("link"), HeaderValue::from_static(r#"</v3>; rel="latest-version""#));
    /// let mut sticky = StickyHeaders::new();
    /// sticky.push(Arc::new(h));
    /// let mut out = HeaderMap::new();
    /// out.append(HeaderName::from_static("x-api-version"), HeaderValue::from_static("1"));
    /// out.append(HeaderName::from_static("vary"), HeaderValue::from_static("Accept"));
    /// out.append(HeaderName::from_static("link"), HeaderValue::from_static(r#"</docs>; rel="help""#));
    /// sticky.apply_to(&mut out);
    /// assert_eq!(out.get_all("x-api-version").collect::<Vec<_>>(), ["3"]);
    /// assert_eq!(out.get("vary").unwrap(), "Accept, Accept-Version");
    /// assert_eq!(
    ///     out.get_all("link").collect::<Vec<_>>(),
    ///     [r#"</docs>; rel="help""#, r#"</v3>; rel="latest-version""#]
    /// );
    /// ```
    pub fn apply_to(&self, out: &mut HeaderMap) {
        for layer in self.layers() {
            layer.apply_to(out);
        }
    }
}

/// Records headers for every response of `req` (replacing earlier values of
/// the same names); see [`StickyHeaders`]. Copies `headers` once; see
/// [`add_shared_sticky_headers`] to share a map instead.
///
/// A middleware records them; the pipeline adds them to a problem response:
///
/// ```
/// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
/// use actix_web::{dev::Service, test, web, App, HttpResponse};
/// use problem_core::NotFoundException;
/// use problem_core::pipeline::{Pipeline, add_sticky_headers};
///
/// # actix_web::rt::System::new().block_on(async {
/// let pipeline = Pipeline::builder().development(false).build().unwrap();
/// let app = test::init_service(
///     App::new()
///         .wrap_fn(|req, srv| {
///             let mut h = HeaderMap::new();
///             h.insert(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
///             add_sticky_headers(&req, &h);
///             srv.call(req)
///         })
///         .wrap(pipeline)
///         .route("/b", web::get().to(|| async { Err::<HttpResponse, _>(NotFoundException::new()) })),
/// )
/// .await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/b").to_request()).await;
/// assert_eq!(res.status(), 404);
/// assert_eq!(res.headers().get("x-api-version").unwrap(), "3");
/// # });
/// ```
pub fn add_sticky_headers(req: &ServiceRequest, headers: &HeaderMap) {
    add_shared_sticky_headers(req, Arc::new(headers.clone()));
}

/// Records a shared map of headers for every response of `req` (replacing
/// earlier values of the same names), without copying it; see
/// [`StickyHeaders`].
///
/// ```
/// use std::sync::Arc;
/// use actix_web::test::TestRequest;
/// use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
/// use actix_web::HttpMessage;
/// use problem_core::pipeline::{add_shared_sticky_headers, StickyHeaders};
///
/// let mut h = HeaderMap::new();
/// h.insert(HeaderName::from_static("x-api-version"), HeaderValue::from_static("3"));
/// let shared = Arc::new(h);
/// let req = TestRequest::default().to_srv_request();
/// add_shared_sticky_headers(&req, shared.clone());
/// let ext = req.extensions();
/// assert_eq!(ext.get::<StickyHeaders>().unwrap().get("x-api-version").unwrap(), "3");
/// ```
pub fn add_shared_sticky_headers(req: &ServiceRequest, headers: Arc<HeaderMap>) {
    with_sticky_headers(req, |sticky| sticky.push(headers));
}

/// `f` of the request's [`StickyHeaders`], inserted empty on first use.
pub(crate) fn with_sticky_headers(req: &ServiceRequest, f: impl FnOnce(&mut StickyHeaders)) {
    let mut ext = req.extensions_mut();
    match ext.get_mut::<StickyHeaders>() {
        Some(sticky) => f(sticky),
        None => {
            let mut sticky = StickyHeaders::new();
            f(&mut sticky);
            ext.insert(sticky);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(map: &HeaderMap) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = map
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn headers_computed_once_apply_as_their_map_does() {
        let layer = map(&[
            ("x-api-version", "3"),
            ("x-api-supported-versions", "2, 3"),
            ("link", "<https://a>; rel=\"sunset\""),
            ("x-other", "1"),
            ("vary", "X-API-Version"),
        ]);
        let mut as_map = StickyHeaders::new();
        as_map.push(layer.clone());
        let mut as_shared = StickyHeaders::new();
        as_shared.push_shared(SharedHeaders::new(HeaderMap::clone(&layer)));
        assert_eq!(as_shared.get("x-api-version").unwrap(), "3");
        for start in [
            &[][..],
            &[
                ("x-api-version", "2"),
                ("x-other", "0"),
                ("vary", "Origin"),
                ("content-type", "application/json"),
            ][..],
        ] {
            let (mut a, mut b) = (HeaderMap::clone(&map(start)), HeaderMap::clone(&map(start)));
            as_map.apply_to(&mut a);
            as_shared.apply_to(&mut b);
            assert_eq!(sorted(&a), sorted(&b));
        }
        // Same names replaced; `Vary` merged; `Link` added to.
        let mut out = HeaderMap::clone(&map(&[
            ("x-api-version", "2"),
            ("vary", "Origin"),
            ("link", "<https://z>; rel=\"next\""),
        ]));
        as_shared.apply_to(&mut out);
        assert_eq!(
            sorted(&out),
            [
                ("link", "<https://a>; rel=\"sunset\""),
                ("link", "<https://z>; rel=\"next\""),
                ("vary", "Origin, X-API-Version"),
                ("x-api-supported-versions", "2, 3"),
                ("x-api-version", "3"),
                ("x-other", "1"),
            ]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
        );
    }

    fn map(pairs: &[(&'static str, &'static str)]) -> Arc<HeaderMap> {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        Arc::new(h)
    }

    #[test]
    fn later_layers_replace_names() {
        let mut s = StickyHeaders::new();
        assert!(s.is_empty());
        s.push(map(&[("a", "1"), ("b", "1"), ("b", "2")]));
        s.push(map(&[("b", "3"), ("c", "1")]));
        s.push(map(&[("c", "2")]));
        let pairs: Vec<(String, String)> = s
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            pairs,
            [("a", "1"), ("b", "3"), ("c", "2")]
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .to_vec()
        );
        assert_eq!(s.get("b").unwrap(), "3");
        assert_eq!(s.get("x"), None);
        let mut out = (*map(&[("b", "0"), ("d", "1")])).clone();
        s.apply_to(&mut out);
        let mut got: Vec<String> = out
            .iter()
            .map(|(k, v)| format!("{k}={}", v.to_str().unwrap()))
            .collect();
        got.sort();
        assert_eq!(got, ["a=1", "b=3", "c=2", "d=1"]);
        assert_eq!(s.to_header_map().len(), 3);
    }

    #[test]
    fn applied_layers_add_links_and_merge_vary() {
        let mut s = StickyHeaders::new();
        s.push(map(&[("link", "<https://a>"), ("vary", "Accept")]));
        s.push(map(&[("link", "<https://b>"), ("vary", "X-API-Version")]));
        // The layered view: the later layer's values.
        assert_eq!(s.get("link").unwrap(), "<https://b>");
        assert_eq!(s.iter().count(), 2);
        // Applied: both links, one merged Vary line.
        let applied = s.to_header_map();
        let mut links: Vec<&str> = applied
            .get_all("link")
            .map(|v| v.to_str().unwrap())
            .collect();
        links.sort_unstable();
        assert_eq!(links, ["<https://a>", "<https://b>"]);
        assert_eq!(
            applied.get_all("vary").collect::<Vec<_>>(),
            ["Accept, X-API-Version"]
        );
    }
}
