//! Arbitrary payloads signed with the configured key: what an attacker who
//! stole the cursor key could send, and what a future payload version bug
//! would produce. This reaches the payload decoder behind the HMAC check.
//!
//! Token format (problem-core/src/query/cursor.rs): base64url(payload ||
//! tag). Version 3 (binary, written now): tag = HMAC-SHA256(key, the
//! 64-byte block "problem-core/cursor/v3\0" padded with zeros || resource
//! length (one byte here) || resource || payload), all 32 bytes (the
//! payload's flags byte, its second, has bits 0 and 1 only: any other set
//! is refused). Versions 1 and 2 (JSON, still accepted): tag =
//! HMAC-SHA256(key, "problem-core/cursor/v1\0" || payload). Bit 0x40 of
//! the first input byte picks the version family.
//!
//! Properties: never panics; an accepted cursor has one value per sort
//! entry, each of its field's kind, the key never null; the query then
//! applies in memory and to SQL without panicking; a refusal is a 400 with
//! only `invalid_cursor`/`cursor_mismatch`.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use libfuzzer_sys::fuzz_target;
use problem_core::query::{CollectionQuery as _, FieldValue, ValueKind};
use problem_fuzz::{
    BookQuery, CURSOR_KEY, CURSOR_LISTINGS, books, check_error, codes, config, encode, parse,
};
use sea_query::{PostgresQueryBuilder, Query};
use sha2::{Digest as _, Sha256};

fn seal(payload: &[u8], binary: bool) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(&CURSOR_KEY).expect("any key length");
    if binary {
        let mut domain = [0u8; 64];
        domain[..23].copy_from_slice(b"problem-core/cursor/v3\0");
        mac.update(&domain);
        mac.update(&[9]);
        mac.update(b"BookQuery");
    } else {
        mac.update(b"problem-core/cursor/v1\0");
    }
    mac.update(payload);
    let mut all = payload.to_vec();
    all.extend_from_slice(&mac.finalize().into_bytes());
    URL_SAFE_NO_PAD.encode(all)
}

fn kind_ok(kind: ValueKind, v: &FieldValue) -> bool {
    matches!(
        (kind, v),
        (_, FieldValue::Null)
            | (ValueKind::Integer { .. }, FieldValue::Integer(_))
            | (ValueKind::Float | ValueKind::Float32, FieldValue::Float(_))
            | (ValueKind::Boolean, FieldValue::Boolean(_))
            | (ValueKind::Text, FieldValue::Text(_))
            | (ValueKind::Date, FieldValue::Date(_))
            | (ValueKind::DateTime, FieldValue::DateTime(_))
    )
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    let listing = CURSOR_LISTINGS[usize::from(pick) % CURSOR_LISTINGS.len()];
    let binary = pick & 0x40 != 0;
    // Half of the inputs get a well-formed envelope around fuzzed sort keys,
    // so that the value decoding is reached often.
    let payload: Vec<u8> = if pick & 0x80 != 0 {
        let first = parse(listing, config()).expect("listing parses");
        // The real envelope (version 3: version, flags, the 16-byte filter
        // hash unless flag bit 1 leaves it out, the 8-byte sort digest) is
        // private: take it from a real cursor.
        let page = first.cursor_page_in_memory(books().iter()).expect("page");
        let token = page.meta.next_cursor.expect("next");
        let raw = URL_SAFE_NO_PAD.decode(token).expect("b64");
        assert_eq!(raw[0], 3, "cursors are written in version 3");
        let with_hash = raw[1] & 2 == 0;
        let header = &raw[..if with_hash { 26 } else { 10 }];
        if binary {
            // Fuzzed bytes as the tagged sort-key values.
            [header, payload].concat()
        } else {
            let sort = first.order().to_string();
            // Left out, the hash is the one of no filter and no search.
            let unfiltered = Sha256::digest(b"\x1d");
            let hash = if with_hash {
                &header[2..18]
            } else {
                &unfiltered[..16]
            };
            let hash: String = hash.iter().map(|b| format!("{b:02x}")).collect();
            let keys: serde_json::Value = serde_json::from_slice(payload).unwrap_or_else(|_| {
                serde_json::Value::String(String::from_utf8_lossy(payload).into_owned())
            });
            let keys = match keys {
                serde_json::Value::Array(a) => serde_json::Value::Array(a),
                other => serde_json::Value::Array(vec![other]),
            };
            serde_json::to_vec(
                &serde_json::json!({"v": 1, "r": "BookQuery", "s": sort, "k": keys, "h": hash}),
            )
            .expect("json")
        }
    } else {
        payload.to_vec()
    };
    let token = seal(&payload, binary);
    let qs = format!("{listing}&cursor={}", encode(&token));
    match parse(&qs, config()) {
        Ok(q) => {
            // A next cursor or a previous one (version 2 `"d":"prev"`, or
            // bit 0 of version 3's flags byte).
            let after = q.after().or(q.before()).expect("a cursor was sent");
            assert_eq!(after.len(), q.order().fields().len());
            for (sort, v) in q.order().fields().iter().zip(after) {
                let spec = BookQuery::SCHEMA
                    .field(&sort.field)
                    .expect("sortable field");
                assert!(kind_ok(spec.kind, v), "{} got {v:?}", sort.field);
                assert!(
                    !(v.is_null() && (sort.field == "id" || !spec.nullable)),
                    "null {}",
                    sort.field
                );
            }
            let _ = q
                .cursor_page_in_memory(books().iter())
                .expect("applies in memory");
            let mut select = Query::select()
                .column(sea_query::Asterisk)
                .from(sea_query::Alias::new("books"))
                .to_owned();
            q.apply_cursor_to(&mut select);
            let _ = select.build(PostgresQueryBuilder);
        }
        Err(err) => {
            check_error(&err);
            let c = codes(&err);
            assert!(c == ["invalid_cursor"] || c == ["cursor_mismatch"], "{c:?}");
        }
    }
});
