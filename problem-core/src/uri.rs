//! URI references written into responses (RFC 3986 §4.1): the one place
//! that percent-encodes what a URI reference cannot hold, for the link
//! targets of list responses, for problem `type` members and for the
//! deprecation and sunset links of API versions.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// The characters a kind of URI reference keeps as they are; every other
/// byte is percent-encoded (controls, DEL and non-ASCII always). `%` is
/// kept only as the start of a `%XX` triplet.
pub(crate) struct UriChars {
    /// What `utf8_percent_encode` encodes.
    encoded: AsciiSet,
    /// Whether an ASCII byte is kept (the same set, for the check).
    kept: [bool; 128],
}

/// The [`UriChars`] that encode, beyond controls, DEL and non-ASCII, the
/// ASCII bytes of `also`.
const fn uri_chars(also: &[u8]) -> UriChars {
    let mut encoded = CONTROLS.add(0x7f);
    let mut kept = [true; 128];
    let mut b = 0;
    while b < 0x20 {
        kept[b] = false;
        b += 1;
    }
    kept[0x7f] = false;
    kept[b'%' as usize] = false;
    let mut i = 0;
    while i < also.len() {
        encoded = encoded.add(also[i]);
        kept[also[i] as usize] = false;
        i += 1;
    }
    UriChars { encoded, kept }
}

/// A link target: the RFC 3986 §3.3 / §3.4 path and query characters
/// (`unreserved`, `sub-delims`, `:`, `@`, `/`, `?`) are kept, so space,
/// `"`, `#`, `<`, `>`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}` are
/// encoded.
pub(crate) static LINK_TARGET: UriChars = uri_chars(b" \"#<>[\\]^`{|}");

/// A whole URI reference, fragment included (a problem `type`, a
/// deprecation or sunset link): RFC 3986's `unreserved`, `gen-delims` and
/// `sub-delims` (§2.2, §2.3) are kept, which is what `#[derive(Problem)]`
/// accepts in a `type`, so space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`,
/// `|`, `}` are encoded.
pub(crate) static URI_REFERENCE: UriChars = uri_chars(b" \"<>\\^`{|}");

/// Whether the two bytes at `at` are hex digits (a `%XX` triplet's tail).
fn is_triplet(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at..at + 2)
        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
}

/// `text` as a valid URI reference: the bytes `chars` does not keep are
/// percent-encoded (non-ASCII as UTF-8), and a `%` that does not start a
/// `%XX` triplet becomes `%25`. Text that needs none of it is borrowed
/// (checked in one pass over its bytes), so encoding twice changes
/// nothing.
pub(crate) fn reference<'a>(text: &'a str, chars: &'static UriChars) -> Cow<'a, str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let clean = loop {
        let Some(&b) = bytes.get(i) else {
            break true;
        };
        if b == b'%' {
            if !is_triplet(bytes, i + 1) {
                break false;
            }
            i += 3;
        } else if chars.kept.get(usize::from(b)).copied().unwrap_or(false) {
            i += 1;
        } else {
            break false;
        }
    };
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut pieces = text.split('%');
    if let Some(first) = pieces.next() {
        out.extend(utf8_percent_encode(first, &chars.encoded));
    }
    for piece in pieces {
        out.push_str(if is_triplet(piece.as_bytes(), 0) {
            "%"
        } else {
            "%25"
        });
        out.extend(utf8_percent_encode(piece, &chars.encoded));
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind's cases (text, as written); a written reference is
    /// written again unchanged.
    #[test]
    fn references() {
        let cases: [(&'static UriChars, &[(&str, &str)]); 2] = [
            (
                &LINK_TARGET,
                &[
                    ("/books?page=2", "/books?page=2"),
                    ("/books?q=a b|c", "/books?q=a%20b%7Cc"),
                    ("/books?q=%zz%41", "/books?q=%25zz%41"),
                    ("/books?q=é#x", "/books?q=%C3%A9%23x"),
                ],
            ),
            (
                &URI_REFERENCE,
                &[
                    ("about:blank", "about:blank"),
                    (
                        "https://example.com/probs/out-of-credit#x",
                        "https://example.com/probs/out-of-credit#x",
                    ),
                    ("/problems/duplicate isbn", "/problems/duplicate%20isbn"),
                    ("/problems/{id}\"<>", "/problems/%7Bid%7D%22%3C%3E"),
                    ("/problems/100%", "/problems/100%25"),
                    ("/problems/café", "/problems/caf%C3%A9"),
                    ("/problems/a\nb", "/problems/a%0Ab"),
                    ("/problems/a\u{7f}b", "/problems/a%7Fb"),
                    ("/problems/%4", "/problems/%254"),
                    ("/problems/%", "/problems/%25"),
                    ("/problems/[x]!$&'()*+,;=@", "/problems/[x]!$&'()*+,;=@"),
                ],
            ),
        ];
        for (chars, cases) in cases {
            for &(text, expected) in cases {
                assert_eq!(reference(text, chars), expected, "{text}");
                assert_eq!(reference(expected, chars), expected);
            }
        }
    }
}
