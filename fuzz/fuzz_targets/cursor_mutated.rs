//! Real cursors, mutated: the input picks a cursor and a list of edits
//! (flip a bit, replace, insert or delete a character, truncate, splice
//! another cursor), applied to the token text or to its decoded bytes.
//!
//! Property: a cursor that differs from the real one in any way is
//! refused (`invalid_cursor`), never accepted with a different content (an
//! edit down to the empty token means the first page); the
//! unchanged cursor is accepted with its real position; a real cursor sent
//! with another listing is `cursor_mismatch`.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use libfuzzer_sys::fuzz_target;
use problem_fuzz::{check_error, codes, config, encode, parse, real_cursors};

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/%. ";

fn edit(bytes: &mut Vec<u8>, ops: &[u8], other: &[u8], text: bool) {
    for op in ops.chunks(3) {
        let [kind, at, arg] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0)];
        if bytes.is_empty() {
            bytes.push(arg);
            continue;
        }
        let pos = usize::from(at) * bytes.len() / 256;
        let letter = if text {
            ALPHABET[usize::from(arg) % ALPHABET.len()]
        } else {
            arg
        };
        match kind % 7 {
            0 => bytes[pos] ^= 1 << (arg % 8),
            1 => bytes[pos] = letter,
            2 => bytes.insert(pos, letter),
            3 => {
                bytes.remove(pos);
            }
            4 => bytes.truncate(pos),
            5 => {
                // splice: our head, the other cursor's tail
                let cut = usize::from(arg) * other.len() / 256;
                bytes.truncate(pos);
                bytes.extend_from_slice(&other[cut..]);
            }
            _ => {
                let to = usize::from(arg) * bytes.len() / 256;
                bytes.swap(pos, to);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let cursors = real_cursors();
    let Some((&head, ops)) = data.split_first() else {
        return;
    };
    let real = &cursors[usize::from(head & 0x0f) % cursors.len()];
    let other = &cursors[usize::from(head >> 4) % cursors.len()];
    let on_bytes = head & 0x80 != 0;
    let token = if on_bytes {
        let mut raw = URL_SAFE_NO_PAD
            .decode(&real.token)
            .expect("real cursors are base64url");
        let other_raw = URL_SAFE_NO_PAD
            .decode(&other.token)
            .expect("real cursors are base64url");
        edit(&mut raw, ops, &other_raw, false);
        URL_SAFE_NO_PAD.encode(raw)
    } else {
        let mut text = real.token.clone().into_bytes();
        edit(&mut text, ops, other.token.as_bytes(), true);
        String::from_utf8_lossy(&text).into_owned()
    };
    // Sent with its own listing, and with another one.
    for listing in [real, other] {
        let qs = format!("{}&cursor={}", listing.query, encode(&token));
        match parse(&qs, config()) {
            // An empty `cursor=` means the first page.
            Ok(q) if token.is_empty() => assert_eq!(q.after(), None),
            Ok(q) => {
                assert_eq!(
                    token, listing.token,
                    "mutated cursor accepted on {:?}",
                    listing.query
                );
                assert_eq!(q.after(), Some(listing.after.as_slice()));
            }
            Err(err) => {
                check_error(&err);
                assert!(!token.is_empty(), "an empty cursor means the first page");
                let issued = cursors.iter().any(|r| r.token == token);
                // A NUL in any query value is refused before the cursor is read.
                let want = if token.contains('\0') {
                    "invalid_value"
                } else if issued {
                    "cursor_mismatch"
                } else {
                    "invalid_cursor"
                };
                assert_eq!(codes(&err), [want], "{token:?} on {:?}", listing.query);
            }
        }
    }
});
