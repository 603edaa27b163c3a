//! Response-side operations: the version headers
//! (spec, "Response-side operations and headers"; RFC 9745 `Deprecation`,
//! RFC 8594 `Sunset`, RFC 8288 `Link`).

use std::borrow::Borrow;
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::HttpResponse;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};

use super::api_version::ApiVersion;

/// The version headers' names: one table for their public constants and
/// for [`VersionHeaderName`], the form in which the computed headers keep
/// them (a new header is one more line here).
macro_rules! version_header_names {
    ($($(#[doc = $doc:literal])* $konst:ident = $text:literal, $variant:ident;)*) => {
        $($(#[doc = $doc])* pub const $konst: HeaderName = HeaderName::from_static($text);)*

        /// A version header's name, as the headers computed once keep it:
        /// each response's copy is the constant, built in place, rather
        /// than a clone of a stored name (whose `Bytes` clone goes through
        /// a vtable and returns through memory).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum VersionHeaderName {
            $($variant,)*
        }

        impl VersionHeaderName {
            /// Every name, in the table's order.
            const ALL: &[VersionHeaderName] = &[$(Self::$variant),*];

            /// The name's constant.
            #[inline(always)]
            pub(crate) fn header_name(self) -> HeaderName {
                match self {
                    $(Self::$variant => $konst,)*
                }
            }

            /// The version header named `name`, if it is one.
            pub(crate) fn of(name: &HeaderName) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.header_name() == name)
            }
        }
    };
}

version_header_names! {
    /// `X-API-Version`: the resolved version, short form (`3`, `2.1`).
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{ApiVersion, VersionHeaders, X_API_VERSION};
    /// let h = HeaderMap::new().with_api_version(ApiVersion::new(2, 1));
    /// assert_eq!(h.get(X_API_VERSION).unwrap(), "2.1");
    /// ```
    X_API_VERSION = "x-api-version", Version;
    /// `X-API-Supported-Versions`: the supported versions, short form,
    /// separated by a comma and a space (`2, 3`).
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{V2, V3, VersionHeaders, X_API_SUPPORTED_VERSIONS};
    /// let h = HeaderMap::new().with_supported_versions([V2, V3]);
    /// assert_eq!(h.get(X_API_SUPPORTED_VERSIONS).unwrap(), "2, 3");
    /// ```
    X_API_SUPPORTED_VERSIONS = "x-api-supported-versions", SupportedVersions;
    /// `X-API-Deprecated`: `true` on responses of a deprecated version.
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{VersionHeaders, X_API_DEPRECATED};
    /// let h = HeaderMap::new().with_deprecation_warning("API version 2 is deprecated");
    /// assert_eq!(h.get(X_API_DEPRECATED).unwrap(), "true");
    /// ```
    X_API_DEPRECATED = "x-api-deprecated", Deprecated;
    /// `X-API-Deprecation-Message`: the deprecation text of a deprecated version.
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{VersionHeaders, X_API_DEPRECATION_MESSAGE};
    /// let h = HeaderMap::new().with_deprecation_warning("API version 2 is deprecated");
    /// assert_eq!(h.get(X_API_DEPRECATION_MESSAGE).unwrap(), "API version 2 is deprecated");
    /// ```
    X_API_DEPRECATION_MESSAGE = "x-api-deprecation-message", DeprecationMessage;
    /// `Deprecation` (RFC 9745): `true`, or `@<unix-seconds>` with a date.
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{DEPRECATION, VersionHeaders};
    /// let h = HeaderMap::new().with_deprecation_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_767_225_600));
    /// assert_eq!(h.get(DEPRECATION).unwrap(), "@1767225600");
    /// ```
    DEPRECATION = "deprecation", Deprecation;
    /// `Sunset` (RFC 8594): an IMF-fixdate (RFC 9110 §5.6.7).
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{SUNSET, VersionHeaders};
    /// let h = HeaderMap::new().with_sunset_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_830_297_599));
    /// assert_eq!(h.get(SUNSET).unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// ```
    SUNSET = "sunset", Sunset;
}

/// The first second `httpdate` cannot format (year 10000).
const YEAR_10000: u64 = 253_402_300_800;

/// An IMF-fixdate (`Fri, 31 Dec 2027 23:59:59 GMT`, RFC 9110 §5.6.7) for
/// `date`, or `None` when the date is before 1970 or after 9999 (which
/// `httpdate` cannot format). Sub-second parts are dropped.
pub(crate) fn http_date(date: SystemTime) -> Option<HeaderValue> {
    let secs = date.duration_since(UNIX_EPOCH).ok()?.as_secs();
    if secs >= YEAR_10000 {
        return None;
    }
    HeaderValue::from_str(&httpdate::fmt_http_date(date)).ok()
}

/// The RFC 9745 structured-field date `@<unix-seconds>` (seconds rounded
/// down; negative before 1970).
pub(crate) fn deprecation_date(date: SystemTime) -> HeaderValue {
    let secs: i128 = match date.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::from(d.as_secs()),
        Err(e) => {
            let d = e.duration();
            -i128::from(d.as_secs()) - i128::from(d.subsec_nanos() > 0)
        }
    };
    HeaderValue::from_str(&format!("@{secs}")).unwrap_or_else(|_| HeaderValue::from_static("true"))
}

/// `1, 2, 3` for a list of versions (short forms), `None` for an empty list.
pub(crate) fn supported_value(versions: &[ApiVersion]) -> Option<HeaderValue> {
    if versions.is_empty() {
        return None;
    }
    let text = versions
        .iter()
        .map(|v| v.short().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    HeaderValue::from_str(&text).ok()
}

/// A header value for free text: control characters (which a header value
/// cannot carry) become spaces; other non-ASCII text is sent as its UTF-8
/// bytes.
pub(crate) fn text_value(text: &str) -> HeaderValue {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect();
    HeaderValue::from_bytes(clean.as_bytes()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// `<uri>; rel="<rel>"` (RFC 8288), the URI percent-encoded where RFC
/// 3986 does not allow its characters (`crate::uri::reference`), or `None`
/// for an empty URI.
pub(crate) fn link_value(uri: &str, rel: &str) -> Option<HeaderValue> {
    if uri.is_empty() {
        return None;
    }
    let uri = crate::uri::reference(uri, &crate::uri::URI_REFERENCE);
    HeaderValue::from_str(&format!("<{uri}>; rel=\"{rel}\"")).ok()
}

/// The default `X-API-Deprecation-Message`: `API version <N> is deprecated`
/// (spec, "Response-side operations and headers").
///
/// ```
/// use problem_core::version::{ApiVersion, default_deprecation_message};
/// assert_eq!(default_deprecation_message(ApiVersion::V2), "API version 2 is deprecated");
/// ```
pub fn default_deprecation_message(version: ApiVersion) -> String {
    format!("API version {} is deprecated", version.short())
}

/// The response-side operations of the spec, on anything that has response
/// headers: [`HttpResponse`], [`ServiceResponse`] and a bare [`HeaderMap`]
/// (spec, "Response-side operations and headers").
///
/// Each method sets its headers, replacing earlier values of the same
/// names, and returns the response, like the spec's `with_*` functions.
/// [`VersionConfig::apply_headers`](super::VersionConfig::apply_headers)
/// applies all of them as configured.
///
/// | Method | Headers |
/// |---|---|
/// | [`with_api_version`](Self::with_api_version) | `X-API-Version: 2` |
/// | [`with_deprecation_warning`](Self::with_deprecation_warning) | `X-API-Deprecated: true`, `X-API-Deprecation-Message: <message>`, `Deprecation: true` |
/// | [`with_deprecation_date`](Self::with_deprecation_date) | `Deprecation: @<unix-seconds>` (RFC 9745) |
/// | [`with_supported_versions`](Self::with_supported_versions) | `X-API-Supported-Versions: 1, 2, 3` |
/// | [`with_sunset_date`](Self::with_sunset_date) | `Sunset: <IMF-fixdate>` (RFC 8594) |
///
/// ```
/// use actix_web::HttpResponse;
/// use problem_core::version::{ApiVersion, VersionHeaders};
///
/// let res = HttpResponse::Ok()
///     .finish()
///     .with_api_version(ApiVersion::V2)
///     .with_supported_versions([ApiVersion::V2, ApiVersion::V3])
///     .with_deprecation_warning("API version 2 is deprecated")
///     .with_sunset_date(httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap());
/// let h = res.headers();
/// assert_eq!(h.get("x-api-version").unwrap(), "2");
/// assert_eq!(h.get("x-api-supported-versions").unwrap(), "2, 3");
/// assert_eq!(h.get("x-api-deprecated").unwrap(), "true");
/// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "API version 2 is deprecated");
/// assert_eq!(h.get("deprecation").unwrap(), "true");
/// assert_eq!(h.get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
/// ```
pub trait VersionHeaders: Sized {
    /// The headers to write to (the response's own header map).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use actix_web::http::header::HeaderValue;
    /// use problem_core::version::{VersionHeaders, X_API_VERSION};
    /// let mut res = HttpResponse::Ok().finish();
    /// res.version_headers_mut().insert(X_API_VERSION, HeaderValue::from_static("2"));
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    /// ```
    fn version_headers_mut(&mut self) -> &mut HeaderMap;

    /// Adds `X-API-Version` with the short form of `version`.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::version::{V3, VersionHeaders};
    /// let res = HttpResponse::Ok().finish().with_api_version(V3);
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "3");
    /// ```
    fn with_api_version(mut self, version: ApiVersion) -> Self {
        self.version_headers_mut()
            .insert(X_API_VERSION, version.header_value());
        self
    }

    /// Adds the deprecation warning headers: `X-API-Deprecated: true`,
    /// `X-API-Deprecation-Message: <message>` and `Deprecation: true`.
    /// Control characters in `message` other than tab (which a field value
    /// may hold, RFC 9110 §5.5) are sent as spaces.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::version::VersionHeaders;
    /// let res = HttpResponse::Ok().finish().with_deprecation_warning("Use v3\nsoon");
    /// let h = res.headers();
    /// assert_eq!(h.get("x-api-deprecated").unwrap(), "true");
    /// assert_eq!(h.get("deprecation").unwrap(), "true");
    /// assert_eq!(h.get("x-api-deprecation-message").unwrap(), "Use v3 soon");
    /// ```
    fn with_deprecation_warning(mut self, message: impl AsRef<str>) -> Self {
        let h = self.version_headers_mut();
        h.insert(X_API_DEPRECATED, HeaderValue::from_static("true"));
        h.insert(X_API_DEPRECATION_MESSAGE, text_value(message.as_ref()));
        h.insert(DEPRECATION, HeaderValue::from_static("true"));
        self
    }

    /// Sets `Deprecation: @<unix-seconds>` (RFC 9745), the date the version
    /// was (or will be) deprecated, in whole seconds.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::VersionHeaders;
    /// let h = HeaderMap::new().with_deprecation_date(UNIX_EPOCH + Duration::from_secs(1_767_225_600));
    /// assert_eq!(h.get("deprecation").unwrap(), "@1767225600");
    /// ```
    fn with_deprecation_date(mut self, date: SystemTime) -> Self {
        self.version_headers_mut()
            .insert(DEPRECATION, deprecation_date(date));
        self
    }

    /// Adds `X-API-Supported-Versions`: the short forms in the given order,
    /// separated by `, `. An empty list adds nothing. Versions by value or
    /// by reference (an array, a `Vec` or a slice).
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::{V1, V2, V3, VersionHeaders};
    /// let supported = vec![V1, V2, V3];
    /// let h = HeaderMap::new().with_supported_versions(&supported);
    /// assert_eq!(h.get("x-api-supported-versions").unwrap(), "1, 2, 3");
    /// ```
    fn with_supported_versions(
        mut self,
        versions: impl IntoIterator<Item = impl Borrow<ApiVersion>>,
    ) -> Self {
        let versions: Vec<ApiVersion> = versions.into_iter().map(|v| *v.borrow()).collect();
        if let Some(value) = supported_value(&versions) {
            self.version_headers_mut()
                .insert(X_API_SUPPORTED_VERSIONS, value);
        }
        self
    }

    /// Adds `Sunset` (RFC 8594). `date` is a [`SystemTime`] or an
    /// [`httpdate::HttpDate`], written as an IMF-fixdate
    /// (`Fri, 31 Dec 2027 23:59:59 GMT`), or an HTTP-date string (spec:
    /// "The value is an HTTP date string"), written as given: an
    /// IMF-fixdate or one of the obsolete forms of RFC 9110 §5.6.7. A day
    /// name that does not match the date is tolerated in a string
    /// (`Sat, 31 Dec 2024 23:59:59 GMT`, the shape the specification's
    /// "Response-side operations and headers" shows, though that day was a
    /// Tuesday). A string
    /// that is no HTTP-date, and a time before 1970 or after 9999 (no
    /// IMF-fixdate), add nothing
    /// ([`VersionConfigBuilder::build`](super::VersionConfigBuilder::build)
    /// rejects such dates in a configuration).
    ///
    /// ```
    /// use actix_web::http::header::HeaderMap;
    /// use problem_core::version::VersionHeaders;
    /// let h = HeaderMap::new().with_sunset_date("Fri, 31 Dec 2027 23:59:59 GMT");
    /// assert_eq!(h.get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
    /// let h = HeaderMap::new().with_sunset_date("Sat, 31 Dec 2024 23:59:59 GMT");
    /// assert_eq!(h.get("sunset").unwrap(), "Sat, 31 Dec 2024 23:59:59 GMT");
    /// let h = HeaderMap::new().with_sunset_date(String::from("Friday, 31-Dec-27 23:59:59 GMT"));
    /// assert_eq!(h.get("sunset").unwrap(), "Friday, 31-Dec-27 23:59:59 GMT");
    /// assert!(HeaderMap::new().with_sunset_date("next year").get("sunset").is_none());
    /// ```
    fn with_sunset_date(mut self, date: impl HttpDateInput) -> Self {
        if let Some(value) = date.sunset_value() {
            self.version_headers_mut().insert(SUNSET, value);
        }
        self
    }
}

/// A date [`VersionHeaders::with_sunset_date`] takes: a [`SystemTime`], an
/// [`httpdate::HttpDate`], or an HTTP-date string (`&str` or `String`,
/// RFC 9110 §5.6.7). Sealed.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use problem_core::version::HttpDateInput;
/// fn takes(_: impl HttpDateInput) {}
/// takes(UNIX_EPOCH + Duration::from_secs(1_830_297_599));
/// takes("Fri, 31 Dec 2027 23:59:59 GMT");
/// takes(String::from("Fri, 31 Dec 2027 23:59:59 GMT"));
/// takes(httpdate::HttpDate::from(UNIX_EPOCH));
/// ```
pub trait HttpDateInput: sealed::Sealed {}

impl HttpDateInput for SystemTime {}
impl HttpDateInput for httpdate::HttpDate {}
impl HttpDateInput for &str {}
impl HttpDateInput for String {}

/// Whether `text` is an HTTP-date (RFC 9110 §5.6.7), its day name aside:
/// `httpdate` checks that the day name matches the date, so each of the
/// seven names is tried in its place.
fn is_http_date(text: &str) -> bool {
    if httpdate::parse_http_date(text).is_ok() {
        return true;
    }
    const SHORT: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const LONG: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    // IMF-fixdate and asctime start with a 3-letter name, RFC 850 with a
    // full one followed by `,`.
    let rest = match text.split_once(',') {
        Some((name, rest)) if LONG.contains(&name) => Some((rest, &LONG)),
        _ => None,
    };
    let (rest, names) = match rest {
        Some(found) => found,
        None => match text.get(..3) {
            Some(name) if SHORT.contains(&name) => (text.get(3..).unwrap_or(""), &SHORT),
            _ => return false,
        },
    };
    let comma = if names == &LONG { "," } else { "" };
    names
        .iter()
        .any(|name| httpdate::parse_http_date(&format!("{name}{comma}{rest}")).is_ok())
}

mod sealed {
    use std::time::SystemTime;

    use actix_web::http::header::HeaderValue;

    use super::{http_date, is_http_date};

    pub trait Sealed {
        /// The `Sunset` value, or `None` (no HTTP-date, out of range).
        fn sunset_value(&self) -> Option<HeaderValue>;
    }

    impl Sealed for SystemTime {
        fn sunset_value(&self) -> Option<HeaderValue> {
            http_date(*self)
        }
    }

    impl Sealed for httpdate::HttpDate {
        fn sunset_value(&self) -> Option<HeaderValue> {
            http_date(SystemTime::from(*self))
        }
    }

    impl Sealed for &str {
        fn sunset_value(&self) -> Option<HeaderValue> {
            let text = self.trim();
            if is_http_date(text) {
                HeaderValue::from_str(text).ok()
            } else {
                None
            }
        }
    }

    impl Sealed for String {
        fn sunset_value(&self) -> Option<HeaderValue> {
            self.as_str().sunset_value()
        }
    }
}

impl VersionHeaders for HeaderMap {
    fn version_headers_mut(&mut self) -> &mut HeaderMap {
        self
    }
}

impl<B> VersionHeaders for HttpResponse<B> {
    fn version_headers_mut(&mut self) -> &mut HeaderMap {
        self.headers_mut()
    }
}

impl<B> VersionHeaders for ServiceResponse<B> {
    fn version_headers_mut(&mut self) -> &mut HeaderMap {
        self.headers_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn http_date_is_an_imf_fixdate_and_never_panics() {
        let d = UNIX_EPOCH + Duration::from_secs(1_830_297_599);
        assert_eq!(http_date(d).unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
        assert_eq!(
            http_date(d + Duration::from_millis(999)).unwrap(),
            "Fri, 31 Dec 2027 23:59:59 GMT"
        );
        assert_eq!(
            http_date(UNIX_EPOCH).unwrap(),
            "Thu, 01 Jan 1970 00:00:00 GMT"
        );
        assert_eq!(http_date(UNIX_EPOCH - Duration::from_secs(1)), None);
        assert_eq!(
            http_date(UNIX_EPOCH + Duration::from_secs(YEAR_10000 - 1)).unwrap(),
            "Fri, 31 Dec 9999 23:59:59 GMT"
        );
        assert_eq!(
            http_date(UNIX_EPOCH + Duration::from_secs(YEAR_10000)),
            None
        );
    }

    #[test]
    fn deprecation_date_is_at_unix_seconds() {
        assert_eq!(
            deprecation_date(UNIX_EPOCH + Duration::from_millis(1_767_225_600_500)),
            "@1767225600"
        );
        assert_eq!(deprecation_date(UNIX_EPOCH), "@0");
        assert_eq!(
            deprecation_date(UNIX_EPOCH - Duration::from_millis(1500)),
            "@-2"
        );
    }

    #[test]
    fn supported_list_and_links() {
        assert_eq!(
            supported_value(&[ApiVersion::V1, ApiVersion::new(2, 1), ApiVersion::V3]).unwrap(),
            "1, 2.1, 3"
        );
        assert_eq!(supported_value(&[]), None);
        assert_eq!(
            link_value("https://example.com/deprecation", "deprecation").unwrap(),
            "<https://example.com/deprecation>; rel=\"deprecation\""
        );
        // Every character RFC 3986 does not allow is percent-encoded; a
        // fragment and `%XX` triplets are kept.
        for (uri, sent) in [
            ("https://x/<y>", "https://x/%3Cy%3E"),
            (
                "https://e.com/a|b^c`d\\e\"f{g}",
                "https://e.com/a%7Cb%5Ec%60d%5Ce%22f%7Bg%7D",
            ),
            ("https://exämple.com/a b", "https://ex%C3%A4mple.com/a%20b"),
            ("https://e.com/%zz%41#v2", "https://e.com/%25zz%41#v2"),
            ("https://e.com/a\r\nb", "https://e.com/a%0D%0Ab"),
        ] {
            assert_eq!(
                link_value(uri, "sunset").unwrap(),
                format!("<{sent}>; rel=\"sunset\""),
                "{uri}"
            );
        }
        assert_eq!(link_value("", "sunset"), None);
    }

    #[test]
    fn text_value_replaces_controls() {
        assert_eq!(text_value("a\r\nb"), "a  b");
        assert_eq!(
            text_value("Version 2 läuft aus").as_bytes(),
            "Version 2 läuft aus".as_bytes()
        );
    }

    #[test]
    fn sunset_strings_are_http_dates_whatever_their_day_name() {
        for (text, ok) in [
            ("Sun, 06 Nov 1994 08:49:37 GMT", true),
            ("Sat, 31 Dec 2024 23:59:59 GMT", true),
            ("Sunday, 06-Nov-94 08:49:37 GMT", true),
            ("Monday, 06-Nov-94 08:49:37 GMT", true),
            ("Sun Nov  6 08:49:37 1994", true),
            ("Wed Nov  6 08:49:37 1994", true),
            ("Sat, 32 Dec 2024 23:59:59 GMT", false),
            ("Xyz, 31 Dec 2024 23:59:59 GMT", false),
            ("Sat, 31 Dec 2024 23:59:59 UTC", false),
            ("2024-12-31T23:59:59Z", false),
            ("next year", false),
            ("", false),
        ] {
            assert_eq!(is_http_date(text), ok, "{text}");
            let h = HeaderMap::new().with_sunset_date(text);
            assert_eq!(
                h.get(SUNSET).and_then(|v| v.to_str().ok()),
                ok.then_some(text),
                "{text}"
            );
        }
    }

    #[test]
    fn empty_supported_list_adds_nothing_and_out_of_range_sunset_adds_nothing() {
        let h = HeaderMap::new()
            .with_supported_versions([] as [ApiVersion; 0])
            .with_sunset_date(UNIX_EPOCH - Duration::from_secs(10));
        assert!(h.is_empty());
    }
}
