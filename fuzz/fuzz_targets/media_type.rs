//! The media-type (`Accept`) version reader, and the other carriers of a
//! version (path segment, `X-API-Version`, `api-version`) through the
//! combined strategy.
//!
//! Properties: never panics; a version read from `Accept` is the version of
//! one of its `application/vnd.catalog.v…+json` entries; without such an
//! entry nothing is read; a malformed carried value is a 400 whose echoed
//! input is clipped to 64 characters; a well-formed entry appended to any
//! junk that names no catalog media type is found.
#![no_main]

use actix_web::http::header::HeaderValue;
use actix_web::test::TestRequest;
use libfuzzer_sys::fuzz_target;
use problem_core::version::{ApiVersion, VersionError, VersionStrategy};

fn request(accept: &[&[u8]]) -> Option<actix_web::HttpRequest> {
    let mut req = TestRequest::get().uri("/books");
    for value in accept {
        let v = HeaderValue::from_bytes(value).ok()?;
        req = req.append_header(("accept", v));
    }
    Some(req.to_http_request())
}

/// The versions of the catalog entries of an `Accept` text, as the reader
/// sees them (lowercased, `application/vnd.catalog.` then `v…+json`).
fn entry_versions(text: &str) -> Vec<String> {
    text.split(',')
        .filter_map(|entry| {
            let media = entry
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            let rest = media
                .strip_prefix("application/vnd.catalog.")?
                .strip_suffix("+json")?;
            rest.starts_with('v').then(|| rest.to_owned())
        })
        .collect()
}

fn check_invalid(err: &VersionError) {
    if let VersionError::Invalid { raw, .. } = err {
        assert!(raw.chars().count() <= 65, "echo not clipped: {raw:?}");
    }
    let e: actix_web::Error = err.clone().into();
    assert_eq!(e.as_response_error().status_code().as_u16(), 400, "{err:?}");
}

fuzz_target!(|data: &[u8]| {
    let strategy = VersionStrategy::media_type("catalog");
    let values: Vec<&[u8]> = data.split(|b| *b == b'\n').collect();
    let Some(req) = request(&values) else { return };
    let text: String = values
        .iter()
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect::<Vec<_>>()
        .join(",");
    let carried = entry_versions(&text);
    match strategy.extract(&req) {
        Ok(Some(v)) => assert!(
            carried.iter().any(|c| c.parse::<ApiVersion>() == Ok(v)),
            "{text:?} gave {v} from none of {carried:?}"
        ),
        Ok(None) => {}
        Err(err) => {
            assert!(
                !carried.is_empty(),
                "{text:?}: {err:?} without a catalog entry"
            );
            check_invalid(&err);
        }
    }
    if carried.is_empty() && !text.to_ascii_lowercase().contains("vnd.catalog") {
        assert_eq!(strategy.extract(&req), Ok(None), "{text:?}");
        // A well-formed entry after the junk is found.
        let mut with = values.clone();
        with.push(b"application/vnd.catalog.v9.9+json");
        if let Some(req) = request(&with) {
            let got = strategy.extract(&req);
            assert_eq!(got, Ok(Some(ApiVersion::new(9, 9))), "{text:?}");
        }
    }

    // The combined default strategy over a path segment, the header and
    // the query parameter built from the same bytes.
    let third = data.len() / 3;
    let (a, rest) = data.split_at(third);
    let (b, c) = rest.split_at(third);
    let enc = |bytes: &[u8]| -> String { form_urlencoded::byte_serialize(bytes).collect() };
    let uri = format!(
        "/v{}/books?api-version={}",
        enc(a).replace('+', "%20"),
        enc(c)
    );
    let Ok(_) = actix_web::http::Uri::try_from(uri.as_str()) else {
        return;
    };
    let mut req = TestRequest::get().uri(&uri);
    if let Ok(v) = HeaderValue::from_bytes(b) {
        req = req.insert_header(("x-api-version", v));
    }
    let req = req.to_http_request();
    for strategy in [
        VersionStrategy::default(),
        VersionStrategy::combined([
            VersionStrategy::query(),
            VersionStrategy::header(),
            VersionStrategy::url_path_with_prefix("/api"),
        ]),
    ] {
        match strategy.extract(&req) {
            Ok(_) => {}
            Err(err) => check_invalid(&err),
        }
    }
});
