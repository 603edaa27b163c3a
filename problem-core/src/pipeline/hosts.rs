//! The `Host` check: a request for a host not in `allowed_hosts` gets 421
//! (spec, "Errors raised by the service itself").

use actix_web::dev::ServiceRequest;
use actix_web::http::header;
use actix_web::http::uri::Authority;

use crate::HttpConfigError;

/// The hosts a server answers for. An entry without a port (`localhost`)
/// matches that host on any port; an entry with a port (`localhost:8080`)
/// matches only that port. Comparison ignores ASCII case. IPv6 literals are
/// written in brackets (`[::1]`).
///
/// ```
/// use problem_core::pipeline::AllowedHosts;
/// let hosts = AllowedHosts::new(["localhost", "127.0.0.1:8080"]).unwrap();
/// assert!(hosts.allows("LOCALHOST:3000"));
/// assert!(hosts.allows("127.0.0.1:8080"));
/// assert!(!hosts.allows("127.0.0.1:9090"));
/// assert!(!hosts.allows("evil.example"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedHosts {
    entries: Vec<(String, Option<u16>)>,
}

/// A port as RFC 3986 §3.2.3 writes it (`*DIGIT`, here at least one),
/// read as a number (`080` is port 80); `None` for anything else or a
/// number over 65535.
fn port_number(text: &str) -> Option<u16> {
    if text.is_empty() {
        return None;
    }
    // One pass: leading zeros keep the number 0; it is refused as soon as
    // it passes 65535, so it never overflows.
    let mut n: u32 = 0;
    for b in text.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(b - b'0');
        if n > u32::from(u16::MAX) {
            return None;
        }
    }
    u16::try_from(n).ok()
}

fn split_host_port(text: &str) -> (&str, Option<&str>) {
    if let Some(rest) = text.strip_prefix('[') {
        return match rest.find(']') {
            Some(end) => {
                let host = text.get(..end + 2).unwrap_or(text);
                match rest.get(end + 1..).unwrap_or_default() {
                    "" => (host, None),
                    after => match after.strip_prefix(':') {
                        Some(port) => (host, Some(port)),
                        // `[::1]x`: no host and port; kept whole, it
                        // matches no entry and is no valid entry.
                        None => (text, None),
                    },
                }
            }
            None => (text, None),
        };
    }
    // Split at a single `:` (two or more: an IPv6 literal without
    // brackets, no port), found byte by byte: `:` is ASCII, so both sides
    // are on character boundaries.
    let bytes = text.as_bytes();
    let Some(at) = bytes.iter().position(|&b| b == b':') else {
        return (text, None);
    };
    let after = bytes.get(at + 1..).unwrap_or_default();
    if after.contains(&b':') {
        return (text, None);
    }
    match (text.get(..at), text.get(at + 1..)) {
        (Some(host), Some(port)) => (host, Some(port)),
        _ => (text, None),
    }
}

/// Whether an allowed host's name (no port) is one a `Host` header can
/// carry: an IP literal in brackets (`[::1]`; the authority parse checked
/// it), or dot-separated labels of ASCII letters, digits, `-` and `_`, none
/// empty nor starting or ending with `-`, with at most one trailing dot
/// (an IPv4 address is such a name). `*`, `*.books.example`, `a..b`, `-a`,
/// `.` and non-ASCII names (a `Host` carries their punycode, `xn--...`)
/// are not.
fn host_name_or_literal(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        // An IPv6 address (with a zone, `%25eth0`, RFC 6874) or an
        // IPvFuture (`v1.x`, RFC 3986 §3.2.2).
        let address = inner.split("%25").next().unwrap_or(inner);
        return address.parse::<std::net::Ipv6Addr>().is_ok() || inner.starts_with(['v', 'V']);
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    !name.is_empty()
        && name.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// A host name without the trailing dot of its fully qualified form
/// (`books.example.` is `books.example`, the DNS root label written out);
/// a name of dots only is left as it is.
fn without_root_dot(name: &str) -> &str {
    match name.strip_suffix('.') {
        Some(rest) if !rest.is_empty() && !rest.ends_with('.') => rest,
        _ => name,
    }
}

impl AllowedHosts {
    /// Parses the entries.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidListenOption`] for no entry at all (every
    /// request would be refused), an empty entry, one with a scheme, path,
    /// user information, whitespace or a port that is not digits (`+80`),
    /// 0 or over 65535, a name that is neither an IP literal in brackets
    /// nor dot-separated labels of ASCII letters, digits, `-` and `_`
    /// (wildcards such as `*` or `*.books.example`, `a..b`, `-a`; a
    /// non-ASCII name is written as its punycode, `xn--...`), and anything
    /// else that is no RFC 3986 authority (`[::1`, `a?b`). A port is a
    /// number: `books.example:080` is port 80.
    ///
    /// ```
    /// use problem_core::pipeline::AllowedHosts;
    /// assert!(AllowedHosts::new(["localhost", "[::1]:8080", "books.example"]).is_ok());
    /// let err = AllowedHosts::new(["localhost:http"]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: allowed host `localhost:http` must be a host name or address, optionally with `:port`"
    /// );
    /// assert!(AllowedHosts::new(["https://books.example"]).is_err());
    /// assert!(AllowedHosts::new([""]).is_err());
    /// assert!(AllowedHosts::new(["[::1"]).is_err());
    /// assert!(AllowedHosts::new(["a?b"]).is_err());
    /// assert!(AllowedHosts::new(["books.example:+80"]).is_err());
    /// assert_eq!(
    ///     AllowedHosts::new(["books.example:0"]).unwrap_err().to_string(),
    ///     "invalid listen option: allowed host `books.example:0` has port 0, which no request names: give the port the server is reached on, or none"
    /// );
    /// let err = AllowedHosts::new(["*.books.example"]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: allowed host `*.books.example` must be a host name or address, optionally with `:port`: wildcards are not supported, list each host"
    /// );
    /// for bad in ["*", "a..b", "-a", ".", "bücher.example", "[::1]x:8080", "[]", "[foo]"] {
    ///     assert!(AllowedHosts::new([bad]).is_err(), "{bad}");
    /// }
    /// for good in ["127.0.0.1", "my_service", "xn--bcher-kva.example", "books.example.", "[::1]", "[fe80::1%25eth0]:8080"] {
    ///     assert!(AllowedHosts::new([good]).is_ok(), "{good}");
    /// }
    /// assert!(AllowedHosts::new(Vec::<String>::new()).is_err());
    /// ```
    pub fn new<I, S>(hosts: I) -> Result<Self, HttpConfigError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut entries = Vec::new();
        for raw in hosts {
            let raw = raw.as_ref().trim();
            let invalid = || {
                HttpConfigError::InvalidListenOption(format!(
                    "allowed host `{raw}` must be a host name or address, optionally with `:port`"
                ))
            };
            // An RFC 3986 authority without user information: what a
            // `Host` value can be (`[::1` or `a?b` never is).
            if raw.is_empty()
                || raw.contains(['/', '@', ' ', '\t', ','])
                || raw.parse::<Authority>().is_err()
            {
                return Err(invalid());
            }
            let (host, port) = split_host_port(raw);
            if !host_name_or_literal(host) {
                return Err(if host.contains('*') {
                    HttpConfigError::InvalidListenOption(format!(
                        "allowed host `{raw}` must be a host name or address, optionally with `:port`: wildcards are not supported, list each host"
                    ))
                } else {
                    invalid()
                });
            }
            let port = match port {
                None => None,
                Some(p) => match port_number(p) {
                    // No `Host` names port 0.
                    Some(0) => {
                        return Err(HttpConfigError::InvalidListenOption(format!(
                            "allowed host `{raw}` has port 0, which no request names: give the port the server is reached on, or none"
                        )));
                    }
                    Some(n) => Some(n),
                    None => return Err(invalid()),
                },
            };
            entries.push((without_root_dot(host).to_ascii_lowercase(), port));
        }
        if entries.is_empty() {
            return Err(HttpConfigError::InvalidListenOption(
                "allowed hosts are empty, so every request would be answered 421: list at least one host".to_owned(),
            ));
        }
        Ok(Self { entries })
    }

    /// Whether a `Host` value (`name[:port]`, surrounding ASCII whitespace
    /// ignored) is allowed. A port that is not digits (`host:abc`) is no
    /// valid `Host` (RFC 9110 §7.2, RFC 3986 §3.2.3) and is never allowed.
    /// A fully qualified name's trailing dot (`books.example.`) names the
    /// same host, in a request and in an entry alike.
    ///
    /// ```
    /// use problem_core::pipeline::AllowedHosts;
    /// let hosts = AllowedHosts::new(["books.example", "[::1]:8080"]).unwrap();
    /// assert!(hosts.allows(" Books.Example:443 "));
    /// assert!(hosts.allows("[::1]:8080"));
    /// assert!(!hosts.allows("[::1]:9090"));
    /// assert!(!hosts.allows("[::1]x:8080"));
    /// assert!(!hosts.allows("books.example.evil"));
    /// assert!(!hosts.allows("books.example:abc"));
    /// assert!(AllowedHosts::new(["books.example:80"]).unwrap().allows("books.example:080"));
    /// assert!(hosts.allows("books.example.:443"));
    /// assert!(!hosts.allows("books.example.."));
    /// assert!(AllowedHosts::new(["books.example."]).unwrap().allows("books.example"));
    /// ```
    pub fn allows(&self, host: &str) -> bool {
        self.check(host) == HostCheck::Allowed
    }

    /// [`allows`](Self::allows), telling a host that is no valid host and
    /// port ([`valid_host_port`]) from a valid one not allowed. An allowed
    /// host is valid (it equals a valid entry, its port is digits), so
    /// only a host no entry matches is checked.
    fn check(&self, host: &str) -> HostCheck {
        // A header value is visible ASCII: only ASCII whitespace to trim.
        let (name, port_text) = split_host_port(host.trim_ascii());
        // An empty port (`host:`) is the scheme's default (RFC 3986
        // §3.2.3): it matches an entry without a port only.
        let port = match port_text {
            None | Some("") => Some(None),
            Some(p) => port_number(p).map(Some),
        };
        if let Some(port) = port {
            let name = without_root_dot(name);
            let allowed = self.entries.iter().any(|(h, p)| {
                h.eq_ignore_ascii_case(name)
                    && match p {
                        None => true,
                        Some(p) => port == Some(*p),
                    }
            });
            if allowed {
                return HostCheck::Allowed;
            }
        }
        if valid_host_port(name, port_text) {
            HostCheck::NotAllowed
        } else {
            HostCheck::Invalid
        }
    }

    /// What the request's host is: the authority of an absolute-form
    /// request target (`GET http://host/path`; RFC 9112 §3.2.2: the `Host`
    /// header is then ignored) or, for HTTP/2, the `:authority`; else the
    /// `Host` header. A request with neither is not allowed; one whose
    /// host is not a host and port as RFC 3986 writes them
    /// ([`valid_host_port`]), or whose absolute-form target carries user
    /// information (RFC 9110 §4.2.4), is invalid (RFC 9112 §3.2: 400).
    pub(crate) fn check_request(&self, req: &ServiceRequest) -> HostCheck {
        let host = match req.uri().authority() {
            Some(authority) if authority.as_str().contains('@') => return HostCheck::Invalid,
            Some(authority) => authority.as_str(),
            None => match req.headers().get(header::HOST).map(|h| h.to_str()) {
                None => return HostCheck::NotAllowed,
                Some(Err(_)) => return HostCheck::Invalid,
                Some(Ok(h)) => h,
            },
        };
        self.check(host)
    }
}

/// What [`AllowedHosts::check_request`] found of a request's host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HostCheck {
    /// An allowed host: the request goes on.
    Allowed,
    /// A valid host this server does not serve, or none: the 421.
    NotAllowed,
    /// No valid host and port: the 400.
    Invalid,
}

/// Whether a host and port, as [`split_host_port`] splits a `Host` value,
/// are `host [ ":" port ]` as RFC 3986 §3.2.2 and §3.2.3 write them: an IP
/// literal in brackets, or a registered name (letters, digits,
/// `-._~!$&'()*+,;=` and `%` escapes; empty too, as RFC 9112 §3.2 lets a
/// client send), and a port of digits only (possibly empty; a number over
/// 65535 is valid syntax and simply matches no entry).
fn valid_host_port(name: &str, port: Option<&str>) -> bool {
    let name_ok = if name.starts_with('[') {
        host_name_or_literal(name)
    } else {
        let bytes = name.as_bytes();
        bytes.iter().enumerate().all(|(i, &b)| {
            b.is_ascii_alphanumeric()
                || b"-._~!$&'()*+,;=".contains(&b)
                || (b == b'%'
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        })
    };
    name_ok && port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_entries() {
        for bad in ["", "http://x", "a b", "x:port", "x/y", "u@x"] {
            assert!(AllowedHosts::new([bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn host_and_port_split_at_a_single_colon() {
        for (text, expected) in [
            ("", ("", None)),
            ("a", ("a", None)),
            ("a:1", ("a", Some("1"))),
            (":1", ("", Some("1"))),
            ("a:", ("a", Some(""))),
            ("a:b:c", ("a:b:c", None)),
            ("::1", ("::1", None)),
            ("x:80:", ("x:80:", None)),
            ("[::1]:8", ("[::1]", Some("8"))),
            ("[::1]", ("[::1]", None)),
            ("[::1", ("[::1", None)),
        ] {
            assert_eq!(split_host_port(text), expected, "{text}");
        }
        // Without brackets: the split of `rsplit_once(':')` when the host
        // part has no other `:`.
        for text in ["a:1:2", "::", ":", "a::", "é:ü", "€:1", "a:é:1", "x:"] {
            let expected = match text.rsplit_once(':') {
                Some((h, p)) if !h.contains(':') => (h, Some(p)),
                _ => (text, None),
            };
            assert_eq!(split_host_port(text), expected, "{text}");
        }
        let h = AllowedHosts::new(["localhost", "example.com:8080"]).unwrap();
        assert!(h.allows(" localhost:1 "));
        assert!(h.allows("EXAMPLE.com:8080"));
        assert!(!h.allows("example.com"));
        assert!(!h.allows("example.com:8080:1"));
        assert!(
            !h.allows("localhost\u{2003}"),
            "only ASCII whitespace is trimmed"
        );
    }

    /// Ports are numbers: written with leading zeros they match, with a
    /// sign or past 65535 they are refused (an entry) or never match (a
    /// request).
    #[test]
    fn ports_compare_as_numbers() {
        for bad in ["x:+80", "x:-1", "x:65536", "x:8a", "x:", "x: 80"] {
            assert!(AllowedHosts::new([bad]).is_err(), "{bad}");
        }
        let h = AllowedHosts::new(["books.example:080", "[::1]:8080"]).unwrap();
        for (host, allowed) in [
            ("books.example:80", true),
            ("books.example:0080", true),
            ("books.example:0000000000080", true),
            ("books.example:8080", false),
            ("books.example:+80", false),
            ("books.example:65616", false),
            ("books.example", false),
            ("books.example:", false),
            ("[::1]:08080", true),
        ] {
            assert_eq!(h.allows(host), allowed, "{host}");
        }
        assert!(AllowedHosts::new(["x"]).unwrap().allows("x:"));
        assert_eq!(
            AllowedHosts::new(Vec::<&str>::new())
                .unwrap_err()
                .to_string(),
            "invalid listen option: allowed hosts are empty, so every request would be answered 421: list at least one host"
        );
    }

    /// RFC 3986's `host [":" port]`: what is not that is the 400; a valid
    /// host this server does not serve stays the 421.
    #[test]
    fn host_values_are_checked_as_rfc_3986_writes_them() {
        let valid_host = |text: &str| {
            let (name, port) = split_host_port(text.trim_ascii());
            valid_host_port(name, port)
        };
        for valid in [
            "localhost",
            "LOCALHOST:3000",
            "books.example.",
            "books.example:",
            "books.example:65536",
            "books.example:080",
            "127.0.0.1:8080",
            "[::1]",
            "[::1]:8080",
            "[fe80::1%25eth0]",
            "[v1.x]",
            "",
            "a%2Db",
            "a,b",
            "x!$&'()*+;=~_-",
            " localhost ",
        ] {
            assert!(valid_host(valid), "{valid:?}");
        }
        for invalid in [
            "localhost:abc",
            "localhost:+80",
            "localhost:-1",
            "localhost: 80",
            "localhost :80",
            "u@localhost",
            "u:p@localhost",
            "localhost, evil.example",
            "::1",
            "a:b:c",
            "[::1",
            "[::1]x",
            "[::1]x:80",
            "[not-ipv6]",
            "local host",
            "a%2",
            "a%zz",
            "a/b",
            "a?b",
            "a#b",
            "a\"b",
            "\u{e9}.example",
        ] {
            assert!(!valid_host(invalid), "{invalid:?}");
        }
    }

    /// The three answers of `check`: allowed, a valid host not served
    /// (421), no valid host (400).
    #[test]
    fn check_tells_invalid_hosts_from_hosts_not_served() {
        let h = AllowedHosts::new(["localhost", "[::1]", "books.example:8080"]).unwrap();
        for (host, expected) in [
            ("localhost", HostCheck::Allowed),
            ("LOCALHOST.:080", HostCheck::Allowed),
            ("localhost:", HostCheck::Allowed),
            ("[::1]:3000", HostCheck::Allowed),
            ("books.example:8080", HostCheck::Allowed),
            ("books.example:8081", HostCheck::NotAllowed),
            ("books.example", HostCheck::NotAllowed),
            ("localhost:65536", HostCheck::NotAllowed),
            ("evil.example", HostCheck::NotAllowed),
            ("[::2]", HostCheck::NotAllowed),
            ("", HostCheck::NotAllowed),
            ("localhost:abc", HostCheck::Invalid),
            ("localhost:+80", HostCheck::Invalid),
            ("u@localhost", HostCheck::Invalid),
            ("::1", HostCheck::Invalid),
            ("[::1]x", HostCheck::Invalid),
            ("local host", HostCheck::Invalid),
        ] {
            assert_eq!(h.check(host), expected, "{host:?}");
            assert_eq!(h.allows(host), expected == HostCheck::Allowed, "{host:?}");
        }
    }

    proptest::proptest! {
        /// `check` skips the syntax of a host an entry matches, on the
        /// claim that such a host is valid: for any text of host
        /// characters and the ones that make it invalid, the 400 is given
        /// exactly when the text is no valid host and port.
        #[test]
        fn only_invalid_hosts_are_the_400(
            host in proptest::prop_oneof![
                "[a-zA-Z0-9.:\\[\\]@%_~!$&'()*+,;= /-]{0,24}",
                // The entries, as sent (case, root dot, ports of any text).
                "(localhost|LocalHost\\.|\\[::1\\]|a-b\\.example|127\\.0\\.0\\.1)(:[0-9a+ ]{0,6})?",
            ],
        ) {
            let h = AllowedHosts::new(["localhost", "[::1]", "a-b.example:80", "127.0.0.1"]).unwrap();
            let (name, port) = split_host_port(host.trim_ascii());
            proptest::prop_assert_eq!(
                h.check(&host) == HostCheck::Invalid,
                !valid_host_port(name, port),
                "{:?}", host
            );
        }
    }

    #[test]
    fn ipv6() {
        let h = AllowedHosts::new(["[::1]"]).unwrap();
        assert!(h.allows("[::1]:8080"));
        assert!(h.allows("[::1]"));
        assert!(!h.allows("[::2]"));
    }
}
