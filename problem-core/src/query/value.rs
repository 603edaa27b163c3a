//! Typed filter values: the kinds a field can have, parsing a query value by
//! the field's Rust type, and comparing values.

use std::cmp::Ordering;

use serde_json::Value as Json;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

use super::params::{Int, parse_int};
use super::text::QueryText;

/// The type of a queryable field, from its Rust type ([`QueryValue::KIND`]).
///
/// ```
/// use problem_core::query::{QueryValue, ValueKind};
/// assert_eq!(<u8 as QueryValue>::KIND, ValueKind::Integer { min: 0, max: 255 });
/// assert_eq!(<String as QueryValue>::KIND, ValueKind::Text);
/// assert_eq!(<time::OffsetDateTime as QueryValue>::KIND, ValueKind::DateTime);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueKind {
    /// An integer type; values outside `min..=max` do not parse.
    Integer {
        /// Smallest value of the Rust type.
        min: i64,
        /// Largest value of the Rust type.
        max: i64,
    },
    /// `f64`; only finite numbers parse.
    Float,
    /// `f32`: a value is rounded to the nearest `f32`, as the field holds
    /// it (so `0.1` finds an item holding `0.1_f32`, which is not the `f64`
    /// 0.1), and only numbers finite as an `f32` parse (`3.5e38` does not).
    /// Values are compared, bound in SQL and signed in cursors as that
    /// `f32` widened to `f64`.
    ///
    /// ```
    /// use problem_core::query::{FieldValue, QueryValue, ValueKind};
    /// assert_eq!(<f32 as QueryValue>::KIND, ValueKind::Float32);
    /// assert_eq!(ValueKind::Float32.parse("0.1"), Some(FieldValue::Float(f64::from(0.1_f32))));
    /// assert_eq!(ValueKind::Float32.parse("3.5e38"), None);
    /// assert_eq!(ValueKind::Float32.expected(), "number");
    /// ```
    Float32,
    /// `bool`: `true` or `false`.
    Boolean,
    /// `String`: any text.
    Text,
    /// `time::Date`: an RFC 3339 full-date, `2024-05-31`.
    Date,
    /// `time::OffsetDateTime`: an RFC 3339 date-time, `2024-05-31T12:00:00Z`,
    /// with at most six fractional digits that are not zero (microseconds:
    /// PostgreSQL's precision, which a finer bound value is cut to) and in the
    /// years 0000 to 9999 once in UTC. A leap second (`23:59:60`, which RFC
    /// 3339 allows) is refused: `time` reads it as `23:59:59.999999999`,
    /// finer than microseconds, and neither database stores it.
    ///
    /// ```
    /// use problem_core::query::ValueKind;
    /// assert!(ValueKind::DateTime.parse("2016-12-31T23:59:59.999999Z").is_some());
    /// assert!(ValueKind::DateTime.parse("2016-12-31T23:59:60Z").is_none());
    /// ```
    DateTime,
    /// One of a fixed set of names: an enum of unit variants, serialized as
    /// strings (serde's default for them, after any `rename_all`). A query
    /// value must be one of the names (else `invalid_value` with `allowed`);
    /// values compare and sort as text, so the SQL column holds the names as
    /// text. No order (`gt`...) and no text matching apply. An item's or a
    /// row's value that is not listed (a variant a newer build added) is
    /// read as text all the same. A name holding a comma, or the empty
    /// name, cannot be sent in `in` or `not_in`, which split on commas and
    /// refuse empty entries; `#[derive(QueryValue)]` refuses both.
    ///
    /// ```
    /// use problem_core::query::{FieldValue, ValueKind};
    /// let status = ValueKind::OneOf(&["draft", "published"]);
    /// assert_eq!(status.parse("draft"), Some(FieldValue::Text("draft".into())));
    /// assert_eq!(status.parse("Draft"), None);
    /// assert_eq!(status.expected(), "one of the allowed values");
    /// ```
    OneOf(&'static [&'static str]),
    /// A field that is only ever selected (`fields`, `exclude`): no filter,
    /// sort or search reads its values, so its Rust type needs no
    /// [`QueryValue`] (a `Vec`, a nested struct, an enum with data).
    /// `#[derive(CollectionQuery)]` gives this kind to every field without
    /// `filter`, `sort` or `search` that is not the key. Nothing parses or
    /// reads as it.
    ///
    /// ```
    /// use problem_core::query::ValueKind;
    /// assert_eq!(ValueKind::Opaque.parse("anything"), None);
    /// assert_eq!(ValueKind::Opaque.from_json(&serde_json::json!([1, 2])), None);
    /// ```
    Opaque,
}

impl ValueKind {
    /// The `expected` member of an `invalid_value` issue for this kind:
    /// `integer`, `number`, `boolean`, `string`, `RFC 3339 date`,
    /// `RFC 3339 date-time`, `one of the allowed values` (the issue then
    /// lists them in `allowed`), `selected field` ([`Opaque`](Self::Opaque),
    /// which no issue names).
    ///
    /// ```
    /// use problem_core::query::ValueKind;
    /// assert_eq!(ValueKind::Float.expected(), "number");
    /// assert_eq!(ValueKind::Integer { min: 0, max: 9 }.expected(), "integer");
    /// assert_eq!(ValueKind::DateTime.expected(), "RFC 3339 date-time");
    /// ```
    pub fn expected(self) -> &'static str {
        match self {
            Self::Integer { .. } => "integer",
            Self::Float | Self::Float32 => "number",
            Self::Boolean => "boolean",
            Self::Text => "string",
            Self::Date => "RFC 3339 date",
            Self::DateTime => "RFC 3339 date-time",
            Self::OneOf(_) => "one of the allowed values",
            Self::Opaque => "selected field",
        }
    }

    /// Parses a query value. Date-times are converted to UTC.
    ///
    /// ```
    /// use problem_core::query::{FieldValue, ValueKind};
    /// let int = ValueKind::Integer { min: i32::MIN as i64, max: i32::MAX as i64 };
    /// assert_eq!(int.parse("42"), Some(FieldValue::Integer(42)));
    /// assert_eq!(int.parse("4294967296"), None);
    /// assert_eq!(ValueKind::Boolean.parse("yes"), None);
    /// ```
    pub fn parse(self, s: &str) -> Option<FieldValue> {
        match self {
            Self::Integer { min, max } => match parse_int(s) {
                Int::Value(v) if v >= i128::from(min) && v <= i128::from(max) => {
                    i64::try_from(v).ok().map(FieldValue::Integer)
                }
                Int::Value(_) | Int::NotInteger => None,
            },
            Self::Float => float_text(s)
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map(FieldValue::Float),
            // Rounded once, from the text, to the nearest `f32`.
            Self::Float32 => float_text(s)
                .and_then(|s| s.parse::<f32>().ok())
                .filter(|v| v.is_finite())
                .map(|v| FieldValue::Float(f64::from(v))),
            Self::Boolean => match s {
                "true" => Some(FieldValue::Boolean(true)),
                "false" => Some(FieldValue::Boolean(false)),
                _ => None,
            },
            Self::Text => Some(FieldValue::Text(QueryText::from(s))),
            Self::Date => parse_date(s).map(FieldValue::Date),
            Self::DateTime => parse_date_time(s).map(FieldValue::DateTime),
            Self::OneOf(names) => names
                .contains(&s)
                .then(|| FieldValue::Text(QueryText::from(s))),
            Self::Opaque => None,
        }
    }

    /// Reads a value of this kind from JSON (a serialized item or a cursor):
    /// numbers, booleans, strings; dates and date-times as `time` writes
    /// them (RFC 3339, any fraction; a signed year for a date). `null` is
    /// [`FieldValue::Null`]; anything else is `None`. Unlike
    /// [`parse`](Self::parse), which reads what a client sends, an item's
    /// `2024-01-01T00:00:00.123456789Z` keeps its nanoseconds.
    ///
    /// ```
    /// use problem_core::query::{FieldValue, ValueKind};
    /// use serde_json::json;
    /// let small = ValueKind::Integer { min: 0, max: 10 };
    /// assert_eq!(small.from_json(&json!(7)), Some(FieldValue::Integer(7)));
    /// assert_eq!(small.from_json(&json!(11)), None);
    /// assert_eq!(small.from_json(&json!("7")), None);
    /// assert_eq!(ValueKind::Text.from_json(&json!(null)), Some(FieldValue::Null));
    /// assert_eq!(
    ///     ValueKind::Date.from_json(&json!("2024-05-31")),
    ///     Some(FieldValue::Date(time::macros::date!(2024-05-31)))
    /// );
    /// assert_eq!(
    ///     ValueKind::DateTime.from_json(&json!("2024-01-01T02:00:00.123456789+02:00")),
    ///     Some(FieldValue::DateTime(time::macros::datetime!(2024-01-01 00:00:00.123456789 UTC)))
    /// );
    /// assert_eq!(ValueKind::DateTime.parse("2024-01-01T02:00:00.123456789+02:00"), None);
    /// ```
    pub fn from_json(self, json: &Json) -> Option<FieldValue> {
        if json.is_null() {
            return Some(FieldValue::Null);
        }
        match self {
            Self::Integer { min, max } => {
                let v = json.as_i64()?;
                (v >= min && v <= max).then_some(FieldValue::Integer(v))
            }
            Self::Float => json
                .as_f64()
                .filter(|v| v.is_finite())
                .map(FieldValue::Float),
            Self::Float32 => json.as_f64().and_then(narrow).map(FieldValue::Float),
            Self::Boolean => json.as_bool().map(FieldValue::Boolean),
            Self::Text => json.as_str().map(|s| FieldValue::Text(QueryText::from(s))),
            // An item's own values are read as `time` writes them (signed
            // years, nanoseconds): the stricter rules of `parse` are for
            // what a client sends.
            Self::Date => json
                .as_str()
                .and_then(|s| Date::parse(s, format_description!("[year]-[month]-[day]")).ok())
                .map(FieldValue::Date),
            Self::DateTime => json
                .as_str()
                .and_then(|s| OffsetDateTime::parse(s, &Rfc3339).ok())
                .and_then(|d| d.checked_to_offset(UtcOffset::UTC))
                .map(FieldValue::DateTime),
            // Any name, listed or not: a stored value this build does not
            // list (a variant added by a newer one, during a rolling
            // deploy) matches no filter value but sorts and pages as text.
            Self::OneOf(_) => json.as_str().map(|s| FieldValue::Text(QueryText::from(s))),
            Self::Opaque => None,
        }
    }
}

/// `s` if it is written as a decimal number (digits, sign, point,
/// exponent): not `NaN`, `inf` or `infinity`, which Rust's float parsers
/// also read.
fn float_text(s: &str) -> Option<&str> {
    let ok = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    ok.then_some(s)
}

/// An `f64` read for an `f32` field: rounded to the nearest `f32` and
/// widened back, if finite as an `f32`.
#[allow(clippy::cast_possible_truncation)] // the rounding is the point
pub(crate) fn narrow(v: f64) -> Option<f64> {
    let v = v as f32;
    v.is_finite().then(|| f64::from(v))
}

/// An RFC 3339 `full-date` (§5.6): `date-fullyear` is exactly four
/// digits, so years 0000 to 9999 and no sign (`time`'s `[year]` alone would
/// take `-4714` or `+1999`, which no database stores alike).
fn parse_date(s: &str) -> Option<Date> {
    let year = s.as_bytes().get(..4)?;
    if s.len() != 10 || !year.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Date::parse(s, format_description!("[year]-[month]-[day]")).ok()
}

/// An RFC 3339 `date-time`, in UTC ([`read_date_time`]).
fn parse_date_time(s: &str) -> Option<OffsetDateTime> {
    read_date_time(s).ok()
}

/// Why [`read_date_time`] refuses a text.
enum DateTimeRefusal {
    /// Not an RFC 3339 `date-time`.
    NotRfc3339,
    /// A fraction finer than microseconds.
    FinerThanMicroseconds,
    /// An instant outside the years 0000 to 9999 in UTC.
    OutsideYears,
}

/// An RFC 3339 `date-time`, in UTC, or why it is refused: the one home of
/// the rules. The instant must fall in the years 0000 to 9999 in UTC:
/// `9999-12-31T23:00:00-05:00` is in year 10000 there, which neither
/// `time` (without `large-dates`) nor a database column holds. A finer
/// fraction than microseconds is refused: PostgreSQL cuts a bound
/// `timestamptz` to microseconds, so `__lt=..00.0000001Z` would match other
/// rows there than in memory.
fn read_date_time(s: &str) -> Result<OffsetDateTime, DateTimeRefusal> {
    let t = OffsetDateTime::parse(s, &Rfc3339).map_err(|_| DateTimeRefusal::NotRfc3339)?;
    if t.nanosecond() % 1000 != 0 {
        return Err(DateTimeRefusal::FinerThanMicroseconds);
    }
    t.checked_to_offset(UtcOffset::UTC)
        .filter(|utc| (0..=9999).contains(&utc.year()))
        .ok_or(DateTimeRefusal::OutsideYears)
}

/// Why [`read_date_time`] refuses `s` although it is an RFC 3339
/// `date-time`, for the message of its issue; `None` when `s` is not one,
/// or is accepted.
pub(crate) fn date_time_refusal(s: &str) -> Option<&'static str> {
    match read_date_time(s) {
        Err(DateTimeRefusal::FinerThanMicroseconds) => {
            Some("its fraction is finer than microseconds (write at most six fraction digits)")
        }
        Err(DateTimeRefusal::OutsideYears) => {
            Some("it falls outside the years 0000 to 9999 in UTC")
        }
        Ok(_) | Err(DateTimeRefusal::NotRfc3339) => None,
    }
}

/// A typed filter value, cursor value or field value of an item.
///
/// ```
/// use problem_core::query::{FieldValue, ValueKind};
/// let v = ValueKind::DateTime.parse("2024-05-31T14:00:00+02:00").unwrap();
/// assert_eq!(v, FieldValue::DateTime(time::macros::datetime!(2024-05-31 12:00 UTC)));
/// assert_eq!(v.to_json(), serde_json::json!("2024-05-31T12:00:00Z"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FieldValue {
    /// SQL `NULL` / JSON `null` / `None`.
    Null,
    /// Any integer type, widened.
    Integer(i64),
    /// A finite float.
    Float(f64),
    /// A boolean.
    Boolean(bool),
    /// Text (stored inline up to 24 bytes).
    Text(QueryText),
    /// A calendar date.
    Date(Date),
    /// A date-time, in UTC.
    DateTime(OffsetDateTime),
}

impl FieldValue {
    /// The value as JSON (dates as RFC 3339 strings).
    ///
    /// ```
    /// use problem_core::query::FieldValue;
    /// use serde_json::json;
    /// assert_eq!(FieldValue::Text("Dune".into()).to_json(), json!("Dune"));
    /// assert_eq!(FieldValue::Date(time::macros::date!(2024-02-29)).to_json(), json!("2024-02-29"));
    /// assert_eq!(FieldValue::Null.to_json(), json!(null));
    /// ```
    pub fn to_json(&self) -> Json {
        match self {
            Self::Null => Json::Null,
            Self::Integer(v) => Json::from(*v),
            Self::Float(v) => serde_json::Number::from_f64(*v).map_or(Json::Null, Json::Number),
            Self::Boolean(v) => Json::Bool(*v),
            Self::Text(v) => Json::String(v.as_str().to_owned()),
            Self::Date(d) => Json::String(format_date(*d)),
            Self::DateTime(d) => Json::String(d.format(&Rfc3339).unwrap_or_default()),
        }
    }

    /// The canonical text of the value (for hashing filters into a cursor).
    pub(crate) fn canonical(&self) -> String {
        match self {
            Self::Null => "null".into(),
            Self::Integer(v) => format!("i:{v}"),
            Self::Float(v) => format!("f:{v:?}"),
            Self::Boolean(v) => format!("b:{v}"),
            Self::Text(v) => format!("s:{}:{v}", v.len()),
            Self::Date(d) => format!("d:{}", format_date(*d)),
            Self::DateTime(d) => format!("t:{}", d.unix_timestamp_nanos()),
        }
    }

    /// Whether this is [`FieldValue::Null`].
    ///
    /// ```
    /// use problem_core::query::{FieldValue, ValueKind};
    /// assert!(FieldValue::Null.is_null());
    /// assert!(!FieldValue::Text("".into()).is_null());
    /// assert!(ValueKind::Boolean.from_json(&serde_json::Value::Null).unwrap().is_null());
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// Compares two non-null values of the same kind (SQL comparison);
    /// `None` when either is null or the kinds differ.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use problem_core::query::FieldValue;
    /// assert_eq!(FieldValue::Integer(2).compare(&FieldValue::Float(2.5)), Some(Ordering::Less));
    /// assert_eq!(FieldValue::Text("Z".into()).compare(&FieldValue::Text("a".into())), Some(Ordering::Less));
    /// assert_eq!(FieldValue::Text("1".into()).compare(&FieldValue::Integer(1)), None);
    /// assert_eq!(FieldValue::Null.compare(&FieldValue::Null), None);
    /// ```
    pub fn compare(&self, other: &Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Integer(a), Self::Integer(b)) => Some(a.cmp(b)),
            (Self::Float(a), Self::Float(b)) => a.partial_cmp(b),
            (Self::Integer(a), Self::Float(b)) => (*a as f64).partial_cmp(b),
            (Self::Float(a), Self::Integer(b)) => a.partial_cmp(&(*b as f64)),
            (Self::Boolean(a), Self::Boolean(b)) => Some(a.cmp(b)),
            (Self::Text(a), Self::Text(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (Self::Date(a), Self::Date(b)) => Some(a.cmp(b)),
            (Self::DateTime(a), Self::DateTime(b)) => Some(a.cmp(b)),
            // Every kind named: a new one must say how it compares.
            (
                Self::Null
                | Self::Integer(_)
                | Self::Float(_)
                | Self::Boolean(_)
                | Self::Text(_)
                | Self::Date(_)
                | Self::DateTime(_),
                _,
            ) => None,
        }
    }

    /// Total order used for sorting: `NULL` sorts before every value
    /// (first ascending, last descending), as SQLite does.
    ///
    /// ```
    /// use problem_core::query::FieldValue;
    /// let mut v = vec![FieldValue::Integer(3), FieldValue::Null, FieldValue::Integer(1)];
    /// v.sort_by(FieldValue::sort_cmp);
    /// assert_eq!(v, [FieldValue::Null, FieldValue::Integer(1), FieldValue::Integer(3)]);
    /// ```
    pub fn sort_cmp(&self, other: &Self) -> Ordering {
        match (self.is_null(), other.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self.compare(other).unwrap_or(Ordering::Equal),
        }
    }
}

pub(crate) fn format_date(d: Date) -> String {
    d.format(format_description!("[year]-[month]-[day]"))
        .unwrap_or_default()
}

/// A Rust type usable as a queryable field; the derive reads
/// `<T as QueryValue>::KIND` for each field (`Option<T>` makes it nullable).
///
/// Implemented for `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`
/// (values up to `i64::MAX`), `f32`,
/// `f64`, `bool`, `String`, `time::Date` and `time::OffsetDateTime`.
///
/// ```
/// use problem_core::query::{FieldValue, QueryValue, ValueKind};
/// assert_eq!(<i16 as QueryValue>::KIND, ValueKind::Integer { min: -32768, max: 32767 });
/// assert_eq!(<u64 as QueryValue>::KIND, ValueKind::Integer { min: 0, max: i64::MAX });
/// assert_eq!(<u64 as QueryValue>::KIND.parse("9223372036854775808"), None);
/// assert_eq!(<bool as QueryValue>::KIND.parse("true"), Some(FieldValue::Boolean(true)));
/// ```
///
/// Only a field that is filtered, sorted, searched or the key needs this
/// trait: any other field is only selected and may have any type
/// ([`ValueKind::Opaque`]).
///
/// An enum of unit variants, serialized as strings, is queryable with
/// [`ValueKind::OneOf`] listing the names as serde writes them:
/// `#[derive(QueryValue)]` (the re-exported derive,
/// [`problem_core::QueryValue`](crate::QueryValue)) reads them from the
/// enum's serde attributes; by hand, as below, the list is yours to keep
/// in step. Filtering
/// it takes `eq`, `ne`, `in`, `not_in` (and `is_null` when it is an
/// `Option`); a value not listed is a 400 `invalid_value` whose `allowed`
/// names the list. A stored value that is not listed is read as text: it
/// matches no filter value, and sorts and pages as text.
///
/// ```
/// use problem_core::CollectionQuery;
/// use problem_core::query::{QueryValue, ValueKind};
///
/// #[derive(serde::Serialize)]
/// #[serde(rename_all = "snake_case")]
/// enum Status {
///     Draft,
///     InPrint,
/// }
/// impl QueryValue for Status {
///     const KIND: ValueKind = ValueKind::OneOf(&["draft", "in_print"]);
/// }
///
/// #[derive(CollectionQuery)]
/// #[allow(dead_code)]
/// struct BookQuery {
///     #[query(sort)]
///     id: i64,
///     #[query(filter(eq, in), sort)]
///     status: Status,
///     tags: Vec<String>, // only selected: any type
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `CollectionQuery`",
    label = "not a queryable type",
    note = "use an integer (i8..i64, u8..u64; a u64 up to i64::MAX), f32, f64, bool, String, time::Date or time::OffsetDateTime, or Option of one of them; for an enum of unit variants, add `#[derive(problem_core::QueryValue)]` to it; the key and every field with filter, sort or search need `QueryValue`, a field only selected may have any type"
)]
pub trait QueryValue {
    /// How query values of this type parse and compare.
    ///
    /// ```
    /// use problem_core::query::{QueryValue, ValueKind};
    /// assert_eq!(i16::KIND, ValueKind::Integer { min: -32768, max: 32767 });
    /// assert_eq!((String::KIND, bool::KIND), (ValueKind::Text, ValueKind::Boolean));
    /// ```
    const KIND: ValueKind;
}

/// A [`QueryValue`] with an order: `gt`, `gte`, `lt`, `lte` are allowed on it.
///
/// ```
/// use problem_core::query::{OrderedValue, ValueKind};
/// fn ordered_kind<T: OrderedValue>() -> ValueKind {
///     T::KIND
/// }
/// assert_eq!(ordered_kind::<time::Date>(), ValueKind::Date);
/// assert_eq!(ordered_kind::<String>(), ValueKind::Text);
/// // `bool` has no order: `ordered_kind::<bool>()` does not compile.
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no order, so `gt`, `gte`, `lt` and `lte` cannot filter it",
    label = "this operator compares by order, and the field's type has none",
    note = "use `eq`, `ne`, `in` or `not_in` on this field"
)]
pub trait OrderedValue: QueryValue {}

/// A [`QueryValue`] that is text: `contains`, `starts_with`, `ends_with` and
/// `search` are allowed on it.
///
/// ```
/// use problem_core::query::{TextValue, ValueKind};
/// fn text_kind<T: TextValue>() -> ValueKind {
///     T::KIND
/// }
/// assert_eq!(text_kind::<String>(), ValueKind::Text);
/// // `i64` is not text: `text_kind::<i64>()` does not compile.
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not text, so `contains`, `starts_with`, `ends_with` and `search` cannot apply to it",
    label = "this operator matches text, and the field's type is not a String",
    note = "only String fields (or Option<String>) can be matched as text: remove the operator, or filter the field with `eq`, `ne`, `in` or `not_in`"
)]
pub trait TextValue: QueryValue {}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl QueryValue for $t {
            const KIND: ValueKind = ValueKind::Integer { min: <$t>::MIN as i64, max: <$t>::MAX as i64 };
        }
        impl OrderedValue for $t {}
    )*};
}
integers!(i8, i16, i32, i64, u8, u16, u32);

/// `u64` ids are common; a value over `i64::MAX` (what SQL databases store)
/// does not parse: a 400 `invalid_value`.
impl QueryValue for u64 {
    const KIND: ValueKind = ValueKind::Integer {
        min: 0,
        max: i64::MAX,
    };
}
impl OrderedValue for u64 {}

impl QueryValue for f32 {
    const KIND: ValueKind = ValueKind::Float32;
}
impl OrderedValue for f32 {}
impl QueryValue for f64 {
    const KIND: ValueKind = ValueKind::Float;
}
impl OrderedValue for f64 {}
impl QueryValue for bool {
    const KIND: ValueKind = ValueKind::Boolean;
}
impl QueryValue for String {
    const KIND: ValueKind = ValueKind::Text;
}
impl OrderedValue for String {}
impl TextValue for String {}
impl QueryValue for Date {
    const KIND: ValueKind = ValueKind::Date;
}
impl OrderedValue for Date {}
impl QueryValue for OffsetDateTime {
    const KIND: ValueKind = ValueKind::DateTime;
}
impl OrderedValue for OffsetDateTime {}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn parses_by_kind() {
        let i8k = <i8 as QueryValue>::KIND;
        assert_eq!(i8k.parse("-128"), Some(FieldValue::Integer(-128)));
        assert_eq!(i8k.parse("128"), None);
        assert_eq!(i8k.parse("1.5"), None);
        assert_eq!(i8k.parse(""), None);
        assert_eq!(
            ValueKind::Float.parse("1.5e3"),
            Some(FieldValue::Float(1500.0))
        );
        assert_eq!(ValueKind::Float.parse("NaN"), None);
        assert_eq!(ValueKind::Float.parse("inf"), None);
        assert_eq!(ValueKind::Float.parse("1e999"), None);
        assert_eq!(
            ValueKind::Boolean.parse("true"),
            Some(FieldValue::Boolean(true))
        );
        assert_eq!(ValueKind::Boolean.parse("1"), None);
        assert_eq!(
            ValueKind::Date.parse("2024-02-29"),
            Some(FieldValue::Date(date!(2024 - 02 - 29)))
        );
        assert_eq!(ValueKind::Date.parse("2023-02-29"), None);
        assert_eq!(
            ValueKind::DateTime.parse("2024-01-01T02:00:00+02:00"),
            Some(FieldValue::DateTime(datetime!(2024-01-01 0:00 UTC)))
        );
        assert_eq!(ValueKind::DateTime.parse("2024-01-01"), None);
    }

    #[test]
    fn dates_are_rfc3339_four_digit_years_only() {
        for bad in [
            "-4714-11-24",
            "-0001-01-01",
            "+1999-01-01",
            "10000-01-01",
            "999-01-01",
            "2024-1-01",
            "2024-01-1",
            " 2024-01-01",
            "2024-01-01 ",
        ] {
            assert_eq!(ValueKind::Date.parse(bad), None, "{bad}");
        }
        assert_eq!(
            ValueKind::Date.parse("0000-01-01"),
            Some(FieldValue::Date(date!(0000 - 01 - 01)))
        );
        assert_eq!(
            ValueKind::Date.parse("9999-12-31"),
            Some(FieldValue::Date(date!(9999 - 12 - 31)))
        );
        for bad in [
            "-0001-01-01T00:00:00Z",
            "+1999-01-01T00:00:00Z",
            // In UTC these leave the years 0000 to 9999 (and `time`'s range):
            // converting them used to panic.
            "9999-12-31T23:59:59-23:59",
            "9999-12-31T20:00:00-05:00",
            "0000-01-01T00:00:00+00:01",
            // Finer than microseconds.
            "2024-02-29T00:00:00.0000001Z",
            "2024-02-29T00:00:00.123456789Z",
        ] {
            assert_eq!(ValueKind::DateTime.parse(bad), None, "{bad}");
        }
        assert_eq!(
            ValueKind::DateTime.parse("2024-02-29T00:00:00.123456000+01:00"),
            Some(FieldValue::DateTime(
                datetime!(2024-02-28 23:00:00.123456 UTC)
            ))
        );
        assert_eq!(
            ValueKind::DateTime.parse("9999-12-31T23:59:59Z"),
            Some(FieldValue::DateTime(datetime!(9999-12-31 23:59:59 UTC)))
        );
        assert_eq!(
            ValueKind::DateTime.parse("0000-01-01T00:59:00-01:00"),
            Some(FieldValue::DateTime(datetime!(0000-01-01 01:59 UTC)))
        );
    }
}
