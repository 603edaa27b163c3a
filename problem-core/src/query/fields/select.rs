//! The sparse fieldset applied while an item serializes: a [`Serializer`]
//! adapter that passes every call through to the real serializer and
//! leaves out the top-level members the selection drops.
//!
//! An item is written once, by its own `Serialize`, straight into the
//! response: no `serde_json::Value` in between, so each member is written as
//! `serde_json::to_vec` writes it (an `f32` as `0.1`, not the
//! `0.10000000149011612` of its `f64` widening; a `u128` above `u64::MAX`
//! whole, where a `Value` cannot hold it).
//!
//! The members are those of the JSON object the item serializes to: the
//! fields of a struct (after serde's renames and skips), the entries of a
//! map (a `#[serde(flatten)]` struct included), and for an enum variant with
//! data, which serializes as `{"Variant": ...}`, its one member, the
//! variant's name. Any other value (a number, a string, a sequence) is
//! written whole, as [`FieldSelection::apply`] returns it unchanged.

use std::fmt::Display;

use serde::ser::{
    Serialize, SerializeMap, SerializeStruct, SerializeStructVariant, SerializeTupleVariant,
    Serializer,
};

use super::FieldSelection;

/// An item that serializes with only the members `fields` keeps.
pub(crate) struct Selected<'a, T: ?Sized> {
    pub(crate) item: &'a T,
    pub(crate) fields: &'a FieldSelection,
}

impl<T: Serialize + ?Sized> Serialize for Selected<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.fields.is_all() {
            self.item.serialize(serializer)
        } else {
            self.item.serialize(Select {
                inner: serializer,
                fields: self.fields,
            })
        }
    }
}

/// The adapter: `inner` writes, `fields` decides which members.
struct Select<'a, S> {
    inner: S,
    fields: &'a FieldSelection,
}

/// An object with no member, written where a variant's one member is left
/// out.
fn empty_object<S: Serializer>(inner: S) -> Result<S::SerializeMap, S::Error> {
    inner.serialize_map(Some(0))
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
                self.inner.$method($($arg),*)
            }
        )*
    };
}

impl<'a, S: Serializer> Serializer for Select<'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = Variant<S::SerializeTupleVariant, S::SerializeMap>;
    type SerializeMap = SelectMap<'a, S::SerializeMap>;
    type SerializeStruct = SelectStruct<'a, S::SerializeStruct>;
    type SerializeStructVariant = Variant<S::SerializeStructVariant, S::SerializeMap>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.collect_str(value)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }

    /// `Some(item)` serializes as the item: its members are selected.
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    /// A newtype struct serializes as what it wraps: its members are
    /// selected.
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if self.fields.keeps(variant) {
            self.inner
                .serialize_newtype_variant(name, index, variant, value)
        } else {
            empty_object(self.inner)?.end()
        }
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<S::SerializeSeq, S::Error> {
        self.inner.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<S::SerializeTuple, S::Error> {
        self.inner.serialize_tuple(len)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleStruct, S::Error> {
        self.inner.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        if self.fields.keeps(variant) {
            self.inner
                .serialize_tuple_variant(name, index, variant, len)
                .map(Variant::Kept)
        } else {
            empty_object(self.inner).map(Variant::Dropped)
        }
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Ok(SelectMap {
            inner: self.inner.serialize_map(len)?,
            fields: self.fields,
            skip_value: false,
        })
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Ok(SelectStruct {
            inner: self.inner.serialize_struct(name, len)?,
            fields: self.fields,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        if self.fields.keeps(variant) {
            self.inner
                .serialize_struct_variant(name, index, variant, len)
                .map(Variant::Kept)
        } else {
            empty_object(self.inner).map(Variant::Dropped)
        }
    }
}

/// A struct's fields, each written only when kept.
pub(crate) struct SelectStruct<'a, M> {
    inner: M,
    fields: &'a FieldSelection,
}

impl<M: SerializeStruct> SerializeStruct for SelectStruct<'_, M> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        if self.fields.keeps(key) {
            self.inner.serialize_field(key, value)
        } else {
            Ok(())
        }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), M::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.inner.end()
    }
}

/// A map's entries, each written only when its key, read as the JSON
/// member name it becomes, is kept.
pub(crate) struct SelectMap<'a, M> {
    inner: M,
    fields: &'a FieldSelection,
    /// The last key was left out: so is its value.
    skip_value: bool,
}

impl<M: SerializeMap> SelectMap<'_, M> {
    /// Whether the entry of `key` is kept. A key that is no JSON member
    /// name (a sequence, say) is kept, so that the real serializer refuses
    /// it as it would without a selection.
    fn keeps<K: Serialize + ?Sized>(&self, key: &K) -> bool {
        member_name(key).is_none_or(|name| self.fields.keeps(&name))
    }
}

impl<M: SerializeMap> SerializeMap for SelectMap<'_, M> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), M::Error> {
        self.skip_value = !self.keeps(key);
        if self.skip_value {
            Ok(())
        } else {
            self.inner.serialize_key(key)
        }
    }

    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), M::Error> {
        if self.skip_value {
            self.skip_value = false;
            Ok(())
        } else {
            self.inner.serialize_value(value)
        }
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        if self.keeps(key) {
            self.inner.serialize_entry(key, value)
        } else {
            Ok(())
        }
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.inner.end()
    }
}

/// An enum variant with data: written whole when its name is kept, else
/// as `{}`.
pub(crate) enum Variant<K, D> {
    Kept(K),
    Dropped(D),
}

impl<K, D> SerializeTupleVariant for Variant<K, D>
where
    K: SerializeTupleVariant,
    D: SerializeMap<Ok = K::Ok, Error = K::Error>,
{
    type Ok = K::Ok;
    type Error = K::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), K::Error> {
        match self {
            Self::Kept(inner) => inner.serialize_field(value),
            Self::Dropped(_) => Ok(()),
        }
    }

    fn end(self) -> Result<K::Ok, K::Error> {
        match self {
            Self::Kept(inner) => inner.end(),
            Self::Dropped(empty) => empty.end(),
        }
    }
}

impl<K, D> SerializeStructVariant for Variant<K, D>
where
    K: SerializeStructVariant,
    D: SerializeMap<Ok = K::Ok, Error = K::Error>,
{
    type Ok = K::Ok;
    type Error = K::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), K::Error> {
        match self {
            Self::Kept(inner) => inner.serialize_field(key, value),
            Self::Dropped(_) => Ok(()),
        }
    }

    fn end(self) -> Result<K::Ok, K::Error> {
        match self {
            Self::Kept(inner) => inner.end(),
            Self::Dropped(empty) => empty.end(),
        }
    }
}

/// A map key as the JSON member name `serde_json` writes for it: a
/// string, a character or a unit variant's name as it is, an integer or a
/// `bool` in its text (`serde_json`'s own value serializer reads the key);
/// anything else is no member name.
fn member_name<K: Serialize + ?Sized>(key: &K) -> Option<String> {
    match serde_json::to_value(key).ok()? {
        serde_json::Value::String(name) => Some(name),
        serde_json::Value::Number(n) if !n.is_f64() => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(_)
        | serde_json::Value::Null
        | serde_json::Value::Array(_)
        | serde_json::Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::{Value as Json, json};

    use super::{FieldSelection, Selected};

    fn selection(include: Option<&[&str]>, exclude: &[&str]) -> FieldSelection {
        FieldSelection {
            include: include.map(|names| names.iter().map(|n| (*n).to_owned().into()).collect()),
            exclude: exclude.iter().map(|n| (*n).to_owned().into()).collect(),
        }
    }

    fn written<T: Serialize>(item: &T, fields: &FieldSelection) -> String {
        serde_json::to_string(&Selected { item, fields }).unwrap()
    }

    #[derive(Serialize)]
    struct Inner {
        year: i32,
        note: &'static str,
    }

    #[derive(Serialize)]
    struct Book {
        id: i64,
        #[serde(rename = "name")]
        title: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        subtitle: Option<&'static str>,
        weight: f32,
        #[serde(flatten)]
        inner: Inner,
    }

    #[derive(Serialize)]
    struct Plain {
        id: i64,
        weight: f32,
        serial: u128,
        nested: Inner,
    }

    #[derive(Serialize)]
    struct Wrapper(Plain);

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(Inner),
        Tuple(i32, i32),
        Struct { id: i64 },
    }

    #[test]
    fn members_are_written_as_to_vec_writes_them() {
        let plain = Plain {
            id: 1,
            weight: 0.1,
            serial: u128::MAX,
            nested: Inner {
                year: 1990,
                note: "n",
            },
        };
        let all = FieldSelection::default();
        assert_eq!(
            written(&plain, &all),
            serde_json::to_string(&plain).unwrap()
        );
        assert_eq!(
            written(&plain, &all),
            r#"{"id":1,"weight":0.1,"serial":340282366920938463463374607431768211455,"nested":{"year":1990,"note":"n"}}"#
        );
        // Only top-level members are selected; a nested object is whole.
        assert_eq!(
            written(
                &plain,
                &selection(Some(&["weight", "serial", "nested"]), &["serial"])
            ),
            r#"{"weight":0.1,"nested":{"year":1990,"note":"n"}}"#
        );
        // Through a newtype struct and an `Option`.
        assert_eq!(
            written(
                &Some(Wrapper(plain)),
                &selection(None, &["serial", "nested", "weight"])
            ),
            r#"{"id":1}"#
        );
    }

    #[test]
    fn renames_skips_and_flattened_members_are_selected_by_their_json_names() {
        let book = Book {
            id: 7,
            title: "Dune",
            subtitle: None,
            weight: 1.5,
            inner: Inner {
                year: 1965,
                note: "x",
            },
        };
        assert_eq!(
            written(
                &book,
                &selection(Some(&["name", "year", "title", "subtitle"]), &[])
            ),
            r#"{"name":"Dune","year":1965}"#
        );
        assert_eq!(
            written(&book, &selection(None, &["id", "note"])),
            r#"{"name":"Dune","weight":1.5,"year":1965}"#
        );
        assert_eq!(written(&book, &selection(Some(&["nothing"]), &[])), "{}");
    }

    #[test]
    fn a_variant_with_data_is_one_member_named_after_it() {
        let keep = selection(Some(&["Newtype", "Tuple", "Struct"]), &[]);
        let drop = selection(Some(&["id"]), &[]);
        let inner = Inner { year: 1, note: "n" };
        assert_eq!(written(&Shape::Unit, &drop), r#""Unit""#);
        assert_eq!(
            written(&Shape::Newtype(inner), &keep),
            r#"{"Newtype":{"year":1,"note":"n"}}"#
        );
        assert_eq!(written(&Shape::Tuple(1, 2), &keep), r#"{"Tuple":[1,2]}"#);
        assert_eq!(
            written(&Shape::Struct { id: 3 }, &keep),
            r#"{"Struct":{"id":3}}"#
        );
        for shape in [
            Shape::Newtype(Inner { year: 1, note: "n" }),
            Shape::Tuple(1, 2),
            Shape::Struct { id: 3 },
        ] {
            assert_eq!(written(&shape, &drop), "{}");
        }
    }

    #[test]
    fn map_keys_are_read_as_the_member_names_serde_json_writes() {
        let by_number = BTreeMap::from([(1, "a"), (20, "b")]);
        assert_eq!(
            written(&by_number, &selection(Some(&["20"]), &[])),
            r#"{"20":"b"}"#
        );
        let by_bool = BTreeMap::from([(false, 0), (true, 1)]);
        assert_eq!(
            written(&by_bool, &selection(None, &["true"])),
            r#"{"false":0}"#
        );
        let by_char = BTreeMap::from([('a', 0), ('b', 1)]);
        assert_eq!(
            written(&by_char, &selection(Some(&["b"]), &[])),
            r#"{"b":1}"#
        );
        // A key that is no member name is left to serde_json, which refuses it
        // as it does without a selection.
        let by_list = BTreeMap::from([(vec![1], 0)]);
        let err = serde_json::to_string(&Selected {
            item: &by_list,
            fields: &selection(Some(&["x"]), &[]),
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "key must be a string");
    }

    #[test]
    fn values_that_are_no_object_are_written_whole() {
        let fields = selection(Some(&["id"]), &["id"]);
        for value in [
            json!(null),
            json!(true),
            json!(3),
            json!("s"),
            json!([{"id": 1}]),
        ] {
            assert_eq!(written(&value, &fields), value.to_string());
        }
    }

    fn json_leaf() -> impl Strategy<Value = Json> {
        prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
            (-1e6..1e6f64).prop_map(Json::from),
            "[a-c]{0,3}".prop_map(Json::from),
        ]
    }

    fn json_value() -> impl Strategy<Value = Json> {
        json_leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                prop::collection::vec(("[a-e]{1,2}", inner), 0..5)
                    .prop_map(|members| Json::Object(members.into_iter().collect())),
            ]
        })
    }

    fn names() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec("[a-e]{1,2}", 0..4)
    }

    proptest! {
        /// Selecting while serializing writes what `FieldSelection::apply`
        /// returns for the item's JSON value.
        #[test]
        fn selected_as_written_equals_apply_on_the_value(
            value in json_value(),
            include in prop::option::of(names()),
            exclude in names(),
        ) {
            let fields = FieldSelection {
                include: include.map(|n| n.into_iter().map(Into::into).collect()),
                exclude: exclude.into_iter().map(Into::into).collect(),
            };
            prop_assert_eq!(written(&value, &fields), fields.apply(value.clone()).to_string());
        }
    }
}
