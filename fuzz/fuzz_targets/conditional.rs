//! The preconditions of writes (`pipeline::check_if_match`,
//! `pipeline::check_preconditions`): any bytes as one or more `If-Match`
//! and `If-None-Match` field lines, against a current entity tag or none.
//!
//! Properties (RFC 9110 §13.1.1, §13.1.2, §8.8.3): never panics; the answer
//! is exactly that of an independent reading of the grammar
//! `"*" / #entity-tag` (every line of the field together; an element that
//! is not an entity tag, or `*` beside tags, fails the precondition; a
//! field with no element is the empty list, RFC 9110 §5.6.1; a tag may hold
//! obs-text, bytes from 0x80, RFC 9110 §8.8.3):
//! `If-Match` passes when absent, for `*` with a current representation, or
//! when a listed tag is strongly equal to the current one; `If-None-Match`
//! (after `If-Match`) fails for `*` with a current representation, or when a
//! listed tag weakly equals it.
#![no_main]

use actix_web::http::header::{EntityTag, HeaderValue};
use actix_web::test::TestRequest;
use libfuzzer_sys::fuzz_target;
use problem_core::pipeline::{check_if_match, check_preconditions, entity_tag};

/// One parsed field: `*`, or tags as `(weak, opaque)`; `None` when it does
/// not parse.
enum Field {
    Any,
    Tags(Vec<(bool, Vec<u8>)>),
}

/// `etagc = %x21 / %x23-7E / obs-text` (RFC 9110 §8.8.3).
fn etagc(b: u8) -> bool {
    b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80
}

/// The reference reading of every line of a field.
fn parse(lines: &[&[u8]]) -> Option<Field> {
    let mut any = false;
    let mut tags = Vec::new();
    for line in lines {
        // A field value: visible ASCII, obs-text, space, tab.
        if !line
            .iter()
            .all(|b| *b == b'\t' || (0x20..0x7f).contains(b) || *b >= 0x80)
        {
            return None;
        }
        let mut i = 0;
        loop {
            while i < line.len() && matches!(line[i], b' ' | b'\t' | b',') {
                i += 1;
            }
            if i == line.len() {
                break;
            }
            if line[i] == b'*' {
                any = true;
                i += 1;
            } else {
                let weak = line[i..].starts_with(b"W/");
                if weak {
                    i += 2;
                }
                if line.get(i) != Some(&b'"') {
                    return None;
                }
                let start = i + 1;
                let len = line[start..].iter().position(|b| *b == b'"')?;
                let opaque = &line[start..start + len];
                if !opaque.iter().all(|b| etagc(*b)) {
                    return None;
                }
                tags.push((weak, opaque.to_vec()));
                i = start + len + 1;
            }
            while i < line.len() && matches!(line[i], b' ' | b'\t') {
                i += 1;
            }
            if !(i == line.len() || line[i] == b',') {
                return None;
            }
        }
    }
    match (any, tags.is_empty()) {
        (true, true) => Some(Field::Any),
        // No element at all is the empty list, which names no tag.
        (false, _) => Some(Field::Tags(tags)),
        (true, false) => None,
    }
}

fuzz_target!(|data: &[u8]| {
    // Lines split at `\n`; a line starting with `!` is an `If-None-Match`
    // line, any other an `If-Match` line.
    let mut if_match: Vec<&[u8]> = Vec::new();
    let mut if_none_match: Vec<&[u8]> = Vec::new();
    for line in data.split(|b| *b == b'\n') {
        match line.split_first() {
            Some((b'!', rest)) => if_none_match.push(rest),
            _ => if_match.push(line),
        }
    }
    let mut req = TestRequest::put();
    for line in &if_match {
        let Ok(v) = HeaderValue::from_bytes(line) else { return };
        req = req.append_header(("if-match", v));
    }
    for line in &if_none_match {
        let Ok(v) = HeaderValue::from_bytes(line) else { return };
        req = req.append_header(("if-none-match", v));
    }
    let req = req.to_http_request();
    let tag = entity_tag(b"{\"id\":7}");
    let opaque = tag.tag().as_bytes().to_vec();
    for current in [Some(&tag), None] {
        let strong = |(weak, o): &(bool, Vec<u8>)| !weak && *o == opaque;
        let weakly = |(_, o): &(bool, Vec<u8>)| *o == opaque;
        let if_match_passes = if_match.is_empty()
            || match parse(&if_match) {
                Some(Field::Any) => current.is_some(),
                Some(Field::Tags(tags)) => current.is_some() && tags.iter().any(strong),
                None => false,
            };
        let if_none_match_passes = if_none_match.is_empty()
            || match parse(&if_none_match) {
                Some(Field::Any) => current.is_none(),
                Some(Field::Tags(tags)) => current.is_none() || !tags.iter().any(weakly),
                None => false,
            };
        assert_eq!(
            check_if_match(&req, current).is_ok(),
            if_match_passes,
            "If-Match {if_match:?}, current {current:?}"
        );
        assert_eq!(
            check_preconditions(&req, current).is_ok(),
            if_match_passes && if_none_match_passes,
            "If-Match {if_match:?}, If-None-Match {if_none_match:?}, current {current:?}"
        );
    }
    // A tag written by the library reads back as itself.
    let written = EntityTag::new_strong(tag.tag().to_owned()).to_string();
    let req = TestRequest::put().insert_header(("if-match", written)).to_http_request();
    assert!(check_if_match(&req, Some(&tag)).is_ok());
});
