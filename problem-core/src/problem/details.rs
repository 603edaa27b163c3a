//! [`ProblemDetails`]: the RFC 9457 problem document as a value.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::json::{JsonSink, MemberSink, SerdeSink, field};
use super::titles::status_title;
use crate::uri;

/// Extension members of a problem document: a JSON object whose members are
/// written at the top level of the body, in insertion order (RFC 9457 §3.2).
///
/// ```
/// use problem_core::{Extensions, HttpException, Problem};
/// let err = HttpException::new(409)?.with_extension("isbn", "0441013597");
/// let members: Extensions = err.extensions()?;
/// assert_eq!(members["isbn"], "0441013597");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Extensions = serde_json::Map<String, Value>;

/// The problem type used when none is given: `about:blank` (RFC 9457
/// §4.2.1).
///
/// ```
/// use problem_core::{ABOUT_BLANK, NotFoundException, Problem};
/// assert_eq!(ABOUT_BLANK, "about:blank");
/// assert_eq!(NotFoundException::new().problem_type(), ABOUT_BLANK);
/// ```
pub const ABOUT_BLANK: &str = "about:blank";

/// The body of a problem response (spec, "Problem body"; RFC 9457).
///
/// Members are written in this order: `type`, `title`, `status`, `detail`,
/// `instance`, `correlationId`, the extension members, `stack`
/// (RFC 9457 §3.1 leaves it open; this crate fixes it). Optional members are omitted when `None`, never `null`.
///
/// Extension members follow the spec's two rules: one named `type`, `title`,
/// `status` or `instance` is overwritten by the real member (it is never
/// written), and one named `detail` is overwritten only when the problem has
/// a detail (without one, it is written as the `detail` member, in that
/// member's place in the order). Likewise an extension named `correlationId` or `stack` gives way
/// to the real member when that is present, so a body never has a duplicate
/// member. A problem's own document ([`Problem::to_problem`](crate::Problem::to_problem))
/// has no extension of either name at all: the error pipeline sets
/// `correlationId` on a logged 5xx and `stack` on an unknown error in
/// development, and nothing else does (spec, "Problem body").
///
/// Deserializing reads any problem document: unknown members become
/// extensions, a missing `type` is `about:blank` and a missing `title` is the
/// status's default title; `status` (a JSON number naming a `u16`) is
/// required. A standard member of the wrong JSON type is ignored as that
/// member (RFC 9457 §3.1: `"detail": 5` leaves `detail` `None`); a
/// `detail`, `correlationId` or `stack` of another type is kept as an
/// extension of its name, which is written back in its place. A member
/// given twice is an error.
///
/// ```
/// use problem_core::ProblemDetails;
/// let p: ProblemDetails = serde_json::from_str(r#"{"status":409.0,"detail":5,"title":null}"#).unwrap();
/// assert_eq!((p.status, p.title.as_str(), p.detail.as_deref()), (409, "Conflict", None));
/// assert_eq!(p.extensions.get("detail"), Some(&serde_json::json!(5)));
/// assert_eq!(p.extensions.get("title"), None);
/// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"type":"about:blank","title":"Conflict","status":409,"detail":5}"#);
/// assert!(serde_json::from_str::<ProblemDetails>(r#"{"status":"409"}"#).is_err());
/// assert!(serde_json::from_str::<ProblemDetails>(r#"{"status":409,"detail":5,"detail":"x"}"#).is_err());
/// ```
///
/// ```
/// use problem_core::ProblemDetails;
///
/// let mut p = ProblemDetails::new(404);
/// p.detail = Some("Book 7 not found".into());
/// p.instance = Some("/books/7".into());
/// p.extensions.insert("type".into(), "ignored".into());
/// p.extensions.insert("bookId".into(), 7.into());
/// assert_eq!(
///     serde_json::to_string(&p).unwrap(),
///     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/books/7","bookId":7}"#
/// );
/// let back: ProblemDetails = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
/// assert_eq!(back.extensions.get("bookId"), Some(&serde_json::json!(7)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemDetails {
    /// `type`: URI reference identifying the problem type. Default `about:blank`.
    pub problem_type: String,
    /// `title`: short summary of the problem type.
    pub title: String,
    /// `status`: the HTTP status code.
    pub status: u16,
    /// `detail`: explanation of this occurrence, when the problem has one.
    pub detail: Option<String>,
    /// `instance`: the request path without the query string.
    pub instance: Option<String>,
    /// `correlationId`: the id of the log line of a 5xx (a random UUID).
    pub correlation_id: Option<String>,
    /// Extension members, written at the top level.
    pub extensions: Extensions,
    /// `stack`: the redacted error chain of an unknown error, development only.
    pub stack: Option<String>,
}

impl ProblemDetails {
    /// A problem with the given status, type `about:blank`, the status's
    /// default title ([`status_title`](crate::status_title)) and nothing else.
    ///
    /// ```
    /// let p = problem_core::ProblemDetails::new(503);
    /// assert_eq!(p.title, "Service Unavailable");
    /// assert_eq!(p.problem_type, "about:blank");
    /// ```
    pub fn new(status: u16) -> Self {
        Self {
            problem_type: ABOUT_BLANK.to_owned(),
            title: status_title(status).to_owned(),
            status,
            detail: None,
            instance: None,
            correlation_id: None,
            extensions: Extensions::new(),
            stack: None,
        }
    }
}

impl ProblemDetails {
    /// Applies the extension rules of a problem's own document
    /// ([`Source::Problem`]) to the fields themselves, so that they hold
    /// what the body says: an extension named `type`, `title`, `status`,
    /// `instance`, `correlationId` or `stack` is dropped (the real member
    /// wins, or the pipeline sets it); one named `detail` is dropped when
    /// there is a detail, and otherwise becomes the detail when it is a
    /// string. The other extensions keep their order. Serializing gives
    /// the bytes [`BodyRef`] writes for the problem.
    pub(crate) fn settled(mut self) -> Self {
        for name in [
            "type",
            "title",
            "status",
            "instance",
            "correlationId",
            "stack",
        ] {
            self.extensions.shift_remove(name);
        }
        if self.detail.is_some() {
            self.extensions.shift_remove("detail");
        } else if let Some(Value::String(_)) = self.extensions.get("detail")
            && let Some(Value::String(detail)) = self.extensions.shift_remove("detail")
        {
            self.detail = Some(detail);
        }
        self
    }
}

impl Serialize for ProblemDetails {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BodyRef {
            problem_type: &self.problem_type,
            title: &self.title,
            status: self.status,
            detail: self.detail.as_deref(),
            instance: self.instance.as_deref(),
            correlation_id: self.correlation_id.as_deref(),
            extensions: &self.extensions,
            members: NoMembers,
            stack: self.stack.as_deref(),
            source: Source::Value,
        }
        .serialize(serializer)
    }
}

/// Extension members a problem type writes itself, after the
/// [`Extensions`] map, without first turning them into JSON values
/// (e.g. the `issues` of a `ValidationException`).
pub(crate) trait ExtraMembers {
    /// Whether a member of this name is written (an extension of the same
    /// name then gives way, as it would to a later insert into the map).
    fn contains(&self, key: &str) -> bool;
    /// About how many bytes the members take (to size the buffer).
    fn size_hint(&self) -> usize {
        0
    }
    /// Writes the members.
    fn write_members<K: MemberSink>(&self, sink: &mut K) -> Result<(), K::Error>;
}

/// No extra members.
pub(crate) struct NoMembers;

impl ExtraMembers for NoMembers {
    fn contains(&self, _: &str) -> bool {
        false
    }
    fn write_members<K: MemberSink>(&self, _: &mut K) -> Result<(), K::Error> {
        Ok(())
    }
}

/// Whose document a [`BodyRef`] writes, which decides the extension
/// members named `correlationId` and `stack`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source {
    /// A problem's own document ([`Problem::to_problem`](super::Problem::to_problem)):
    /// `correlationId` is present only on a logged 5xx and `stack` only
    /// for an unknown error in development (spec, "Problem body"), both
    /// set by the pipeline, so an extension of either name is never
    /// written.
    Problem,
    /// A [`ProblemDetails`] value, read from anywhere: an extension of
    /// either name gives way to the real member when that is present.
    Value,
}

/// A problem document borrowed from wherever its members live: the one
/// place that writes the member order and the shadowing rules, for
/// [`ProblemDetails`] and for problem types serialized straight from
/// themselves ([`Problem::to_problem_json`](super::Problem::to_problem_json)).
pub(crate) struct BodyRef<'a, X> {
    pub problem_type: &'a str,
    pub title: &'a str,
    pub status: u16,
    pub detail: Option<&'a str>,
    pub instance: Option<&'a str>,
    pub correlation_id: Option<&'a str>,
    pub extensions: &'a Extensions,
    pub members: X,
    pub stack: Option<&'a str>,
    pub source: Source,
}

impl<X: ExtraMembers> BodyRef<'_, X> {
    /// Whether an extension member is not written among the extensions:
    /// it is overwritten by the real member, or (`detail`) written in the
    /// real member's place, or replaced by an extra member.
    fn is_shadowed(&self, key: &str) -> bool {
        match key {
            "type" | "title" | "status" | "instance" | "detail" => true,
            "correlationId" => match self.source {
                Source::Problem => true,
                Source::Value => self.correlation_id.is_some(),
            },
            "stack" => match self.source {
                Source::Problem => true,
                Source::Value => self.stack.is_some(),
            },
            _ => self.members.contains(key),
        }
    }

    /// The JSON bytes of the document, as `serde_json::to_vec` writes
    /// them (see [`JsonSink`]).
    #[inline]
    pub(crate) fn to_vec(&self, capacity: usize) -> serde_json::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(capacity);
        let mut sink = JsonSink::open(&mut out);
        self.write_members(&mut sink)?;
        sink.close();
        Ok(out)
    }

    /// The members in their fixed order, with the shadowing rules.
    #[inline]
    fn write_members<K: MemberSink>(&self, sink: &mut K) -> Result<(), K::Error> {
        // A `type` set at run time (`HttpException::with_type`, a
        // hand-written `Problem`) is written as a URI reference whatever it
        // holds (RFC 9457 §3.1.1).
        let problem_type = uri::reference(self.problem_type, &uri::URI_REFERENCE);
        sink.field(field!("type"), problem_type.as_ref())?;
        sink.field(field!("title"), self.title)?;
        sink.field(field!("status"), &self.status)?;
        match (self.detail, self.detail_extension()) {
            (Some(detail), _) => sink.field(field!("detail"), detail)?,
            // Rule 2: without a detail an extension named `detail` stands,
            // in the `detail` member's place of the fixed member order.
            (None, Some(ext)) => sink.field(field!("detail"), ext)?,
            (None, None) => {}
        }
        if let Some(instance) = self.instance {
            sink.field(field!("instance"), instance)?;
        }
        if let Some(id) = self.correlation_id {
            sink.field(field!("correlationId"), id)?;
        }
        for (key, value) in self.extensions {
            if !self.is_shadowed(key) {
                sink.member(key, value)?;
            }
        }
        self.members.write_members(sink)?;
        if let Some(stack) = self.stack {
            sink.field(field!("stack"), stack)?;
        }
        Ok(())
    }
}

impl<X: ExtraMembers> Serialize for BodyRef<'_, X> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.write_members(&mut SerdeSink(&mut map))?;
        map.end()
    }
}

impl<X> BodyRef<'_, X> {
    fn detail_extension(&self) -> Option<&Value> {
        if self.extensions.is_empty() {
            None
        } else {
            self.extensions.get("detail")
        }
    }
}

impl<'de> Deserialize<'de> for ProblemDetails {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ProblemVisitor)
    }
}

struct ProblemVisitor;

impl<'de> Visitor<'de> for ProblemVisitor {
    type Value = ProblemDetails;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an RFC 9457 problem document (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut problem_type = None;
        let mut title = None;
        let mut status: Option<u16> = None;
        let mut detail = None;
        let mut instance = None;
        let mut correlation_id = None;
        let mut stack = None;
        let mut extensions = Extensions::new();
        // The standard members met so far: each at most once, of the right
        // type or not.
        let mut seen: Vec<&'static str> = Vec::new();
        while let Some(key) = access.next_key::<String>()? {
            let value: Value = access.next_value()?;
            if let Some(&name) = STANDARD_MEMBERS.iter().find(|n| **n == key) {
                if seen.contains(&name) {
                    return Err(de::Error::custom(format_args!("duplicate member `{key}`")));
                }
                seen.push(name);
            }
            // A standard member of the wrong type is ignored as that member
            // (RFC 9457 §3.1). `detail`, `correlationId` and `stack` are
            // kept as an extension of their name, which is written back in
            // their place; `type`, `title`, `status` and `instance` never
            // are, so such a value is dropped.
            let kept = match key.as_str() {
                "type" => take_text(&mut problem_type, value).and(None),
                "title" => take_text(&mut title, value).and(None),
                "instance" => take_text(&mut instance, value).and(None),
                "status" => {
                    status = status_of(&value);
                    None
                }
                "detail" => take_text(&mut detail, value),
                "correlationId" => take_text(&mut correlation_id, value),
                "stack" => take_text(&mut stack, value),
                _ => Some(value),
            };
            if let Some(value) = kept
                && extensions.insert(key.clone(), value).is_some()
            {
                return Err(de::Error::custom(format_args!("duplicate member `{key}`")));
            }
        }
        let status = status.ok_or_else(|| de::Error::missing_field("status"))?;
        Ok(ProblemDetails {
            problem_type: problem_type.unwrap_or_else(|| ABOUT_BLANK.to_owned()),
            title: title.unwrap_or_else(|| status_title(status).to_owned()),
            status,
            detail,
            instance,
            correlation_id,
            extensions,
            stack,
        })
    }
}

/// The members RFC 9457 §3.1 and this crate define.
const STANDARD_MEMBERS: [&str; 7] = [
    "type",
    "title",
    "status",
    "detail",
    "instance",
    "correlationId",
    "stack",
];

/// A string member into `slot`; any other JSON value is given back (it is
/// not that member).
fn take_text(slot: &mut Option<String>, value: Value) -> Option<Value> {
    match value {
        Value::String(text) => {
            *slot = Some(text);
            None
        }
        other @ (Value::Null
        | Value::Bool(_)
        | Value::Number(_)
        | Value::Array(_)
        | Value::Object(_)) => Some(other),
    }
}

/// `status` as a JSON number naming a `u16` (`404`, `404.0`); `None` for
/// anything else.
fn status_of(value: &Value) -> Option<u16> {
    let number = value.as_number()?;
    match number.as_u64() {
        Some(code) => u16::try_from(code).ok(),
        None => number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(f))
            .map(|f| f as u16),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn to_json(p: &ProblemDetails) -> String {
        serde_json::to_string(p).unwrap()
    }

    /// A standard member of the wrong type (RFC 9457 §3.1: ignored as that
    /// member) reads, writes and reads back the same, as the fuzz target
    /// `problem_json` requires of every document.
    #[test]
    fn wrong_typed_members_round_trip() {
        for (doc, written) in [
            (
                r#"{"status":400,"detail":5}"#,
                r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":5}"#,
            ),
            (
                r#"{"status":400.0,"type":null,"title":[1],"instance":{}}"#,
                r#"{"type":"about:blank","title":"Bad Request","status":400}"#,
            ),
            (
                r#"{"stack":true,"status":500,"correlationId":7,"x":1}"#,
                r#"{"type":"about:blank","title":"Internal Server Error","status":500,"stack":true,"correlationId":7,"x":1}"#,
            ),
        ] {
            let p: ProblemDetails = serde_json::from_str(doc).unwrap();
            let text = to_json(&p);
            assert_eq!(text, written, "{doc}");
            let back: ProblemDetails = serde_json::from_str(&text).unwrap();
            assert_eq!(back, p, "{doc}");
        }
        for doc in [
            r#"{"status":"400"}"#,
            r#"{"status":400,"status":401}"#,
            r#"{"status":400,"detail":5,"detail":"x"}"#,
            r#"{"status":400,"type":1,"type":"x"}"#,
            r#"{"status":70000}"#,
            r#"{"status":400.5}"#,
        ] {
            assert!(
                serde_json::from_str::<ProblemDetails>(doc).is_err(),
                "{doc}"
            );
        }
    }

    #[test]
    fn minimal_body_has_only_the_required_members() {
        let mut p = ProblemDetails::new(400);
        p.instance = Some("/x".into());
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Bad Request","status":400,"instance":"/x"}"#
        );
    }

    #[test]
    fn member_order_is_fixed() {
        let mut p = ProblemDetails::new(500);
        p.stack = Some("Error: boom".into());
        p.extensions.insert("zeta".into(), json!(1));
        p.extensions.insert("alpha".into(), json!(2));
        p.correlation_id = Some("id".into());
        p.instance = Some("/i".into());
        p.detail = Some("d".into());
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"d","instance":"/i","correlationId":"id","zeta":1,"alpha":2,"stack":"Error: boom"}"#
        );
    }

    #[test]
    fn reserved_extensions_are_overwritten() {
        let mut p = ProblemDetails::new(409);
        for key in ["type", "title", "status", "instance"] {
            p.extensions.insert(key.into(), json!("fake"));
        }
        p.instance = Some("/books".into());
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Conflict","status":409,"instance":"/books"}"#
        );
    }

    #[test]
    fn detail_extension_stands_only_without_a_detail() {
        let mut p = ProblemDetails::new(409);
        p.extensions
            .insert("detail".into(), json!("from extension"));
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"from extension"}"#
        );
        p.detail = Some("real".into());
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"real"}"#
        );
    }

    #[test]
    fn a_standing_detail_extension_takes_the_detail_place() {
        let mut p = ProblemDetails::new(409);
        p.instance = Some("/books".into());
        p.extensions.insert("isbn".into(), json!("1"));
        p.extensions
            .insert("detail".into(), json!("from extension"));
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"from extension","instance":"/books","isbn":"1"}"#
        );
    }

    #[test]
    fn correlation_id_and_stack_extensions_never_duplicate() {
        let mut p = ProblemDetails::new(500);
        p.extensions.insert("correlationId".into(), json!("fake"));
        p.extensions.insert("stack".into(), json!("fake"));
        p.correlation_id = Some("real".into());
        p.stack = Some("real stack".into());
        assert_eq!(
            to_json(&p),
            r#"{"type":"about:blank","title":"Internal Server Error","status":500,"correlationId":"real","stack":"real stack"}"#
        );
    }

    #[test]
    fn deserialize_round_trip_and_defaults() {
        let p: ProblemDetails = serde_json::from_str(r#"{"status":418,"x":[1]}"#).unwrap();
        assert_eq!(p.problem_type, "about:blank");
        assert_eq!(p.title, "I'm a teapot");
        assert_eq!(p.extensions.get("x"), Some(&json!([1])));
        let text = r#"{"type":"/p/x","title":"T","status":503,"detail":"d","instance":"/i","correlationId":"c","window":"1h","stack":"s"}"#;
        let p: ProblemDetails = serde_json::from_str(text).unwrap();
        assert_eq!(to_json(&p), text);
    }

    /// Found by the `problem_json` fuzz target: without serde_json's
    /// `float_roundtrip`, an extension number with a large exponent parsed
    /// to a neighbouring f64, so the document did not survive a round trip.
    #[test]
    fn extension_numbers_survive_a_round_trip() {
        let text = r#"{"type":"about:blank","title":"Bad Request","status":400,"n":7.0294503229994885e+53,"list":[2.3431501076664957e+53,-2.334547891217785e-98,1.0522023996751426e+251]}"#;
        let p: ProblemDetails = serde_json::from_str(text).unwrap();
        assert_eq!(to_json(&p), text);
        let back: ProblemDetails = serde_json::from_str(&to_json(&p)).unwrap();
        assert_eq!(back, p);
    }

    proptest::proptest! {
        /// The property of the `problem_json` fuzz target, in CI: any
        /// finite number in an extension survives a JSON round trip.
        #[test]
        fn any_finite_number_round_trips(bits in proptest::prelude::any::<u64>()) {
            let f = f64::from_bits(bits);
            proptest::prop_assume!(f.is_finite());
            let text = format!(r#"{{"status":400,"n":{}}}"#, serde_json::to_string(&f).unwrap());
            let p: ProblemDetails = serde_json::from_str(&text).unwrap();
            let back: ProblemDetails = serde_json::from_str(&to_json(&p)).unwrap();
            proptest::prop_assert_eq!(&back, &p);
            proptest::prop_assert_eq!(p.extensions["n"].as_f64(), Some(f));
        }
    }

    #[test]
    fn deserialize_rejects_bad_documents() {
        for bad in [
            r#"{"type":"x"}"#,
            r#"{"status":"404"}"#,
            r#"{"status":404,"status":404}"#,
            r#"{"status":404,"x":1,"x":2}"#,
            r#"[]"#,
            r#"{"status":70000}"#,
        ] {
            assert!(
                serde_json::from_str::<ProblemDetails>(bad).is_err(),
                "{bad}"
            );
        }
    }
}
