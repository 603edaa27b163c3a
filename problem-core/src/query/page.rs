//! List responses: the offset envelope [`Page`], the cursor envelope
//! [`CursorPage`], their [`Links`], the RFC 8288 `Link` header
//! ([`LinkHeader`]) and the bare-array list [`BareList`].
//!
//! Links are computed from the request's own URL: the path and the query
//! string as received, every other parameter kept byte for byte, only
//! `page` (offset) or `cursor` replaced (in place when present, else
//! appended), and the tolerated parameters
//! ([`QueryConfig::tolerate`](super::QueryConfig::tolerate)) left out. They are relative references (`/books?page=2`), so they never
//! depend on a client-supplied `Host` header, and valid RFC 3986 URI
//! references (§4.1): characters a client sent raw that a URI cannot hold
//! (`|`, `^`, `` ` ``, `\`, space, non-ASCII, ...) are percent-encoded, in
//! `links` and in the `Link` header alike.

use std::cell::Cell;

use actix_web::body::BoxBody;
use actix_web::http::header::{CONTENT_TYPE, HeaderName, HeaderValue, LINK};
use actix_web::{HttpRequest, HttpResponse, Responder};
use serde::Serialize;
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde_json::Value as Json;

use super::count::{CountAnswer, PREFERENCE_APPLIED, Total};
use super::error::ApplyError;
use super::fields::{FieldSelection, Selected};
use super::pagination::Pagination;
use super::tolerated::{Tolerance, ToleratedParameters};
use super::typed::QuerySchema;
use crate::spec::MAX_LINK_HEADER_LENGTH;
use crate::uri;

/// What a list response carries beside its envelope: the tolerated
/// parameters left out of its links, and its answer to `Prefer: count`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ListExtras {
    pub tolerated: ToleratedParameters,
    /// The collection's whitelist: its filters are never dropped as
    /// tolerated ([`Tolerance`]).
    pub schema: Option<&'static QuerySchema>,
    pub count: CountAnswer,
    /// Whether a next offset page exists, when the application knows it
    /// ([`Page::with_next`]).
    pub has_next: Option<bool>,
    /// Whether the page was reached with a previous cursor: a `Link`
    /// header over its budget then keeps `prev` before `next`
    /// ([`LinkHeader::value_walking`]).
    pub walked_back: bool,
}

impl ListExtras {
    /// The tolerated parameters this list's links leave out.
    fn tolerance(&self) -> Tolerance<'_> {
        Tolerance {
            patterns: &self.tolerated,
            schema: self.schema,
        }
    }

    /// `Preference-Applied` and `Vary: Prefer`, when the listing reads `Prefer`.
    fn apply(&self, res: &mut HttpResponse) {
        if let Some(v) = self.count.header() {
            res.headers_mut().insert(PREFERENCE_APPLIED, v);
        }
        if self.count.varies {
            crate::pipeline::merge_vary(res.headers_mut(), &HeaderValue::from_static("Prefer"));
        }
    }
}

/// `meta` of the offset envelope. `total` and `total_pages` are omitted
/// when the total is not counted; `total_is_estimate` is present, `true`,
/// only when the total is an estimate (count strategy `estimated` above its
/// threshold), absent otherwise.
///
/// ```
/// use problem_core::query::{Page, Pagination};
/// let page = Page::new(vec![1, 2, 3], Pagination { page: 1, per_page: 3 }, Some(7));
/// assert_eq!(
///     serde_json::to_string(&page.meta).unwrap(),
///     r#"{"page":1,"per_page":3,"total":7,"total_pages":3}"#
/// );
/// let page = Page::new(vec![1], Pagination { page: 4, per_page: 3 }, None);
/// assert_eq!(serde_json::to_string(&page.meta).unwrap(), r#"{"page":4,"per_page":3}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PageMeta {
    /// The page number, from 1.
    pub page: u64,
    /// The effective page size.
    pub per_page: u64,
    /// The number of matching items.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// `ceil(total / per_page)` (0 when nothing matches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_pages: Option<u64>,
    /// `true` when `total` is an estimate (serialized only then).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub total_is_estimate: bool,
}

/// `meta` of the cursor envelope: `{"limit", "next_cursor"}`, plus
/// `"prev_cursor"` on every page after the first. `next_cursor` is always
/// present, `null` on the last page; `prev_cursor` is left out where there
/// is no previous page, so a first page's `meta` is exactly
/// `{"limit", "next_cursor"}`.
///
/// ```
/// use problem_core::query::CursorMeta;
/// let first = CursorMeta { limit: 10, next_cursor: Some("c2".into()), prev_cursor: None };
/// assert_eq!(serde_json::to_string(&first).unwrap(), r#"{"limit":10,"next_cursor":"c2"}"#);
/// let last = CursorMeta { limit: 10, next_cursor: None, prev_cursor: Some("c1".into()) };
/// assert_eq!(
///     serde_json::to_string(&last).unwrap(),
///     r#"{"limit":10,"next_cursor":null,"prev_cursor":"c1"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CursorMeta {
    /// The page size.
    pub limit: u64,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
    /// The cursor of the previous page: the page of `limit` rows just
    /// before this page's first row, in the same order. Not serialized
    /// when `None` (the first page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prev_cursor: Option<String>,
}

/// The `links` member; absent links are omitted, never `null`.
///
/// ```
/// use problem_core::query::Links;
/// let links = Links { self_: "/b?page=1".into(), first: Some("/b?page=1".into()), ..Default::default() };
/// assert_eq!(
///     serde_json::to_string(&links).unwrap(),
///     r#"{"self":"/b?page=1","first":"/b?page=1"}"#
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Links {
    /// This page.
    #[serde(rename = "self")]
    pub self_: String,
    /// The first page (offset only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// The previous page (offset: page > 1; cursor: when `prev_cursor` is set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
    /// The next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The last page (offset, when the total is counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

impl Links {
    fn entries(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("self", Some(self.self_.as_str())),
            ("first", self.first.as_deref()),
            ("prev", self.prev.as_deref()),
            ("next", self.next.as_deref()),
            ("last", self.last.as_deref()),
        ]
        .into_iter()
        .filter_map(|(rel, url)| url.map(|u| (rel, u)))
    }
}

/// Builder of an RFC 8288 `Link` header value:
/// `<url>; rel="self", <url>; rel="next"`.
///
/// ```
/// use problem_core::query::{LinkHeader, Links};
/// let links = Links { self_: "/b?page=2".into(), next: Some("/b?page=3".into()), ..Default::default() };
/// assert_eq!(LinkHeader::from_links(&links).to_string(), r#"</b?page=2>; rel="self", </b?page=3>; rel="next""#);
/// assert_eq!(LinkHeader::new().link("/x", "sunset").to_string(), r#"</x>; rel="sunset""#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkHeader(Vec<(String, String)>);

impl LinkHeader {
    /// An empty header.
    ///
    /// ```
    /// use problem_core::query::LinkHeader;
    /// let h = LinkHeader::new();
    /// assert!(h.is_empty());
    /// assert_eq!(h.to_string(), "");
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a link; the URL is made a valid RFC 3986 URI reference (§4.1):
    /// `<`, `>`, `"`, spaces, control characters, `|`, `^`, `` ` ``, `\\`,
    /// `{`, `}`, `[`, `]`, `#`, non-ASCII characters and a `%` that does not
    /// start a `%XX` triplet are percent-encoded (RFC 8288 §3: the target is
    /// a URI reference). `rel` (one relation type, or several separated by
    /// spaces) is written as a quoted string (RFC 9110 §5.6.4): `"` and `\\`
    /// escaped with a backslash, characters other than printable ASCII and
    /// space left out, so it can never end the parameter early.
    ///
    /// ```
    /// use problem_core::query::LinkHeader;
    /// let h = LinkHeader::new().link("/books?q=café bar&p=50%", "next").link("/docs", "help");
    /// assert_eq!(h.to_string(), r#"</books?q=caf%C3%A9%20bar&p=50%25>; rel="next", </docs>; rel="help""#);
    /// let h = LinkHeader::new().link("/x", r#"next", </evil>; rel="prev"#);
    /// assert_eq!(h.to_string(), r#"</x>; rel="next\", </evil>; rel=\"prev""#);
    /// ```
    pub fn link(mut self, url: &str, rel: &str) -> Self {
        self.0.push((uri_reference(url), rel_text(rel)));
        self
    }

    /// The links of an envelope, in the order self, first, prev, next, last.
    ///
    /// ```
    /// use problem_core::query::{LinkHeader, Links};
    /// let links = Links {
    ///     self_: "/b".into(),
    ///     last: Some("/b?page=9".into()),
    ///     first: Some("/b?page=1".into()),
    ///     ..Default::default()
    /// };
    /// assert_eq!(
    ///     LinkHeader::from_links(&links).to_string(),
    ///     r#"</b>; rel="self", </b?page=1>; rel="first", </b?page=9>; rel="last""#
    /// );
    /// ```
    pub fn from_links(links: &Links) -> Self {
        links
            .entries()
            .fold(Self::new(), |h, (rel, url)| h.link(url, rel))
    }

    /// Whether there is no link.
    ///
    /// ```
    /// use problem_core::query::LinkHeader;
    /// assert!(LinkHeader::default().is_empty());
    /// assert!(!LinkHeader::new().link("/a", "self").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The header value: `None` when empty. A value longer than
    /// [`MAX_LINK_HEADER_LENGTH`](crate::spec::MAX_LINK_HEADER_LENGTH)
    /// (2 KiB) keeps only the `next` and `prev` links, the ones a client
    /// follows to page; when the two together are still longer, `next`
    /// alone, else `prev` alone, and `None` when each alone is longer. (A
    /// keyset page reached with a previous cursor, as the crate's
    /// responders send it, keeps `prev` alone before `next` alone.)
    ///
    /// ```
    /// use problem_core::query::LinkHeader;
    /// assert_eq!(LinkHeader::new().to_header_value(), None);
    /// let v = LinkHeader::new().link("/a b", "self").to_header_value().unwrap();
    /// assert_eq!(v, r#"</a%20b>; rel="self""#);
    ///
    /// let long = format!("/b?title__contains={}", "x".repeat(900));
    /// let h = LinkHeader::new()
    ///     .link(&long, "self")
    ///     .link(&format!("{long}&page=2"), "next")
    ///     .link(&format!("{long}&page=9"), "last");
    /// assert_eq!(
    ///     h.to_header_value().unwrap(),
    ///     format!(r#"<{long}&page=2>; rel="next""#).as_str()
    /// );
    /// // A long cursor in each: `next` alone fits, `prev` beside it does not.
    /// let cursor = "c".repeat(1200);
    /// let h = LinkHeader::new()
    ///     .link(&format!("/b?cursor=p{cursor}"), "prev")
    ///     .link(&format!("/b?cursor=n{cursor}"), "next");
    /// assert_eq!(
    ///     h.to_header_value().unwrap(),
    ///     format!(r#"</b?cursor=n{cursor}>; rel="next""#).as_str()
    /// );
    /// let longer = "x".repeat(3000);
    /// assert_eq!(LinkHeader::new().link(&longer, "next").to_header_value(), None);
    /// let h = LinkHeader::new().link("/b?cursor=p", "prev").link(&longer, "next");
    /// assert_eq!(h.to_header_value().unwrap(), r#"</b?cursor=p>; rel="prev""#);
    /// ```
    pub fn to_header_value(&self) -> Option<HeaderValue> {
        self.value_walking(false)
    }

    /// [`to_header_value`](Self::to_header_value), for a page a client
    /// reached walking back (`back`): over the budget, the link it follows
    /// on is kept first, `prev` alone before `next` alone.
    pub(crate) fn value_walking(&self, back: bool) -> Option<HeaderValue> {
        if self.0.is_empty() {
            return None;
        }
        let mut text = self.to_string();
        if text.len() > MAX_LINK_HEADER_LENGTH {
            // The paging links, both if they fit together, else the one
            // the client follows on (`next` walking forward, `prev`
            // walking back), else the other.
            let (on, other) = if back {
                ("prev", "next")
            } else {
                ("next", "prev")
            };
            let only = |rels: &[&str]| {
                let kept = self
                    .0
                    .iter()
                    .filter(|(_, rel)| rels.contains(&rel.as_str()));
                Self(kept.cloned().collect()).to_string()
            };
            text = [&["prev", "next"][..], &[on], &[other]]
                .into_iter()
                .map(only)
                .find(|t| !t.is_empty() && t.len() <= MAX_LINK_HEADER_LENGTH)?;
        }
        HeaderValue::from_str(&text).ok()
    }
}

impl std::fmt::Display for LinkHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (url, rel)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "<{url}>; rel=\"{rel}\"")?;
        }
        Ok(())
    }
}

/// A relation type as the content of a quoted string (RFC 9110 §5.6.4):
/// `"` and `\` escaped, anything but printable ASCII and space dropped.
fn rel_text(rel: &str) -> String {
    if rel
        .bytes()
        .all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\')
    {
        return rel.to_owned();
    }
    let mut out = String::with_capacity(rel.len() + 2);
    for c in rel.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {}
        }
    }
    out
}

/// `path?query` as a valid RFC 3986 URI reference (§4.1), see
/// [`uri::reference`].
fn uri_reference(url: &str) -> String {
    uri::reference(url, &uri::LINK_TARGET).into_owned()
}

/// `path?query` with the parameter `name` set to `value` (in place of its
/// first occurrence, later ones dropped; appended when absent) and the
/// parameters in `drop` and the tolerated ones removed; other parameters
/// are kept as sent.
pub(crate) fn url_with(
    path: &str,
    query: &str,
    name: &str,
    value: &str,
    drop: &[&str],
    tolerated: Tolerance<'_>,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut placed = false;
    for seg in query.split('&').filter(|s| !s.is_empty()) {
        let raw_name = seg.split_once('=').map_or(seg, |(k, _)| k);
        let decoded: String = form_urlencoded::parse(raw_name.as_bytes())
            .next()
            .map(|(k, _)| k.into_owned())
            .unwrap_or_default();
        if decoded == name {
            if !placed {
                parts.push(format!("{name}={value}"));
                placed = true;
            }
        } else if !drop.contains(&decoded.as_str()) && !tolerated.drops(&decoded) {
            parts.push(seg.to_owned());
        }
    }
    if !placed {
        parts.push(format!("{name}={value}"));
    }
    uri_reference(&format!("{path}?{}", parts.join("&")))
}

/// The request's own URL, without the tolerated parameters.
pub(crate) fn self_url(path: &str, query: &str, tolerated: Tolerance<'_>) -> String {
    let query = if tolerated.is_empty() {
        std::borrow::Cow::Borrowed(query)
    } else {
        std::borrow::Cow::Owned(
            query
                .split('&')
                .filter(|seg| {
                    let raw_name = seg.split_once('=').map_or(*seg, |(k, _)| k);
                    let decoded = form_urlencoded::parse(raw_name.as_bytes())
                        .next()
                        .map(|(k, _)| k.into_owned())
                        .unwrap_or_default();
                    !seg.is_empty() && !tolerated.drops(&decoded)
                })
                .collect::<Vec<_>>()
                .join("&"),
        )
    };
    if query.is_empty() {
        uri_reference(path)
    } else {
        uri_reference(&format!("{path}?{query}"))
    }
}

/// The items of a list, each written with the sparse fieldset applied as
/// it serializes (no `serde_json::Value` in between: each item's members
/// are written as `serde_json::to_vec` writes them). The position of an
/// item whose serialization failed is kept for [`ApplyError::NotAnObject`].
struct Items<'a, T> {
    data: &'a [T],
    fields: &'a FieldSelection,
    failed: Cell<Option<usize>>,
}

impl<'a, T> Items<'a, T> {
    fn new(data: &'a [T], fields: &'a FieldSelection) -> Self {
        Self {
            data,
            fields,
            failed: Cell::new(None),
        }
    }

    /// The error of a failed serialization, naming the item that failed.
    fn error(&self, e: &serde_json::Error) -> ApplyError {
        ApplyError::NotAnObject {
            index: self.failed.get().unwrap_or_default(),
            message: e.to_string(),
        }
    }
}

impl<T: Serialize> Serialize for Items<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.data.len()))?;
        for (index, item) in self.data.iter().enumerate() {
            let selected = Selected {
                item,
                fields: self.fields,
            };
            if let Err(e) = seq.serialize_element(&selected) {
                self.failed.set(Some(index));
                return Err(e);
            }
        }
        seq.end()
    }
}

/// `{"data": [...], "meta": {...}, "links": {...}}`, in this order.
struct Envelope<'a, T, M> {
    data: Items<'a, T>,
    meta: &'a M,
    links: &'a Links,
}

impl<T: Serialize, M: Serialize> Serialize for Envelope<'_, T, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut envelope = serializer.serialize_struct("Envelope", 3)?;
        envelope.serialize_field("data", &self.data)?;
        envelope.serialize_field("meta", self.meta)?;
        envelope.serialize_field("links", self.links)?;
        envelope.end()
    }
}

/// The JSON bytes of a list envelope.
fn envelope_bytes<T: Serialize, M: Serialize>(
    data: &[T],
    fields: &FieldSelection,
    meta: &M,
    links: &Links,
) -> Result<Vec<u8>, ApplyError> {
    let envelope = Envelope {
        data: Items::new(data, fields),
        meta,
        links,
    };
    serde_json::to_vec(&envelope).map_err(|e| envelope.data.error(&e))
}

/// The JSON bytes of a bare array of items.
fn items_bytes<T: Serialize>(data: &[T], fields: &FieldSelection) -> Result<Vec<u8>, ApplyError> {
    let items = Items::new(data, fields);
    serde_json::to_vec(&items).map_err(|e| items.error(&e))
}

/// The JSON value of rendered bytes (`to_json`): numbers are read back
/// exactly (`float_roundtrip`), members in order (`preserve_order`).
fn json_of(bytes: &[u8]) -> Result<Json, ApplyError> {
    serde_json::from_slice(bytes).map_err(|e| ApplyError::NotAnObject {
        index: 0,
        message: e.to_string(),
    })
}

/// A `200 OK` with a JSON body (`Content-Type: application/json`, as
/// `HttpResponse::json` sets it).
fn json_response(body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, mime::APPLICATION_JSON))
        .body(body)
}

fn respond(body: Result<(Vec<u8>, Links), ApplyError>, extras: &ListExtras) -> HttpResponse {
    match body {
        Ok((body, links)) => {
            let mut res = json_response(body);
            if let Some(v) = LinkHeader::from_links(&links).value_walking(extras.walked_back) {
                res.headers_mut().insert(LINK, v);
            }
            extras.apply(&mut res);
            res
        }
        Err(e) => HttpResponse::from_error(actix_web::Error::from(e)),
    }
}

/// An offset-paginated list response:
/// `{"data": [...], "meta": {"page", "per_page", "total", "total_pages"},
/// "links": {"self", "first", "prev", "next", "last"}}`, with the same links
/// in a `Link` header. As a [`Responder`] it computes the links from the
/// request and applies the sparse fieldset to each item as it serializes:
/// an item is written once, by its own `Serialize`, as
/// `serde_json::to_vec` writes it (the same bytes a `web::Json(item)`
/// handler sends: an `f32` as `0.1`, a `u128` whole), keeping the
/// top-level members of the object it serializes to that
/// [`FieldSelection::keeps`]. `Content-Type: application/json`.
///
/// Links: `first` always; `prev` when `page > 1`; `next` when
/// `page < total_pages`, or, without a total or with an estimated one,
/// when the page is full; `last` only with an exact total (page
/// `max(total_pages, 1)`).
///
/// A page built by a typed query ([`TypedQuery::page`](super::TypedQuery::page),
/// [`page_with_total`](super::TypedQuery::page_with_total),
/// [`page_in_memory`](super::TypedQuery::page_in_memory)) also answers
/// `Vary: Prefer` when the request carried `Prefer` (its total depends on
/// `Prefer: count=...`, RFC 7240 §2), `Preference-Applied: count=<strategy>` when the
/// client's preference was honoured (RFC 7240 §3), and leaves the tolerated
/// parameters out of its links.
///
/// ```
/// use problem_core::query::{FieldSelection, Page, Pagination};
/// let page = Page::new(vec![serde_json::json!({"id": 3, "t": "x"})], Pagination { page: 2, per_page: 1 }, Some(3))
///     .with_fields(FieldSelection { include: Some(vec!["id".into()]), exclude: vec![] });
/// assert_eq!(
///     page.to_json("/books", "page=2&per_page=1&fields=id").unwrap(),
///     serde_json::json!({
///         "data": [{"id": 3}],
///         "meta": {"page": 2, "per_page": 1, "total": 3, "total_pages": 3},
///         "links": {
///             "self": "/books?page=2&per_page=1&fields=id",
///             "first": "/books?page=1&per_page=1&fields=id",
///             "prev": "/books?page=1&per_page=1&fields=id",
///             "next": "/books?page=3&per_page=1&fields=id",
///             "last": "/books?page=3&per_page=1&fields=id"
///         }
///     })
/// );
/// ```
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items of the page.
    pub data: Vec<T>,
    /// Page number, size and optional total.
    pub meta: PageMeta,
    /// The sparse fieldset applied to each item on output.
    pub fields: FieldSelection,
    pub(crate) extras: ListExtras,
}

impl<T> Page<T> {
    /// A page of items; `total` is the number of matching items, if counted.
    ///
    /// ```
    /// use problem_core::query::{Page, PageMeta, Pagination};
    /// let page = Page::new(vec!["a", "b"], Pagination { page: 1, per_page: 2 }, Some(5));
    /// assert_eq!(
    ///     page.meta,
    ///     PageMeta { page: 1, per_page: 2, total: Some(5), total_pages: Some(3), total_is_estimate: false }
    /// );
    /// assert_eq!(page.links("/l", "").last.as_deref(), Some("/l?page=3"));
    /// ```
    pub fn new(data: Vec<T>, pagination: Pagination, total: Option<u64>) -> Self {
        Self::counted(data, pagination, total.map(Total::Exact))
    }

    /// A page of items with an exact or estimated total, if counted. With
    /// an estimate, `meta.total_is_estimate` is `true`, there is no `last`
    /// link (the last page is not known) and `next` is given when the page
    /// is full, as without a total.
    ///
    /// ```
    /// use problem_core::query::{Page, Pagination, Total};
    /// let page = Page::counted(vec![1, 2], Pagination { page: 1, per_page: 2 }, Some(Total::Estimate(10_001)));
    /// assert_eq!(
    ///     page.to_json("/n", "per_page=2").unwrap(),
    ///     serde_json::json!({
    ///         "data": [1, 2],
    ///         "meta": {"page": 1, "per_page": 2, "total": 10001, "total_pages": 5001, "total_is_estimate": true},
    ///         "links": {"self": "/n?per_page=2", "first": "/n?per_page=2&page=1", "next": "/n?per_page=2&page=2"}
    ///     })
    /// );
    /// ```
    ///
    /// An estimate is never below what the page shows to exist: the items
    /// before it and on it (`(page - 1) * per_page + data.len()`; with
    /// [`with_next(true)`](Self::with_next), one more). A database's
    /// estimate below that (a planner's row estimate, or a count stopped at
    /// the threshold) is raised to it, so that `total_pages` is never below
    /// a page that has items. A page that is not full ends the items, so
    /// an estimate then becomes what it shows; and an empty page past the
    /// end shows that there are at most the items before it, so a larger
    /// estimate is lowered to that.
    ///
    /// ```
    /// use problem_core::query::{Page, Pagination, Total};
    /// let deep = Pagination { page: 121, per_page: 100 };
    /// let page = Page::counted(vec![0; 9], deep, Some(Total::Estimate(10_001)));
    /// assert_eq!((page.meta.total, page.meta.total_pages), (Some(12_009), Some(121)));
    /// let page = Page::counted(vec![0; 9], deep, Some(Total::Estimate(20_000)));
    /// assert_eq!((page.meta.total, page.meta.total_pages), (Some(12_009), Some(121)));
    /// let past = Pagination { page: 102, per_page: 100 };
    /// let page = Page::<u8>::counted(vec![], past, Some(Total::Estimate(10_009)));
    /// assert_eq!((page.meta.total, page.meta.total_pages), (Some(10_009), Some(101)));
    /// let page = Page::<u8>::counted(vec![], past, Some(Total::Estimate(20_000)));
    /// assert_eq!((page.meta.total, page.meta.total_pages), (Some(10_100), Some(101)));
    /// ```
    pub fn counted(data: Vec<T>, pagination: Pagination, total: Option<Total>) -> Self {
        let mut page = Self {
            data,
            meta: PageMeta {
                page: pagination.page,
                per_page: pagination.per_page,
                total: None,
                total_pages: None,
                total_is_estimate: total.is_some_and(Total::is_estimate),
            },
            fields: FieldSelection::default(),
            extras: ListExtras::default(),
        };
        let value = match total {
            Some(Total::Estimate(n)) => Some(page.bound_estimate(n)),
            Some(Total::Exact(n)) => Some(n),
            None => None,
        };
        page.set_total(value);
        page
    }

    /// An estimated total kept within what this page shows: at least the
    /// items before it and on it; exactly those when the page is not full
    /// (it holds the last items); at most the items before it when it is
    /// empty (past the end).
    fn bound_estimate(&self, estimate: u64) -> u64 {
        let shown = self.shown();
        if self.data.is_empty() {
            estimate.min(shown)
        } else if (self.data.len() as u64) < self.meta.per_page {
            shown
        } else {
            estimate.max(shown)
        }
    }

    /// The items before this page and on it.
    fn shown(&self) -> u64 {
        self.meta
            .page
            .saturating_sub(1)
            .saturating_mul(self.meta.per_page)
            .saturating_add(self.data.len() as u64)
    }

    /// Sets `total` and `total_pages` from `total`.
    fn set_total(&mut self, total: Option<u64>) {
        let per_page = self.meta.per_page.max(1);
        self.meta.total = total;
        self.meta.total_pages = total.map(|t| t.div_ceil(per_page));
    }

    /// Sets the sparse fieldset.
    ///
    /// ```
    /// use problem_core::query::{FieldSelection, Page, Pagination, RawQuery};
    /// let fields = FieldSelection::parse(&RawQuery::parse("exclude=isbn").unwrap()).unwrap();
    /// let page = Page::new(vec![serde_json::json!({"id": 1, "isbn": "x"})], Pagination::default(), None)
    ///     .with_fields(fields);
    /// assert_eq!(page.to_json("/b", "").unwrap()["data"], serde_json::json!([{"id": 1}]));
    /// ```
    pub fn with_fields(mut self, fields: FieldSelection) -> Self {
        self.fields = fields;
        self
    }

    /// Says whether a next page exists, for a page without an exact total:
    /// read one row more than the page (`LIMIT per_page + 1`), drop it, and
    /// pass whether it was there. Without it, and without an exact total,
    /// the `next` link is given whenever the page is full, so the last page
    /// of an exact multiple links to an empty one. An exact total decides
    /// on its own. With an estimated total, `true` also raises the estimate
    /// to at least one item after this page.
    ///
    /// ```
    /// use problem_core::query::{Page, Pagination};
    /// let full = Pagination { page: 2, per_page: 2 };
    /// assert!(Page::new(vec![3, 4], full, None).links("/n", "page=2&per_page=2").next.is_some());
    /// let last = Page::new(vec![3, 4], full, None).with_next(false);
    /// assert_eq!(last.links("/n", "page=2&per_page=2").next, None);
    /// ```
    pub fn with_next(mut self, has_next: bool) -> Self {
        self.extras.has_next = Some(has_next);
        if has_next
            && self.meta.total_is_estimate
            && let Some(total) = self.meta.total
        {
            let at_least = self.shown().saturating_add(1);
            self.set_total(Some(total.max(at_least)));
        }
        self
    }

    /// The links for a request with this path and raw query string, each a
    /// valid RFC 3986 URI reference (§4.1: characters outside it
    /// percent-encoded).
    ///
    /// ```
    /// use problem_core::query::{LinkHeader, Page, Pagination};
    /// let page = Page::new(vec![1, 2], Pagination { page: 1, per_page: 2 }, Some(3));
    /// let links = page.links("/books", "title__contains=a|b^c`d\\e f&per_page=2");
    /// assert_eq!(links.self_, "/books?title__contains=a%7Cb%5Ec%60d%5Ce%20f&per_page=2");
    /// assert_eq!(links.next.as_deref(), Some("/books?title__contains=a%7Cb%5Ec%60d%5Ce%20f&per_page=2&page=2"));
    /// // Past the last page, `prev` is the last page.
    /// let past = Page::<i32>::new(vec![], Pagination { page: 9, per_page: 2 }, Some(3));
    /// assert_eq!(past.links("/books", "page=9&per_page=2").prev.as_deref(), Some("/books?page=2&per_page=2"));
    /// // So it is past an estimated last page (no `last` link: it is not known).
    /// use problem_core::query::Total;
    /// let past = Page::<i32>::counted(vec![], Pagination { page: 9000, per_page: 5 }, Some(Total::Estimate(10_001)));
    /// let past_links = past.links("/books", "page=9000&per_page=5");
    /// assert_eq!(past_links.prev.as_deref(), Some("/books?page=2001&per_page=5"));
    /// assert_eq!(past_links.last, None);
    /// assert_eq!(
    ///     LinkHeader::new().link(&links.self_, "self").to_string(),
    ///     r#"</books?title__contains=a%7Cb%5Ec%60d%5Ce%20f&per_page=2>; rel="self""#
    /// );
    /// ```
    pub fn links(&self, path: &str, query: &str) -> Links {
        let page = self.meta.page;
        let tolerated = self.extras.tolerance();
        let at = |p: u64| url_with(path, query, "page", &p.to_string(), &["cursor"], tolerated);
        let known_pages = self
            .meta
            .total_pages
            .filter(|_| !self.meta.total_is_estimate);
        let next = match known_pages {
            Some(tp) => page < tp,
            None => self
                .extras
                .has_next
                .unwrap_or(self.data.len() as u64 >= self.meta.per_page),
        };
        // Past the known last page, `prev` is the last page (the page
        // before this one would be empty too). An empty page past an
        // estimated last page (the count stopped at its threshold, or a
        // planner's estimate) points back there too: that page has items,
        // as far as the estimate knows, and the one before this may not.
        let last_known = known_pages.or_else(|| {
            self.meta
                .total_pages
                .filter(|&tp| self.data.is_empty() && page > tp)
        });
        let prev = last_known.map_or(page.saturating_sub(1), |tp| {
            page.saturating_sub(1).min(tp.max(1))
        });
        Links {
            self_: self_url(path, query, tolerated),
            first: Some(at(1)),
            prev: (page > 1).then(|| at(prev)),
            // No page follows `u64::MAX` (a hand-built `Pagination`; a
            // parsed page is at most `i64::MAX + 1`).
            next: page.checked_add(1).filter(|_| next).map(at),
            last: known_pages.map(|tp| at(tp.max(1))),
        }
    }
}

impl<T: Serialize> Page<T> {
    /// The envelope for a request with this path and raw query string.
    ///
    /// ```
    /// use problem_core::query::{Page, Pagination};
    /// let page = Page::new(vec!["a"], Pagination { page: 1, per_page: 20 }, Some(1));
    /// assert_eq!(
    ///     page.to_json("/l", "sort=-id").unwrap(),
    ///     serde_json::json!({
    ///         "data": ["a"],
    ///         "meta": {"page": 1, "per_page": 20, "total": 1, "total_pages": 1},
    ///         "links": {"self": "/l?sort=-id", "first": "/l?sort=-id&page=1", "last": "/l?sort=-id&page=1"}
    ///     })
    /// );
    /// ```
    ///
    /// # Errors
    /// [`ApplyError::NotAnObject`] when an item does not serialize.
    pub fn to_json(&self, path: &str, query: &str) -> Result<Json, ApplyError> {
        self.render(path, query)
            .and_then(|(bytes, _)| json_of(&bytes))
    }

    fn render(&self, path: &str, query: &str) -> Result<(Vec<u8>, Links), ApplyError> {
        let links = self.links(path, query);
        let bytes = envelope_bytes(&self.data, &self.fields, &self.meta, &links)?;
        Ok((bytes, links))
    }
}

impl<T: Serialize> Responder for Page<T> {
    type Body = BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        respond(
            self.render(&request_path(req), req.query_string()),
            &self.extras,
        )
    }
}

/// A cursor-paginated list response:
/// `{"data": [...], "meta": {"limit", "next_cursor", "prev_cursor"}, "links": {"self", "prev", "next"}}`,
/// with the same links in a `Link` header (`rel="prev"`, `rel="next"`);
/// `next` (`prev`) is the request URL with `cursor` set to `next_cursor`
/// (`prev_cursor`) and `page` dropped. A link is omitted when its cursor is
/// `null`: the first page has no `prev`, the last no `next`.
///
/// ```
/// use problem_core::query::CursorPage;
/// let page = CursorPage::new(vec![1, 2], 2, Some("abc".into())).with_prev_cursor(Some("xyz".into()));
/// assert_eq!(
///     page.to_json("/n", "limit=2&sort=-id&cursor=old").unwrap(),
///     serde_json::json!({
///         "data": [1, 2],
///         "meta": {"limit": 2, "next_cursor": "abc", "prev_cursor": "xyz"},
///         "links": {
///             "self": "/n?limit=2&sort=-id&cursor=old",
///             "prev": "/n?limit=2&sort=-id&cursor=xyz",
///             "next": "/n?limit=2&sort=-id&cursor=abc"
///         }
///     })
/// );
/// let first = CursorPage::new(vec![1, 2], 2, Some("abc".into()));
/// assert_eq!(
///     first.to_json("/n", "limit=2").unwrap()["meta"],
///     serde_json::json!({"limit": 2, "next_cursor": "abc"})
/// );
/// ```
#[derive(Debug, Clone)]
pub struct CursorPage<T> {
    /// The items of the page.
    pub data: Vec<T>,
    /// Page size, next and previous cursors.
    pub meta: CursorMeta,
    /// The sparse fieldset applied to each item on output.
    pub fields: FieldSelection,
    pub(crate) extras: ListExtras,
}

impl<T> CursorPage<T> {
    /// A page of items with its page size and the next cursor, if any (no
    /// previous cursor: see [`with_prev_cursor`](Self::with_prev_cursor)).
    ///
    /// ```
    /// use problem_core::query::{CursorMeta, CursorPage};
    /// let page = CursorPage::new(vec![1, 2], 2, Some("c3".into()));
    /// assert_eq!(page.meta, CursorMeta { limit: 2, next_cursor: Some("c3".into()), prev_cursor: None });
    /// ```
    pub fn new(data: Vec<T>, limit: u64, next_cursor: Option<String>) -> Self {
        Self {
            data,
            meta: CursorMeta {
                limit,
                next_cursor,
                prev_cursor: None,
            },
            fields: FieldSelection::default(),
            extras: ListExtras::default(),
        }
    }

    /// Sets the previous page's cursor (`None`: this is the first page).
    ///
    /// ```
    /// use problem_core::query::CursorPage;
    /// let page = CursorPage::new(vec![3], 1, None).with_prev_cursor(Some("c2".into()));
    /// assert_eq!(page.meta.prev_cursor.as_deref(), Some("c2"));
    /// assert_eq!(page.links("/n", "limit=1&page=3").prev.as_deref(), Some("/n?limit=1&cursor=c2"));
    /// ```
    pub fn with_prev_cursor(mut self, prev_cursor: Option<String>) -> Self {
        self.meta.prev_cursor = prev_cursor;
        self
    }

    /// Sets the sparse fieldset.
    ///
    /// ```
    /// use problem_core::query::{CursorPage, FieldSelection, RawQuery};
    /// let fields = FieldSelection::parse(&RawQuery::parse("fields=id").unwrap()).unwrap();
    /// let page = CursorPage::new(vec![serde_json::json!({"id": 1, "isbn": "x"})], 1, None).with_fields(fields);
    /// assert_eq!(page.to_json("/b", "fields=id").unwrap()["data"], serde_json::json!([{"id": 1}]));
    /// ```
    pub fn with_fields(mut self, fields: FieldSelection) -> Self {
        self.fields = fields;
        self
    }

    /// The links for a request with this path and raw query string.
    ///
    /// ```
    /// use problem_core::query::{CursorPage, Links};
    /// let page = CursorPage::new(vec![1], 1, Some("c9".into()));
    /// assert_eq!(
    ///     page.links("/n", "limit=1&cursor=c8"),
    ///     Links {
    ///         self_: "/n?limit=1&cursor=c8".into(),
    ///         next: Some("/n?limit=1&cursor=c9".into()),
    ///         ..Default::default()
    ///     }
    /// );
    /// ```
    pub fn links(&self, path: &str, query: &str) -> Links {
        let tolerated = self.extras.tolerance();
        let at = |c: &String| url_with(path, query, "cursor", c, &["page"], tolerated);
        Links {
            self_: self_url(path, query, tolerated),
            prev: self.meta.prev_cursor.as_ref().map(at),
            next: self.meta.next_cursor.as_ref().map(at),
            ..Links::default()
        }
    }
}

impl<T: Serialize> CursorPage<T> {
    /// The envelope for a request with this path and raw query string.
    ///
    /// ```
    /// use problem_core::query::CursorPage;
    /// let page = CursorPage::new(vec![serde_json::json!({"id": 9})], 20, None);
    /// assert_eq!(
    ///     page.to_json("/n", "").unwrap(),
    ///     serde_json::json!({
    ///         "data": [{"id": 9}],
    ///         "meta": {"limit": 20, "next_cursor": null},
    ///         "links": {"self": "/n"}
    ///     })
    /// );
    /// ```
    ///
    /// # Errors
    /// [`ApplyError::NotAnObject`] when an item does not serialize.
    pub fn to_json(&self, path: &str, query: &str) -> Result<Json, ApplyError> {
        self.render(path, query)
            .and_then(|(bytes, _)| json_of(&bytes))
    }

    fn render(&self, path: &str, query: &str) -> Result<(Vec<u8>, Links), ApplyError> {
        let links = self.links(path, query);
        let bytes = envelope_bytes(&self.data, &self.fields, &self.meta, &links)?;
        Ok((bytes, links))
    }
}

impl<T: Serialize> Responder for CursorPage<T> {
    type Body = BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        respond(
            self.render(&request_path(req), req.query_string()),
            &self.extras,
        )
    }
}

/// `X-Total-Count`: the number of matching items, sent by [`BareList`]
/// when an offset page counted its total.
///
/// ```
/// use problem_core::query::X_TOTAL_COUNT;
/// assert_eq!(X_TOTAL_COUNT.as_str(), "x-total-count");
/// ```
pub const X_TOTAL_COUNT: HeaderName = HeaderName::from_static("x-total-count");

/// A list answered as a bare JSON array of items (the version-2 style of
/// list, without the `{"data", "meta", "links"}` envelope): the sparse
/// fieldset (`fields`, `exclude`) applied to each item as in [`Page`] and
/// [`CursorPage`], the envelope's links in the RFC 8288 `Link` header, and
/// the total of an offset page, when counted, in `X-Total-Count` (a keyset
/// page's too, when built by
/// [`TypedQuery::counted_bare_list`](super::TypedQuery::counted_bare_list)).
///
/// Build it from either page: `BareList::from(page)` or
/// [`Page::into_bare`] / [`CursorPage::into_bare`].
///
/// ```
/// use actix_web::{test, web, App};
/// use problem_core::query::{BareList, FieldSelection, Page, Pagination};
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(App::new().route("/books", web::get().to(|| async {
///     let items = vec![serde_json::json!({"id": 3, "title": "Dune"})];
///     Page::new(items, Pagination { page: 2, per_page: 1 }, Some(3))
///         .with_fields(FieldSelection { include: Some(vec!["id".into()]), exclude: vec![] })
///         .into_bare()
/// }))).await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/books?page=2&per_page=1&fields=id").to_request()).await;
/// assert_eq!(res.headers().get("x-total-count").unwrap(), "3");
/// assert_eq!(
///     res.headers().get("link").unwrap(),
///     concat!(
///         r#"</books?page=2&per_page=1&fields=id>; rel="self", </books?page=1&per_page=1&fields=id>; rel="first", "#,
///         r#"</books?page=1&per_page=1&fields=id>; rel="prev", </books?page=3&per_page=1&fields=id>; rel="next", "#,
///         r#"</books?page=3&per_page=1&fields=id>; rel="last""#,
///     )
/// );
/// assert_eq!(test::read_body(res).await, r#"[{"id":3}]"#);
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct BareList<T>(BareSource<T>);

#[derive(Debug, Clone)]
enum BareSource<T> {
    Offset(Page<T>),
    /// A keyset page, with the total of the collection when it was counted
    /// ([`TypedQuery::counted_bare_list`](super::TypedQuery::counted_bare_list)).
    Cursor(CursorPage<T>, Option<u64>),
}

impl<T> From<Page<T>> for BareList<T> {
    fn from(page: Page<T>) -> Self {
        Self(BareSource::Offset(page))
    }
}

impl<T> From<CursorPage<T>> for BareList<T> {
    fn from(page: CursorPage<T>) -> Self {
        Self(BareSource::Cursor(page, None))
    }
}

impl<T> BareList<T> {
    /// A keyset page with the total of the whole collection.
    pub(crate) fn counted_cursor(page: CursorPage<T>, total: Option<u64>) -> Self {
        Self(BareSource::Cursor(page, total))
    }
}

impl<T> Page<T> {
    /// This page as a bare array: see [`BareList`].
    ///
    /// ```
    /// use problem_core::query::{Page, Pagination};
    /// let list = Page::new(vec![1, 2], Pagination { page: 1, per_page: 2 }, Some(5)).into_bare();
    /// assert_eq!(list.total(), Some(5));
    /// ```
    pub fn into_bare(self) -> BareList<T> {
        BareList::from(self)
    }
}

impl<T> CursorPage<T> {
    /// This page as a bare array: see [`BareList`].
    ///
    /// ```
    /// use problem_core::query::CursorPage;
    /// let list = CursorPage::new(vec![1, 2], 2, None).into_bare();
    /// assert_eq!(list.total(), None);
    /// ```
    pub fn into_bare(self) -> BareList<T> {
        BareList::from(self)
    }
}

impl<T> BareList<T> {
    /// The total sent in `X-Total-Count`: an offset page's counted total,
    /// or a keyset page's from
    /// [`TypedQuery::counted_bare_list`](super::TypedQuery::counted_bare_list);
    /// `None` for another cursor page or an uncounted total.
    ///
    /// ```
    /// use problem_core::query::{BareList, Page, Pagination};
    /// let list = BareList::from(Page::new(vec!["a"], Pagination { page: 1, per_page: 10 }, None));
    /// assert_eq!(list.total(), None);
    /// ```
    pub fn total(&self) -> Option<u64> {
        match &self.0 {
            BareSource::Offset(page) => page.meta.total,
            BareSource::Cursor(_, total) => *total,
        }
    }

    /// The links sent in the `Link` header, as the envelope's `links`.
    ///
    /// ```
    /// use problem_core::query::CursorPage;
    /// let list = CursorPage::new(vec![1], 1, Some("c1".into())).into_bare();
    /// assert_eq!(list.links("/n", "limit=1").next.as_deref(), Some("/n?limit=1&cursor=c1"));
    /// ```
    pub fn links(&self, path: &str, query: &str) -> Links {
        match &self.0 {
            BareSource::Offset(page) => page.links(path, query),
            BareSource::Cursor(page, _) => page.links(path, query),
        }
    }
}

impl<T: Serialize> BareList<T> {
    /// The array of items, each with the sparse fieldset applied.
    ///
    /// # Errors
    /// [`ApplyError::NotAnObject`] when an item does not serialize.
    ///
    /// ```
    /// use problem_core::query::{CursorPage, FieldSelection};
    /// let list = CursorPage::new(vec![serde_json::json!({"id": 1, "t": "x"})], 1, None)
    ///     .with_fields(FieldSelection { include: None, exclude: vec!["t".into()] })
    ///     .into_bare();
    /// assert_eq!(list.to_json().unwrap(), serde_json::json!([{"id": 1}]));
    /// ```
    pub fn to_json(&self) -> Result<Json, ApplyError> {
        self.render().and_then(|bytes| json_of(&bytes))
    }

    fn render(&self) -> Result<Vec<u8>, ApplyError> {
        match &self.0 {
            BareSource::Offset(page) => items_bytes(&page.data, &page.fields),
            BareSource::Cursor(page, _) => items_bytes(&page.data, &page.fields),
        }
    }
}

impl<T: Serialize> Responder for BareList<T> {
    type Body = BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        let body = match self.render() {
            Ok(body) => body,
            Err(e) => return HttpResponse::from_error(actix_web::Error::from(e)),
        };
        let links = self.links(&request_path(req), req.query_string());
        let mut res = json_response(body);
        if let Some(total) = self.total() {
            res.headers_mut()
                .insert(X_TOTAL_COUNT, HeaderValue::from(total));
        }
        let extras = match &self.0 {
            BareSource::Offset(page) => &page.extras,
            BareSource::Cursor(page, _) => &page.extras,
        };
        if let Some(v) = LinkHeader::from_links(&links).value_walking(extras.walked_back) {
            res.headers_mut().insert(LINK, v);
        }
        extras.apply(&mut res);
        res
    }
}

/// The request path as the client sent it: the `OriginalPath` recorded by a
/// middleware that rewrote it (URL-path versioning), else the path. Links
/// keep the client's version segment.
///
/// ```
/// use actix_web::{HttpMessage, test::TestRequest};
/// use problem_core::query::request_path;
/// use problem_core::routing::OriginalPath;
/// let req = TestRequest::with_uri("/books?page=2").to_http_request();
/// assert_eq!(request_path(&req), "/books");
/// req.extensions_mut().insert(OriginalPath("/v2/books".into()));
/// assert_eq!(request_path(&req), "/v2/books");
/// ```
pub fn request_path(req: &HttpRequest) -> String {
    use actix_web::HttpMessage;
    match req.extensions().get::<crate::routing::OriginalPath>() {
        Some(p) => p.0.clone(),
        None => req.path().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last page a `u64` can number has no next link (it overflowed).
    #[test]
    fn no_page_after_u64_max() {
        let page = Page::new(
            vec![1, 2],
            Pagination {
                page: u64::MAX,
                per_page: 2,
            },
            None,
        );
        let links = page.links("/n", "");
        assert_eq!(links.next, None);
        assert_eq!(links.prev.as_deref(), Some("/n?page=18446744073709551614"));
    }
}
