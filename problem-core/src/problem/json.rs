//! Writing a problem document as JSON bytes: the members in their fixed
//! order go to a [`MemberSink`], either a serde `SerializeMap` (any
//! serializer) or [`JsonSink`], which writes the bytes `serde_json` would
//! write, faster for the text that makes up most of a problem document.
//!
//! A string with nothing to escape (no control character, `"` or `\`, the
//! only bytes `serde_json` escapes) is copied as it is between quotes; any
//! other string, and every number, is written by `serde_json` itself, so
//! the output is byte for byte that of `serde_json::to_vec` (pinned by the
//! tests of `Problem::to_problem_json`).

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::Value;

use super::validation::Issue;

/// Where the members of a problem document go, in order.
pub(crate) trait MemberSink {
    /// The sink's error.
    type Error;
    /// Writes one member.
    fn member<T: Member + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Self::Error>;

    /// Writes one member whose name is one of the library's fixed member
    /// names (`type`, `location`, ...; see [`field!`]).
    fn field<T: Member + ?Sized>(&mut self, field: Field, value: &T) -> Result<(), Self::Error> {
        self.member(field.name, value)
    }
}

/// A fixed member name with its JSON written out once: `"name":` and
/// `,"name":` (plain ASCII, nothing to escape).
#[derive(Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) first: &'static str,
    pub(crate) next: &'static str,
}

/// The [`Field`] of a literal member name.
macro_rules! field {
    ($name:literal) => {
        $crate::problem::json::Field {
            name: $name,
            first: concat!("\"", $name, "\":"),
            next: concat!(",\"", $name, "\":"),
        }
    };
}
pub(crate) use field;

/// A member value: serializable, and writable as JSON without serde.
pub(crate) trait Member: Serialize {
    /// Appends the JSON of the value to `out`.
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
}

/// A serde map as a sink.
pub(crate) struct SerdeSink<'m, M>(pub &'m mut M);

impl<M: SerializeMap> MemberSink for SerdeSink<'_, M> {
    type Error = M::Error;
    fn member<T: Member + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), M::Error> {
        self.0.serialize_entry(key, value)
    }
}

/// A JSON object being written to a byte buffer.
pub(crate) struct JsonSink<'o> {
    out: &'o mut Vec<u8>,
    empty: bool,
}

impl<'o> JsonSink<'o> {
    /// Starts an object at the end of `out`.
    pub(crate) fn open(out: &'o mut Vec<u8>) -> Self {
        out.push(b'{');
        Self { out, empty: true }
    }

    /// Appends members already written as JSON (`"k":v,"k2":v2`).
    pub(crate) fn raw_members(&mut self, json: &[u8]) {
        if json.is_empty() {
            return;
        }
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.extend_from_slice(json);
    }

    /// Closes the object.
    pub(crate) fn close(self) {
        self.out.push(b'}');
    }
}

impl MemberSink for JsonSink<'_> {
    type Error = serde_json::Error;
    fn member<T: Member + ?Sized>(&mut self, key: &str, value: &T) -> serde_json::Result<()> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        write_str(self.out, key)?;
        self.out.push(b':');
        value.write_json(self.out)
    }

    // Inlined into each problem type's rendering, wherever the compiler
    // places this module (a 404 problem is one call per member otherwise).
    #[inline]
    fn field<T: Member + ?Sized>(&mut self, field: Field, value: &T) -> serde_json::Result<()> {
        let prefix = if self.empty { field.first } else { field.next };
        self.empty = false;
        self.out.extend_from_slice(prefix.as_bytes());
        value.write_json(self.out)
    }
}

/// Whether `serde_json` escapes any byte of `bytes`: control characters,
/// `"` and `\`. Eight bytes at a time (SWAR: a byte below `n` sets its high
/// bit in `(x - n·0x01..) & !x & 0x80..`; an equal byte is a zero byte of
/// the XOR), the rest one by one.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let escaped = |word: [u8; 8]| {
        let x = u64::from_ne_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        below(x, 0x20) | below(quote, 1) | below(backslash, 1) != 0
    };
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if escaped(word) {
            return true;
        }
    }
    // The rest (at most seven bytes), one by one.
    chunks
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Appends a JSON string and `:`: a member name.
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str) -> serde_json::Result<()> {
    write_str(out, key)?;
    out.push(b':');
    Ok(())
}

/// Appends a JSON string.
fn write_str(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    if needs_escape(s.as_bytes()) {
        return serde_json::to_writer(&mut *out, s);
    }
    out.reserve(s.len() + 2);
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
    Ok(())
}

impl Member for str {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_str(out, self)
    }
}

impl Member for u16 {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(&mut *out, self)
    }
}

impl Member for Value {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self {
            Value::String(s) => write_str(out, s),
            Value::Array(items) => write_array(out, items),
            Value::Object(map) => {
                out.push(b'{');
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_str(out, key)?;
                    out.push(b':');
                    item.write_json(out)?;
                }
                out.push(b'}');
                Ok(())
            }
            // null, booleans and numbers: serde_json's own text.
            other @ (Value::Null | Value::Bool(_) | Value::Number(_)) => {
                serde_json::to_writer(&mut *out, other)
            }
        }
    }
}

impl Member for Issue {
    /// As the derived `Serialize`: `location`, `name`, `code`, `message`,
    /// then the code-specific members inline.
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let mut sink = JsonSink::open(out);
        sink.field(field!("location"), self.location.as_str())?;
        sink.field(field!("name"), self.name.as_str())?;
        sink.field(field!("code"), &*self.code)?;
        sink.field(field!("message"), self.message.as_str())?;
        sink.raw_members(self.extra.as_json_bytes());
        sink.close();
        Ok(())
    }
}

impl Member for [Issue] {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_array(out, self)
    }
}

/// Appends a JSON array of `items`.
fn write_array<T: Member>(out: &mut Vec<u8>, items: &[T]) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item.write_json(out)?;
    }
    out.push(b']');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn needs_escape_finds_every_escaped_byte_at_every_position() {
        for b in 0u8..=255 {
            let escaped = b < 0x20 || b == b'"' || b == b'\\';
            for len in [1, 7, 8, 9, 16, 17, 24] {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    assert_eq!(
                        needs_escape(&bytes),
                        escaped,
                        "byte {b:#x} at {at} of {len}"
                    );
                }
            }
        }
        // Bytes around the thresholds next to each other (borrows between lanes).
        assert!(!needs_escape(&[
            0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff
        ]));
        assert!(needs_escape(&[
            0xff, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
        ]));
        assert!(needs_escape(&[
            0x01, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20
        ]));
    }

    #[test]
    fn strings_and_values_are_written_as_serde_json_writes_them() {
        let mut texts: Vec<String> = [
            "",
            "plain",
            "quote \" inside",
            "back\\slash",
            "tab\tnew\nline\r",
            "\u{0}\u{1f}\u{7f}",
            "é ü € 😀 \u{2028}",
            "a long plain text that is more than sixteen bytes long",
            "a long text that ends with a quote after sixteen bytes\"",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        texts.extend((0u8..0x80).map(|b| format!("{}{}", "x".repeat(20), b as char)));
        for text in &texts {
            let mut out = Vec::new();
            text.as_str().write_json(&mut out).unwrap();
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
        let value = json!({
            "a\"b": [1, -2, 3.5, 1e300, null, true, false, "s\n"],
            "nested": {"deep": [{"x": []}, {}]},
            "u64": u64::MAX,
        });
        let mut out = Vec::new();
        value.write_json(&mut out).unwrap();
        assert_eq!(out, serde_json::to_vec(&value).unwrap());
    }
}
