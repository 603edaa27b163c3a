//! Run-time support of `#[derive(Problem)]`: the only items the generated
//! code calls, re-exported from `problem_core::__private`. Not a public API.

use std::error::Error as StdError;
use std::fmt::{self, Write as _};
use std::ops::Deref;

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

/// The extension check of a field named `source` that is not the cause
/// because another field is marked `#[problem(source)]`: the same as
/// [`ExtensionValue`], with advice for that case (the usual advice, "mark
/// the field `#[problem(source)]`", would make two sources).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an extension member of a problem: it is not `Serialize`",
    label = "not `Serialize`: this field named `source` is not the cause, so it becomes an extension member",
    note = "another field is marked `#[problem(source)]`, and a problem has one cause: mark this field `#[problem(skip)]` to leave it out of the problem document, or move `#[problem(source)]` to it"
)]
pub trait ExtensionBesideSource: ExtensionValue {}

impl<T: ExtensionValue + ?Sized> ExtensionBesideSource for T {}

/// [`extension`] for a field named `source` that another field's
/// `#[problem(source)]` made an extension member.
///
/// # Errors
/// [`ProblemBuildError::Extension`] when the value cannot be serialized.
///
/// ```
/// let mut members = problem_core::__private::Extensions::new();
/// problem_core::__private::extension_beside_source(&mut members, "source", "cache")?;
/// assert_eq!(members["source"], "cache");
/// # Ok::<(), problem_core::__private::ProblemBuildError>(())
/// ```
pub fn extension_beside_source<T: ExtensionBesideSource + ?Sized>(
    extensions: &mut Extensions,
    key: &str,
    value: &T,
) -> Result<(), ProblemBuildError> {
    extension(extensions, key, value)
}

/// A field type that can be sent as a response header: any `Display`
/// type (its text is the header value). The derive requires it of every
/// `#[problem(header = "...")]` field, so a field that is not `Display` is
/// reported with what to write instead.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a header value: it does not implement `Display`",
    label = "not `Display`: this field is sent as a response header",
    note = "a `#[problem(header = \"...\")]` field is sent as its `Display` text: use a type that implements `std::fmt::Display` (a number or a string), or remove `header` to send the field as an extension member"
)]
pub trait HeaderText: fmt::Display {}

impl<T: fmt::Display + ?Sized> HeaderText for T {}

/// Appends the header `name` (checked by the macro) with a field's
/// `Display` as its value.
///
/// # Errors
/// [`ProblemBuildError::Header`] when the `Display` fails or its text is not
/// a valid header value (e.g. it holds a line break).
pub fn header<T: HeaderText + ?Sized>(
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

/// A type that derives `Problem` and implements `Debug`, which
/// `std::error::Error` requires. The derive names
/// [`debug_problem::<Type>`](debug_problem) once, on the type's name, so a
/// type without `Debug` is one error there saying to derive it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` derives `Problem` but does not implement `Debug`",
    label = "add `#[derive(Debug)]` to `{Self}`",
    note = "a problem is an `std::error::Error`, which requires `Debug`: write `#[derive(Debug, Problem)]`"
)]
pub trait DebugProblem: fmt::Debug {}

impl<T: fmt::Debug + ?Sized> DebugProblem for T {}

/// The check of [`DebugProblem`]: compiles only for a `Debug` type.
///
/// ```
/// #[derive(Debug)]
/// struct NotFound;
/// const _: fn() = problem_core::__private::debug_problem::<NotFound>;
/// ```
pub fn debug_problem<T: DebugProblem + ?Sized>() {}

/// A field type of a type that derives `Problem`: `Sync`, as a problem
/// must be `Send + Sync` (actix-web hands errors between threads). The
/// derive names [`sync_field::<FieldType>`](sync_field) once per field, on
/// the field's type, so a field that is not is one error there saying what
/// to write instead. (`Sync` alone: checking `Send` too would report the
/// common cases, `Rc` and `dyn Error`, twice; a field that is `Sync` but
/// not `Send` is an error where the type is used as a problem.)
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be shared between threads, and every field of a problem type must be `Send + Sync`",
    label = "not `Send + Sync`",
    note = "a problem is sent between threads: for a cause write `Box<dyn std::error::Error + Send + Sync>` (or `anyhow::Error`), for shared data `Arc` instead of `Rc`, `Mutex` instead of `RefCell`",
    note = "a field only needed in `detail` can be formatted into a `String` field instead"
)]
pub trait SyncField: Sync {}

impl<T: Sync + ?Sized> SyncField for T {}

/// The check of [`SyncField`]: compiles only for a `Sync` type.
///
/// ```
/// const _: fn() = problem_core::__private::sync_field::<Box<dyn std::error::Error + Send + Sync>>;
/// ```
pub fn sync_field<T: SyncField + ?Sized>() {}

/// A field that is the width or precision of a `detail` placeholder
/// (`{code:>width$}`, `{price:.digits$}`): `std::fmt` takes a `usize`
/// there, so the derive requires it of such a field, with what to write
/// instead.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a width or precision in `detail`: `{{x:>width$}}` and `{{x:.prec$}}` take a `usize`",
    label = "not `usize`: this field is a width or precision in `detail`",
    note = "declare the field as `usize` (e.g. `width: usize`), or write a fixed width or precision in `detail`, such as `{{x:>8}}` or `{{x:.2}}`"
)]
pub trait FormatCount {
    /// The count.
    fn count(&self) -> usize;
}

impl FormatCount for usize {
    fn count(&self) -> usize {
        *self
    }
}

/// The width or precision a field gives a `detail` placeholder; compiles
/// only for a `usize` field ([`FormatCount`]).
///
/// ```
/// assert_eq!(problem_core::__private::format_count::<usize>(&8), 8);
/// assert_eq!(format!("[{:>w$}]", 7, w = problem_core::__private::format_count(&3_usize)), "[  7]");
/// ```
pub fn format_count<T: FormatCount + ?Sized>(value: &T) -> usize {
    value.count()
}

/// Formats a `detail`. Unlike `ToString`, never panics when a field's
/// `Display` fails: the text written so far is kept.
pub fn format_detail(args: fmt::Arguments<'_>) -> String {
    let mut text = String::new();
    let _ = text.write_fmt(args);
    text
}

/// A borrowed `source` field. The generated `Error::source` calls
/// `(&&&SourceField(field)).as_dyn_error()`: method resolution (autoref)
/// takes the first of [`SourceIsError`] (an error type), [`SourceIsDyn`]
/// (a pointer to `dyn Error`: `Box<dyn Error + Send + Sync>`,
/// `anyhow::Error`, ...) and [`SourceIsOther`], which is the one compile
/// error ([`ErrorSource`]) saying what to write instead.
///
/// ```
/// use problem_core::__private::{SourceField, SourceIsDyn as _, SourceIsError as _, SourceIsOther as _};
///
/// let io = std::io::Error::other("disk full");
/// let boxed: Box<dyn std::error::Error + Send + Sync> = "timed out".into();
/// assert_eq!((&&&SourceField(&io)).as_dyn_error().to_string(), "disk full");
/// assert_eq!((&&&SourceField(&boxed)).as_dyn_error().to_string(), "timed out");
/// ```
pub struct SourceField<'a, T: ?Sized>(pub &'a T);

/// A `source` field whose type is an error type.
pub trait SourceIsError<'a> {
    /// The field as a trait object.
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static);
}

impl<'a, T: StdError + 'static> SourceIsError<'a> for &&SourceField<'a, T> {
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static) {
        self.0
    }
}

/// A `source` field that dereferences to `dyn Error` (`D`, with or without
/// `Send` and `Sync`) without being an error type itself.
pub trait SourceIsDyn<'a, D: ?Sized> {
    /// The field's target as a trait object.
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static);
}

impl<'a, T> SourceIsDyn<'a, dyn StdError> for &SourceField<'a, T>
where
    T: Deref<Target = dyn StdError + 'static> + ?Sized,
{
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static) {
        &**self.0
    }
}

impl<'a, T> SourceIsDyn<'a, dyn StdError + Send> for &SourceField<'a, T>
where
    T: Deref<Target = dyn StdError + Send + 'static> + ?Sized,
{
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static) {
        &**self.0
    }
}

impl<'a, T> SourceIsDyn<'a, dyn StdError + Sync> for &SourceField<'a, T>
where
    T: Deref<Target = dyn StdError + Sync + 'static> + ?Sized,
{
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static) {
        &**self.0
    }
}

impl<'a, T> SourceIsDyn<'a, dyn StdError + Send + Sync> for &SourceField<'a, T>
where
    T: Deref<Target = dyn StdError + Send + Sync + 'static> + ?Sized,
{
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static) {
        &**self.0
    }
}

/// A `source` field that is neither an error nor a pointer to one: its
/// method requires [`ErrorSource`], which such a type lacks, so the derive
/// reports one error on the field's type.
pub trait SourceIsOther<'a, T: ?Sized> {
    /// Unreachable at run time: the bound fails at compile time.
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static)
    where
        T: ErrorSource;
}

impl<'a, T: ?Sized> SourceIsOther<'a, T> for SourceField<'a, T> {
    fn as_dyn_error(&self) -> &'a (dyn StdError + 'static)
    where
        T: ErrorSource,
    {
        self.0.as_source()
    }
}

/// A type that can be a problem's `source` (its cause, returned by
/// `Error::source`): any `'static` error type.
///
/// ```
/// use problem_core::__private::ErrorSource;
/// let io = std::io::Error::other("disk full");
/// assert_eq!(io.as_source().to_string(), "disk full");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the `source` of a problem: it is not an error type",
    label = "not `std::error::Error`: this field is the problem's cause (`Error::source`)",
    note = "use a type that implements `std::error::Error` (or `Box<dyn Error + Send + Sync>`), or mark the field `#[problem(skip)]`; a field named `source` is the cause unless it is marked `skip`, `rename` or `header`"
)]
pub trait ErrorSource {
    /// The value as a trait object.
    fn as_source(&self) -> &(dyn StdError + 'static);
}

impl<T: StdError + 'static> ErrorSource for T {
    fn as_source(&self) -> &(dyn StdError + 'static) {
        self
    }
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
