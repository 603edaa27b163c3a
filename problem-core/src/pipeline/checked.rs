//! A deserializer adapter that refuses what a client may send but a
//! service must never store: non-finite numbers (`NaN`, `inf`, `-inf`,
//! `Infinity`, and numbers that overflow `f64`) and strings holding
//! U+0000, wherever they occur in a body (hostile input rules of the
//! crate docs: "Non-finite numbers", "NUL characters").
//!
//! [`Checked`] wraps any `serde::Deserializer`; every visitor, sequence,
//! map, enum and seed handed out below it is wrapped too, so a nested
//! member is checked like a top-level one. The error is the format's own
//! `invalid_value`, which `serde_path_to_error` locates at the member.
//!
//! A member whose own name holds U+0000 is refused while its name is read,
//! where `serde_path_to_error` can only locate the object holding it; the
//! name is kept aside ([`take_refused_name`]) so that the issue names the
//! member itself.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

/// What a refused float is expected to be (the error message's tail).
pub(crate) const EXPECTED_FINITE: &str = "a finite number";
/// What a refused string is expected to be.
pub(crate) const EXPECTED_NO_NUL: &str = "a string without NUL characters (U+0000)";

/// A deserializer whose floats must be finite and whose strings must not
/// hold U+0000.
pub(crate) struct Checked<D>(pub(crate) D);

impl<D> Checked<D> {
    /// `de` checked, as a whole document: a member name refused by an
    /// earlier read on this thread is forgotten.
    pub(crate) fn document(de: D) -> Self {
        REFUSED.take();
        REFUSED_NAME.take();
        Self(de)
    }
}

thread_local! {
    /// The last string refused for holding U+0000 on this thread.
    static REFUSED: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
    /// The member name refused for holding U+0000 by the last read.
    static REFUSED_NAME: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
}

/// The member name the last failed read refused for holding U+0000, if its
/// error was that: the caller adds it to the pointer of the object
/// `serde_path_to_error` names. Taking it clears it.
pub(crate) fn take_refused_name() -> Option<String> {
    REFUSED.take();
    REFUSED_NAME.take()
}

/// A visitor wrapped by [`Checked`], and whether it reads a struct.
///
/// serde lets a struct deserialize from a sequence of its fields in order
/// (`["9781...", "Dune", ...]` for a book), which a JSON API documents and
/// clients send as an object only: a struct, or a struct variant, read
/// from a sequence is an `invalid_type` error.
struct Guard<V>(V, Shape);

/// What a [`Guard`]ed visitor accepts beyond its own rules.
#[derive(Clone, Copy)]
enum Shape {
    /// Whatever the visitor accepts.
    Any,
    /// A map only, not a sequence (structs and struct variants).
    Object,
    /// An integer, also written as a number with a zero fraction (`2000.0`,
    /// `2e3`, `-0`): JSON Schema's `integer` (2020-12, Validation §6.1.1),
    /// which an OpenAPI 3.1 document declares for integer members. Such a
    /// number is handed to the visitor as the integer it is.
    Integer,
}

macro_rules! forward_deserialize {
    ($shape:ident: $($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Guard(visitor, Shape::$shape))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<D> {
    type Error = D::Error;

    forward_deserialize! { Any:
        deserialize_any deserialize_bool deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier
    }

    /// A member the target type ignores (an unknown one, or one marked
    /// `#[serde(skip_deserializing)]`) is read through, not skipped, so
    /// its strings and numbers are checked like any other member's: a
    /// NUL or an overflowing number in it is the same 400 on that member.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.0.deserialize_any(Guard(visitor, Shape::Any))
    }

    forward_deserialize! { Integer:
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_unit_struct(name, Guard(visitor, Shape::Any))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_newtype_struct(name, Guard(visitor, Shape::Any))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple(len, Guard(visitor, Shape::Any))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Guard(visitor, Shape::Any))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_struct(name, fields, Guard(visitor, Shape::Object))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_enum(name, variants, Guard(visitor, Shape::Any))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident: $ty:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.0.$method(v)
        }
    )*};
}

fn finite<E: de::Error>(v: f64) -> Result<(), E> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(E::invalid_value(Unexpected::Float(v), &EXPECTED_FINITE))
    }
}

/// `v` as an integer when its fraction is zero and it is below 2^53 in size,
/// where every integer is exactly a float (beyond, the number written may
/// not be the one read: `9007199254740993.0` reads as `...992`); `-0.0`
/// is `0`.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the bounds are checked first: the value is whole and within the target type"
)]
fn integral(v: f64) -> Option<i64> {
    // 2^53: every integer up to it is exactly a float.
    const TWO_53: f64 = 9_007_199_254_740_992.0;
    (v.fract() == 0.0 && v.abs() < TWO_53).then_some(v as i64)
}

fn no_nul<E: de::Error>(v: &str) -> Result<(), E> {
    if v.contains('\0') {
        REFUSED.set(Some(v.to_owned()));
        Err(E::invalid_value(
            Unexpected::Other("a string with a NUL character"),
            &EXPECTED_NO_NUL,
        ))
    } else {
        Ok(())
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Guard<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64
        visit_i128: i128 visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64
        visit_u128: u128 visit_bytes: &[u8] visit_byte_buf: Vec<u8>
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Self::Value, E> {
        finite(f64::from(v))?;
        match self.1 {
            Shape::Integer => self.visit_f64(f64::from(v)),
            Shape::Any | Shape::Object => self.0.visit_f32(v),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        finite(v)?;
        match self.1 {
            Shape::Integer => match integral(v) {
                Some(i) => self.0.visit_i64(i),
                None => self.0.visit_f64(v),
            },
            Shape::Any | Shape::Object => self.0.visit_f64(v),
        }
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<Self::Value, E> {
        if v == '\0' {
            return Err(E::invalid_value(Unexpected::Char(v), &EXPECTED_NO_NUL));
        }
        self.0.visit_char(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        no_nul(v)?;
        self.0.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        no_nul(v)?;
        self.0.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        no_nul(&v)?;
        self.0.visit_string(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        self.0.visit_borrowed_bytes(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(Checked(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(Checked(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        match self.1 {
            Shape::Any | Shape::Integer => self.0.visit_seq(Checked(seq)),
            Shape::Object => Err(de::Error::invalid_type(Unexpected::Seq, &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(Checked(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(Checked(data))
    }
}

/// A seed whose deserializer is wrapped in [`Checked`].
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(Checked(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.0.next_key_seed(Seed(seed)).inspect_err(|_| {
            // A name refused for its NUL: the member's own name.
            if let Some(name) = REFUSED.take() {
                REFUSED_NAME.set(Some(name));
            }
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Checked<A> {
    type Error = A::Error;
    type Variant = Checked<A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), Self::Error> {
        self.0
            .variant_seed(Seed(seed))
            .map(|(value, variant)| (value, Checked(variant)))
    }
}

/// The variant half of an enum access: [`VariantAccess`] on the wrapped one.
impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.tuple_variant(len, Guard(visitor, Shape::Any))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.struct_variant(fields, Guard(visitor, Shape::Object))
    }
}
