//! Run-time support of `#[derive(Problem)]`: the only items the generated
//! code calls, re-exported from `problem_core::__private`. Not a public API.

use std::error::Error as StdError;
use std::fmt::{self, Write as _};

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;

use super::details::Extensions;
use super::exception::ProblemBuildError;

/// The examples of the `#[derive(Problem)]` reference, run as doctests here
/// because the macro crate cannot depend on this one.
#[cfg(doctest)]
#[doc = include_str!("../../../problem-derive/src/derive_problem.md")]
pub struct DeriveProblemDocs;

/// The `StatusCode` of a status the macro already checked to be in
/// `400..=599` (so the fallback is unreachable; it is there to never panic).
pub fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A field type that can be an extension member: any `Serialize` type.
/// The derive requires it of every field that is not `source`, `skip` or a
/// header, so a field that is not `Serialize` (an `std::io::Error` cause)
/// is reported with what to write instead.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an extension member of a problem: it is not `Serialize`",
    label = "not `Serialize`: this field becomes an extension member",
    note = "mark the field `#[problem(source)]` if it is the error's cause (sent nowhere, kept as `Error::source`), or `#[problem(skip)]` to leave it out of the problem document"
)]
pub trait ExtensionValue {
    /// The member's JSON value.
    ///
    /// # Errors
    /// The serializer's error.
    fn to_json(&self) -> Result<serde_json::Value, serde_json::Error>;
}

impl<T: Serialize + ?Sized> ExtensionValue for T {
    fn to_json(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(self)
    }
}

/// Serializes a field into the extension member `key`.
///
/// # Errors
/// [`ProblemBuildError::Extension`] when the value cannot be serialized.
pub fn extension<T: ExtensionValue + ?Sized>(
    extensions: &mut Extensions,
    key: &str,
    value: &T,
) -> Result<(), ProblemBuildError> {
    match value.to_json() {
        Ok(v) => {
            extensions.insert(key.to_owned(), v);
            Ok(())
        }
        Err(e) => Err(ProblemBuildError::Extension {
            key: key.to_owned(),
            message: e.to_string(),
        }),
    }
}

/// Appends the header `name` (checked by the macro) with a field's
/// `Display` as its value.
///
/// # Errors
/// [`ProblemBuildError::Header`] when the `Display` fails or its text is not
/// a valid header value (e.g. it holds a line break).
pub fn header<T: fmt::Display + ?Sized>(
    headers: &mut HeaderMap,
    name: &'static str,
    value: &T,
) -> Result<(), ProblemBuildError> {
    let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| ProblemBuildError::Header {
        message: format!("`{name}`: {e}"),
    })?;
    let mut text = String::new();
    write!(text, "{value}").map_err(|_| ProblemBuildError::Header {
        message: format!("`{name}`: the field's Display implementation failed"),
    })?;
    let value = HeaderValue::try_from(text).map_err(|e| ProblemBuildError::Header {
        message: format!("`{name}`: {e}"),
    })?;
    headers.append(name, value);
    Ok(())
}

/// Formats a `detail`. Unlike `ToString`, never panics when a field's
/// `Display` fails: the text written so far is kept.
pub fn format_detail(args: fmt::Arguments<'_>) -> String {
    let mut text = String::new();
    let _ = text.write_fmt(args);
    text
}

/// Views a `source` field as `&dyn Error`, whether it is a sized error type
/// or a `Box<dyn Error + ...>` (method-call autoderef reaches the `dyn`).
pub trait AsDynError<'a>: sealed::Sealed {
    /// The field as a trait object.
    fn as_dyn_error(&self) -> &(dyn StdError + 'a);
}

impl<'a, T: StdError + 'a> AsDynError<'a> for T {
    fn as_dyn_error(&self) -> &(dyn StdError + 'a) {
        self
    }
}

impl<'a> AsDynError<'a> for dyn StdError + 'a {
    fn as_dyn_error(&self) -> &(dyn StdError + 'a) {
        self
    }
}

impl<'a> AsDynError<'a> for dyn StdError + Send + 'a {
    fn as_dyn_error(&self) -> &(dyn StdError + 'a) {
        self
    }
}

impl<'a> AsDynError<'a> for dyn StdError + Sync + 'a {
    fn as_dyn_error(&self) -> &(dyn StdError + 'a) {
        self
    }
}

impl<'a> AsDynError<'a> for dyn StdError + Send + Sync + 'a {
    fn as_dyn_error(&self) -> &(dyn StdError + 'a) {
        self
    }
}

mod sealed {
    use std::error::Error as StdError;

    pub trait Sealed {}
    impl<T: StdError> Sealed for T {}
    impl Sealed for dyn StdError + '_ {}
    impl Sealed for dyn StdError + Send + '_ {}
    impl Sealed for dyn StdError + Sync + '_ {}
    impl Sealed for dyn StdError + Send + Sync + '_ {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn extension_failure_is_an_error_not_a_panic() {
        let mut ext = Extensions::new();
        let bad: HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let err = extension(&mut ext, "bad", &bad).unwrap_err();
        assert!(matches!(err, ProblemBuildError::Extension { ref key, .. } if key == "bad"));
        assert!(ext.is_empty());
    }

    #[test]
    fn header_rejects_line_breaks() {
        let mut headers = HeaderMap::new();
        header(&mut headers, "retry-after", "1").unwrap();
        assert_eq!(headers.get("retry-after").unwrap(), "1");
        let err = header(&mut headers, "x-bad", "a\r\nb").unwrap_err();
        assert!(matches!(err, ProblemBuildError::Header { .. }));
    }

    #[test]
    fn failing_display_does_not_panic() {
        struct Failing;
        impl fmt::Display for Failing {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("partial")?;
                Err(fmt::Error)
            }
        }
        assert_eq!(format_detail(format_args!("x {}", Failing)), "x partial");
        let mut headers = HeaderMap::new();
        assert!(header(&mut headers, "x-a", &Failing).is_err());
    }

    #[test]
    fn status_code_of_checked_statuses() {
        assert_eq!(status_code(499).as_u16(), 499);
        assert_eq!(status_code(409), StatusCode::CONFLICT);
    }
}
