//! [`QueryText`]: the text of a parsed query (filter values, search terms,
//! parameter names), stored inline when short.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use compact_str::CompactString;

/// An immutable UTF-8 string as the parsed query holds it: a text filter
/// value ([`FieldValue::Text`](super::FieldValue::Text)), a search term
/// ([`Search::terms`](super::Search::terms)), a filter's parameter name
/// ([`FilterCondition::param`](super::FilterCondition::param)).
///
/// Up to 24 bytes (the size of a `String`) are stored inline, so the short
/// values of a typical query cost no allocation; longer ones are on the
/// heap. It dereferences to `&str` and compares equal to `str`, `&str` and
/// `String`, so it reads like the `String` these members were before.
///
/// ```
/// use problem_core::query::QueryText;
/// let t = QueryText::from("night");
/// assert_eq!(t, "night");
/// assert_eq!(t.len(), 5);
/// assert!(t.starts_with("ni"));
/// assert_eq!(t.to_string(), "night");
/// assert_eq!(QueryText::from(String::from("x".repeat(40))).len(), 40);
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#""night""#);
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueryText(CompactString);

impl QueryText {
    /// The text as `&str`.
    ///
    /// ```
    /// use problem_core::query::QueryText;
    /// let t = QueryText::from("café");
    /// assert_eq!(t.as_str(), "café");
    /// ```
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The text as an owned `String` (one allocation when it is not empty).
    ///
    /// ```
    /// use problem_core::query::QueryText;
    /// let s: String = QueryText::from("dune").into_string();
    /// assert_eq!(s, "dune");
    /// ```
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for QueryText {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for QueryText {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl Borrow<str> for QueryText {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for QueryText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl fmt::Display for QueryText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl From<&str> for QueryText {
    fn from(s: &str) -> Self {
        Self(CompactString::new(s))
    }
}

impl From<String> for QueryText {
    fn from(s: String) -> Self {
        Self(CompactString::from(s))
    }
}

impl From<&String> for QueryText {
    fn from(s: &String) -> Self {
        Self(CompactString::new(s))
    }
}

impl From<Cow<'_, str>> for QueryText {
    fn from(s: Cow<'_, str>) -> Self {
        match s {
            Cow::Borrowed(s) => Self::from(s),
            Cow::Owned(s) => Self::from(s),
        }
    }
}

impl From<QueryText> for String {
    fn from(t: QueryText) -> Self {
        t.into_string()
    }
}

impl PartialEq<str> for QueryText {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<&str> for QueryText {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

impl PartialEq<String> for QueryText {
    fn eq(&self, other: &String) -> bool {
        self.0.as_str() == other.as_str()
    }
}

impl PartialEq<QueryText> for str {
    fn eq(&self, other: &QueryText) -> bool {
        self == other.0.as_str()
    }
}

impl PartialEq<QueryText> for &str {
    fn eq(&self, other: &QueryText) -> bool {
        *self == other.0.as_str()
    }
}

impl PartialEq<QueryText> for String {
    fn eq(&self, other: &QueryText) -> bool {
        self.as_str() == other.0.as_str()
    }
}

impl serde::Serialize for QueryText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for QueryText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = QueryText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<QueryText, E> {
                Ok(QueryText::from(v))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<QueryText, E> {
                Ok(QueryText::from(v))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_the_string_it_was_made_from() {
        for s in [
            "",
            "a",
            "é€𝄞",
            &"x".repeat(24),
            &"y".repeat(25),
            &"ü".repeat(300),
        ] {
            let t = QueryText::from(s);
            assert_eq!(t.as_str(), s);
            assert_eq!(t, s);
            assert_eq!(QueryText::from(s.to_owned()), t);
            assert_eq!(String::from(t.clone()), s);
            assert_eq!(format!("{t}"), s);
            assert_eq!(format!("{t:?}"), format!("{s:?}"));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, serde_json::to_string(s).unwrap());
            assert_eq!(serde_json::from_str::<QueryText>(&json).unwrap(), t);
        }
    }
}
