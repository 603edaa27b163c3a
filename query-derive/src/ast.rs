//! The parsed form of the deriving struct.

use syn::{
    Attribute, Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, PathArguments, Type,
};

use crate::attr::{ContainerAttrs, Errors, FieldAttrs};
use query_operators::derive_support::serde_attr::{key_of, serde_attrs, serialize_name, skip};

/// The struct.
pub(crate) struct Input<'a> {
    pub ident: &'a Ident,
    pub attrs: ContainerAttrs,
    pub fields: Vec<Field<'a>>,
    /// `#[serde(rename_all = "..")]` (its serializing rule), checked against
    /// the query names: the in-memory filters read items by those names.
    pub serde_rename_all: Option<LitStr>,
}

/// One named field.
pub(crate) struct Field<'a> {
    /// The query name (the identifier without `r#`, or `rename`).
    pub name: String,
    pub ident: &'a Ident,
    /// The full type.
    pub ty: &'a Type,
    /// The type inside `Option<..>`, or the full type.
    pub value_ty: &'a Type,
    /// Whether the type is `Option<T>`.
    pub nullable: bool,
    /// The inner `Option<T>` of `Option<Option<T>>`: refused by validation.
    pub nested_option: Option<&'a Type>,
    pub attrs: FieldAttrs,
    /// serde's view of the field: its `rename` (serializing name), and
    /// whether it is never serialized (`skip`, `skip_serializing`).
    pub serde: SerdeField,
}

/// What the `#[serde(..)]` attributes of a field say about its serialized
/// member; a malformed one is serde's to report.
#[derive(Default)]
pub(crate) struct SerdeField {
    pub rename: Option<LitStr>,
    /// `skip` or `skip_serializing`, as written, with its span: the field
    /// is never serialized.
    pub skipped: Option<Ident>,
    /// `skip_serializing_if`, as written: the field is left out when the
    /// function says so (which matters only for a field that is not an
    /// `Option`: an absent `Option` member reads as `null`).
    pub skipped_if: Option<Ident>,
}

/// What the derive knows of a field's value type from its spelling.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KnownType {
    Integer,
    Float,
    Bool,
    Text,
    Date,
    DateTime,
    /// Another type (an alias...): checked by trait bounds instead.
    Other,
}

impl Field<'_> {
    /// Whether a query reads the field's values (`filter`, `sort`, `search`).
    /// A field that is neither that nor the key is only selected: its type
    /// may be anything (`ValueKind::Opaque`).
    pub(crate) fn is_queried(&self) -> bool {
        !self.attrs.filter.is_empty() || self.attrs.sort.is_some() || self.attrs.search.is_some()
    }

    pub(crate) fn known_type(&self) -> KnownType {
        match last_ident(self.value_ty).map(|i| i.to_string()).as_deref() {
            Some("i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64") => KnownType::Integer,
            Some("f32" | "f64") => KnownType::Float,
            Some("bool") => KnownType::Bool,
            Some("String") => KnownType::Text,
            Some("Date") => KnownType::Date,
            Some("OffsetDateTime") => KnownType::DateTime,
            _ => KnownType::Other,
        }
    }
}

#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Type is #[non_exhaustive]: only a plain path names a known type"
)]
fn last_ident(ty: &Type) -> Option<&Ident> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| &s.ident),
        _ => None,
    }
}

/// `Some(T)` when `ty` is `Option<T>` (also `std::option::Option<T>`).
fn option_inner(ty: &Type) -> Option<&Type> {
    wrapped(ty, "Option")
}

/// `Some(T)` when `ty` is `Vec<T>` (also `std::vec::Vec<T>`).
pub(crate) fn vec_inner(ty: &Type) -> Option<&Type> {
    wrapped(ty, "Vec")
}

/// `Some(T)` when `ty` is `wrapper<T>`, by its last path segment.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::GenericArgument is #[non_exhaustive]: only a type argument is the wrapped type"
)]
fn wrapped<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    if seg.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    if args.args.len() != 1 {
        return None;
    }
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

impl<'a> Input<'a> {
    pub(crate) fn from_syn(input: &'a DeriveInput) -> syn::Result<Self> {
        let data = match &input.data {
            Data::Struct(s) => s,
            Data::Enum(e) => {
                return Err(syn::Error::new(
                    e.enum_token.span,
                    "#[derive(CollectionQuery)] needs a struct with named fields, one per queryable field; an enum cannot describe a collection",
                ));
            }
            Data::Union(u) => {
                return Err(syn::Error::new(
                    u.union_token.span,
                    "#[derive(CollectionQuery)] needs a struct with named fields, not a union",
                ));
            }
        };
        if let Some(p) = input.generics.params.first() {
            return Err(syn::Error::new_spanned(
                p,
                "#[derive(CollectionQuery)] does not support generic parameters: remove them (the struct only describes field names and types)",
            ));
        }
        let named = match &data.fields {
            Fields::Named(n) if !n.named.is_empty() => n,
            Fields::Unnamed(u) => {
                return Err(syn::Error::new_spanned(
                    u,
                    "#[derive(CollectionQuery)] needs named fields: write `struct Name { field: Type, .. }`",
                ));
            }
            // `struct Name;` or `struct Name {}`.
            Fields::Unit | Fields::Named(_) => {
                return Err(syn::Error::new_spanned(
                    &input.ident,
                    "#[derive(CollectionQuery)] needs at least one named field: write `struct Name { id: i64 }`",
                ));
            }
        };
        // Every attribute mistake of the struct and its fields, at once.
        let mut errors = Errors::default();
        let attrs = ContainerAttrs::from_attrs(&input.attrs, &mut errors);
        let mut fields = Vec::new();
        for f in &named.named {
            let Some(ident) = f.ident.as_ref() else {
                continue;
            };
            let fattrs = FieldAttrs::from_attrs(&f.attrs, &mut errors);
            let (value_ty, nullable) = match option_inner(&f.ty) {
                Some(inner) => (inner, true),
                None => (&f.ty, false),
            };
            let nested_option = option_inner(value_ty).map(|_| value_ty);
            let name = match &fattrs.rename {
                Some(r) => r.value(),
                None => ident.to_string().trim_start_matches("r#").to_owned(),
            };
            fields.push(Field {
                name,
                ident,
                ty: &f.ty,
                value_ty,
                nullable,
                nested_option,
                attrs: fattrs,
                serde: serde_field(&f.attrs),
            });
        }
        errors.finish()?;
        Ok(Input {
            ident: &input.ident,
            attrs,
            fields,
            serde_rename_all: serde_rename_all(&input.attrs),
        })
    }

    pub(crate) fn field(&self, name: &str) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The serializing `rename_all` rule of the struct's `#[serde(..)]`.
fn serde_rename_all(attrs: &[Attribute]) -> Option<LitStr> {
    let mut rule = None;
    for attr in serde_attrs(attrs) {
        // A malformed attribute is serde's derive's to report.
        let _ = attr.parse_nested_meta(|meta| {
            if key_of(&meta) == "rename_all" {
                if let Some(lit) = serialize_name(&meta)? {
                    rule = Some(lit);
                }
            } else {
                skip(&meta)?;
            }
            Ok(())
        });
    }
    rule
}

fn serde_field(attrs: &[Attribute]) -> SerdeField {
    let mut out = SerdeField::default();
    for attr in serde_attrs(attrs) {
        // A malformed attribute is serde's derive's to report.
        let _ = attr.parse_nested_meta(|meta| {
            match key_of(&meta).as_str() {
                "rename" => {
                    if let Some(lit) = serialize_name(&meta)? {
                        out.rename = Some(lit);
                    }
                }
                "skip" | "skip_serializing" => {
                    out.skipped = meta.path.get_ident().cloned();
                    skip(&meta)?;
                }
                "skip_serializing_if" => {
                    out.skipped_if = meta.path.get_ident().cloned();
                    skip(&meta)?;
                }
                _ => skip(&meta)?,
            }
            Ok(())
        });
    }
    out
}
