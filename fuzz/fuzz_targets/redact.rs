//! Credential redaction: `redact` on text and `redact_value` on JSON.
//!
//! The input is split into a prefix, a scheme, a user, a password, a host
//! and a suffix; the password is made of RFC 3986 userinfo characters
//! (unreserved, sub-delims, `:` and percent-escapes), as a real connection
//! URL's password is.
//!
//! Properties: never panics; `prefix scheme://user:password@host suffix`
//! redacts to exactly `prefix scheme://***@host suffix` when the prefix
//! holds no other URL, so the output never contains the password; the same
//! URL inside any JSON value (string members, arrays, under a credential
//! key or any other key) never survives `redact_value`; arbitrary text and
//! arbitrary JSON never panic and redaction is idempotent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use problem_core::pipeline::{redact, redact_value};
use serde_json::{Value, json};

const USERINFO: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:%";
const HOST: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789.-";
const SCHEME: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789+-.";

fn pick(bytes: &[u8], set: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| char::from(set[usize::from(*b) % set.len()]))
        .collect()
}

/// The text without any `://` (removing one can form another).
fn no_url(text: &str) -> String {
    let mut t = text.to_owned();
    while t.contains("://") {
        t = t.replace("://", "");
    }
    t
}

fuzz_target!(|data: &[u8]| {
    // Arbitrary text and JSON: no panic, idempotent.
    let text = String::from_utf8_lossy(data);
    let once = redact(&text).into_owned();
    assert_eq!(redact(&once), once, "not idempotent on {text:?}");
    if let Ok(mut v) = serde_json::from_slice::<Value>(data) {
        redact_value(&mut v);
        let mut again = v.clone();
        redact_value(&mut again);
        assert_eq!(again, v);
    }

    // A connection URL with a password.
    let parts: Vec<&[u8]> = data.splitn(6, |b| *b == 0xff).collect();
    let [prefix, scheme, user, password, host, suffix] = parts[..] else {
        return;
    };
    let prefix = no_url(&String::from_utf8_lossy(prefix));
    let scheme = format!("p{}", pick(scheme, SCHEME));
    let user = pick(user, USERINFO).replace(':', "");
    let password = pick(password, USERINFO);
    let host = format!("h{}", pick(host, HOST));
    let suffix = format!("/{}", no_url(&String::from_utf8_lossy(suffix)));
    if password.len() < 4 {
        return;
    }
    let url = format!("{scheme}://{user}:{password}@{host}:5432{suffix}");
    let input = format!("{prefix}{url}");
    let expected = format!("{prefix}{scheme}://***@{host}:5432{suffix}");
    let out = redact(&input);
    // The prefix must not end inside a scheme, or the scheme is longer.
    let scheme_extended = prefix
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    // Text around the URL that holds a `key: value` / `key=value` secret
    // or an auth scheme of its own is redacted too (free-text rules).
    // (`x` stands for the URL: a prefix such as `pwd:` makes it a value.)
    let probe = format!("{prefix}x");
    let around_is_plain = redact(&probe) == probe && redact(&suffix) == suffix;
    let probe_is_plain = around_is_plain;
    if !scheme_extended && around_is_plain {
        assert_eq!(out, expected, "input {input:?}");
    }
    if !expected.contains(&password) {
        assert!(
            !out.contains(&password),
            "password {password:?} survives in {out:?}"
        );
    }

    // The same URL anywhere in a JSON value: redacted exactly (the scheme
    // follows a space or a quote, so it cannot be extended).
    let redacted = format!("{scheme}://***@{host}:5432{suffix}");
    let mut v = json!({
        "message": format!("connect {url} failed"),
        "nested": [{"dsn": url.clone()}, format!("'{url}'"), format!("\"{url}\"")],
        "databasePassword": password.clone(),
        "token": {"value": password.clone()},
    });
    redact_value(&mut v);
    let want = json!({
        "message": format!("connect {redacted} failed"),
        "nested": [{"dsn": redacted.clone()}, format!("'{redacted}'"), format!("\"{redacted}\"")],
        "databasePassword": "***",
        "token": "***",
    });
    let plain = |t: String| redact(&t) == t;
    let suffix_is_plain = [" failed", "'", "\"", ""]
        .iter()
        .all(|end| plain(format!("{suffix}{end}")));
    if suffix_is_plain && probe_is_plain {
        assert_eq!(v, want);
    }
});
