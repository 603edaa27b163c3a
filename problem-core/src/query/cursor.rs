//! Keyset cursors: the `cursor` parameter and the signed, opaque cursor
//! token.
//!
//! A token is `base64url(payload || tag)` without padding (decoded
//! strictly: padding, non-zero trailing bits or any byte outside the
//! URL-safe alphabet is `invalid_cursor`), where `payload` is versioned
//! and `tag` is HMAC-SHA256 over a domain-separation prefix and the
//! payload, the whole 32 bytes in every version. The tag is checked in
//! constant time with every configured key (key rotation: the first key
//! signs, all keys verify) **before** the payload is decoded; only its
//! first byte is read before, to tell the binary payload (version 3) from
//! the JSON ones (versions 1 and 2), whose tags cover different prefixes.
//!
//! Payload versions:
//!
//! | Version | Payload | Meaning |
//! |---|---|---|
//! | 1 | JSON `{"v":1,"r":<resource>,"s":<sort>,"k":[<sort-key values>],"h":<hash of filters and search, hex>}` | a **next** cursor: the rows strictly after the row whose sort-key values are `k` (the last row of the page that issued it) |
//! | 2 | JSON, version 1's members plus `"d":"next"` or `"d":"prev"` | `"prev"`: a **previous** cursor, the rows strictly before the row `k` (the first row of the page that issued it), the page nearest to it |
//! | 3 | binary, below | next and previous cursors, written by this release |
//!
//! Versions 1 and 2 are tagged over `"problem-core/cursor/v1\0" || payload`.
//! Releases before version 3 wrote next cursors in version 1 and previous
//! cursors in version 2; both are still accepted, so tokens already issued
//! keep working. A version-1 payload carrying `d`, a version-2 payload
//! without it, a JSON payload of any other version, and a payload whose
//! first byte is neither `3` nor the start of a JSON payload are
//! `invalid_cursor`.
//!
//! Version 3 is binary and small, so that signing and verifying a typical
//! cursor takes few SHA-256 blocks and no JSON:
//!
//! | Bytes | Content |
//! |---|---|
//! | 1 | `3`, the version |
//! | 1 | the flags: bit 0 the direction (`0` next, `1` previous); bit 1 "no hash" (the next field is left out); bit 3 "at the row" (the page includes the cursor's own row: at it and beyond, in the cursor's direction); any other bit set is `invalid_cursor` |
//! | 16, none with bit 1 | the hash of the filters and the search (the first 16 bytes of a SHA-256), raw |
//! | 8 | the digest of the effective sort: the low 64 bits of XXH3-128 of its query form (`-year,title,id`, the key included), little-endian |
//! | the rest | the sort-key values, one per sort entry, each a tag byte and its data (below); nothing may follow the last |
//!
//! The tag follows the payload: always the whole 32 bytes of the
//! HMAC-SHA256 output. This release sets bit 1 when the query has no
//! filter and no search (its hash is then always the one of the empty
//! canonical form, so it need not travel), and clears it otherwise; a
//! token with bit 1 matches only a query with no filter and no search, any
//! other is `cursor_mismatch` ("filter or search"). Version-3 tokens
//! written before the flags byte (its byte `0` or `1` was the direction:
//! flags with bit 1 clear, the hash present) read the same way and are
//! still accepted. The flags byte is covered by the tag: a changed flag
//! fails the tag check.
//!
//! The sort is bound by a digest rather than its text so that a typical
//! payload and the resource name fit the 55 bytes of one SHA-256 block; a
//! cursor sent with another sort is still told apart from one sent with
//! other filters or search (`cursor_mismatch`, "sort" or "filter or
//! search"). The digest is not a secret and needs no resistance to chosen
//! collisions: the tag protects the payload, and two sorts a collection
//! accepts colliding (about 2^-64 for any pair) would only let a cursor's
//! position be read under the other sort, its values still checked by kind.
//!
//! The values and the resource's length are written by `postcard` 1
//! (its wire format is stable across 1.x): a varint is unsigned LEB128 (at
//! most 10 bytes, no bits beyond 64), a signed integer zigzag-encoded
//! first, an enum variant its index as a varint. Value tags: `0` null; `1` false;
//! `2` true; `3` integer (zigzag varint); `4` float (the 8 bytes of the
//! IEEE 754 `f64`, little-endian; a non-finite float is written as null,
//! as version 1 wrote it); `5` text (varint byte length, then UTF-8); `6`
//! date (zigzag varint of the Julian day); `7` date-time (zigzag varint of
//! the Unix seconds, then varint of the nanoseconds, below 10^9; read back
//! in UTC). The tag of version 3 is HMAC-SHA256 over a 64-byte prefix
//! (`"problem-core/cursor/v3\0"` padded with zero bytes, one SHA-256 block,
//! hashed once per key when the keys are configured), the resource name
//! (varint length, then UTF-8) and the payload. The resource is bound by
//! the tag and not written in the token: a cursor of another resource
//! fails the tag check, `invalid_cursor`, as the resource member of
//! versions 1 and 2 makes it.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use sha2::Sha256;
use time::{Date, OffsetDateTime};

use crate::config::HttpConfigError;
use crate::problem::Issue;

use super::error::{QueryError, code, conflict, issue};
use super::pagination::{PageSizeLimits, parse_page_size};
use super::params::{Pairs, RawQuery};
use super::sort::{Direction, Sort};
use super::value::{FieldValue, ValueKind, narrow};

type HmacSha256 = Hmac<Sha256>;

/// Payload version of next cursors (JSON, no direction member).
const VERSION_NEXT: u8 = 1;
/// Payload version with a direction member (`"d"`, JSON), used by previous
/// cursors before version 3.
const VERSION_DIRECTED: u8 = 2;
/// Payload version of the binary payload, written for every cursor now.
const VERSION_COMPACT: u8 = 3;
/// Length of the tag: the whole HMAC-SHA256 output, in every version.
const TAG_LEN: usize = 32;
/// Version-3 flag: a previous cursor (clear: a next cursor).
const FLAG_PREV: u8 = 1;
/// Version-3 flag: the filter and search hash is left out (the query had no
/// filter and no search).
const FLAG_NO_HASH: u8 = 2;
/// Version-3 flag: the page includes the cursor's own row (at it and
/// beyond, rather than strictly beyond). Set only on the cursor an empty
/// page gives back toward the row its own cursor named. (Bit 2 stays
/// unknown: a release once used it for a shortened tag.)
const FLAG_AT_ROW: u8 = 8;
/// Every version-3 flag; a payload with another bit set is refused.
const FLAGS_KNOWN: u8 = FLAG_PREV | FLAG_NO_HASH | FLAG_AT_ROW;
/// Length of the hash of the filters and the search (bytes).
pub(crate) const HASH_LEN: usize = 16;
/// Length of the sort digest of version 3 (bytes).
pub(crate) const SORT_DIGEST_LEN: usize = 8;
/// Longest cursor token accepted, in characters: 4096; a longer one is the
/// issue `invalid_cursor`. No longer token is issued either: a page whose
/// edge row's sort-key values would make one is
/// [`ApplyError::CursorTooLong`](super::ApplyError::CursorTooLong) (about
/// 3,000 bytes of sortable text in one row).
///
/// ```
/// assert_eq!(problem_core::query::MAX_CURSOR_LENGTH, 4096);
/// ```
pub const MAX_CURSOR_LENGTH: usize = 4096;
/// Shortest accepted cursor key, in bytes: 32.
///
/// ```
/// use problem_core::query::{CursorKeys, MIN_CURSOR_KEY_LENGTH};
/// assert_eq!(MIN_CURSOR_KEY_LENGTH, 32);
/// assert!(CursorKeys::new([vec![7u8; MIN_CURSOR_KEY_LENGTH]]).is_ok());
/// assert!(CursorKeys::new([vec![7u8; MIN_CURSOR_KEY_LENGTH - 1]]).is_err());
/// ```
pub const MIN_CURSOR_KEY_LENGTH: usize = 32;
/// Tag prefix of the JSON payloads (versions 1 and 2).
const DOMAIN: &[u8] = b"problem-core/cursor/v1\0";
/// Tag prefix of version 3: one whole SHA-256 block.
const DOMAIN_COMPACT: [u8; 64] = domain_block(b"problem-core/cursor/v3\0");
/// Tokens up to this many characters are decoded on the stack.
const STACK_TOKEN: usize = 256;

/// Whether `tag` is `expected`, a MAC's whole 32-byte output, compared in
/// constant time by `subtle` as four 64-bit words: `subtle` puts an
/// optimization barrier on each element it compares, and `hmac`'s own
/// `verify_slice` compares byte by byte, 32 barriers where four do (about
/// 80 ns of a cursor query's 660 ns, BENCHMARKS.md). A `tag`
/// of any other length never matches.
fn tag_matches(expected: &[u8; TAG_LEN], tag: &[u8]) -> bool {
    use subtle::ConstantTimeEq as _;
    let Ok(tag) = <&[u8; TAG_LEN]>::try_from(tag) else {
        return false;
    };
    words(expected)[..].ct_eq(&words(tag)[..]).into()
}

/// Whether `tag` is the whole output of `mac` ([`tag_matches`]).
fn mac_matches(mac: HmacSha256, tag: &[u8]) -> bool {
    tag_matches(&mac.finalize().into_bytes().into(), tag)
}

/// A tag as four little-endian 64-bit words.
fn words(tag: &[u8; TAG_LEN]) -> [u64; TAG_LEN / 8] {
    let mut out = [0u64; TAG_LEN / 8];
    for (word, chunk) in out.iter_mut().zip(tag.chunks_exact(8)) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        *word = u64::from_le_bytes(bytes);
    }
    out
}

/// `prefix` padded with zero bytes to 64 bytes.
const fn domain_block(prefix: &[u8]) -> [u8; 64] {
    let mut block = [0u8; 64];
    let mut i = 0;
    while i < prefix.len() && i < block.len() {
        block[i] = prefix[i];
        i += 1;
    }
    block
}

/// A sort-key value of version 3 as `postcard` writes it: the variant's
/// index as the tag byte (0 null, 1 false, 2 true, 3 integer, 4 float,
/// 5 text, 6 date, 7 date-time), then integers as zigzag varints, a float
/// as its 8 little-endian bytes, a text as a varint length and its UTF-8, a
/// date as its Julian day, a date-time as Unix seconds and nanoseconds.
/// The variants' order is the wire format: new ones go last.
#[derive(Debug, Serialize, Deserialize)]
enum WireValue<'a> {
    Null,
    False,
    True,
    Integer(i64),
    Float(f64),
    Text(&'a str),
    Date(i32),
    DateTime(i64, u32),
}

/// One key's HMAC states after the key and each domain prefix.
#[derive(Clone)]
struct KeyMacs {
    /// After [`DOMAIN`] (versions 1 and 2).
    json: HmacSha256,
    /// After [`DOMAIN_COMPACT`] (version 3).
    compact: HmacSha256,
}

/// The HMAC keys cursors are signed with: the first key signs, every key
/// verifies, so a key can be rotated by putting the new one first and
/// keeping the old one for as long as its cursors should keep working.
/// Cursors carry no expiry: one stays valid while its key is configured,
/// and is refused (`invalid_cursor`) once the key is removed. A cursor's
/// tag (the whole 32-byte HMAC-SHA256) is compared with each key's in
/// constant time (`subtle`) before the payload is parsed, and every
/// failure of a forged or damaged cursor is the same `invalid_cursor`
/// issue, so neither the time nor the answer tells which part of the
/// payload was wrong. (A token that is not base64url, or too short to
/// hold a tag, is refused before any tag is computed; a genuine cursor
/// used with another sort, filter or search is `cursor_mismatch`.)
///
/// `CursorKeys` has no built-in default key. Without configured keys
/// (`QueryConfig::cursor_keys`), the `Collection` extractor signs with a
/// random key generated once per process, whose cursors do not survive a
/// restart; a `TypedQuery` parsed by hand with no key fails a cursor page
/// with `ApplyError::NoCursorKey`.
///
/// ```
/// use problem_core::query::CursorKeys;
/// let keys = CursorKeys::new([[7u8; 32].to_vec()]).unwrap();
/// assert_eq!(keys.len(), 1);
/// assert!(CursorKeys::new([b"short".to_vec()]).is_err());
/// assert!(CursorKeys::new(Vec::<Vec<u8>>::new()).is_err());
/// ```
#[derive(Clone)]
pub struct CursorKeys(Arc<[KeyMacs]>);

impl CursorKeys {
    /// Keys, newest first; each at least 32 bytes.
    ///
    /// ```
    /// use problem_core::query::CursorKeys;
    /// let keys = CursorKeys::new([[2u8; 32].to_vec(), [1u8; 40].to_vec()]).unwrap();
    /// assert_eq!(keys.len(), 2);
    /// let err = CursorKeys::new([[2u8; 32].to_vec(), b"short".to_vec()]).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid query configuration: cursor key #1 is shorter than 32 bytes");
    /// ```
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
        // Each key's HMAC states after the key and a domain: cloned per
        // token, so the key's two padded blocks (and the version-3 domain
        // block) are hashed once, here.
        let macs = keys
            .iter()
            .map(|k| {
                let mac = HmacSha256::new_from_slice(k).map_err(|_| {
                    HttpConfigError::InvalidQueryConfig("a cursor key is not usable".into())
                })?;
                let mut json = mac.clone();
                json.update(DOMAIN);
                let mut compact = mac;
                compact.update(&DOMAIN_COMPACT);
                Ok(KeyMacs { json, compact })
            })
            .collect::<Result<Vec<_>, HttpConfigError>>()?;
        Ok(Self(macs.into()))
    }

    /// Number of keys.
    ///
    /// ```
    /// use problem_core::query::CursorKeys;
    /// assert_eq!(CursorKeys::new([[1u8; 32]; 3]).unwrap().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: there is at least one key.
    ///
    /// ```
    /// use problem_core::query::CursorKeys;
    /// assert!(!CursorKeys::new([[1u8; 32]]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The version-3 MAC of `payload` for `resource`.
    fn compact_mac(key: &KeyMacs, resource: &str, payload: &[u8]) -> HmacSha256 {
        let mut mac = key.compact.clone();
        Self::feed_compact(&mut mac, resource, payload);
        mac
    }

    /// Feeds the resource and the payload to a version-3 MAC.
    #[inline]
    fn feed_compact(mac: &mut HmacSha256, resource: &str, payload: &[u8]) {
        // The resource as `postcard` writes a text: its length as a varint
        // (at most 10 bytes), then its bytes.
        let mut len = [0u8; 10];
        if let Ok(len) = postcard::to_slice(&(resource.len() as u64), &mut len) {
            mac.update(len);
        }
        mac.update(resource.as_bytes());
        mac.update(payload);
    }

    /// Whether `tag` is the version-3 tag of `payload` for `resource` with
    /// `key`: the whole 32 bytes, compared in constant time (`subtle`). The
    /// key's state is cloned once and the MAC finalized where it is.
    #[inline]
    fn compact_verifies(key: &KeyMacs, resource: &str, payload: &[u8], tag: &[u8]) -> bool {
        let mut mac = key.compact.clone();
        Self::feed_compact(&mut mac, resource, payload);
        mac_matches(mac, tag)
    }

    /// The version-1/2 MAC of a JSON `payload`.
    fn json_mac(key: &KeyMacs, payload: &[u8]) -> HmacSha256 {
        let mut mac = key.json.clone();
        mac.update(payload);
        mac
    }

    /// Signs a version-3 cursor of `resource` going `way` from the row with
    /// sort-key `values` under `order`, bound to the filter and search
    /// `hash`.
    #[cfg(test)]
    pub(crate) fn seal(
        &self,
        resource: &str,
        way: Way,
        order: &Sort,
        hash: &[u8; HASH_LEN],
        values: &[FieldValue],
    ) -> Option<String> {
        self.seal_at(resource, way, false, order, hash, values)
    }

    /// Signs a version-3 cursor of `resource` going `way` from the row with
    /// sort-key `values` under `order`, bound to the filter and search
    /// `hash`; `at_row`: the page includes that row (flag [`FLAG_AT_ROW`]).
    pub(crate) fn seal_at(
        &self,
        resource: &str,
        way: Way,
        at_row: bool,
        order: &Sort,
        hash: &[u8; HASH_LEN],
        values: &[FieldValue],
    ) -> Option<String> {
        let key = self.0.first()?;
        // The hash is left out when it is the one of no filter and no
        // search.
        let with_hash = *hash != unfiltered_hash();
        let mut flags = 0;
        match way {
            Way::Next => {}
            Way::Prev => flags |= FLAG_PREV,
        }
        if !with_hash {
            flags |= FLAG_NO_HASH;
        }
        if at_row {
            flags |= FLAG_AT_ROW;
        }
        let mut payload = Vec::with_capacity(64);
        payload.push(VERSION_COMPACT);
        payload.push(flags);
        if with_hash {
            payload.extend_from_slice(hash);
        }
        payload.extend_from_slice(&sort_digest(order));
        for v in values {
            payload = write_value(v, payload)?;
        }
        let tag = Self::compact_mac(key, resource, &payload)
            .finalize()
            .into_bytes();
        payload.extend_from_slice(&tag);
        Some(URL_SAFE_NO_PAD.encode(payload))
    }

    /// Signs a JSON payload (versions 1 and 2), as releases before version
    /// 3 did: tokens already issued are made this way.
    #[cfg(test)]
    pub(crate) fn seal_json(&self, payload: &CursorPayload) -> Option<String> {
        let bytes = serde_json::to_vec(payload).ok()?;
        let tag = Self::json_mac(self.0.first()?, &bytes)
            .finalize()
            .into_bytes();
        let mut all = bytes;
        all.extend_from_slice(&tag);
        Some(URL_SAFE_NO_PAD.encode(all))
    }

    /// Verifies a token of `resource` and hands its payload to `read`;
    /// `None` for any malformed, tampered, truncated or foreign token (a
    /// token of another resource included).
    pub(crate) fn open<R>(
        &self,
        token: &str,
        resource: &str,
        read: impl FnOnce(Opened<'_>) -> R,
    ) -> Option<R> {
        if token.len() > MAX_CURSOR_LENGTH {
            return None;
        }
        // Decoded into a stack buffer (a heap one for long tokens) by the
        // `base64` crate, whose URL-safe engine without padding refuses
        // padding, a length that is no whole number of bytes, non-zero
        // trailing bits and any byte outside the URL-safe alphabet; its
        // room estimate rounds up to whole quads.
        let mut stack = [0u8; STACK_TOKEN / 4 * 3];
        let mut heap = Vec::new();
        let room = token.len().div_ceil(4) * 3;
        let out: &mut [u8] = if room <= stack.len() {
            &mut stack
        } else {
            heap.resize(room, 0);
            &mut heap
        };
        let n = URL_SAFE_NO_PAD.decode_slice(token, out).ok()?;
        let all = out.get(..n)?;
        let split = all.len().checked_sub(TAG_LEN).filter(|&n| n > 0)?;
        let (payload, tag) = all.split_at_checked(split)?;
        if payload.first() == Some(&VERSION_COMPACT) {
            // The flags byte is covered by the tag, so a changed flag fails
            // the check; unknown bits are refused after it, by `parse`.
            let verified = self
                .0
                .iter()
                .any(|k| Self::compact_verifies(k, resource, payload, tag));
            if !verified {
                return None;
            }
            return CompactPayload::parse(payload).map(|p| read(Opened::Compact(p)));
        }
        let verified = self
            .0
            .iter()
            .any(|k| mac_matches(Self::json_mac(k, payload), tag));
        if !verified {
            return None;
        }
        let p: CursorPayload = serde_json::from_slice(payload).ok()?;
        let valid = matches!(
            (p.v, p.d),
            (VERSION_NEXT, None) | (VERSION_DIRECTED, Some(_))
        );
        (valid && p.r == resource).then(|| read(Opened::Json(p)))
    }
}

impl fmt::Debug for CursorKeys {
    /// Never prints the keys.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CursorKeys({} key(s), redacted)", self.0.len())
    }
}

/// Which way a cursor pages from its row (payload member `d`, version 2;
/// the direction byte, version 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Way {
    /// The rows after the cursor's row.
    Next,
    /// The rows before the cursor's row.
    Prev,
}

/// A verified payload, as [`CursorKeys::open`] hands it over.
#[derive(Debug)]
pub(crate) enum Opened<'a> {
    /// Versions 1 and 2 (JSON), resource already checked.
    Json(CursorPayload),
    /// Version 3 (binary); the resource is bound by the tag.
    Compact(CompactPayload<'a>),
}

/// The decoded content of a JSON cursor (versions 1 and 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CursorPayload {
    pub v: u8,
    /// The resource (query struct) that issued it.
    pub r: String,
    /// The full effective sort, key included (`-year,id`).
    pub s: String,
    /// The last row's value of each sort entry.
    pub k: Vec<Json>,
    /// Hash of the filters and the search (hex).
    pub h: String,
    /// The direction (version 2 only; version 1 is always next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<Way>,
}

impl CursorPayload {
    /// A version-1 next cursor after the row with sort-key `values`, as
    /// releases before version 3 wrote it.
    #[cfg(test)]
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

    /// A cursor going `way` from the row with sort-key `values`, as
    /// releases before version 3 wrote it: version 1 for next, version 2
    /// with `"d":"prev"` for previous.
    #[cfg(test)]
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

/// A verified version-3 payload, borrowing the decoded token.
#[derive(Debug)]
pub(crate) struct CompactPayload<'a> {
    /// The direction.
    pub way: Way,
    /// The page includes the cursor's own row (flag [`FLAG_AT_ROW`]).
    pub at_row: bool,
    /// Hash of the filters and the search; `None` when it was left out
    /// (flag [`FLAG_NO_HASH`]: the query had no filter and no search).
    pub hash: Option<[u8; HASH_LEN]>,
    /// The digest of the effective sort ([`sort_digest`]).
    pub sort: [u8; SORT_DIGEST_LEN],
    /// The sort-key values, read one at a time by kind.
    pub keys: KeyReader<'a>,
}

impl<'a> CompactPayload<'a> {
    /// Splits a version-3 payload into its parts; `None` when it is
    /// malformed (the values are read later, by [`KeyReader`]).
    fn parse(payload: &'a [u8]) -> Option<Self> {
        let (&version, rest) = payload.split_first()?;
        if version != VERSION_COMPACT {
            return None;
        }
        let (&flags, rest) = rest.split_first()?;
        if flags & !FLAGS_KNOWN != 0 {
            return None;
        }
        let way = if flags & FLAG_PREV == 0 {
            Way::Next
        } else {
            Way::Prev
        };
        let (hash, rest) = if flags & FLAG_NO_HASH == 0 {
            let (hash, rest) = rest.split_first_chunk::<HASH_LEN>()?;
            (Some(*hash), rest)
        } else {
            (None, rest)
        };
        let (sort, keys) = rest.split_first_chunk::<SORT_DIGEST_LEN>()?;
        Some(Self {
            way,
            at_row: flags & FLAG_AT_ROW != 0,
            hash,
            sort: *sort,
            keys: KeyReader { rest: keys },
        })
    }

    /// Whether the cursor was issued for the filters and search whose
    /// hash is `hash`: a cursor without a hash only for a query with no
    /// filter and no search (whose hash is [`unfiltered_hash`]).
    pub(crate) fn binds(&self, hash: &[u8; HASH_LEN]) -> bool {
        *hash == self.hash.unwrap_or_else(unfiltered_hash)
    }
}

/// Reads the sort-key values of a version-3 payload, each checked against
/// its field's kind as [`ValueKind::from_json`] checks a JSON value.
#[derive(Debug)]
pub(crate) struct KeyReader<'a> {
    rest: &'a [u8],
}

impl KeyReader<'_> {
    /// The next value, read as `kind`; `None` when it is missing, malformed
    /// or of another kind. The same as [`read_value`] then [`of_kind`]
    /// (a test pins it), in one match on the kind and the wire value.
    pub(crate) fn next(&mut self, kind: ValueKind) -> Option<FieldValue> {
        let (wire, rest) = postcard::take_from_bytes::<WireValue<'_>>(self.rest).ok()?;
        self.rest = rest;
        let value = match (kind, wire) {
            (_, WireValue::Null) => FieldValue::Null,
            (ValueKind::Integer { min, max }, WireValue::Integer(v)) if v >= min && v <= max => {
                FieldValue::Integer(v)
            }
            (ValueKind::Text, WireValue::Text(v)) => FieldValue::Text(v.into()),
            // Any name, as `ValueKind::from_json` reads one: the signed
            // value of a row, listed or not.
            (ValueKind::OneOf(_), WireValue::Text(v)) => FieldValue::Text(v.into()),
            // As `serde_json`'s `as_f64` reads an integer.
            (ValueKind::Float, WireValue::Integer(v)) => FieldValue::Float(v as f64),
            (ValueKind::Float, WireValue::Float(v)) if v.is_finite() => FieldValue::Float(v),
            // An `f32` field's value, as `ValueKind::from_json` reads one.
            (ValueKind::Float32, WireValue::Integer(v)) => FieldValue::Float(narrow(v as f64)?),
            (ValueKind::Float32, WireValue::Float(v)) => FieldValue::Float(narrow(v)?),
            (ValueKind::Boolean, WireValue::False) => FieldValue::Boolean(false),
            (ValueKind::Boolean, WireValue::True) => FieldValue::Boolean(true),
            (ValueKind::Date, WireValue::Date(day)) => date(day)?,
            (ValueKind::DateTime, WireValue::DateTime(seconds, nanos)) => {
                date_time(seconds, nanos)?
            }
            // Every pair named: a new kind or value must say how it reads.
            (
                ValueKind::Integer { .. }
                | ValueKind::Float
                | ValueKind::Float32
                | ValueKind::Boolean
                | ValueKind::Text
                | ValueKind::Date
                | ValueKind::DateTime
                | ValueKind::OneOf(_)
                | ValueKind::Opaque,
                WireValue::False
                | WireValue::True
                | WireValue::Integer(_)
                | WireValue::Float(_)
                | WireValue::Text(_)
                | WireValue::Date(_)
                | WireValue::DateTime(..),
            ) => return None,
        };
        Some(value)
    }

    /// Whether every value was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }
}

/// A date value of its Julian day; `None` out of `time`'s range.
fn date(day: i32) -> Option<FieldValue> {
    Date::from_julian_day(day).ok().map(FieldValue::Date)
}

/// A date-time value (UTC) of its Unix seconds and nanoseconds; `None` out
/// of `time`'s range or for nanoseconds of 10^9 or more.
fn date_time(seconds: i64, nanos: u32) -> Option<FieldValue> {
    let at = OffsetDateTime::from_unix_timestamp(seconds).ok()?;
    at.replace_nanosecond(nanos).ok().map(FieldValue::DateTime)
}

/// Reads one tagged value, whatever its kind (the tests' reference for
/// [`KeyReader::next`]).
#[cfg(test)]
fn read_value(bytes: &[u8]) -> Option<(FieldValue, &[u8])> {
    let (wire, rest) = postcard::take_from_bytes::<WireValue<'_>>(bytes).ok()?;
    let value = match wire {
        WireValue::Null => FieldValue::Null,
        WireValue::False => FieldValue::Boolean(false),
        WireValue::True => FieldValue::Boolean(true),
        WireValue::Integer(v) => FieldValue::Integer(v),
        WireValue::Float(v) => FieldValue::Float(v),
        WireValue::Text(v) => FieldValue::Text(v.into()),
        WireValue::Date(day) => date(day)?,
        WireValue::DateTime(seconds, nanos) => date_time(seconds, nanos)?,
    };
    Some((value, rest))
}

/// `value` if it is of `kind` (or null), as [`ValueKind::from_json`]
/// accepts it: an integer is a float field's value too (the tests'
/// reference for [`KeyReader::next`]).
#[cfg(test)]
fn of_kind(kind: ValueKind, value: FieldValue) -> Option<FieldValue> {
    let ok = match (kind, &value) {
        (_, FieldValue::Null) => true,
        (ValueKind::Integer { min, max }, FieldValue::Integer(v)) => *v >= min && *v <= max,
        (ValueKind::Float, FieldValue::Float(v)) => v.is_finite(),
        // As `serde_json`'s `as_f64` reads an integer.
        (ValueKind::Float, FieldValue::Integer(v)) => return Some(FieldValue::Float(*v as f64)),
        (ValueKind::Float32, FieldValue::Float(v)) => return narrow(*v).map(FieldValue::Float),
        (ValueKind::Float32, FieldValue::Integer(v)) => {
            return narrow(*v as f64).map(FieldValue::Float);
        }
        (ValueKind::Boolean, FieldValue::Boolean(_))
        | (ValueKind::Text | ValueKind::OneOf(_), FieldValue::Text(_))
        | (ValueKind::Date, FieldValue::Date(_))
        | (ValueKind::DateTime, FieldValue::DateTime(_)) => true,
        // Every pair named: a new kind or value must say how it reads.
        (
            ValueKind::Integer { .. }
            | ValueKind::Float
            | ValueKind::Float32
            | ValueKind::Boolean
            | ValueKind::Text
            | ValueKind::Date
            | ValueKind::DateTime
            | ValueKind::OneOf(_)
            | ValueKind::Opaque,
            FieldValue::Integer(_)
            | FieldValue::Float(_)
            | FieldValue::Boolean(_)
            | FieldValue::Text(_)
            | FieldValue::Date(_)
            | FieldValue::DateTime(_),
        ) => false,
    };
    ok.then_some(value)
}

/// Writes one tagged value; `None` if `postcard` refuses it (it does not
/// for these types).
fn write_value(value: &FieldValue, out: Vec<u8>) -> Option<Vec<u8>> {
    let wire = match value {
        FieldValue::Null => WireValue::Null,
        FieldValue::Boolean(false) => WireValue::False,
        FieldValue::Boolean(true) => WireValue::True,
        FieldValue::Integer(v) => WireValue::Integer(*v),
        // Version 1 wrote a non-finite float as `null` (JSON has no other
        // way); such a value never parses, so this keeps its meaning.
        FieldValue::Float(v) if !v.is_finite() => WireValue::Null,
        FieldValue::Float(v) => WireValue::Float(*v),
        FieldValue::Text(v) => WireValue::Text(v.as_str()),
        FieldValue::Date(d) => WireValue::Date(d.to_julian_day()),
        FieldValue::DateTime(d) => WireValue::DateTime(d.unix_timestamp(), d.nanosecond()),
    };
    postcard::to_extend(&wire, out).ok()
}

/// The sort member of version 3: the low 64 bits of XXH3-128 of the
/// sort's query form (`-year,title,id`, as `order.to_string()` writes it),
/// little-endian.
/// The text is written on the stack unless it is long.
pub(crate) fn sort_digest(order: &Sort) -> [u8; SORT_DIGEST_LEN] {
    let low64 = |text: &[u8]| twox_hash::XxHash3_128::oneshot(text) as u64;
    let mut stack = [0u8; 128];
    let mut len = 0;
    let mut fits = true;
    let mut put = |piece: &[u8]| match stack.get_mut(len..len + piece.len()) {
        Some(slot) => {
            slot.copy_from_slice(piece);
            len += piece.len();
        }
        None => fits = false,
    };
    for (i, s) in order.fields().iter().enumerate() {
        if i > 0 {
            put(b",");
        }
        if s.direction == Direction::Desc {
            put(b"-");
        }
        put(s.field.as_bytes());
    }
    let digest = match stack.get(..len) {
        Some(text) if fits => low64(text),
        Some(_) | None => low64(order.to_string().as_bytes()),
    };
    digest.to_le_bytes()
}

/// Whether `text` is the sort's query form (`order.to_string()`), compared
/// without writing it.
pub(crate) fn sort_matches(order: &Sort, text: &[u8]) -> bool {
    let mut rest = text;
    for (i, s) in order.fields().iter().enumerate() {
        if i > 0 {
            match rest.strip_prefix(b",") {
                Some(r) => rest = r,
                None => return false,
            }
        }
        if s.direction == Direction::Desc {
            match rest.strip_prefix(b"-") {
                Some(r) => rest = r,
                None => return false,
            }
        }
        match rest.strip_prefix(s.field.as_bytes()) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

/// SHA-256 (first 16 bytes) of a canonical text.
pub(crate) fn digest(canonical: &str) -> [u8; HASH_LEN] {
    use sha2::Digest as _;
    let d = Sha256::digest(canonical.as_bytes());
    let mut out = [0u8; HASH_LEN];
    out.copy_from_slice(d.get(..HASH_LEN).unwrap_or(&[0; HASH_LEN]));
    out
}

/// The hash of the filters and the search of a query with neither: the
/// digest of their canonical form then, the separator alone (`"\u{1d}"`),
/// computed once.
pub(crate) fn unfiltered_hash() -> [u8; HASH_LEN] {
    static UNFILTERED: std::sync::OnceLock<[u8; HASH_LEN]> = std::sync::OnceLock::new();
    *UNFILTERED.get_or_init(|| digest("\u{1d}"))
}

/// Whether `hex` is the lowercase hex of `hash` (the `h` member of the
/// JSON payloads), compared without writing it.
pub(crate) fn hex_matches(hex: &str, hash: &[u8; HASH_LEN]) -> bool {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    hex.len() == 2 * HASH_LEN
        && hex
            .as_bytes()
            .chunks_exact(2)
            .zip(hash)
            .all(|(pair, b)| pair == [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]])
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
    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::CursorPagination;
    /// assert_eq!(CursorPagination::from_query_str("limit=10").unwrap().limit, 10);
    /// assert!(CursorPagination::from_query_str("limit=0").is_err());
    /// ```
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses `cursor` and `limit`/`per_page` with the default limits.
    ///
    /// ```
    /// use problem_core::query::{CursorPagination, RawQuery};
    /// let c = CursorPagination::parse(&RawQuery::parse("cursor=&per_page=500").unwrap()).unwrap();
    /// assert_eq!(c, CursorPagination { cursor: None, limit: 100 });
    /// let err = CursorPagination::parse(&RawQuery::parse("limit=0").unwrap()).unwrap_err();
    /// assert_eq!(err.issues()[0].code, "out_of_range");
    /// ```
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
    if super::params::absent_when_blank("cursor", cursor) {
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
    use crate::query::SortField;
    use proptest::prelude::*;
    use time::macros::{date, datetime};

    fn keys() -> CursorKeys {
        CursorKeys::new([vec![1u8; 32], vec![2u8; 40]]).unwrap()
    }

    fn order() -> Sort {
        Sort::new(vec![SortField::desc("year"), SortField::asc("id")])
    }

    const HASH: [u8; HASH_LEN] = [0xab; HASH_LEN];

    /// What `open` handed over, owned, for comparisons.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Json(CursorPayload),
        Compact {
            way: Way,
            hash: Option<[u8; HASH_LEN]>,
            sort: [u8; SORT_DIGEST_LEN],
            /// The values read back with the kind each was written as.
            values: Vec<FieldValue>,
        },
    }

    /// A kind that accepts `v` (any kind accepts null).
    fn kind_of(v: &FieldValue) -> ValueKind {
        match v {
            FieldValue::Null | FieldValue::Text(_) => ValueKind::Text,
            FieldValue::Integer(_) => ValueKind::Integer {
                min: i64::MIN,
                max: i64::MAX,
            },
            FieldValue::Float(_) => ValueKind::Float,
            FieldValue::Boolean(_) => ValueKind::Boolean,
            FieldValue::Date(_) => ValueKind::Date,
            FieldValue::DateTime(_) => ValueKind::DateTime,
        }
    }

    /// Opens `token` for resource `r`, reading compact values as `kinds`.
    fn open_as(keys: &CursorKeys, token: &str, r: &str, kinds: &[ValueKind]) -> Option<Seen> {
        keys.open(token, r, |opened| match opened {
            Opened::Json(p) => Some(Seen::Json(p)),
            Opened::Compact(mut p) => {
                let values = kinds
                    .iter()
                    .map(|&k| p.keys.next(k))
                    .collect::<Option<Vec<_>>>()?;
                p.keys.is_empty().then(|| Seen::Compact {
                    way: p.way,
                    hash: p.hash,
                    sort: p.sort,
                    values,
                })
            }
        })
        .flatten()
    }

    fn round_trip(values: &[FieldValue], way: Way) -> Option<Seen> {
        let token = keys().seal("Book", way, &order(), &HASH, values)?;
        let kinds: Vec<ValueKind> = values.iter().map(kind_of).collect();
        open_as(&keys(), &token, "Book", &kinds)
    }

    fn compact(values: Vec<FieldValue>, way: Way) -> Seen {
        Seen::Compact {
            way,
            hash: Some(HASH),
            sort: sort_digest(&order()),
            values,
        }
    }

    /// A token of any payload bytes with a valid version-3 tag (what a
    /// holder of the key could make).
    fn seal_compact_raw(keys: &CursorKeys, r: &str, payload: &[u8]) -> String {
        let tag = CursorKeys::compact_mac(keys.0.first().unwrap(), r, payload)
            .finalize()
            .into_bytes();
        let mut all = payload.to_vec();
        all.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(all)
    }

    /// The version-3 tag of `payload` for resource `r`, computed here
    /// independently of `CursorKeys` with the first test key.
    fn independent_tag(r: &str, payload: &[u8]) -> [u8; TAG_LEN] {
        let mut mac = HmacSha256::new_from_slice(&[1u8; 32]).unwrap();
        let mut domain = [0u8; 64];
        domain[..23].copy_from_slice(b"problem-core/cursor/v3\0");
        mac.update(&domain);
        mac.update(&[u8::try_from(r.len()).unwrap()]);
        mac.update(r.as_bytes());
        mac.update(payload);
        mac.finalize().into_bytes().into()
    }

    /// A token of any JSON payload with a valid version-1/2 tag, computed
    /// here independently of `CursorKeys`.
    fn seal_json_raw(json: &str) -> String {
        let bytes = json.as_bytes();
        let mut mac = HmacSha256::new_from_slice(&[1u8; 32]).unwrap();
        mac.update(DOMAIN);
        mac.update(bytes);
        let tag = mac.finalize().into_bytes();
        let mut all = bytes.to_vec();
        all.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(all)
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
    fn compact_round_trip_and_rotation() {
        let values = [FieldValue::Integer(2001), FieldValue::Integer(7)];
        let kinds = [kind_of(&values[0]), kind_of(&values[1])];
        let token = keys()
            .seal("Book", Way::Next, &order(), &HASH, &values)
            .unwrap();
        let want = compact(values.to_vec(), Way::Next);
        assert_eq!(open_as(&keys(), &token, "Book", &kinds), Some(want));
        // an old key still verifies
        let old = CursorKeys::new([vec![2u8; 40]]).unwrap();
        let t_old = old
            .seal("Book", Way::Prev, &order(), &HASH, &values)
            .unwrap();
        let want = compact(values.to_vec(), Way::Prev);
        assert_eq!(open_as(&keys(), &t_old, "Book", &kinds), Some(want));
        // a foreign key does not
        let foreign = CursorKeys::new([vec![3u8; 32]]).unwrap();
        let t_foreign = foreign
            .seal("Book", Way::Next, &order(), &HASH, &values)
            .unwrap();
        assert_eq!(open_as(&keys(), &t_foreign, "Book", &kinds), None);
    }

    #[test]
    fn compact_payload_layout() {
        let values = [
            FieldValue::Integer(2001),
            FieldValue::Text("Nuit".into()),
            FieldValue::Null,
        ];
        let sort = Sort::new(vec![
            SortField::desc("year"),
            SortField::asc("title"),
            SortField::asc("id"),
        ]);
        let token = keys()
            .seal("Book", Way::Prev, &sort, &HASH, &values)
            .unwrap();
        let all = URL_SAFE_NO_PAD.decode(&token).unwrap();
        let (payload, tag) = all.split_at(all.len() - TAG_LEN);
        // Flags: previous (bit 0); the hash is there (bit 1 clear).
        let mut want = vec![3u8, 0b001];
        want.extend_from_slice(&HASH);
        let digest = xxhash_rust::xxh3::xxh3_128(b"-year,title,id") as u64;
        want.extend_from_slice(&digest.to_le_bytes());
        // 2001 zigzag = 4002 = 0b1_1111_0100010
        want.extend_from_slice(&[3, 0xa2, 0x1f]);
        want.extend_from_slice(&[5, 4]);
        want.extend_from_slice(b"Nuit");
        want.push(0);
        assert_eq!(payload, &want[..]);
        // The tag is the whole HMAC, computed here independently of
        // `CursorKeys`.
        assert_eq!(tag, &independent_tag("Book", payload)[..]);
        // 36 bytes of payload and 32 of tag: 91 characters.
        assert_eq!((want.len(), tag.len(), token.len()), (36, 32, 91));
        // 41 bytes of tag input after the domain block (at most 55 fit
        // one SHA-256 block with its padding): one inner and one outer
        // block per token besides the ones hashed when the key was set.
        assert_eq!(payload.len() + 1 + 4, 41);
    }

    #[test]
    fn compact_values_round_trip_every_kind() {
        let long = "ä".repeat(100); // 200 bytes: a two-byte length varint
        let cases: Vec<FieldValue> = vec![
            FieldValue::Null,
            FieldValue::Integer(0),
            FieldValue::Integer(-1),
            FieldValue::Integer(63),
            FieldValue::Integer(64),
            FieldValue::Integer(-65),
            FieldValue::Integer(i64::MAX),
            FieldValue::Integer(i64::MIN),
            FieldValue::Float(0.0),
            FieldValue::Float(-0.0),
            FieldValue::Float(0.1),
            FieldValue::Float(2.0),
            FieldValue::Float(-1.5e300),
            FieldValue::Float(f64::MAX),
            FieldValue::Float(f64::MIN),
            FieldValue::Float(f64::MIN_POSITIVE),
            FieldValue::Float(f64::from_bits(1)), // smallest subnormal
            FieldValue::Float(f64::EPSILON),
            FieldValue::Float(f64::from(f32::MAX)),
            FieldValue::Float(f64::from(0.1f32)),
            FieldValue::Boolean(false),
            FieldValue::Boolean(true),
            FieldValue::Text("".into()),
            FieldValue::Text("Night Rain".into()),
            FieldValue::Text("Ünïcødé – 日本語 🌧".into()),
            FieldValue::Text("nul \0 and \u{1d} controls".into()),
            FieldValue::Text(long.into()),
            FieldValue::Date(date!(2024 - 02 - 29)),
            FieldValue::Date(date!(1969 - 12 - 31)),
            FieldValue::Date(Date::MIN),
            FieldValue::Date(Date::MAX),
            FieldValue::DateTime(datetime!(2024-05-31 12:00:00 UTC)),
            FieldValue::DateTime(datetime!(1969-12-31 23:59:59.5 UTC)),
            FieldValue::DateTime(datetime!(1970-01-01 00:00:00.000000001 UTC)),
            FieldValue::DateTime(datetime!(2024-01-01 02:00:00.123456789 +02:00)),
            FieldValue::DateTime(Date::MIN.midnight().assume_utc()),
            FieldValue::DateTime(
                Date::MAX
                    .with_hms_nano(23, 59, 59, 999_999_999)
                    .unwrap()
                    .assume_utc(),
            ),
        ];
        for (i, v) in cases.iter().enumerate() {
            let values = [v.clone(), FieldValue::Integer(i as i64)];
            let seen = round_trip(&values, Way::Next);
            assert_eq!(seen, Some(compact(values.to_vec(), Way::Next)), "{v:?}");
            if let (FieldValue::Float(a), Some(Seen::Compact { values, .. })) = (v, &seen)
                && let FieldValue::Float(b) = values[0]
            {
                // bit for bit: -0.0 stays -0.0
                assert_eq!(a.to_bits(), b.to_bits(), "{a:?}");
            }
            if let (FieldValue::DateTime(a), Some(Seen::Compact { values, .. })) = (v, &seen)
                && let FieldValue::DateTime(b) = &values[0]
            {
                // read back in UTC, the same instant
                assert_eq!(b.offset(), time::UtcOffset::UTC);
                assert_eq!(a.unix_timestamp_nanos(), b.unix_timestamp_nanos());
            }
        }
        // All of them in one cursor.
        assert_eq!(
            round_trip(&cases, Way::Prev),
            Some(compact(cases.clone(), Way::Prev))
        );
    }

    #[test]
    fn non_finite_floats_are_written_as_null_as_version_1_wrote_them() {
        for f in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let token = keys()
                .seal("Book", Way::Next, &order(), &HASH, &[FieldValue::Float(f)])
                .unwrap();
            let seen = open_as(&keys(), &token, "Book", &[ValueKind::Float]);
            assert_eq!(seen, Some(compact(vec![FieldValue::Null], Way::Next)));
            assert_eq!(FieldValue::Float(f).to_json(), Json::Null);
        }
    }

    #[test]
    fn compact_values_are_read_by_kind_as_json_values_are() {
        let int8 = ValueKind::Integer {
            min: -128,
            max: 127,
        };
        let read = |v: FieldValue, kind: ValueKind| {
            let bytes = write_value(&v, Vec::new()).unwrap();
            let mut reader = KeyReader { rest: &bytes };
            let got = reader.next(kind);
            assert!(reader.is_empty());
            // The JSON reading of the same value agrees.
            assert_eq!(got, kind.from_json(&v.to_json()), "{v:?} as {kind:?}");
            got
        };
        assert_eq!(
            read(FieldValue::Integer(127), int8),
            Some(FieldValue::Integer(127))
        );
        assert_eq!(read(FieldValue::Integer(128), int8), None);
        assert_eq!(
            read(FieldValue::Integer(3), ValueKind::Float),
            Some(FieldValue::Float(3.0))
        );
        assert_eq!(read(FieldValue::Float(3.0), int8), None);
        assert_eq!(read(FieldValue::Boolean(true), ValueKind::Text), None);
        assert_eq!(read(FieldValue::Text("1".into()), int8), None);
        assert_eq!(read(FieldValue::Null, int8), Some(FieldValue::Null));
        assert_eq!(
            read(FieldValue::Date(date!(2024 - 01 - 01)), ValueKind::DateTime),
            None
        );
    }

    #[test]
    fn another_resource_is_refused() {
        let values = [FieldValue::Integer(1)];
        let token = keys()
            .seal("Book", Way::Next, &order(), &HASH, &values)
            .unwrap();
        let int = [kind_of(&values[0])];
        assert!(open_as(&keys(), &token, "Book", &int).is_some());
        assert_eq!(open_as(&keys(), &token, "Author", &int), None);
        assert_eq!(open_as(&keys(), &token, "Boo", &int), None);
        let json = CursorPayload::new("Book", "id".into(), vec![Json::from(1)], "h".into());
        let token = keys().seal_json(&json).unwrap();
        assert_eq!(
            open_as(&keys(), &token, "Book", &[]),
            Some(Seen::Json(json))
        );
        assert_eq!(open_as(&keys(), &token, "Author", &[]), None);
    }

    #[test]
    fn json_versions_1_and_2_are_still_accepted() {
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
        let way = |token: &str| match open_as(&keys(), token, "B", &[]) {
            Some(Seen::Json(p)) => Some(p.way()),
            Some(Seen::Compact { .. }) | None => None,
        };
        assert_eq!(way(&keys().seal_json(&prev).unwrap()), Some(Way::Prev));
        assert_eq!(way(&keys().seal_json(&next).unwrap()), Some(Way::Next));
        assert_eq!(
            way(&seal_json_raw(
                r#"{"v":1,"r":"B","s":"id","k":[1],"h":"h"}"#
            )),
            Some(Way::Next)
        );
        // A version-2 next cursor is accepted; the mixed forms are not.
        let ok = way(&seal_json_raw(
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h","d":"next"}"#,
        ));
        assert_eq!(ok, Some(Way::Next));
        for bad in [
            r#"{"v":1,"r":"B","s":"id","k":[1],"h":"h","d":"prev"}"#,
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h"}"#,
            r#"{"v":2,"r":"B","s":"id","k":[1],"h":"h","d":"back"}"#,
            r#"{"v":3,"r":"B","s":"id","k":[1],"h":"h","d":"prev"}"#,
            r#"{"v":3,"r":"B","s":"id","k":[1],"h":"h"}"#,
            r#"{"v":4,"r":"B","s":"id","k":[1],"h":"h","d":"next"}"#,
        ] {
            assert_eq!(way(&seal_json_raw(bad)), None, "{bad}");
        }
        // A binary payload signed as JSON (the wrong domain) is refused.
        let mut payload = vec![3u8, 0];
        payload.extend_from_slice(&HASH);
        payload.extend_from_slice(&[2, b'i', b'd', 3, 2]);
        let tag = CursorKeys::json_mac(keys().0.first().unwrap(), &payload)
            .finalize()
            .into_bytes();
        payload.extend_from_slice(&tag);
        let token = URL_SAFE_NO_PAD.encode(&payload);
        assert_eq!(
            open_as(&keys(), &token, "B", &[kind_of(&FieldValue::Integer(1))]),
            None
        );
    }

    #[test]
    fn unknown_versions_and_malformed_compact_payloads_are_refused() {
        let int = ValueKind::Integer {
            min: i64::MIN,
            max: i64::MAX,
        };
        let good = {
            let mut p = vec![3u8, 0];
            p.extend_from_slice(&HASH);
            p.extend_from_slice(&[9; SORT_DIGEST_LEN]);
            p.extend_from_slice(&[3, 2]);
            p
        };
        assert!(open_as(&keys(), &seal_compact_raw(&keys(), "B", &good), "B", &[int]).is_some());
        let mut bad: Vec<Vec<u8>> = vec![
            vec![0],
            vec![4, 0],
            vec![3],
            vec![3, 0],
            vec![3, 2],
            good[..10].to_vec(),
            good[..18].to_vec(),
            good[..20].to_vec(),
            good[..26].to_vec(),
            good[..good.len() - 1].to_vec(),
            [&good[..], &[0]].concat(),
        ];
        // Unknown flag bits, unknown tags, a text without its bytes, a
        // varint cut short.
        for (i, b) in [
            (1usize, 4u8),
            (1, 0x10),
            (1, 0x80),
            (26, 8),
            (26, 0xff),
            (26, 5),
            (27, 0x80),
        ] {
            let mut p = good.clone();
            p[i] = b;
            bad.push(p);
        }
        for p in bad {
            let token = seal_compact_raw(&keys(), "B", &p);
            assert_eq!(open_as(&keys(), &token, "B", &[int]), None, "{p:?}");
        }
    }

    #[test]
    fn values_are_written_in_the_documented_layout() {
        let bytes = |v: &FieldValue| write_value(v, Vec::new()).unwrap();
        let at = OffsetDateTime::from_unix_timestamp(1)
            .unwrap()
            .replace_nanosecond(5)
            .unwrap();
        let cases: [(FieldValue, &[u8]); 9] = [
            (FieldValue::Null, &[0]),
            (FieldValue::Boolean(false), &[1]),
            (FieldValue::Boolean(true), &[2]),
            // zigzag: -1 is 1, 300 is 600 (0xd8 0x04 as a varint)
            (FieldValue::Integer(-1), &[3, 1]),
            (FieldValue::Integer(300), &[3, 0xd8, 0x04]),
            (FieldValue::Float(1.5), &[4, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]),
            (FieldValue::Text("é".into()), &[5, 2, 0xc3, 0xa9]),
            // Julian day 2451545, zigzag 4903090
            (
                FieldValue::Date(Date::from_julian_day(2_451_545).unwrap()),
                &[6, 0xb2, 0xa1, 0xab, 0x02],
            ),
            (FieldValue::DateTime(at), &[7, 2, 5]),
        ];
        for (value, expected) in &cases {
            let written = bytes(value);
            assert_eq!(written, *expected, "{value:?}");
            assert_eq!(read_value(&written), Some((value.clone(), &[][..])));
            // Every prefix of a value is refused, not misread.
            for cut in 0..written.len() {
                assert_eq!(read_value(&written[..cut]), None, "{value:?} cut at {cut}");
            }
        }
        assert_eq!(read_value(&[8]), None, "unknown tag");
        assert_eq!(
            read_value(&[
                3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02
            ]),
            None,
            "a varint over 64 bits"
        );
        assert_eq!(read_value(&[5, 1, 0xff]), None, "text that is not UTF-8");
    }

    #[test]
    fn sort_matches_and_sort_digest_follow_the_query_form() {
        let long = Sort::new(
            (0..40)
                .map(|i| SortField::desc(format!("field_{i}")))
                .collect(),
        );
        let sorts = [
            Sort::default(),
            order(),
            Sort::new(vec![SortField::asc("id")]),
            Sort::new(vec![SortField::asc("year"), SortField::asc("id")]),
            Sort::new(vec![SortField::desc("títle"), SortField::desc("id")]),
            long,
        ];
        for a in &sorts {
            let text = a.to_string();
            let digest = (xxhash_rust::xxh3::xxh3_128(text.as_bytes()) as u64).to_le_bytes();
            assert_eq!(sort_digest(a), digest, "{a}");
            for b in &sorts {
                assert_eq!(sort_matches(b, text.as_bytes()), a == b, "{a} {b}");
                assert_eq!(sort_digest(b) == digest, a == b, "{a} {b}");
            }
            for cut in 0..text.len() {
                assert!(!sort_matches(a, &text.as_bytes()[..cut]));
            }
            assert!(!sort_matches(a, format!("{text},x").as_bytes()));
        }
    }

    #[test]
    fn hex_matches_is_equality_with_the_hex() {
        let hash = digest("x");
        let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
        assert!(hex_matches(&hex, &hash));
        assert!(!hex_matches(&hex.to_uppercase(), &hash));
        assert!(!hex_matches(&hex[..30], &hash));
        assert!(!hex_matches(&format!("{hex}00"), &hash));
        assert!(!hex_matches("h", &hash));
        let mut other = hash;
        other[15] ^= 1;
        assert!(!hex_matches(&hex, &other));
        assert!(!hex_matches(&"é".repeat(16), &hash));
    }

    #[test]
    fn a_new_token_without_hash_round_trips() {
        let values = [FieldValue::Integer(2001), FieldValue::Integer(7)];
        let kinds = [kind_of(&values[0]), kind_of(&values[1])];
        for (way, flags) in [(Way::Next, 0b010u8), (Way::Prev, 0b011)] {
            let token = keys()
                .seal("Book", way, &order(), &unfiltered_hash(), &values)
                .unwrap();
            let all = URL_SAFE_NO_PAD.decode(&token).unwrap();
            let (payload, tag) = all.split_at(all.len() - TAG_LEN);
            let mut want = vec![3u8, flags];
            want.extend_from_slice(&sort_digest(&order()));
            // 2001 and 7, zigzag varints
            want.extend_from_slice(&[3, 0xa2, 0x1f, 3, 14]);
            assert_eq!(payload, &want[..]);
            assert_eq!(tag, &independent_tag("Book", payload)[..]);
            // 15 bytes of payload, 32 of tag: 63 characters.
            assert_eq!(token.len(), 63);
            assert_eq!(
                open_as(&keys(), &token, "Book", &kinds),
                Some(Seen::Compact {
                    way,
                    hash: None,
                    sort: sort_digest(&order()),
                    values: values.to_vec(),
                })
            );
            // It binds only the hash of no filter and no search.
            let binds = keys()
                .open(&token, "Book", |opened| match opened {
                    Opened::Compact(p) => Some((p.binds(&unfiltered_hash()), p.binds(&HASH))),
                    Opened::Json(_) => None,
                })
                .flatten();
            assert_eq!(binds, Some((true, false)));
        }
        // With a hash, it binds that hash only.
        let token = keys()
            .seal("Book", Way::Next, &order(), &HASH, &values)
            .unwrap();
        let binds = keys()
            .open(&token, "Book", |opened| match opened {
                Opened::Compact(p) => Some((p.binds(&unfiltered_hash()), p.binds(&HASH))),
                Opened::Json(_) => None,
            })
            .flatten();
        assert_eq!(binds, Some((false, true)));
        assert_eq!(unfiltered_hash(), digest("\u{1d}"));
    }

    #[test]
    fn flags_with_unknown_bits_are_refused() {
        let int = [kind_of(&FieldValue::Integer(1))];
        let body = |flags: u8| {
            let mut p = vec![3u8, flags];
            if flags & FLAG_NO_HASH == 0 {
                p.extend_from_slice(&HASH);
            }
            p.extend_from_slice(&sort_digest(&order()));
            p.extend_from_slice(&[3, 2]);
            p
        };
        let mut accepted = Vec::new();
        for flags in 0..=u8::MAX {
            let payload = body(flags);
            // Signed with a valid tag, the whole 32 bytes (the same as the
            // one computed here independently).
            let token = seal_compact_raw(&keys(), "B", &payload);
            let mut whole = payload.clone();
            whole.extend_from_slice(&independent_tag("B", &payload));
            assert_eq!(URL_SAFE_NO_PAD.encode(&whole), token, "{flags:#b}");
            if open_as(&keys(), &token, "B", &int).is_some() {
                accepted.push(flags);
            }
            // A 16-byte tag (the left half of a valid one) is refused
            // whatever the flags, bit 2 included.
            let mut half = payload.clone();
            half.extend_from_slice(&independent_tag("B", &payload)[..TAG_LEN / 2]);
            let half = URL_SAFE_NO_PAD.encode(half);
            assert_eq!(open_as(&keys(), &half, "B", &int), None, "{flags:#b}");
            assert_eq!(
                CompactPayload::parse(&payload).is_some(),
                flags & !FLAGS_KNOWN == 0,
                "{flags:#b}"
            );
        }
        // Bits 0, 1 and 3 only: bit 2, like every other bit, is unknown.
        assert_eq!(FLAGS_KNOWN, 0b1011);
        assert_eq!(accepted, [0, 1, 2, 3, 8, 9, 10, 11]);
    }

    #[test]
    fn an_old_layout_version_3_token_still_works() {
        // As the release before the flags wrote it: direction byte 0 or 1,
        // the hash always there, the whole 32-byte tag; read now as flags
        // with bit 1 clear.
        let values = [FieldValue::Integer(2001), FieldValue::Integer(7)];
        let kinds = [kind_of(&values[0]), kind_of(&values[1])];
        for (way, direction) in [(Way::Next, 0u8), (Way::Prev, 1)] {
            for hash in [HASH, unfiltered_hash()] {
                let mut payload = vec![3u8, direction];
                payload.extend_from_slice(&hash);
                payload.extend_from_slice(&sort_digest(&order()));
                payload.extend_from_slice(&[3, 0xa2, 0x1f, 3, 14]);
                let tag = independent_tag("Book", &payload);
                let mut all = payload.clone();
                all.extend_from_slice(&tag);
                let token = URL_SAFE_NO_PAD.encode(&all);
                assert_eq!(token.len(), 84);
                assert_eq!(
                    open_as(&keys(), &token, "Book", &kinds),
                    Some(Seen::Compact {
                        way,
                        hash: Some(hash),
                        sort: sort_digest(&order()),
                        values: values.to_vec(),
                    })
                );
                // Its tag cut to 16 bytes is refused: the whole tag is
                // required.
                let cut = URL_SAFE_NO_PAD.encode(&all[..all.len() - TAG_LEN / 2]);
                assert_eq!(open_as(&keys(), &cut, "Book", &kinds), None);
                // So is bit 2 set on it afterwards: with its own tag, and
                // with a valid tag of the flagged payload, whole or its
                // left 16 bytes.
                let mut flagged = payload.clone();
                flagged[1] |= 0b100;
                let valid = independent_tag("Book", &flagged);
                for t in [&tag[..], &valid[..], &valid[..TAG_LEN / 2]] {
                    let mut bytes = flagged.clone();
                    bytes.extend_from_slice(t);
                    let bytes = URL_SAFE_NO_PAD.encode(&bytes);
                    assert_eq!(open_as(&keys(), &bytes, "Book", &kinds), None);
                }
            }
        }
    }

    #[test]
    fn a_tampered_tag_is_refused() {
        let values = [FieldValue::Integer(1)];
        let int = [kind_of(&values[0])];
        for hash in [HASH, unfiltered_hash()] {
            let token = keys()
                .seal("Book", Way::Next, &order(), &hash, &values)
                .unwrap();
            assert!(open_as(&keys(), &token, "Book", &int).is_some());
            let all = URL_SAFE_NO_PAD.decode(&token).unwrap();
            let split = all.len() - TAG_LEN;
            // The whole HMAC, as computed here independently.
            assert_eq!(&all[split..], &independent_tag("Book", &all[..split])[..]);
            // Every bit of the tag and of the payload (flags included).
            for i in 0..all.len() {
                for bit in 0..8 {
                    let mut flipped = all.clone();
                    flipped[i] ^= 1 << bit;
                    let t = URL_SAFE_NO_PAD.encode(&flipped);
                    assert_eq!(
                        open_as(&keys(), &t, "Book", &int),
                        None,
                        "byte {i} bit {bit}"
                    );
                }
            }
            // Either half of a valid tag alone, with the flags as written
            // or with bit 2 set (re-signed: the tag covers the flags).
            for flags in [all[1], all[1] | 0b100] {
                let mut payload = all[..split].to_vec();
                payload[1] = flags;
                let tag = independent_tag("Book", &payload);
                for half in [&tag[..TAG_LEN / 2], &tag[TAG_LEN / 2..]] {
                    let mut t = payload.clone();
                    t.extend_from_slice(half);
                    let t = URL_SAFE_NO_PAD.encode(&t);
                    assert_eq!(open_as(&keys(), &t, "Book", &int), None, "{flags:#b}");
                }
            }
            // A tag one byte short or one byte long.
            let short = URL_SAFE_NO_PAD.encode(&all[..all.len() - 1]);
            assert_eq!(open_as(&keys(), &short, "Book", &int), None);
            let mut long = all.clone();
            long.push(all[split]);
            let long = URL_SAFE_NO_PAD.encode(&long);
            assert_eq!(open_as(&keys(), &long, "Book", &int), None);
        }
        // Nothing but the version, the flags and a valid tag.
        for flags in [0u8, FLAG_NO_HASH, FLAG_PREV | FLAG_NO_HASH] {
            let mut bare = vec![3u8, flags];
            bare.extend_from_slice(&independent_tag("Book", &bare));
            let bare = URL_SAFE_NO_PAD.encode(&bare);
            assert_eq!(open_as(&keys(), &bare, "Book", &int), None);
            assert_eq!(open_as(&keys(), &bare, "Book", &[]), None);
        }
    }

    /// `tag_matches` is equality with the MAC's whole output: every bit of
    /// the tag counts, in every word, and only 32 bytes can match.
    #[test]
    fn tag_matches_is_equality_with_the_whole_tag() {
        let mut mac = HmacSha256::new_from_slice(&[9u8; 32]).unwrap();
        mac.update(b"payload");
        let expected: [u8; TAG_LEN] = mac.finalize().into_bytes().into();
        let tag = expected.to_vec();
        assert!(tag_matches(&expected, &tag));
        for i in 0..TAG_LEN {
            for bit in 0..8 {
                let mut flipped = tag.clone();
                flipped[i] ^= 1 << bit;
                assert!(!tag_matches(&expected, &flipped), "byte {i} bit {bit}");
            }
        }
        let mut long = tag.clone();
        long.push(0);
        for wrong in [&[][..], &tag[..TAG_LEN - 1], &tag[1..], &long[..]] {
            assert!(!tag_matches(&expected, wrong), "{} bytes", wrong.len());
        }
        assert_eq!(
            words(&[
                1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 128
            ]),
            [1, 2, 3, 1 << 63]
        );
    }

    /// `open` accepts what the `base64` crate's URL-safe engine without
    /// padding decodes, and that engine is strict: no padding, canonical
    /// trailing bits only, the URL-safe alphabet only.
    #[test]
    fn base64_is_strict() {
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        // 60 bytes (no trailing bits), 44 bytes (the last character
        // carries 2 zero bits) and 61 bytes (it carries 4; 64 is a two-byte
        // varint).
        for (hash, key, bytes, zero_bits) in [
            (HASH, 1, 60, 0),
            (unfiltered_hash(), 1, 44, 2),
            (HASH, 64, 61, 4),
        ] {
            let values = [FieldValue::Integer(key)];
            let int = [kind_of(&values[0])];
            let token = keys()
                .seal("Book", Way::Next, &order(), &hash, &values)
                .unwrap();
            assert!(open_as(&keys(), &token, "Book", &int).is_some());
            assert_eq!(URL_SAFE_NO_PAD.decode(&token).unwrap().len(), bytes);
            assert_eq!(token.len(), (bytes * 4).div_ceil(3));
            let last = token.len() - 1;
            let mut decoded = Vec::new();
            let mut accepted = Vec::new();
            for &c in alphabet {
                let mut t = token.clone().into_bytes();
                t[last] = c;
                let t = String::from_utf8(t).unwrap();
                if URL_SAFE_NO_PAD.decode(&t).is_ok() {
                    decoded.push(c);
                }
                if open_as(&keys(), &t, "Book", &int).is_some() {
                    accepted.push(c);
                }
            }
            // The engine decodes a last character only if its trailing
            // bits are zero: 64 >> zero_bits of them.
            let canonical: Vec<u8> = alphabet
                .iter()
                .enumerate()
                .filter(|&(value, _)| value % (1 << zero_bits) == 0)
                .map(|(_, &c)| c)
                .collect();
            assert_eq!(decoded, canonical);
            assert_eq!(decoded.len(), 64 >> zero_bits);
            // `open` accepts the token's own only: another canonical one
            // changes the bytes and fails the tag check.
            assert_eq!(accepted, [token.as_bytes()[last]]);
            assert!(canonical.contains(&token.as_bytes()[last]));
            // Padding, anywhere.
            for bad in [
                format!("{token}=="),
                format!("{token}="),
                format!("{}={}", &token[..4], &token[4..]),
            ] {
                assert!(URL_SAFE_NO_PAD.decode(&bad).is_err(), "{bad}");
                assert_eq!(open_as(&keys(), &bad, "Book", &int), None, "{bad}");
            }
            // Any byte outside the alphabet (`+` and `/` of the standard
            // one, `=`, spaces, controls), at every position.
            let mut refused = 0;
            for i in 0..token.len() {
                for b in 0..=u8::MAX {
                    if alphabet.contains(&b) {
                        continue;
                    }
                    let mut t = token.clone().into_bytes();
                    t[i] = b;
                    // The query text is a `&str`: only UTF-8 reaches the
                    // decoder.
                    let Ok(t) = String::from_utf8(t) else {
                        continue;
                    };
                    assert!(URL_SAFE_NO_PAD.decode(&t).is_err(), "{t:?}");
                    assert_eq!(open_as(&keys(), &t, "Book", &int), None, "{t:?}");
                    refused += 1;
                }
            }
            assert_eq!(refused, (128 - 64) * token.len());
            // One character more or one less.
            assert_eq!(open_as(&keys(), &format!("{token}A"), "Book", &int), None);
            assert_eq!(open_as(&keys(), &token[..last], "Book", &int), None);
        }
    }

    #[test]
    fn tampered_truncated_garbage() {
        let values = [FieldValue::Integer(1)];
        let int = [kind_of(&values[0])];
        let compact = keys()
            .seal("Book", Way::Next, &order(), &HASH, &values)
            .unwrap();
        let json = keys()
            .seal_json(&CursorPayload::new(
                "Book",
                "id".into(),
                vec![Json::from(1)],
                "h".into(),
            ))
            .unwrap();
        for token in [compact, json] {
            assert!(open_as(&keys(), &token, "Book", &int).is_some());
            for cut in [1, 5, token.len() / 2, token.len() - 1] {
                assert_eq!(open_as(&keys(), &token[..cut], "Book", &int), None);
            }
            let bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
            for i in 0..bytes.len() {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1;
                let t = URL_SAFE_NO_PAD.encode(&flipped);
                assert_eq!(open_as(&keys(), &t, "Book", &int), None, "byte {i}");
            }
        }
        assert_eq!(open_as(&keys(), "", "Book", &int), None);
        assert_eq!(open_as(&keys(), "!!!", "Book", &int), None);
        let long = "A".repeat(MAX_CURSOR_LENGTH + 1);
        assert_eq!(open_as(&keys(), &long, "Book", &int), None);
        // Long tokens (decoded on the heap) still verify.
        let text = FieldValue::Text("x".repeat(1000).into());
        let token = keys()
            .seal(
                "Book",
                Way::Next,
                &order(),
                &HASH,
                std::slice::from_ref(&text),
            )
            .unwrap();
        assert!(token.len() > STACK_TOKEN);
        assert_eq!(
            open_as(&keys(), &token, "Book", &[ValueKind::Text]),
            Some(Seen::Compact {
                way: Way::Next,
                hash: Some(HASH),
                sort: sort_digest(&order()),
                values: vec![text],
            })
        );
        // Exactly at the stack limit and one over.
        for n in [
            STACK_TOKEN - 2,
            STACK_TOKEN - 1,
            STACK_TOKEN,
            STACK_TOKEN + 1,
        ] {
            let t = "A".repeat(n);
            assert_eq!(open_as(&keys(), &t, "Book", &int), None);
        }
    }

    fn any_value() -> impl Strategy<Value = FieldValue> {
        prop_oneof![
            Just(FieldValue::Null),
            any::<i64>().prop_map(FieldValue::Integer),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(FieldValue::Float),
            any::<bool>().prop_map(FieldValue::Boolean),
            any::<String>().prop_map(|s| FieldValue::Text(s.into())),
            // Names of the `OneOf` kind of `any_kind`, and one it does not list.
            prop::sample::select(&["", "a", "b", "Dune"][..])
                .prop_map(|s| FieldValue::Text(s.into())),
            (Date::MIN.to_julian_day()..=Date::MAX.to_julian_day())
                .prop_map(|d| FieldValue::Date(Date::from_julian_day(d).unwrap())),
            (
                Date::MIN.midnight().assume_utc().unix_timestamp()
                    ..=Date::MAX.midnight().assume_utc().unix_timestamp(),
                0u32..1_000_000_000
            )
                .prop_map(|(s, n)| FieldValue::DateTime(
                    OffsetDateTime::from_unix_timestamp(s)
                        .unwrap()
                        .replace_nanosecond(n)
                        .unwrap()
                )),
        ]
    }

    fn any_kind() -> impl Strategy<Value = ValueKind> {
        prop_oneof![
            Just(ValueKind::Integer {
                min: i64::MIN,
                max: i64::MAX
            }),
            Just(ValueKind::Integer {
                min: -128,
                max: 127
            }),
            Just(ValueKind::Integer { min: 0, max: 10 }),
            Just(ValueKind::Float),
            Just(ValueKind::Float32),
            Just(ValueKind::Boolean),
            Just(ValueKind::Text),
            Just(ValueKind::Date),
            Just(ValueKind::DateTime),
            Just(ValueKind::OneOf(&["", "a", "Dune"])),
            Just(ValueKind::Opaque),
        ]
    }

    proptest! {
        /// `KeyReader::next` is `read_value` then `of_kind`, on written
        /// values and on any bytes, and leaves the same rest.
        #[test]
        fn key_reader_reads_as_read_value_then_of_kind(
            value in any_value(),
            noise in prop::collection::vec(any::<u8>(), 0..12),
            kind in any_kind(),
        ) {
            let written = write_value(&value, Vec::new()).unwrap();
            for bytes in [&written[..], &noise[..], &[&written[..], &noise[..]].concat()[..]] {
                let mut reader = KeyReader { rest: bytes };
                let got = reader.next(kind);
                match read_value(bytes) {
                    Some((v, rest)) => {
                        prop_assert_eq!(&got, &of_kind(kind, v));
                        prop_assert_eq!(reader.rest, rest);
                    }
                    None => prop_assert_eq!(got, None),
                }
            }
        }

        /// Any text as a token: the decoder never panics (its output buffer
        /// is sized by its own length check), and what is not the base64
        /// of a signed payload is refused.
        #[test]
        fn any_token_text_is_refused_without_panic(
            token in "[A-Za-z0-9_=+/ -]{0,300}",
        ) {
            let int = [kind_of(&FieldValue::Integer(1))];
            prop_assert_eq!(open_as(&keys(), &token, "Book", &int), None);
        }

        #[test]
        fn compact_values_round_trip(values in prop::collection::vec(any_value(), 0..6), prev: bool) {
            let way = if prev { Way::Prev } else { Way::Next };
            prop_assert_eq!(round_trip(&values, way), Some(compact(values.clone(), way)));
        }

        /// Any payload with a valid tag: decoding is total (no panic), and
        /// whatever is accepted has exactly the values asked for.
        #[test]
        fn signed_arbitrary_payloads_never_panic(
            body in prop::collection::vec(any::<u8>(), 0..80),
            n in 0usize..4,
        ) {
            let mut payload = vec![3u8, 0];
            payload.extend_from_slice(&HASH);
            payload.extend_from_slice(&body);
            let kinds = [
                ValueKind::Text,
                ValueKind::Float,
                ValueKind::Integer { min: 0, max: 10 },
                ValueKind::DateTime,
            ];
            for raw in [&body[..], &payload[..]] {
                let token = seal_compact_raw(&keys(), "B", raw);
                if let Some(Seen::Compact { values, .. }) = open_as(&keys(), &token, "B", &kinds[..n]) {
                    prop_assert_eq!(values.len(), n);
                }
            }
        }
    }
}
