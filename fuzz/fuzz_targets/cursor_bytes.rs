//! Arbitrary bytes as the `cursor` of every catalog listing, both as sent
//! (percent-encoded) and base64url-encoded (so they pass the base64 layer
//! and reach the HMAC check).
//!
//! Properties: never panics; an empty token is the first page; never accepted
//! unless the token is exactly the real cursor of that listing (then it stands for the real position); a
//! refusal is a 400 whose only issue is `invalid_cursor` or, for another
//! listing's real cursor, `cursor_mismatch`.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use libfuzzer_sys::fuzz_target;
use problem_fuzz::{check_error, codes, config, encode, parse, real_cursors};

fn check(token: &str) {
    let cursors = real_cursors();
    for real in cursors {
        let qs = format!("{}&cursor={}", real.query, encode(token));
        match parse(&qs, config()) {
            // An empty `cursor=` means the first page.
            Ok(q) if token.is_empty() => assert_eq!(q.after(), None),
            Ok(q) => {
                assert_eq!(
                    token, real.token,
                    "a forged cursor was accepted for {:?}",
                    real.query
                );
                assert_eq!(q.after(), Some(real.after.as_slice()));
            }
            Err(err) => {
                check_error(&err);
                let c = codes(&err);
                assert!(
                    !token.is_empty(),
                    "an empty cursor means the first page: {err:?}"
                );
                let issued = cursors.iter().any(|r| r.token == token);
                // A NUL in any query value is refused before the cursor is read.
                let want = if token.contains('\0') {
                    "invalid_value"
                } else if issued {
                    "cursor_mismatch"
                } else {
                    "invalid_cursor"
                };
                assert_eq!(c, [want], "{token:?} on {:?}", real.query);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(&String::from_utf8_lossy(data));
    check(&URL_SAFE_NO_PAD.encode(data));
});
