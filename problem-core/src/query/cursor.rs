//! Keyset cursors: the `cursor` parameter and the signed, opaque cursor
//! token (the crate's design rules, "cursor format", "cursor and page together").
//!
//! A token is `base64url(payload || tag)` without padding, where `payload`
//! is a versioned JSON object and `tag` is HMAC-SHA256 over a
//! domain-separation prefix and the payload. The tag is checked in constant
//! time with every configured key (key rotation: the first key signs, all
//! keys verify) **before** the payload is decoded.
//!
//! Payload versions:
//!
//! | Version | Payload | Meaning |
//! |---|---|---|
//! | 1 | `{"v":1,"r":<resource>,"s":<sort>,"k":[<sort-key values>],"h":<hash of filters and search>}` | a **next** cursor: the rows strictly after the row whose sort-key values are `k` (the last row of the page that issued it) |
//! | 2 | version 1's members plus `"d":"next"` or `"d":"prev"` | `"prev"`: a **previous** cursor, the rows strictly before the row `k` (the first row of the page that issued it), the page nearest to it |
//!
//! Next cursors are still written in version 1, byte for byte as before
//! previous cursors existed, so tokens issued by earlier releases keep
//! working and a server of an earlier release still accepts the next
//! cursors of this one. Previous cursors are written in version 2, which an
//! earlier release refuses as `invalid_cursor` (instead of reading one as a
//! next cursor and answering the wrong page). A version-1 payload carrying
//! `d`, a version-2 payload without it, and any other version are
//! `invalid_cursor`.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use sha2::Sha256;

use crate::config::HttpConfigError;
use crate::problem::Issue;

use super::error::{QueryError, code, conflict, issue};
use super::pagination::{PageSizeLimits, parse_page_size};
use super::params::{Pairs, RawQuery};

type HmacSha256 = Hmac<Sha256>;

/// Payload version of next cursors (no direction member).
const VERSION_NEXT: u8 = 1;
/// Payload version with a direction member (`"d"`), used by previous cursors.
const VERSION_DIRECTED: u8 = 2;
/// Length of the HMAC-SHA256 tag.
const TAG_LEN: usize = 32;
/// Longest token accepted (characters); longer ones are `invalid_cursor`.
pub const MAX_CURSOR_LENGTH: usize = 4096;
/// Shortest accepted cursor key, in bytes.
pub const MIN_CURSOR_KEY_LENGTH: usize = 32;
const DOMAIN: &[u8] = b"problem-core/cursor/v1\0";

/// The HMAC keys cursors are signed with: the first key signs, every key
/// verifies, so a key can be rotated by putting the new one first and
/// keeping the old one until its cursors have expired.
///
/// There is no built-in or random default key: cursor pagination needs a key
/// configured (see `QueryConfig::cursor_keys`).
///
/// ```
/// use problem_core::query::CursorKeys;
/// let keys = CursorKeys::new([[7u8; 32].to_vec()]).unwrap();
/// assert_eq!(keys.len(), 1);
/// assert!(CursorKeys::new([b"short".to_vec()]).is_err());
/// assert!(CursorKeys::new(Vec::<Vec<u8>>::new()).is_err());
/// ```
#[derive(Clone)]
pub struct CursorKeys(Arc<[HmacSha256]>);

impl CursorKeys {
    /// Keys, newest first; each at least 32 bytes.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidQueryConfig`] for no key or a short key.
    pub fn new<I, K>(keys: I) -> Result<Self, HttpConfigError>
    where
        I: IntoIterator<Item = K>,
        K: Into<Vec<u8>>,
    {
        let keys: Vec<Vec<u8>> = keys.into_iter().map(Into::into).collect();
        if keys.is_empty() {
            return Err(HttpConfigError::InvalidQueryConfig(
                "at least one cursor key is needed".into(),
            ));
        }
        if let Some(i) = keys.iter().position(|k| k.len() < MIN_CURSOR_KEY_LENGTH) {
            return Err(HttpConfigError::InvalidQueryConfig(format!(
                "cursor key #{i} is shorter than {MIN_CURSOR_KEY_LENGTH} bytes"
            )));
        }
        // Each key's HMAC state after the key and the domain: cloned per
        // token, so the key's two padded blocks are hashed once, here.
        let macs = keys
            .iter()
            .map(|k| {
                let mut mac = HmacSha256::new_from_slice(k).map_err(|_| {
                    HttpConfigError::InvalidQueryConfig("a cursor key is not usable".into())
                })?;
                mac.update(DOMAIN);
                Ok(mac)
            })
            .collect::<Result<Vec<_>, HttpConfigError>>()?;
        Ok(Self(macs.into()))
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: there is at least one key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn mac(key: &HmacSha256, payload: &[u8]) -> HmacSha256 {
        let mut mac = key.clone();
        mac.update(payload);
        mac
    }

    /// Signs a payload into a token.
    pub(crate) fn seal(&self, payload: &CursorPayload) -> Option<String> {
        let bytes = serde_json::to_vec(payload).ok()?;
        let tag = Self::mac(self.0.first()?, &bytes).finalize().into_bytes();
        let mut all = bytes;
        all.extend_from_slice(&tag);
        Some(URL_SAFE_NO_PAD.encode(all))
    }

    /// Verifies and decodes a token; `None` for any malformed, tampered,
    /// truncated or foreign token.
    pub(crate) fn open(&self, token: &str) -> Option<CursorPayload> {
        if token.len() > MAX_CURSOR_LENGTH {
            return None;
        }
        let all = URL_SAFE_NO_PAD.decode(token).ok()?;
        if all.len() <= TAG_LEN {
            return None;
        }
        let (payload, tag) = all.split_at(all.len() - TAG_LEN);
        let verified = self
            .0
            .iter()
            .any(|k| Self::mac(k, payload).verify_slice(tag).is_ok());
        if !verified {
            return None;
        }
        let p: CursorPayload = serde_json::from_slice(payload).ok()?;
        let valid = matches!(
            (p.v, p.d),
            (VERSION_NEXT, None) | (VERSION_DIRECTED, Some(_))
        );
        valid.then_some(p)
    }
}

impl fmt::Debug for CursorKeys {
    /// Never prints the keys.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CursorKeys({} key(s), redacted)", self.0.len())
    }
}

/// Which way a cursor pages from its row (payload member `d`, version 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Way {
    /// The rows after the cursor's row.
    Next,
    /// The rows before the cursor's row.
    Prev,
}

/// The decoded content of a cursor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CursorPayload {
    pub v: u8,
    /// The resource (query struct) that issued it.
    pub r: String,
    /// The full effective sort, key included (`-year,id`).
    pub s: String,
    /// The last row's value of each sort entry.
    pub k: Vec<Json>,
    /// Hash of the filters and the search.
    pub h: String,
    /// The direction (version 2 only; version 1 is always next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<Way>,
}

impl CursorPayload {
    /// A next cursor (version 1) after the row with sort-key `values`.
    pub(crate) fn new(resource: &str, sort: String, values: Vec<Json>, hash: String) -> Self {
        Self {
            v: VERSION_NEXT,
            r: resource.to_owned(),
            s: sort,
            k: values,
            h: hash,
            d: None,
        }
    }

    /// A cursor going `way` from the row with sort-key `values`: version 1
    /// for next, version 2 with `"d":"prev"` for previous.
    pub(crate) fn directed(
        resource: &str,
        sort: String,
        values: Vec<Json>,
        hash: String,
        way: Way,
    ) -> Self {
        let mut p = Self::new(resource, sort, values, hash);
        if way == Way::Prev {
            p.v = VERSION_DIRECTED;
            p.d = Some(Way::Prev);
        }
        p
    }

    /// The direction: a version-1 payload is always next.
    pub(crate) fn way(&self) -> Way {
        self.d.unwrap_or(Way::Next)
    }
}

/// SHA-256 (hex, first 16 bytes) of a canonical text.
pub(crate) fn digest(canonical: &str) -> String {
    use sha2::Digest as _;
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let d = Sha256::digest(canonical.as_bytes());
    let mut out = String::with_capacity(32);
    for b in d.iter().take(16) {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    out
}

/// `invalid_cursor` issue.
pub(crate) fn invalid_cursor() -> Issue {
    issue(
        "cursor",
        code::INVALID_CURSOR,
        "the cursor is malformed, tampered with or was not issued by this collection",
    )
}

/// `cursor_mismatch` issue.
pub(crate) fn cursor_mismatch(what: &str) -> Issue {
    issue(
        "cursor",
        code::CURSOR_MISMATCH,
        format!(
            "the cursor was issued for a different {what}: send the same sort, filters and search as the first page, or drop the cursor"
        ),
    )
}

/// Cursor pagination parameters: `cursor` (opaque, absent on the first
/// page) and the page size `limit` (or `per_page`; default 20, clamped to
/// the maximum). `cursor` together with `page` is `conflicting_parameters`;
/// an empty `cursor=` means the first page.
///
/// ```
/// use problem_core::query::{CursorPagination, RawQuery};
/// let c = CursorPagination::parse(&RawQuery::parse("cursor=abc&limit=5").unwrap()).unwrap();
/// assert_eq!((c.cursor.as_deref(), c.limit), (Some("abc"), 5));
/// assert!(CursorPagination::parse(&RawQuery::parse("cursor=abc&page=2").unwrap()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CursorPagination {
    /// The token of the page to fetch, `None` for the first page.
    pub cursor: Option<String>,
    /// The page size.
    pub limit: u64,
}

impl CursorPagination {
    /// Parses `cursor` and `limit`/`per_page` with the default limits.
    ///
    /// # Errors
    /// [`QueryError::Invalid`] with every issue found.
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        let mut issues = Vec::new();
        let raw = raw.borrowed();
        let limit = parse_page_size(&raw, PageSizeLimits::default(), &mut issues);
        let cursor = parse_cursor_param(&raw, &mut issues);
        QueryError::from_issues(issues).map(|()| Self { cursor, limit })
    }
}

pub(crate) fn parse_cursor_param(raw: &Pairs<'_>, issues: &mut Vec<Issue>) -> Option<String> {
    let cursor = raw.single("cursor", issues)?;
    // An empty `cursor=` means "not given", so it never conflicts.
    if cursor.is_empty() {
        return None;
    }
    if raw.contains("page") {
        issues.push(conflict(
            "cursor",
            &["cursor", "page"],
            "`cursor` and `page` cannot be combined: a cursor already says which page comes next",
        ));
        return None;
    }
    Some(cursor.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> CursorKeys {
        CursorKeys::new([vec![1u8; 32], vec![2u8; 40]]).unwrap()
    }

    #[test]
    fn empty_cursor_is_not_given_and_does_not_conflict_with_page() {
        let raw = RawQuery::parse("cursor=&page=2").unwrap();
        assert_eq!(CursorPagination::parse(&raw).unwrap().cursor, None);
        let raw = RawQuery::parse("cursor=abc&page=2").unwrap();
        let err = CursorPagination::parse(&raw).unwrap_err();
        assert_eq!(err.issues().len(), 1);
        assert_eq!(err.issues()[0].code, "conflicting_parameters");
    }

    #[test]
    fn round_trip_and_rotation() {
        let p = CursorPayload::new(
            "Book",
            "-year,id".into(),
            vec![Json::from(2001), Json::from(7)],
            "ab".into(),
        );
        let token = keys().seal(&p).unwrap();
        assert_eq!(keys().open(&token), Some(p.clone()));
        // an old key still verifies
        let old = CursorKeys::new([vec![2u8; 40]]).unwrap();
        let t_old = old.seal(&p).unwrap();
        assert_eq!(keys().open(&t_old), Some(p.clone()));
        // a foreign key does not
        let foreign = CursorKeys::new([vec![3u8; 32]]).unwrap();
        assert_eq!(keys().open(&foreign.seal(&p).unwrap()), None);
    }

    #[test]
    fn next_cursors_keep_version_1_and_prev_cursors_are_version_2() {
        let next =
            CursorPayload::directed("B", "id".into(), vec![Json::from(1)], "h".into(), Way::Next);
        assert_eq!(
            serde_json::to_string(&next).unwrap(),
            r#"{"v":1,"r":"B","s":"id","k":[1],"h":"h"}"#
        );
        let prev =
            CursorPayload::directed("B", "id".into(), vec![Json::from(1)], "h".into(), Way::Prev);
        assert_eq!(
            serde_json::to_string(&prev).unwrap(),
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h","d":"prev"}"#
        );
        assert_eq!(
            keys().open(&keys().seal(&prev).unwrap()).unwrap().way(),
            Way::Prev
        );
        assert_eq!(
            keys().open(&keys().seal(&next).unwrap()).unwrap().way(),
            Way::Next
        );
        let sealed = |json: &str| {
            let bytes = json.as_bytes();
            // HMAC-SHA256 over the domain and the payload, computed here
            // independently of `CursorKeys`.
            let mut mac = HmacSha256::new_from_slice(&[1u8; 32]).unwrap();
            mac.update(DOMAIN);
            mac.update(bytes);
            let tag = mac.finalize().into_bytes();
            let mut all = bytes.to_vec();
            all.extend_from_slice(&tag);
            URL_SAFE_NO_PAD.encode(all)
        };
        // A version-2 next cursor is accepted; the mixed forms are not.
        let ok = keys().open(&sealed(
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h","d":"next"}"#,
        ));
        assert_eq!(ok.map(|p| p.way()), Some(Way::Next));
        for bad in [
            r#"{"v":1,"r":"B","s":"id","k":[1],"h":"h","d":"prev"}"#,
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h"}"#,
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h","d":"back"}"#,
            r#"{"v":3,"r":"B","s":"id","k":[1],"h":"h","d":"prev"}"#,
        ] {
            assert_eq!(keys().open(&sealed(bad)), None, "{bad}");
        }
    }

    #[test]
    fn tampered_truncated_garbage() {
        let p = CursorPayload::new("Book", "id".into(), vec![Json::from(1)], "h".into());
        let token = keys().seal(&p).unwrap();
        for cut in [1, 5, token.len() / 2, token.len() - 1] {
            assert_eq!(keys().open(&token[..cut]), None);
        }
        let mut bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
        bytes[3] ^= 1;
        assert_eq!(keys().open(&URL_SAFE_NO_PAD.encode(&bytes)), None);
        assert_eq!(keys().open(""), None);
        assert_eq!(keys().open("!!!"), None);
        assert_eq!(keys().open(&"A".repeat(MAX_CURSOR_LENGTH + 1)), None);
    }
}
