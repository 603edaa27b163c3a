//! Credential redaction (spec, "Masking rules" and "Logging and correlation ids").
//!
//! In text ([`redact`]):
//! - A URL of the form `scheme://<user>:<password>@<host>:<port>` becomes
//!   `scheme://***@<host>:<port>`; any user information in a URL is
//!   replaced, with or without a password. A password holding `/`, `?`,
//!   `#`, `"`, `<`, `>` or `` ` `` unescaped, as DSNs are often written
//!   (`postgres://app:pa/ss@db`, `postgres://app:p"q@db`), is hidden up to
//!   its `@` too.
//! - `key=value` and `key: value` (spaces around `=`/`:` allowed, the key
//!   and the value optionally quoted, as in JSON) where the key is named
//!   like a credential ([`is_sensitive_key`]: ignoring ASCII case and
//!   reading `-` as `_`, it contains `password`, `passwd`, `passphrase`, `pwd`, `secret`,
//!   `token`, `api_key`, `apikey`, `access_key`, `private_key`,
//!   `privatekey`, `authorization`, `cookie`, `credential`, `session`,
//!   `sessid` or `jwt`, or has `pass`, `pw` or `auth` as a word between `_`
//!   and `.`): the value becomes
//!   `***` (a quoted value up to its closing quote; an unquoted one after
//!   `=` up to whitespace or one of `,;&)]}"'`; an unquoted one after `:`,
//!   which may hold spaces as a header or YAML value does, up to one of
//!   `,;&)]}"'`, whitespace other than a space or tab (a line break), or
//!   the space before the next `key=`/`key:`:
//!   `DB_PASSWORD: correct horse battery` hides all three words); an
//!   `authorization` value is hidden to the end of
//!   the line, keeping its first word only when it names a known
//!   authentication scheme (`authorization: Bearer x`, `Digest ...`,
//!   `token ...`; the IANA registry's and `token`, `AWS4-HMAC-SHA256`,
//!   `NTLM`): another first word may be the secret itself.
//! - `Bearer <credentials>` and `Basic <credentials>` (the scheme word
//!   case-insensitive): the credentials (RFC 7235 `token68` characters)
//!   become `***`.
//!
//! In JSON values ([`redact_value`]), string values are redacted as text
//! and the values of members named like a credential (the same names) are
//! replaced by `***` whole.

use std::borrow::Cow;

use serde_json::Value;

/// What a credential is replaced with: `***`.
///
/// ```
/// use problem_core::pipeline::{REDACTED, redact};
/// assert_eq!(REDACTED, "***");
/// assert_eq!(redact("postgres://app:s3cret@db:5432/shop"), format!("postgres://{REDACTED}@db:5432/shop"));
/// ```
pub const REDACTED: &str = "***";

/// Replaces the user information of every URL in `text` with `***`.
///
/// ```
/// use problem_core::pipeline::redact;
/// assert_eq!(
///     redact("connect postgres://catalog:s3cret@db.internal:5432/catalog failed"),
///     "connect postgres://***@db.internal:5432/catalog failed"
/// );
/// assert_eq!(redact("no url here"), "no url here");
/// ```
///
/// It also hides `key=value` / `key: value` secrets and `Bearer`/`Basic`
/// credentials (module documentation):
///
/// ```
/// use problem_core::pipeline::redact;
/// assert_eq!(redact("login failed: password=hunter2 user=bob"), "login failed: password=*** user=bob");
/// assert_eq!(redact(r#"{"api_key": "abc123"}"#), r#"{"api_key": "***"}"#);
/// assert_eq!(redact("Authorization: Bearer eyJhbGciOi.x.y"), "Authorization: Bearer ***");
/// assert_eq!(redact("sent basic dXNlcjpwYXNz to proxy"), "sent basic *** to proxy");
/// ```
pub fn redact(text: &str) -> Cow<'_, str> {
    let Cow::Owned(mut out) = redact_once(text) else {
        return Cow::Borrowed(text);
    };
    // Hiding one secret can join text into another shape (a `key=***`
    // followed by `@` reads as URL credentials): redact again until nothing
    // changes, so redaction is idempotent. Each pass only hides more; a few
    // passes always settle.
    for _ in 0..REDACT_PASSES {
        match redact_once(&out) {
            Cow::Borrowed(_) => break,
            Cow::Owned(next) => out = next,
        }
    }
    Cow::Owned(out)
}

/// At most this many further passes of [`redact`].
const REDACT_PASSES: usize = 8;

/// One pass: URL credentials, then `key=value` secrets and credentials.
fn redact_once(text: &str) -> Cow<'_, str> {
    match redact_urls(text) {
        Cow::Borrowed(t) => redact_secrets(t),
        Cow::Owned(t) => Cow::Owned(redact_secrets(&t).into_owned()),
    }
}

/// The names of credentials: a `key=value` / `key: value` in text, or a
/// JSON member, whose name holds one of them (ignoring ASCII case, `-`
/// read as `_`) has its value hidden. One list for text and JSON alike.
/// Each entry says how the name must hold it.
const SECRET_NAMES: [(&str, NameMatch); 20] = [
    ("password", NameMatch::Within),
    ("passwd", NameMatch::Within),
    ("passphrase", NameMatch::Within),
    ("pwd", NameMatch::Within),
    ("secret", NameMatch::Within),
    ("token", NameMatch::Within),
    ("api_key", NameMatch::Within),
    ("apikey", NameMatch::Within),
    ("access_key", NameMatch::Within),
    ("private_key", NameMatch::Within),
    ("privatekey", NameMatch::Within),
    ("authorization", NameMatch::Within),
    ("cookie", NameMatch::Within),
    ("credential", NameMatch::Within),
    ("session", NameMatch::Within),
    ("sessid", NameMatch::Within),
    ("jwt", NameMatch::Within),
    // Short names that are parts of ordinary words (`passage`, `upward`,
    // `author`) count only as a whole word of the name.
    ("pass", NameMatch::Word),
    ("pw", NameMatch::Word),
    ("auth", NameMatch::Word),
];

/// How a name of [`SECRET_NAMES`] must appear in a key.
#[derive(Clone, Copy)]
enum NameMatch {
    /// Anywhere in the key: `dbPassword`, `X_API_KEY`.
    Within,
    /// As a whole word of the key, words split at `_` and `.`: `pass`,
    /// `db_pass`, `smtp.pass`, not `passage`.
    Word,
}

fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

fn is_token68(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

fn ends_value(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b',' | b';' | b'&' | b')' | b']' | b'}' | b'"' | b'\'')
}

/// The end of the `Bearer`/`Basic` scheme word at `at` followed by
/// whitespace: the start of its credentials.
fn auth_scheme_at(bytes: &[u8], at: usize) -> Option<usize> {
    for scheme in ["bearer", "basic"] {
        let end = at + scheme.len();
        if end < bytes.len()
            && bytes[at..end].eq_ignore_ascii_case(scheme.as_bytes())
            && matches!(bytes[end], b' ' | b'\t')
        {
            let mut k = end;
            while k < bytes.len() && matches!(bytes[k], b' ' | b'\t') {
                k += 1;
            }
            return Some(k);
        }
    }
    None
}

/// Authentication schemes whose name an `Authorization` value keeps: the
/// IANA HTTP Authentication Scheme Registry's, and a few in wide use
/// outside it (`token`, `AWS4-HMAC-SHA256`, `NTLM`). Compared ignoring
/// ASCII case.
const KNOWN_AUTH_SCHEMES: [&str; 17] = [
    "basic",
    "bearer",
    "concealed",
    "digest",
    "dpop",
    "gnap",
    "hoba",
    "mutual",
    "negotiate",
    "oauth",
    "privatetoken",
    "scram-sha-1",
    "scram-sha-256",
    "vapid",
    "token",
    "aws4-hmac-sha256",
    "ntlm",
];

/// The end of a known scheme word at `at` ([`KNOWN_AUTH_SCHEMES`])
/// followed by a space: the start of its credentials. Any other first
/// word may be the secret itself (`authorization=hunter2 here`), so it is
/// not kept.
fn known_scheme_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut k = at;
    while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'-') {
        k += 1;
    }
    let word = bytes.get(at..k)?;
    if bytes.get(k) != Some(&b' ')
        || !KNOWN_AUTH_SCHEMES
            .iter()
            .any(|s| s.as_bytes().eq_ignore_ascii_case(word))
    {
        return None;
    }
    while k < bytes.len() && bytes[k] == b' ' {
        k += 1;
    }
    Some(k)
}

/// The end of the list or object opening at `at` (just past its closing
/// bracket, brackets inside quoted strings skipped), or the end of `bytes`.
fn bracketed_end(bytes: &[u8], at: usize) -> usize {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut k = at;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' if quoted => k += 1,
            b'"' => quoted = !quoted,
            b'[' | b'{' if !quoted => depth += 1,
            b']' | b'}' if !quoted => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    bytes.len()
}

/// The end of the line holding `at`: the next `\n` or `\r`, else the end
/// of the text.
fn line_end(bytes: &[u8], at: usize) -> usize {
    bytes
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| matches!(b, b'\n' | b'\r')))
        .map_or(bytes.len(), |n| at + n)
}

/// Where an unquoted value after `key:` that starts at `at` ends: at a
/// delimiter other than a space or tab (a line break, `,`, `;`, `&`, a
/// closing bracket or quote), or at the space before the next `key=` or
/// `key:`.
fn spaced_value_end(bytes: &[u8], at: usize) -> usize {
    // The end of the value's last word: spaces before whatever ends it are
    // not part of it.
    let mut word_end = at;
    let mut end = at;
    while end < bytes.len() {
        let b = bytes[end];
        if matches!(b, b' ' | b'\t') {
            let mut next = end;
            while next < bytes.len() && matches!(bytes[next], b' ' | b'\t') {
                next += 1;
            }
            let mut key_end = next;
            while key_end < bytes.len() && is_key_byte(bytes[key_end]) {
                key_end += 1;
            }
            // `key=`, `key:`, `key = `: spaces before the sign allowed, as
            // the key it follows was read.
            let mut sign = key_end;
            while sign < bytes.len() && matches!(bytes[sign], b' ' | b'\t') {
                sign += 1;
            }
            let starts_pair = key_end > next
                && (bytes.get(sign) == Some(&b'=')
                    || (bytes.get(sign) == Some(&b':')
                        && !matches!(bytes.get(sign + 1), Some(b':' | b'/'))));
            if starts_pair {
                return word_end;
            }
            end = next;
            continue;
        }
        if ends_value(b) {
            return word_end;
        }
        end += 1;
        word_end = end;
    }
    word_end
}

/// Where a quoted value that starts at `start` ends: at the first `quote`
/// not escaped by a backslash (`"hun\"ter2"` is one value), else at the
/// end of the text.
fn quoted_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b if b == quote => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Hides `key=value` / `key: value` secrets and `Bearer`/`Basic`
/// credentials.
fn redact_secrets(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_key_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && is_key_byte(bytes[j]) {
            j += 1;
        }
        let word = &text[i..j];
        // `Bearer <token68>` / `Basic <token68>` anywhere.
        if let Some(start) = auth_scheme_at(bytes, i).filter(|_| j - i <= 6) {
            let mut end = start;
            while end < bytes.len() && is_token68(bytes[end]) {
                end += 1;
            }
            if end > start && &text[start..end] != REDACTED {
                spans.push((start, end));
            }
            i = end.max(j);
            continue;
        }
        if is_sensitive_key(word) {
            let mut k = j;
            if k < bytes.len() && matches!(bytes[k], b'"' | b'\'') {
                k += 1;
            }
            while k < bytes.len() && matches!(bytes[k], b' ' | b'\t') {
                k += 1;
            }
            // `key=value` or `key: value`, not `key::path` or `key://`.
            let sep = k < bytes.len()
                && (bytes[k] == b'='
                    || (bytes[k] == b':' && !matches!(bytes.get(k + 1), Some(b':' | b'/'))));
            if sep {
                let colon = bytes[k] == b':';
                k += 1;
                while k < bytes.len() && matches!(bytes[k], b' ' | b'\t') {
                    k += 1;
                }
                let lower = word.to_ascii_lowercase();
                let (start, end) = match bytes.get(k) {
                    Some(&q @ (b'"' | b'\'')) => (k + 1, quoted_end(bytes, k + 1, q)),
                    // A list or object (`"password":["a","b"]`): up to
                    // its closing bracket.
                    Some(b'[' | b'{') => (k, bracketed_end(bytes, k)),
                    // `Cookie: a=1; session=…`: every cookie, to the end of
                    // the line.
                    _ if lower.contains("cookie") => (k, line_end(bytes, k)),
                    // `DB_PASSWORD: correct horse battery`: after a colon,
                    // as in a header or YAML line, an unquoted value may
                    // hold spaces: it runs on past them, to a delimiter
                    // or the next `key=` / `key:` (more hidden rather than
                    // a passphrase's later words shown).
                    _ if colon && !lower.contains("authorization") => {
                        let start = auth_scheme_at(bytes, k).unwrap_or(k);
                        (start, spaced_value_end(bytes, start))
                    }
                    // `Authorization: <scheme> <credentials>`: the
                    // credentials run to the end of the line; the scheme
                    // word is kept when it names a known scheme (`token`,
                    // `Digest`, `AWS4-HMAC-SHA256`), else everything goes.
                    _ if lower.contains("authorization") => {
                        let start = auth_scheme_at(bytes, k)
                            .or_else(|| known_scheme_end(bytes, k))
                            .unwrap_or(k);
                        (start, line_end(bytes, start))
                    }
                    _ => {
                        let start = auth_scheme_at(bytes, k).unwrap_or(k);
                        let mut end = start;
                        while end < bytes.len() && !ends_value(bytes[end]) {
                            end += 1;
                        }
                        (start, end)
                    }
                };
                if end > start {
                    if &text[start..end] != REDACTED {
                        spans.push((start, end));
                    }
                    i = end;
                    continue;
                }
            }
        }
        i = j;
    }
    replace_spans(text, &spans)
}

/// Replaces the user information of every URL in `text` with `***`.
fn redact_urls(text: &str) -> Cow<'_, str> {
    if !text.contains("://") {
        return Cow::Borrowed(text);
    }
    // Every `://` is looked at on its own, so that one URL's authority
    // ending inside the next URL's `://` (`a://b://user:pw@host`) cannot
    // hide the next URL. The user-information spans found this way are in
    // order and disjoint: an authority ends at the first '/'.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("://") {
        let pos = from + found;
        let start = pos + 3;
        let tail = &text[start..];
        // The authority ends at the first '/', '?', '#', whitespace, or a
        // character that cannot appear in a URL ('"', '<', '>', '`'). Not at
        // '\'': RFC 3986 allows it in the user information (a sub-delim), so
        // a password may hold one.
        let end = tail
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '"' | '<' | '>' | '`') || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        let at = tail[..end]
            .rfind('@')
            .or_else(|| delimited_password_end(tail, end));
        if let Some(at) = at
            && has_scheme(&text[..start])
        {
            spans.push((start, start + at));
        }
        from = pos + 1;
    }
    replace_spans(text, &spans)
}

/// The `@` ending the user information of a URL whose password holds a
/// `/`, `?`, `#`, `"`, `<`, `>` or `` ` `` (`postgres://app:pa/ss@db/x`,
/// `postgres://app:p"q@db`), which are not allowed there unescaped but are
/// written in DSNs anyway: `tail` is the text after `://`, cut at `end` by
/// one of them. The part before the cut must read as `user:password`, with
/// something after the last `:` that is not a port (digits), and not an
/// IP literal; the user information then runs to the last `@` before
/// whitespace or the next `://`. So a quoted URL without user information
/// (`"redis://cache:6379" for a@b`) keeps its text.
fn delimited_password_end(tail: &str, end: usize) -> Option<usize> {
    let authority = &tail[..end];
    let (_, after_colon) = authority.rsplit_once(':')?;
    if authority.starts_with('[')
        || (!after_colon.is_empty() && after_colon.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let rest = &tail[end..];
    if after_colon.is_empty() && rest.starts_with("//") {
        // `b://`: the next URL's scheme, not a password.
        return None;
    }
    rest[..userinfo_scan_end(rest)]
        .rfind('@')
        .map(|at| end + at)
}

/// Where the search for the `@` of [`delimited_password_end`] stops in
/// `rest`: at whitespace or the next `://`, whichever comes first. Not at
/// a character no URL holds (`"`, `<`, `>`, `` ` ``): a password may hold
/// one, and the text before the cut already reads as `user:password`.
/// Never past the next `://`: a scan to the end of the text for each `://`
/// made a long text of them quadratic.
fn userinfo_scan_end(rest: &str) -> usize {
    rest.char_indices()
        .find(|&(i, c)| c.is_whitespace() || rest.get(i..).is_some_and(|r| r.starts_with("://")))
        .map_or(rest.len(), |(i, _)| i)
}

/// `text` with each of `spans` (byte ranges, in order and disjoint, on
/// character boundaries) replaced by `***`; borrowed when there are none.
fn replace_spans<'a>(text: &'a str, spans: &[(usize, usize)]) -> Cow<'a, str> {
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for &(start, end) in spans {
        out.push_str(text.get(copied..start).unwrap_or_default());
        out.push_str(REDACTED);
        copied = end;
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Cow::Owned(out)
}

/// Whether `head` (text up to and including `://`) ends with a URL scheme.
fn has_scheme(head: &str) -> bool {
    let scheme = head.trim_end_matches("://");
    scheme
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether a name denotes a credential: ignoring ASCII case and reading
/// `-` as `_`, it contains `password`, `passwd`, `passphrase`, `pwd`, `secret`, `token`,
/// `api_key`, `apikey`, `access_key`, `private_key`, `privatekey`,
/// `authorization`, `cookie`, `credential`, `session`, `sessid` or `jwt`,
/// or has `pass`, `pw` or `auth` as a whole word, words split at `_` and
/// `.` (`smtp.pass`, `X-Auth`, not `passage` or `author`). A JSON member so named is hidden whole
/// ([`redact_value`]); in text, a `key=value` / `key: value` so named has
/// its value hidden ([`redact`]).
///
/// ```
/// use problem_core::pipeline::is_sensitive_key;
/// assert!(is_sensitive_key("X_API_KEY"));
/// assert!(is_sensitive_key("x-api-key"));
/// assert!(is_sensitive_key("refreshToken"));
/// assert!(is_sensitive_key("DB_PASSWORD"));
/// assert!(is_sensitive_key("Set-Cookie"));
/// assert!(is_sensitive_key("PHPSESSID"));
/// assert!(is_sensitive_key("smtp.pass"));
/// assert!(is_sensitive_key("SSH_KEY_PASSPHRASE"));
/// assert!(!is_sensitive_key("isbn"));
/// assert!(!is_sensitive_key("author"));
/// ```
pub fn is_sensitive_key(key: &str) -> bool {
    let name: String = key
        .bytes()
        .map(|b| match b {
            b'-' => '_',
            b => char::from(b.to_ascii_lowercase()),
        })
        .collect();
    SECRET_NAMES.iter().any(|&(n, how)| match how {
        NameMatch::Within => name.contains(n),
        NameMatch::Word => name.split(['_', '.']).any(|word| word == n),
    })
}

/// Redacts a JSON value in place: every string through [`redact`], and the
/// value of every member named like a credential ([`is_sensitive_key`])
/// replaced by `"***"` (spec, `redactValue()`).
///
/// ```
/// use problem_core::pipeline::redact_value;
/// use serde_json::json;
/// let mut v = json!({"url": "redis://:pw@cache:6379", "password": "hunter2", "n": [1, "x"]});
/// redact_value(&mut v);
/// assert_eq!(v, json!({"url": "redis://***@cache:6379", "password": "***", "n": [1, "x"]}));
/// ```
pub fn redact_value(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(r) = redact(s) {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_value),
        Value::Object(map) => redact_members(map),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Redacts the members of a JSON object as [`redact_value`] redacts an
/// object: a member named like a credential gets `"***"`, every other
/// member is redacted as a value. A problem document's extension members
/// are redacted with it in development.
pub(crate) fn redact_members(map: &mut serde_json::Map<String, Value>) {
    for (key, v) in map.iter_mut() {
        if is_sensitive_key(key) && !v.is_null() {
            *v = Value::String(REDACTED.to_owned());
        } else {
            redact_value(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spec_example() {
        assert_eq!(
            redact("scheme://user:password@host:1234/path"),
            "scheme://***@host:1234/path"
        );
    }

    #[test]
    fn several_urls_and_odd_shapes() {
        assert_eq!(
            redact("a=postgres://u:p@h/db b=mysql://x:y@z:1 c=http://plain/"),
            "a=postgres://***@h/db b=mysql://***@z:1 c=http://plain/"
        );
        assert_eq!(
            redact("postgres://u:p@ss@host/db"),
            "postgres://***@host/db"
        );
        assert_eq!(redact("https://user@host"), "https://***@host");
        assert_eq!(redact("\"amqp://g:g@q\""), "\"amqp://***@q\"");
        assert_eq!(redact("://u:p@h"), "://u:p@h");
        assert_eq!(redact("x://"), "x://");
        assert_eq!(redact("é://ü:ö@ä"), "é://ü:ö@ä");
    }

    /// Found by the `redact` fuzz target: a password with a `'` (allowed
    /// in RFC 3986 user information) was left in clear.
    #[test]
    fn passwords_with_sub_delims_are_redacted() {
        assert_eq!(redact("pji://'Lc:aaaa@h:5432/"), "pji://***@h:5432/");
        assert_eq!(
            redact("postgres://app:it's!$&()*+,;=:~@db:5432/x"),
            "postgres://***@db:5432/x"
        );
        assert_eq!(
            redact("url 'postgres://u:p@h' quoted"),
            "url 'postgres://***@h' quoted"
        );
        assert_eq!(redact("'http://plain' 'x'"), "'http://plain' 'x'");
    }

    /// A DSN password holding `/`, `?` or `#` (not allowed unescaped in a
    /// URL, but written so): the user information runs to the `@`. A port
    /// or a path holding `@` is not taken for one.
    #[test]
    fn passwords_with_url_delimiters_are_redacted() {
        let cases = [
            ("postgres://app:pa/ss@db:5432/x", "postgres://***@db:5432/x"),
            ("postgres://app:pa#ss@db/x", "postgres://***@db/x"),
            ("postgres://app:pa?ss@db/x", "postgres://***@db/x"),
            ("postgres://:/a/b@db/x", "postgres://***@db/x"),
            ("mysql://u:p/w@rd@h/x y", "mysql://***@h/x y"),
            ("a://u:p/w@h b://c:d@e", "a://***@h b://***@e"),
            (
                "https://host:8080/users/@bob",
                "https://host:8080/users/@bob",
            ),
            ("https://[::1]/users/@bob", "https://[::1]/users/@bob"),
            ("https://host/users/@bob", "https://host/users/@bob"),
            ("https://u:p/x @y", "https://u:p/x @y"),
        ];
        for (input, expected) in cases {
            assert_eq!(redact(input), expected, "{input}");
        }
    }

    /// A DSN password holding `"`, `<`, `>` or `` ` `` (characters no URL
    /// holds, written in DSNs all the same) was left in clear: the
    /// authority ended there. It runs to the `@` now, as for `/`. A quoted
    /// or bracketed URL without user information keeps its text, and so
    /// does what follows its closing quote.
    #[test]
    fn passwords_with_characters_no_url_holds_are_redacted() {
        let cases = [
            (
                "postgres://app:p\"q@db.example.com:5432/app",
                "postgres://***@db.example.com:5432/app",
            ),
            (
                "connect postgres://app:se`cret@db:5432 failed",
                "connect postgres://***@db:5432 failed",
            ),
            ("mysql://root:p<q>@db:3306", "mysql://***@db:3306"),
            ("mysql://root:p>q@db:3306", "mysql://***@db:3306"),
            ("mysql://root:p<q@db:3306", "mysql://***@db:3306"),
            (
                "dsn=\"redis://u:pa\"ss@cache:6379\" ok",
                "dsn=\"redis://***@cache:6379\" ok",
            ),
            ("\"amqp://g:g@q\" and a@b", "\"amqp://***@q\" and a@b"),
            ("<https://u:p@h>", "<https://***@h>"),
            (
                "\"redis://cache:6379\" for a@b",
                "\"redis://cache:6379\" for a@b",
            ),
            ("<https://example.com>@x", "<https://example.com>@x"),
            (
                "[\"https://a.com\",\"admin@x.org\"]",
                "[\"https://a.com\",\"admin@x.org\"]",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(redact(input), expected, "{input}");
        }
        let mut dsn = serde_json::json!({"dsn": "mysql://root:pa\"ss@db:3306"});
        redact_value(&mut dsn);
        assert_eq!(dsn, serde_json::json!({"dsn": "mysql://***@db:3306"}));
    }

    /// Found by the `redact` fuzz target: a URL whose `://` closed the
    /// authority of a URL just before it (`x://-p://user:pw@host`) kept its
    /// password.
    #[test]
    fn a_url_right_after_another_is_redacted() {
        assert_eq!(
            redact("R::://-p://:jrVNNZNYYaIT@h:5432/\t4"),
            "R::://-p://***@h:5432/\t4"
        );
        assert_eq!(
            redact("a://b://u:p@h c://d:e@f://g:h@i"),
            "a://b://***@h c://***@f://***@i"
        );
    }

    /// A long text of `://`s (a 64 KB request path on a 5xx) is scanned
    /// once: each URL's search for a delimited password stops at the next
    /// `://` (`userinfo_scan_end`), where it scanned to the first
    /// whitespace, the end of such a text (quadratic: about a second of CPU
    /// per log line). The redaction is the same.
    #[test]
    fn many_urls_in_one_text_are_redacted_in_one_scan() {
        assert_eq!(userinfo_scan_end("ss@h/a://b:c@d e"), 6);
        assert_eq!(userinfo_scan_end("ss@h e://"), 4);
        assert_eq!(userinfo_scan_end("ss@h"), 4);
        let path = "/a://b:c".repeat(8_000);
        assert_eq!(redact(&path), path);
        let with_password = format!("{path}/x://u:p@h");
        assert_eq!(redact(&with_password), format!("{path}/x://***@h"));
    }

    #[test]
    fn sensitive_keys() {
        let mut v = serde_json::json!({"Authorization": "Bearer x", "api_key": 5, "nested": {"dbPassword": null, "ok": "s"}, "access_key": "AKIA", "X-Api-Key": "k", "pwd": "p"});
        redact_value(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"Authorization": "***", "api_key": "***", "nested": {"dbPassword": null, "ok": "s"}, "access_key": "***", "X-Api-Key": "***", "pwd": "***"})
        );
    }

    /// Names of credentials in common shapes, and ordinary names that hold
    /// a short credential word inside another word.
    #[test]
    fn sensitive_key_names() {
        for name in [
            "private_key",
            "GITHUB_PRIVATE_KEY",
            "privateKey",
            "session",
            "session_id",
            "JSESSIONID",
            "PHPSESSID",
            "jwt",
            "id_jwt",
            "pass",
            "SMTP_PASS",
            "smtp.pass",
            "pw",
            "db-pw",
            "auth",
            "X-Auth",
            "proxy_auth_value",
        ] {
            assert!(is_sensitive_key(name), "{name}");
        }
        for name in [
            "passage",
            "compass",
            "passenger",
            "upward",
            "author",
            "authors",
            "oauth_provider",
            "id",
            "isbn",
            "title",
        ] {
            assert!(!is_sensitive_key(name), "{name}");
        }
        assert_eq!(
            redact("smtp.pass=hunter2 db_pw: x9 X-Auth: k author=Ann"),
            "smtp.pass=*** db_pw: *** X-Auth: *** author=Ann"
        );
    }

    /// Issue 15, row 11: `key=value` / `key: value` secrets and
    /// `Bearer`/`Basic` credentials in free text.
    #[test]
    fn key_value_and_auth_scheme_secrets() {
        let cases = [
            ("io error: password=hunter2", "io error: password=***"),
            ("PASSWORD = hunter2, next", "PASSWORD = ***, next"),
            ("db_passwd: s3cr3t; host=db", "db_passwd: ***; host=db"),
            ("pwd=abc&user=bob", "pwd=***&user=bob"),
            ("client_secret='a b c' rest", "client_secret='***' rest"),
            (r#"{"token":"t0k","id":1}"#, r#"{"token":"***","id":1}"#),
            ("x-api_key: k1 apikey=k2", "x-api_key: *** apikey=***"),
            ("AWS access_key=AKIA123 ok", "AWS access_key=*** ok"),
            ("Authorization: Bearer abc.def", "Authorization: Bearer ***"),
            ("authorization=Basic dXNlcjpw", "authorization=Basic ***"),
            (
                "got BEARER abc-123_x~+/= from client",
                "got BEARER *** from client",
            ),
            ("header Basic dXNlcjpwYXNz=", "header Basic ***"),
            (
                "see token::parse and secret://x",
                "see token::parse and secret://x",
            ),
            ("no secrets here: all fine", "no secrets here: all fine"),
            (
                "postgres://u:p@h/db password=x",
                "postgres://***@h/db password=***",
            ),
            // Any Authorization scheme: the credentials to the end of the line.
            (
                "Authorization: token ghp_SECRET\nnext line",
                "Authorization: token ***\nnext line",
            ),
            (
                r#"Authorization: Digest username="u", response="SECRETRESP""#,
                "Authorization: Digest ***",
            ),
            (
                "authorization: AWS4-HMAC-SHA256 Credential=AKIASECRET/x, Signature=SECRETSIG",
                "authorization: AWS4-HMAC-SHA256 ***",
            ),
            ("Authorization: SECRETONLY", "Authorization: ***"),
            // A first word that names no scheme may be the secret itself.
            (
                "failed with authorization=hunter2 here",
                "failed with authorization=***",
            ),
            ("Authorization: hunter2 from client", "Authorization: ***"),
            ("authorization:hunter2 x\nnext", "authorization:***\nnext"),
            (
                "Authorization: Negotiate YIIGhg== x",
                "Authorization: Negotiate ***",
            ),
            // A list or object value: all of it.
            (
                r#"{"password":["SECRETA","SECRETB"],"id":1}"#,
                r#"{"password":***,"id":1}"#,
            ),
            (r#"secret={"a":"x]y","b":[1]} tail"#, "secret=*** tail"),
            // The JSON member names are text keys too, `-` read as `_`.
            // After `key:` an unquoted value may hold spaces (a
            // passphrase): it runs to a delimiter or the next pair.
            ("X-API-Key: k123 next", "X-API-Key: ***"),
            (
                "DB_PASSWORD: correct horse battery staple\nnext",
                "DB_PASSWORD: ***\nnext",
            ),
            (
                "db_pw: two words X-Auth: a b author=Ann",
                "db_pw: *** X-Auth: *** author=Ann",
            ),
            ("token: a b, user: bob", "token: ***, user: bob"),
            ("token: abc , user: bob", "token: *** , user: bob"),
            ("password: a b user = bob", "password: *** user = bob"),
            ("password: abc \nnext", "password: *** \nnext"),
            ("password=two words", "password=*** words"),
            (
                "access-key=AK1 cookie: sid=abc",
                "access-key=*** cookie: ***",
            ),
            ("credentials=u:p ok", "credentials=*** ok"),
            // A quoted value to its unescaped closing quote.
            (
                r#"{"password":"hun\"ter2","id":1}"#,
                r#"{"password":"***","id":1}"#,
            ),
            (r"{'password': 'it\'s'} x", r"{'password': '***'} x"),
            (r#"{"password":"ends\\"} x"#, r#"{"password":"***"} x"#),
            // Every cookie of a `Cookie` line.
            (
                "Cookie: theme=dark; session=SECRET\nnext",
                "Cookie: ***\nnext",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(redact(input), expected, "{input}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in ".*") {
            let _ = redact(&s);
        }

        #[test]
        fn password_never_survives(
            prefix in "[ -~]{0,20}",
            scheme in "[a-z][a-z0-9+.-]{0,8}",
            user in "[a-zA-Z0-9_.-]{0,12}",
            password in "[a-zA-Z0-9!$%^&*()_=+'~;,.-]{6,20}",
            // Labels that spell no secret's name: a host called `pwd`, or
            // holding `pw` or `pass` as a word of its own (`pw-.internal`,
            // found by this test), makes `<host>:5432` a key-value secret
            // of its own, and its port is then hidden too.
            host in "db[0-9.-]{0,10}\\.internal",
            suffix in "(/[ -~]{0,20})?",
        ) {
            let text = format!("{prefix} {scheme}://{user}:{password}@{host}:5432{suffix}");
            let out = redact(&text);
            let needle = format!(":{password}@");
            prop_assert!(!out.contains(&needle), "{out}");
            // A prefix holding a secret of its own (`pw: q`) hides the URL
            // as part of its value (`x` stands for the URL), as the fuzz
            // target's probe does.
            let probe = format!("{prefix} x");
            if redact(&probe) == probe {
                prop_assert!(out.contains(&format!("{scheme}://***@{host}:5432")), "{out}");
            }
        }

        /// Passwords with `/`, `?` or `#` in them (not a port: not digits
        /// up to the first of them).
        #[test]
        fn delimited_password_never_survives(
            scheme in "[a-z][a-z0-9+.-]{0,8}",
            user in "[a-zA-Z0-9_.-]{0,12}",
            head in "[a-zA-Z!$%^&*()_=+~;,.-][a-zA-Z0-9!$%^&*()_=+~;,.-]{0,8}",
            password in "[/?#][a-zA-Z0-9!$%^&*()_=+~;,./?#-]{0,12}",
            host in "db[0-9]{0,4}\\.internal",
        ) {
            let text = format!("{scheme}://{user}:{head}{password}@{host}:5432/db");
            let out = redact(&text);
            prop_assert_eq!(out, format!("{scheme}://***@{host}:5432/db"));
        }
    }
}
