//! Cursor payload versions through the typed query: cursors issued before
//! version 3 (JSON payloads, versions 1 and 2) still page; a version-3
//! cursor carries every kind of sort-key value back exactly; and a cursor
//! used with another sort, other filters or search, on another resource,
//! or tampered with is refused with the same issue whatever its version.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use problem_core::CollectionQuery;
use problem_core::query::{FieldValue, QueryConfig, TypedQuery};
use serde::Serialize;
use serde_json::{Value as Json, json};
use sha2::{Digest, Sha256};
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};

const KEY: &[u8; 32] = b"0123456789abcdef0123456789abcdef";

#[derive(CollectionQuery, Serialize, Clone, Debug)]
#[query(key = "id")]
struct Book {
    #[query(sort)]
    id: i64,
    #[query(sort)]
    year: Option<i32>,
    #[query(filter(eq, in), sort, search)]
    title: String,
}

/// The same fields under another name: another resource.
#[derive(CollectionQuery, Serialize)]
#[query(key = "id")]
#[allow(dead_code)]
struct Author {
    #[query(sort)]
    id: i64,
    #[query(sort)]
    year: Option<i32>,
    #[query(filter(eq), sort, search)]
    title: String,
}

/// One sortable field of every kind, most of them nullable.
#[derive(CollectionQuery, Serialize, Clone, Debug)]
#[query(key = "id")]
struct Every {
    #[query(sort)]
    id: u64,
    #[query(sort)]
    small: Option<i8>,
    #[query(sort)]
    big: Option<i64>,
    #[query(sort)]
    single: Option<f32>,
    #[query(sort)]
    double: Option<f64>,
    #[query(sort)]
    flag: Option<bool>,
    #[query(sort)]
    text: Option<String>,
    #[query(sort)]
    day: Option<Date>,
    #[query(sort)]
    #[serde(with = "time::serde::rfc3339::option")]
    at: Option<OffsetDateTime>,
}

fn config() -> QueryConfig {
    QueryConfig::default().cursor_keys([KEY.to_vec()]).unwrap()
}

/// A JSON payload signed as releases before version 3 signed it.
fn legacy(payload: &Json) -> String {
    let bytes = serde_json::to_vec(payload).unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(KEY).unwrap();
    mac.update(b"problem-core/cursor/v1\0");
    mac.update(&bytes);
    let mut all = bytes;
    all.extend_from_slice(&mac.finalize().into_bytes());
    URL_SAFE_NO_PAD.encode(all)
}

/// The `h` member of a JSON payload for a query without filter or search.
fn unfiltered_hex() -> String {
    Sha256::digest(b"\x1d")[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn books() -> Vec<Book> {
    [
        (1, Some(2001), "a"),
        (2, None, "b"),
        (7, Some(2001), "c"),
        (9, Some(1990), "d"),
    ]
    .into_iter()
    .map(|(id, year, title)| Book {
        id,
        year,
        title: title.into(),
    })
    .collect()
}

fn parse<Q: problem_core::query::CollectionQuery>(
    qs: &str,
) -> Result<TypedQuery<Q>, (String, String)> {
    TypedQuery::<Q>::from_query_str(qs, &config()).map_err(|e| {
        assert_eq!(e.issues().len(), 1, "{e:?}");
        let i = &e.issues()[0];
        (i.code.to_string(), i.message.clone())
    })
}

/// The next cursor of `q`'s first page over `rows` (there must be one).
fn next_cursor(q: &TypedQuery<Book>, rows: Vec<Book>) -> String {
    q.cursor_page_in_memory(rows)
        .unwrap()
        .meta
        .next_cursor
        .expect("a next page")
}

fn ids(q: &TypedQuery<Book>) -> Vec<i64> {
    q.cursor_page_in_memory(books())
        .unwrap()
        .data
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn json_cursors_issued_before_version_3_still_page() {
    let h = unfiltered_hex();
    // Order `-year,id` (nulls last): 1 and 7 (2001), 9 (1990), 2 (null).
    let next = legacy(&json!({"v": 1, "r": "Book", "s": "-year,id", "k": [2001, 1], "h": h}));
    let q = parse::<Book>(&format!("sort=-year&limit=2&cursor={next}")).unwrap();
    assert_eq!(
        q.after(),
        Some(&[FieldValue::Integer(2001), FieldValue::Integer(1)][..])
    );
    assert_eq!(ids(&q), [7, 9]);
    let prev =
        legacy(&json!({"v": 2, "r": "Book", "s": "-year,id", "k": [null, 2], "h": h, "d": "prev"}));
    let q = parse::<Book>(&format!("sort=-year&limit=2&cursor={prev}")).unwrap();
    assert_eq!(
        q.before(),
        Some(&[FieldValue::Null, FieldValue::Integer(2)][..])
    );
    assert_eq!(ids(&q), [7, 9]);
    // The cursors of that page are version 3 and lead on the same way.
    let page = q.cursor_page_in_memory(books()).unwrap();
    let next = page.meta.next_cursor.unwrap();
    assert_eq!(URL_SAFE_NO_PAD.decode(&next).unwrap()[0], 3);
    let q = parse::<Book>(&format!("sort=-year&limit=2&cursor={next}")).unwrap();
    assert_eq!(ids(&q), [2]);
}

#[test]
fn refusals_are_the_same_for_every_version() {
    let h = unfiltered_hex();
    let v1 = legacy(&json!({"v": 1, "r": "Book", "s": "-year,id", "k": [2001, 7], "h": h}));
    let v2 =
        legacy(&json!({"v": 2, "r": "Book", "s": "-year,id", "k": [2001, 7], "h": h, "d": "prev"}));
    let first = parse::<Book>("sort=-year&limit=1").unwrap();
    let v3 = next_cursor(&first, books());
    let second = parse::<Book>(&format!("sort=-year&limit=1&cursor={v3}")).unwrap();
    let v3_prev = second
        .cursor_page_in_memory(books())
        .unwrap()
        .meta
        .prev_cursor
        .unwrap();
    for token in [&v1, &v2, &v3, &v3_prev] {
        assert!(parse::<Book>(&format!("sort=-year&cursor={token}")).is_ok());
        let refused = |qs: String| parse::<Book>(&qs).map(|_| ()).unwrap_err();
        assert_eq!(
            refused(format!("sort=year&cursor={token}")),
            ("cursor_mismatch".to_owned(), SORT_MISMATCH.to_owned())
        );
        for other in ["title=a", "q=a"] {
            assert_eq!(
                refused(format!("sort=-year&{other}&cursor={token}")),
                ("cursor_mismatch".to_owned(), FILTER_MISMATCH.to_owned()),
                "{other}"
            );
        }
        // Another resource's cursor is not this collection's.
        let err = parse::<Author>(&format!("sort=-year&cursor={token}")).map(|_| ());
        assert_eq!(err.unwrap_err().0, "invalid_cursor");
        // Tampered, truncated.
        let mut bytes = URL_SAFE_NO_PAD.decode(token).unwrap();
        bytes[2] ^= 0x10;
        let tampered = URL_SAFE_NO_PAD.encode(&bytes);
        assert_eq!(
            refused(format!("sort=-year&cursor={tampered}")).0,
            "invalid_cursor"
        );
        let cut = &token[..token.len() - 3];
        assert_eq!(
            refused(format!("sort=-year&cursor={cut}")).0,
            "invalid_cursor"
        );
    }
    // Version 3 cursors are shorter than the JSON ones they replace.
    assert!(v3.len() < v1.len(), "{v3} {v1}");
}

/// A cursor is bound to the rows its query selects, not to their
/// spelling: an `__in` list in another order or with a repeat, search terms
/// in another order or case select the same rows and keep the cursor; other
/// values do not.
#[test]
fn a_cursor_keeps_to_other_spellings_of_the_same_query() {
    let rows: Vec<Book> = [(1, "ab"), (2, "ba"), (3, "abc")]
        .into_iter()
        .map(|(id, title)| Book {
            id,
            year: Some(2001),
            title: title.into(),
        })
        .collect();
    let first = parse::<Book>("sort=-year&limit=1&title__in=ab,ba&q=A+b").unwrap();
    let token = next_cursor(&first, rows);
    for same in [
        "title__in=ba,ab&q=b+a",
        "title__in=ba&title__in=ab,ba&q=a+B",
        "q=B+A+a&title__in=ab,ba",
    ] {
        let q = parse::<Book>(&format!("sort=-year&limit=1&{same}&cursor={token}"));
        assert!(q.is_ok(), "{same}: {q:?}", q = q.map(|_| ()));
    }
    for other in [
        "title__in=ab&q=a+b",
        "title__in=ab,ba&q=a",
        "title__in=ab,ba,abc&q=a+b",
        // One term holding U+001F, the separator of the terms in the
        // cursor's filter hash before terms were length-prefixed.
        "title__in=ab,ba&q=a%1Fb",
    ] {
        let (code, detail) = parse::<Book>(&format!("sort=-year&limit=1&{other}&cursor={token}"))
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            (code.as_str(), detail.as_str()),
            ("cursor_mismatch", FILTER_MISMATCH),
            "{other}"
        );
    }
}

/// The detail of `cursor_mismatch` for other filters or search.
const SORT_MISMATCH: &str = "the cursor was issued for a different sort: send the same sort, filters and search as the first page, or drop the cursor";
const FILTER_MISMATCH: &str = "the cursor was issued for a different filter or search: send the same sort, filters and search as the first page, or drop the cursor";

#[test]
fn a_cursor_without_filter_hash_matches_only_a_query_without_filter_and_search() {
    let first = parse::<Book>("sort=-year&limit=1").unwrap();
    let next = next_cursor(&first, books());
    // Version 3, flags: next, no hash (bit 1); then the sort digest, 2001
    // and 1 (`3, 0xa2, 0x1f`, `3, 2`) and the whole 32-byte tag.
    let bytes = URL_SAFE_NO_PAD.decode(&next).unwrap();
    assert_eq!(bytes[..2], [3, 0b010]);
    assert_eq!(
        bytes[2..10],
        (xxhash_rust::xxh3::xxh3_128(b"-year,id") as u64).to_le_bytes()
    );
    assert_eq!(bytes[10..15], [3, 0xa2, 0x1f, 3, 2]);
    assert_eq!(bytes[15..], tag_v3(&bytes[..15]));
    assert_eq!((bytes.len(), next.len()), (47, 63));
    let q = parse::<Book>(&format!("sort=-year&limit=1&cursor={next}")).unwrap();
    assert_eq!(
        q.after(),
        Some(&[FieldValue::Integer(2001), FieldValue::Integer(1)][..])
    );
    for extra in ["title=a", "q=a", "title=a&q=a"] {
        let qs = format!("sort=-year&limit=1&{extra}&cursor={next}");
        let Err(refused) = parse::<Book>(&qs).map(|_| ()) else {
            panic!("{qs} was accepted");
        };
        assert_eq!(
            refused,
            ("cursor_mismatch".to_owned(), FILTER_MISMATCH.to_owned()),
            "{qs}"
        );
    }
    // Bit 3 (the cursor's own row on its page) set and signed again is a
    // cursor that includes its row.
    let mut payload = bytes[..15].to_vec();
    payload[1] |= 0b1000;
    let at_row = signed_v3(payload);
    let q = parse::<Book>(&format!("sort=-year&limit=1&cursor={at_row}")).unwrap();
    assert!(q.cursor_includes_row());
    assert!(
        !parse::<Book>(&format!("sort=-year&limit=1&cursor={next}"))
            .unwrap()
            .cursor_includes_row()
    );
    // Bit 2 (or any other unknown bit) set and signed again is refused.
    for bit in [0b100, 0b1_0000, 0x80] {
        let mut payload = bytes[..15].to_vec();
        payload[1] |= bit;
        let token = signed_v3(payload);
        let qs = format!("sort=-year&limit=1&cursor={token}");
        assert_eq!(
            parse::<Book>(&qs).map(|_| ()).unwrap_err().0,
            "invalid_cursor"
        );
    }
    // A filtered listing's cursor carries its hash (flags: next) and is
    // refused without the filter, with the same issue.
    let filtered = parse::<Book>("sort=-year&limit=1&title=a").unwrap();
    let mut two_a = books();
    two_a[2].title = "a".into();
    let next = next_cursor(&filtered, two_a);
    let bytes = URL_SAFE_NO_PAD.decode(&next).unwrap();
    assert_eq!(bytes[..2], [3, 0b000]);
    assert_eq!(
        bytes[2..18],
        Sha256::digest("title\u{1e}eq\u{1e}s:1:a\u{1d}".as_bytes())[..16]
    );
    assert_eq!((bytes.len(), next.len()), (63, 84));
    assert!(parse::<Book>(&format!("sort=-year&limit=1&title=a&cursor={next}")).is_ok());
    assert_eq!(
        parse::<Book>(&format!("sort=-year&limit=1&cursor={next}")).map(|_| ()),
        Err(("cursor_mismatch".to_owned(), FILTER_MISMATCH.to_owned()))
    );
}

/// The version-3 tag of `payload` for `Book`: the whole HMAC-SHA256.
fn tag_v3(payload: &[u8]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(KEY).unwrap();
    let mut domain = [0u8; 64];
    domain[..23].copy_from_slice(b"problem-core/cursor/v3\0");
    mac.update(&domain);
    mac.update(&[4]);
    mac.update(b"Book");
    mac.update(payload);
    mac.finalize().into_bytes().into()
}

/// A version-3 token of `payload` for `Book`, signed with [`KEY`].
fn signed_v3(mut payload: Vec<u8>) -> String {
    let tag = tag_v3(&payload);
    payload.extend_from_slice(&tag);
    URL_SAFE_NO_PAD.encode(payload)
}

/// A version-3 cursor as the release before the flags byte wrote it: the
/// direction byte, the 16-byte hash always, the whole 32-byte tag.
fn old_layout_v3(direction: u8, hash: &[u8], sort: &str, values: &[u8]) -> String {
    let mut payload = vec![3u8, direction];
    payload.extend_from_slice(hash);
    payload.extend_from_slice(&(xxhash_rust::xxh3::xxh3_128(sort.as_bytes()) as u64).to_le_bytes());
    payload.extend_from_slice(values);
    signed_v3(payload)
}

#[test]
fn version_3_cursors_issued_before_the_flags_byte_still_page() {
    let unfiltered = &Sha256::digest(b"\x1d")[..16];
    // After (2001, 1): 7 and 9.
    let next = old_layout_v3(0, unfiltered, "-year,id", &[3, 0xa2, 0x1f, 3, 2]);
    assert_eq!(next.len(), 84);
    let q = parse::<Book>(&format!("sort=-year&limit=2&cursor={next}")).unwrap();
    assert_eq!(
        q.after(),
        Some(&[FieldValue::Integer(2001), FieldValue::Integer(1)][..])
    );
    assert_eq!(ids(&q), [7, 9]);
    // Before (null, 2): 7 and 9.
    let prev = old_layout_v3(1, unfiltered, "-year,id", &[0, 3, 4]);
    let q = parse::<Book>(&format!("sort=-year&limit=2&cursor={prev}")).unwrap();
    assert_eq!(
        q.before(),
        Some(&[FieldValue::Null, FieldValue::Integer(2)][..])
    );
    assert_eq!(ids(&q), [7, 9]);
    // Bound to its filters as before: refused with a filter, and a
    // filtered one refused without it.
    assert_eq!(
        parse::<Book>(&format!("sort=-year&title=a&cursor={next}")).map(|_| ()),
        Err(("cursor_mismatch".to_owned(), FILTER_MISMATCH.to_owned()))
    );
    let filtered_hash = &Sha256::digest("title\u{1e}eq\u{1e}s:1:a\u{1d}".as_bytes())[..16];
    let filtered = old_layout_v3(0, filtered_hash, "-year,id", &[3, 0xa2, 0x1f, 3, 2]);
    let q = parse::<Book>(&format!("sort=-year&title=a&cursor={filtered}")).unwrap();
    assert_eq!(
        q.after(),
        Some(&[FieldValue::Integer(2001), FieldValue::Integer(1)][..])
    );
    assert_eq!(
        parse::<Book>(&format!("sort=-year&cursor={filtered}")).map(|_| ()),
        Err(("cursor_mismatch".to_owned(), FILTER_MISMATCH.to_owned()))
    );
}

/// A row with `id` and every other field from `pick`.
fn every(id: u64, pick: usize) -> Every {
    let texts = ["", "Night Rain", "Ünïcødé – 日本語 🌧", "nul \0 \u{1d}"];
    let doubles = [
        0.0,
        -0.0,
        0.1,
        -1.5e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        2.0,
    ];
    let singles = [0.1f32, f32::MAX, -0.0, f32::MIN_POSITIVE, 1e-45];
    let ints = [i64::MIN, i64::MAX, 0, -1, 64, -65];
    let days = [
        date!(2024 - 02 - 29),
        date!(1969 - 12 - 31),
        date!(0001 - 01 - 01),
        date!(9999 - 12 - 31),
    ];
    let ats = [
        datetime!(1969-12-31 23:59:59.5 UTC),
        datetime!(2024-01-01 02:00:00.123456789 +02:00),
        datetime!(1970-01-01 00:00:00.000000001 UTC),
        datetime!(9999-12-31 23:59:59.999999999 UTC),
    ];
    // Every fifth row has only nulls.
    let some = pick % 5 != 4;
    Every {
        id,
        small: some.then_some([i8::MIN, i8::MAX, 0][pick % 3]),
        big: some.then_some(ints[pick % ints.len()]),
        single: some.then_some(singles[pick % singles.len()]),
        double: some.then_some(doubles[pick % doubles.len()]),
        flag: some.then_some(pick.is_multiple_of(2)),
        text: some.then(|| texts[pick % texts.len()].to_owned()),
        day: some.then_some(days[pick % days.len()]),
        at: some.then_some(ats[pick % ats.len()]),
    }
}

#[test]
fn every_kind_of_sort_key_round_trips_through_a_version_3_cursor() {
    let rows: Vec<Every> = (0..40).map(|i| every(i, i as usize)).collect();
    let sorts = [
        "sort=small,big",
        "sort=-single,double",
        "sort=flag,-text",
        "sort=day,at",
        "sort=-at,-text,-double,small",
        "sort=text,flag,day,single,big",
    ];
    for sort in sorts {
        // The walk must give the rows in the order of one page holding them all.
        let whole: Vec<u64> = parse::<Every>(&format!("{sort}&limit=40"))
            .unwrap()
            .cursor_page_in_memory(&rows)
            .unwrap()
            .data
            .iter()
            .map(|r| r["id"].as_u64().unwrap())
            .collect();
        let mut qs = format!("{sort}&limit=3");
        let mut seen = Vec::new();
        loop {
            assert!(seen.len() < rows.len(), "{sort}: the walk does not end");
            let q = parse::<Every>(&qs).unwrap_or_else(|e| panic!("{qs}: {e:?}"));
            let page = q.cursor_page_in_memory(&rows).unwrap();
            seen.extend(page.data.iter().map(|r| r["id"].as_u64().unwrap()));
            let Some(next) = page.meta.next_cursor else {
                break;
            };
            // The cursor's values are the last row's, exactly (-0.0 too).
            let last = page.data.last().unwrap();
            let after = parse::<Every>(&format!("{sort}&limit=3&cursor={next}"))
                .unwrap()
                .after()
                .unwrap()
                .to_vec();
            let q = parse::<Every>(&format!("{sort}&limit=3")).unwrap();
            assert_eq!(after.len(), q.order().fields().len(), "{sort}");
            for (field, v) in q.order().fields().iter().zip(&after) {
                let want = <Every as problem_core::query::CollectionQuery>::SCHEMA
                    .field(&field.field)
                    .unwrap()
                    .kind
                    .from_json(&last[&*field.field])
                    .unwrap();
                assert_eq!(v, &want, "{sort} {}", field.field);
                if let (FieldValue::Float(a), FieldValue::Float(b)) = (v, &want) {
                    assert_eq!(a.to_bits(), b.to_bits());
                }
            }
            qs = format!("{sort}&limit=3&cursor={next}");
        }
        assert_eq!(seen, whole, "{sort}");
        seen.sort_unstable();
        assert_eq!(seen, (0..40).collect::<Vec<u64>>(), "{sort}");
    }
}
