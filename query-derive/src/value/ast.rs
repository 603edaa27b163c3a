//! The enum as the derive reads it: its variants and, from the
//! `#[serde(..)]` attributes, everything that decides how serde serializes
//! a unit variant. Other serde attributes are skipped; what they say is
//! serde's to check.

use proc_macro2::Span;
use query_operators::derive_support::serde_attr::{key_of, serde_attrs, serialize_name, skip};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Fields, Generics, Ident, LitStr};

pub(crate) struct Input<'a> {
    pub ident: &'a Ident,
    /// The generics, when there are any (refused).
    pub generics: Option<&'a Generics>,
    /// `rename_all = ".."` or `rename_all(serialize = "..")`.
    pub rename_all: Option<LitStr>,
    /// Serde attributes under which a unit variant is no string, each with
    /// its span and key (`tag`, `untagged`, `into`, `remote`).
    pub not_strings: Vec<(Span, String)>,
    pub variants: Vec<Variant<'a>>,
    /// A `#[serde(..)]` attribute this derive could not read: serde's
    /// derive reports it, so this one adds no error of its own.
    pub serde_malformed: bool,
}

pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    pub fields: &'a Fields,
    /// `rename = ".."` or `rename(serialize = "..")`.
    pub rename: Option<LitStr>,
    /// `skip` or `skip_serializing`: never serialized, so never a value.
    pub skipped: bool,
    /// Serde attributes under which this variant is no plain name.
    pub not_strings: Vec<(Span, String)>,
}

impl<'a> Input<'a> {
    pub(crate) fn from_syn(input: &'a DeriveInput) -> syn::Result<Self> {
        let data = match &input.data {
            Data::Enum(data) => data,
            Data::Struct(s) => {
                return Err(Error::new(
                    s.struct_token.span,
                    "`#[derive(QueryValue)]` is for an enum of unit variants, serialized as their names: a struct field that is only selected needs no `QueryValue`, and a newtype can implement `QueryValue` by hand with its inner type's `KIND`",
                ));
            }
            Data::Union(u) => {
                return Err(Error::new(
                    u.union_token.span,
                    "`#[derive(QueryValue)]` is for an enum of unit variants, serialized as their names, not a union",
                ));
            }
        };
        let generics = (!input.generics.params.is_empty()).then_some(&input.generics);
        let mut rename_all = None;
        let mut not_strings = Vec::new();
        let mut serde_malformed = false;
        for attr in serde_attrs(&input.attrs) {
            serde_malformed |= attr
                .parse_nested_meta(|meta| {
                    let key = key_of(&meta);
                    match key.as_str() {
                        "rename_all" => {
                            if let Some(lit) = serialize_name(&meta)? {
                                rename_all = Some(lit);
                            }
                        }
                        // `content` goes with `tag`, whose error covers both.
                        "tag" | "untagged" | "into" | "remote" => {
                            not_strings.push((meta.path.span(), key));
                            skip(&meta)?;
                        }
                        _ => skip(&meta)?,
                    }
                    Ok(())
                })
                .is_err();
        }
        let mut variants = Vec::new();
        for v in &data.variants {
            let mut variant = Variant {
                ident: &v.ident,
                fields: &v.fields,
                rename: None,
                skipped: false,
                not_strings: Vec::new(),
            };
            for attr in serde_attrs(&v.attrs) {
                serde_malformed |= attr
                    .parse_nested_meta(|meta| {
                        let key = key_of(&meta);
                        match key.as_str() {
                            "rename" => {
                                if let Some(lit) = serialize_name(&meta)? {
                                    variant.rename = Some(lit);
                                }
                            }
                            "skip" | "skip_serializing" => variant.skipped = true,
                            "untagged" | "serialize_with" | "with" => {
                                variant.not_strings.push((meta.path.span(), key));
                                skip(&meta)?;
                            }
                            _ => skip(&meta)?,
                        }
                        Ok(())
                    })
                    .is_err();
            }
            variants.push(variant);
        }
        Ok(Self {
            ident: &input.ident,
            generics,
            rename_all,
            not_strings,
            variants,
            serde_malformed,
        })
    }
}
