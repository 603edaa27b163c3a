//! [`ApiVersion`]: a `major.minor` API version, its text forms and parsing
//! (spec, "ApiVersion").

use std::fmt;
use std::str::FromStr;

use actix_web::http::header::HeaderValue;

/// The text of the versions `0` to `99`.
const SMALL_MAJORS: [&str; 100] = [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
    "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32",
    "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48",
    "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64",
    "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "80",
    "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95", "96",
    "97", "98", "99",
];

/// An API version: a pair (`major`, `minor`), ordered by `major`, then
/// `minor` (spec, "ApiVersion").
///
/// Text forms:
///
/// - [`Display`](fmt::Display) writes `major.minor`: `1.0`, `2.1`.
/// - [`short`](ApiVersion::short) is the form used in header values, problem
///   details and `supportedVersions`: a zero minor is dropped (`1`, `2.1`).
/// - [`FromStr`] accepts `1`, `1.0`, `v1`, `V1`, `v2.1` (an optional `v` or
///   `V`, a major, an optional `.minor`; ASCII digits only) and rejects
///   everything else with a [`VersionParseError`]: `1.2.3`, `-1`, `+1`, the
///   empty string, `1.`, `.1`, `v`, surrounding whitespace, and any number
///   over [`u16::MAX`].
/// - serde: serialized as a string of its short form (`"2"`, `"2.1"`, as
///   `supportedVersions` lists them), deserialized from any string
///   [`FromStr`] accepts.
///
/// ```
/// use problem_core::version::ApiVersion;
///
/// let v: ApiVersion = "v2.1".parse()?;
/// assert_eq!(v, ApiVersion::new(2, 1));
/// assert_eq!(v.to_string(), "2.1");
/// assert_eq!(ApiVersion::V1.to_string(), "1.0");
/// assert_eq!(ApiVersion::V1.short().to_string(), "1");
/// assert!(ApiVersion::V2 < ApiVersion::new(2, 1));
/// assert!("1.2.3".parse::<ApiVersion>().is_err());
/// assert_eq!(serde_json::to_string(&ApiVersion::new(2, 0)).unwrap(), r#""2""#);
/// assert_eq!(serde_json::from_str::<ApiVersion>(r#""v2.1""#).unwrap(), ApiVersion::new(2, 1));
/// assert!(serde_json::from_str::<ApiVersion>("2").is_err());
/// # Ok::<(), problem_core::version::VersionParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApiVersion {
    /// The major number: a breaking change increments it.
    pub major: u16,
    /// The minor number: a non-breaking addition increments it.
    pub minor: u16,
}

/// Version 1.0 (spec, "ApiVersion": predefined constants).
///
/// ```
/// use problem_core::version::{ApiVersion, V1};
/// assert_eq!(V1, ApiVersion::new(1, 0));
/// assert_eq!(("1".parse(), V1.to_string()), (Ok(V1), "1.0".to_owned()));
/// ```
pub const V1: ApiVersion = ApiVersion::V1;
/// Version 2.0 (spec, "ApiVersion": predefined constants).
///
/// ```
/// use problem_core::version::{ApiVersion, V2};
/// assert_eq!(V2, ApiVersion::new(2, 0));
/// assert_eq!(("2".parse(), V2.to_string()), (Ok(V2), "2.0".to_owned()));
/// ```
pub const V2: ApiVersion = ApiVersion::V2;
/// Version 3.0 (spec, "ApiVersion": predefined constants).
///
/// ```
/// use problem_core::version::{ApiVersion, V3};
/// assert_eq!(V3, ApiVersion::new(3, 0));
/// assert_eq!(("3".parse(), V3.to_string()), (Ok(V3), "3.0".to_owned()));
/// ```
pub const V3: ApiVersion = ApiVersion::V3;

impl ApiVersion {
    /// Version 1.0, the same as [`version::V1`](crate::version::V1).
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!((ApiVersion::V1.major, ApiVersion::V1.minor), (1, 0));
    /// assert_eq!(ApiVersion::V1.short().to_string(), "1");
    /// ```
    pub const V1: ApiVersion = ApiVersion::new(1, 0);
    /// Version 2.0, the same as [`version::V2`](crate::version::V2).
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!((ApiVersion::V2.major, ApiVersion::V2.minor), (2, 0));
    /// assert_eq!(ApiVersion::V2.short().to_string(), "2");
    /// ```
    pub const V2: ApiVersion = ApiVersion::new(2, 0);
    /// Version 3.0, the same as [`version::V3`](crate::version::V3).
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!((ApiVersion::V3.major, ApiVersion::V3.minor), (3, 0));
    /// assert_eq!(ApiVersion::V3.short().to_string(), "3");
    /// ```
    pub const V3: ApiVersion = ApiVersion::new(3, 0);

    /// The version `major.minor`.
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!(ApiVersion::new(2, 0), ApiVersion::V2);
    /// ```
    pub const fn new(major: u16, minor: u16) -> Self {
        Self { major, minor }
    }

    /// Parses a version as a request carries it: `1`, `1.0`, `v1`, `V1`,
    /// `v2.1` (the same as `text.parse::<ApiVersion>()`).
    ///
    /// # Errors
    /// [`VersionParseError`]: empty, malformed (`1.2.3`, `-1`, `x`), or a
    /// number over `u16`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionParseError};
    /// assert_eq!(ApiVersion::parse("v2.1"), Ok(ApiVersion::new(2, 1)));
    /// assert_eq!(ApiVersion::parse(""), Err(VersionParseError::Empty));
    /// assert!(matches!(ApiVersion::parse("1.2.3"), Err(VersionParseError::Malformed(_))));
    /// ```
    pub fn parse(text: &str) -> Result<Self, VersionParseError> {
        text.parse()
    }

    /// The short text form used in header values and problem documents:
    /// `major` when the minor is zero, else `major.minor`
    /// (`X-API-Version: 1`, `2.1` stays `2.1`).
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!(ApiVersion::new(3, 0).short().to_string(), "3");
    /// assert_eq!(ApiVersion::new(2, 1).short().to_string(), "2.1");
    /// ```
    pub const fn short(self) -> ShortVersion {
        ShortVersion(self)
    }

    /// The `'static` text of a short form `0` to `99`, if `text` is one.
    pub(crate) fn static_text(text: &str) -> Option<&'static str> {
        SMALL_MAJORS.iter().copied().find(|t| *t == text)
    }

    /// The short form as a header value (`X-API-Version`).
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// assert_eq!(ApiVersion::new(2, 1).header_value(), "2.1");
    /// ```
    pub fn header_value(self) -> HeaderValue {
        // `0` to `99` (no minor): a static value, shared by every response
        // without reference counting.
        if self.minor == 0
            && let Some(text) = SMALL_MAJORS.get(usize::from(self.major))
        {
            return HeaderValue::from_static(text);
        }
        // Digits and a dot are always a valid header value.
        HeaderValue::from_str(&self.short().to_string())
            .unwrap_or_else(|_| HeaderValue::from_static(""))
    }

    /// Parses a version in a `const` context: `Some` exactly when
    /// [`FromStr`] accepts the text.
    ///
    /// ```
    /// use problem_core::version::ApiVersion;
    /// const V: Option<ApiVersion> = ApiVersion::parse_const("v2.1");
    /// assert_eq!(V, Some(ApiVersion::new(2, 1)));
    /// assert_eq!(ApiVersion::parse_const("2.x"), None);
    /// ```
    pub const fn parse_const(text: &str) -> Option<ApiVersion> {
        match parse_bytes(text.as_bytes()) {
            Ok(v) => Some(v),
            Err(_) => None,
        }
    }
}

/// The short text form of an [`ApiVersion`] (see [`ApiVersion::short`]).
///
/// ```
/// use problem_core::version::ApiVersion;
/// let short = ApiVersion::new(2, 0).short();
/// assert_eq!(short.to_string(), "2");
/// assert_eq!(format!("v{}", ApiVersion::new(2, 1).short()), "v2.1");
/// assert_eq!(short, ApiVersion::V2.short());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShortVersion(ApiVersion);

impl fmt::Display for ShortVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.minor == 0 {
            write!(f, "{}", self.0.major)
        } else {
            write!(f, "{}.{}", self.0.major, self.0.minor)
        }
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The longest part of a rejected input kept in a [`VersionParseError`]
/// (and in the `Invalid API version` problem detail), in characters: 64,
/// followed by `…` when the input was longer.
///
/// ```
/// use problem_core::version::MAX_ECHOED_INPUT;
/// let detail = problem_core::spec::invalid_version(&"w".repeat(100));
/// assert_eq!(detail, format!("Invalid API version \"{}…\"", "w".repeat(MAX_ECHOED_INPUT)));
/// ```
pub const MAX_ECHOED_INPUT: usize = 64;

/// Shortens hostile input before it is echoed: at most
/// [`MAX_ECHOED_INPUT`] characters, then `…`.
pub(crate) fn clip(input: &str) -> String {
    match input.char_indices().nth(MAX_ECHOED_INPUT) {
        Some((cut, _)) => format!("{}…", &input[..cut]),
        None => input.to_owned(),
    }
}

/// A version string was rejected by [`ApiVersion`]'s [`FromStr`]
/// (spec, "ApiVersion": `VersionParseError`).
///
/// The rejected input is kept, shortened to [`MAX_ECHOED_INPUT`] characters.
///
/// ```
/// use problem_core::version::{ApiVersion, VersionParseError};
///
/// assert_eq!("".parse::<ApiVersion>(), Err(VersionParseError::Empty));
/// assert_eq!(
///     "1.2.3".parse::<ApiVersion>().unwrap_err().to_string(),
///     r#"malformed API version "1.2.3": expected MAJOR or MAJOR.MINOR, optionally prefixed by v (e.g. 2, v2, 2.1)"#
/// );
/// assert_eq!(
///     "70000".parse::<ApiVersion>().unwrap_err().to_string(),
///     r#"API version "70000" has a number over 65535"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VersionParseError {
    /// The input is empty.
    #[error("empty API version")]
    Empty,
    /// The input is not `[v]MAJOR[.MINOR]`.
    #[error(
        "malformed API version \"{0}\": expected MAJOR or MAJOR.MINOR, optionally prefixed by v (e.g. 2, v2, 2.1)"
    )]
    Malformed(String),
    /// A number is over [`u16::MAX`].
    #[error("API version \"{0}\" has a number over 65535")]
    OutOfRange(String),
}

/// Why [`parse_bytes`] failed (kept `Copy` so the parser can be `const`).
#[derive(Clone, Copy)]
pub(super) enum Reject {
    Empty,
    Malformed,
    OutOfRange,
}

/// Parses one run of ASCII digits into a `u16`.
const fn number(bytes: &[u8], start: usize, end: usize) -> Result<u16, Reject> {
    if start >= end {
        return Err(Reject::Malformed);
    }
    let mut value: u32 = 0;
    let mut i = start;
    while i < end {
        let b = bytes[i];
        if !b.is_ascii_digit() {
            return Err(Reject::Malformed);
        }
        value = value * 10 + (b - b'0') as u32;
        if value > u16::MAX as u32 {
            // Keep scanning so that a later non-digit still reads as malformed.
            let mut j = i + 1;
            while j < end {
                if !bytes[j].is_ascii_digit() {
                    return Err(Reject::Malformed);
                }
                j += 1;
            }
            return Err(Reject::OutOfRange);
        }
        i += 1;
    }
    Ok(value as u16)
}

/// `[v|V]MAJOR[.MINOR]`, digits only.
pub(super) const fn parse_bytes(bytes: &[u8]) -> Result<ApiVersion, Reject> {
    if bytes.is_empty() {
        return Err(Reject::Empty);
    }
    let start = if bytes[0] == b'v' || bytes[0] == b'V' {
        1
    } else {
        0
    };
    let mut dot = bytes.len();
    let mut i = start;
    while i < bytes.len() {
        if bytes[i] == b'.' {
            if dot != bytes.len() {
                return Err(Reject::Malformed);
            }
            dot = i;
        }
        i += 1;
    }
    let major = number(bytes, start, dot);
    let minor = if dot == bytes.len() {
        Ok(0)
    } else {
        number(bytes, dot + 1, bytes.len())
    };
    // Malformed anywhere wins over out of range, whichever part comes first.
    match (major, minor) {
        (Ok(major), Ok(minor)) => Ok(ApiVersion::new(major, minor)),
        (Err(Reject::Malformed), _) | (_, Err(Reject::Malformed)) => Err(Reject::Malformed),
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

impl FromStr for ApiVersion {
    type Err = VersionParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_bytes(s.as_bytes()).map_err(|reject| match reject {
            Reject::Empty => VersionParseError::Empty,
            Reject::Malformed => VersionParseError::Malformed(clip(s)),
            Reject::OutOfRange => VersionParseError::OutOfRange(clip(s)),
        })
    }
}

impl serde::Serialize for ApiVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.short())
    }
}

impl<'de> serde::Deserialize<'de> for ApiVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl TryFrom<&str> for ApiVersion {
    type Error = VersionParseError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        value.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn header_values_are_the_short_form() {
        for (v, text) in [
            (ApiVersion::new(0, 0), "0"),
            (ApiVersion::new(3, 0), "3"),
            (ApiVersion::new(99, 0), "99"),
            (ApiVersion::new(100, 0), "100"),
            (ApiVersion::new(2, 1), "2.1"),
            (ApiVersion::new(65535, 65535), "65535.65535"),
        ] {
            assert_eq!(v.header_value(), text);
            assert_eq!(v.short().to_string(), text);
        }
    }

    #[test]
    fn accepts_the_documented_forms() {
        assert_eq!("1".parse(), Ok(ApiVersion::new(1, 0)));
        assert_eq!("1.0".parse(), Ok(ApiVersion::new(1, 0)));
        assert_eq!("v1".parse(), Ok(ApiVersion::new(1, 0)));
        assert_eq!("V1".parse(), Ok(ApiVersion::new(1, 0)));
        assert_eq!("v2.1".parse(), Ok(ApiVersion::new(2, 1)));
        assert_eq!("0".parse(), Ok(ApiVersion::new(0, 0)));
        assert_eq!("65535.65535".parse(), Ok(ApiVersion::new(65535, 65535)));
        assert_eq!("007".parse(), Ok(ApiVersion::new(7, 0)));
    }

    #[test]
    fn rejects_the_documented_forms() {
        let malformed = |s: &str| Err(VersionParseError::Malformed(s.to_owned()));
        assert_eq!("1.2.3".parse::<ApiVersion>(), malformed("1.2.3"));
        assert_eq!("-1".parse::<ApiVersion>(), malformed("-1"));
        assert_eq!("+1".parse::<ApiVersion>(), malformed("+1"));
        assert_eq!("".parse::<ApiVersion>(), Err(VersionParseError::Empty));
        assert_eq!("1.".parse::<ApiVersion>(), malformed("1."));
        assert_eq!(".1".parse::<ApiVersion>(), malformed(".1"));
        assert_eq!("v".parse::<ApiVersion>(), malformed("v"));
        assert_eq!("vv1".parse::<ApiVersion>(), malformed("vv1"));
        assert_eq!(" 1".parse::<ApiVersion>(), malformed(" 1"));
        assert_eq!("1 ".parse::<ApiVersion>(), malformed("1 "));
        assert_eq!("2.x".parse::<ApiVersion>(), malformed("2.x"));
        assert_eq!("١".parse::<ApiVersion>(), malformed("١"));
        assert_eq!(
            "65536".parse::<ApiVersion>(),
            Err(VersionParseError::OutOfRange("65536".into()))
        );
        assert_eq!(
            "1.65536".parse::<ApiVersion>(),
            Err(VersionParseError::OutOfRange("1.65536".into()))
        );
        assert_eq!(
            "99999999999999999999a".parse::<ApiVersion>(),
            malformed("99999999999999999999a")
        );
        // Found by the `version_parse` fuzz target: a malformed minor after
        // an out-of-range major was reported as out of range.
        assert_eq!(
            "88886.\u{18}".parse::<ApiVersion>(),
            malformed("88886.\u{18}")
        );
        assert_eq!("88886.x".parse::<ApiVersion>(), malformed("88886.x"));
        assert_eq!("88886.".parse::<ApiVersion>(), malformed("88886."));
        assert_eq!(
            "88886.1".parse::<ApiVersion>(),
            Err(VersionParseError::OutOfRange("88886.1".into()))
        );
    }

    #[test]
    fn long_input_is_clipped_in_the_error() {
        let long = "x".repeat(1000);
        let err = long.parse::<ApiVersion>().unwrap_err();
        assert_eq!(
            err,
            VersionParseError::Malformed(format!("{}…", "x".repeat(64)))
        );
    }

    #[test]
    fn display_and_short_form() {
        assert_eq!(ApiVersion::new(1, 0).to_string(), "1.0");
        assert_eq!(ApiVersion::new(2, 1).to_string(), "2.1");
        assert_eq!(ApiVersion::new(1, 0).short().to_string(), "1");
        assert_eq!(ApiVersion::new(2, 1).short().to_string(), "2.1");
        assert_eq!(ApiVersion::new(2, 10).header_value(), "2.10");
    }

    #[test]
    fn ordering_is_by_major_then_minor() {
        let mut vs = vec![
            ApiVersion::new(2, 1),
            ApiVersion::new(1, 9),
            ApiVersion::new(2, 0),
            ApiVersion::new(10, 0),
        ];
        vs.sort();
        assert_eq!(
            vs,
            [
                ApiVersion::new(1, 9),
                ApiVersion::new(2, 0),
                ApiVersion::new(2, 1),
                ApiVersion::new(10, 0)
            ]
        );
    }

    proptest! {
        #[test]
        fn parse_format_round_trip(major in any::<u16>(), minor in any::<u16>()) {
            let v = ApiVersion::new(major, minor);
            prop_assert_eq!(v.to_string().parse::<ApiVersion>(), Ok(v));
            prop_assert_eq!(v.short().to_string().parse::<ApiVersion>(), Ok(v));
            prop_assert_eq!(format!("v{v}").parse::<ApiVersion>(), Ok(v));
            prop_assert_eq!(ApiVersion::parse_const(&v.to_string()), Some(v));
        }

        #[test]
        fn parse_never_panics_and_agrees_with_parse_const(s in ".{0,20}") {
            let parsed = s.parse::<ApiVersion>();
            prop_assert_eq!(parsed.clone().ok(), ApiVersion::parse_const(&s));
            if let Ok(v) = parsed {
                // Whatever parses formats back to an equal version.
                prop_assert_eq!(v.to_string().parse::<ApiVersion>(), Ok(v));
            }
        }
    }
}
