//! URI references written into responses (RFC 3986 §4.1): the one place
//! that percent-encodes what a URI reference cannot hold, for the link
//! targets of list responses and for problem `type` members.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, CONTROLS, NON_ALPHANUMERIC, utf8_percent_encode};

/// Characters percent-encoded in a link target: everything outside the
/// RFC 3986 §3.3 / §3.4 path and query characters (`unreserved`,
/// `sub-delims`, `:`, `@`, `/`, `?`, and `%` of a `pct-encoded` triplet),
/// i.e. controls, space, `"`, `#`, `<`, `>`, `[`, `\`, `]`, `^`, `` ` ``,
/// `{`, `|`, `}` and (by `utf8_percent_encode`) every non-ASCII byte.
pub(crate) const OUTSIDE_LINK_TARGET: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Characters percent-encoded in a problem `type`: everything but RFC
/// 3986's `unreserved`, `gen-delims` and `sub-delims` (§2.2, §2.3), which
/// is what `#[derive(Problem)]` accepts in a `type`: controls, space, `"`,
/// `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}` and every non-ASCII byte.
pub(crate) const OUTSIDE_PROBLEM_TYPE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'#')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// `text` as a valid URI reference: the bytes in `outside` are
/// percent-encoded (non-ASCII as UTF-8), and a `%` that does not start a
/// `%XX` triplet becomes `%25`. Text that needs none of it is borrowed, so
/// encoding twice changes nothing.
pub(crate) fn reference<'a>(text: &'a str, outside: &'static AsciiSet) -> Cow<'a, str> {
    let is_triplet = |piece: &str| {
        piece
            .as_bytes()
            .get(..2)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    };
    // A piece needs no encoding when the encoder yields it whole, as one
    // borrowed run.
    let kept = |piece: &str| {
        utf8_percent_encode(piece, outside)
            .next()
            .is_none_or(|run| std::ptr::eq(run, piece))
    };
    let clean = if memchr::memchr(b'%', text.as_bytes()).is_none() {
        kept(text)
    } else {
        let mut pieces = text.split('%');
        pieces.next().is_none_or(kept) && pieces.all(|p| is_triplet(p) && kept(p))
    };
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut pieces = text.split('%');
    if let Some(first) = pieces.next() {
        out.extend(utf8_percent_encode(first, outside));
    }
    for piece in pieces {
        out.push_str(if is_triplet(piece) { "%" } else { "%25" });
        out.extend(utf8_percent_encode(piece, outside));
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets() {
        let cases = [
            ("/books?page=2", "/books?page=2"),
            ("/books?q=a b|c", "/books?q=a%20b%7Cc"),
            ("/books?q=%zz%41", "/books?q=%25zz%41"),
            ("/books?q=é#x", "/books?q=%C3%A9%23x"),
        ];
        for (text, expected) in cases {
            assert_eq!(reference(text, OUTSIDE_LINK_TARGET), expected, "{text}");
            assert_eq!(reference(expected, OUTSIDE_LINK_TARGET), expected);
        }
    }

    #[test]
    fn problem_types() {
        let cases = [
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
        ];
        for (text, expected) in cases {
            assert_eq!(reference(text, OUTSIDE_PROBLEM_TYPE), expected, "{text}");
            assert_eq!(reference(expected, OUTSIDE_PROBLEM_TYPE), expected);
        }
    }
}
