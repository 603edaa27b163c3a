//! What the type's `#[serde(..)]` attributes say about its members. The
//! derive writes the problem document itself, not through `Serialize`, so
//! a serde attribute that would change a member (`skip`, `rename`,
//! `rename_all`, `serialize_with`, `with`, `flatten`,
//! `skip_serializing_if`) is a mistake `valid.rs` reports, saying which
//! `#[problem(..)]` key to write instead. A malformed serde attribute is
//! serde's derive's to report.

use proc_macro2::Span;
use query_operators::derive_support::RenameRule;
use query_operators::derive_support::serde_attr::{key_of, serde_attrs, serialize_name, skip};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr};

/// A field's `#[serde(..)]`: its serializing `rename`, and the `skip` /
/// `skip_serializing` key.
#[derive(Default)]
pub(crate) struct SerdeField {
    pub rename: Option<LitStr>,
    pub skip: Option<Span>,
    /// Keys that change how the member is written (`serialize_with`,
    /// `with`, `flatten`, `skip_serializing_if` other than
    /// `Option::is_none`), which the document would not follow: the key's
    /// name and span.
    pub shaping: Vec<(String, Span)>,
    /// `skip_serializing_if = "Option::is_none"`: what the document does
    /// with an `Option` field (written as `Option<..>`) already.
    pub skip_if_none: Option<Span>,
}

/// The field's serde attributes.
pub(crate) fn field(attrs: &[Attribute]) -> SerdeField {
    let mut out = SerdeField::default();
    each(attrs, |meta, key| {
        match key {
            "rename" => {
                if let Some(lit) = serialize_name(meta)? {
                    out.rename = Some(lit);
                }
            }
            "skip" | "skip_serializing" => out.skip = Some(meta.path.span()),
            // `Option::is_none` is what the document does with an `Option`
            // member already (left out when `None`): nothing to refuse.
            "skip_serializing_if" => {
                let condition = meta.value()?.parse::<LitStr>()?.value().replace(' ', "");
                let is_none = [
                    "Option::is_none",
                    "std::option::Option::is_none",
                    "core::option::Option::is_none",
                ]
                .iter()
                .any(|p| condition == *p || condition == format!("::{p}"));
                if is_none {
                    out.skip_if_none = Some(meta.path.span());
                } else {
                    out.shaping.push((key.to_owned(), meta.path.span()));
                }
            }
            "serialize_with" | "with" | "flatten" => {
                out.shaping.push((key.to_owned(), meta.path.span()));
                skip(meta)?;
            }
            _ => skip(meta)?,
        }
        Ok(())
    });
    out
}

/// The serializing rule of `#[serde(<key> = "..")]` on a type or variant
/// (`key`: `rename_all`, or an enum's `rename_all_fields`).
pub(crate) fn rule(attrs: &[Attribute], wanted: &str) -> Option<LitStr> {
    let mut rule = None;
    each(attrs, |meta, key| {
        if key == wanted {
            if let Some(lit) = serialize_name(meta)? {
                rule = Some(lit);
            }
        } else {
            skip(meta)?;
        }
        Ok(())
    });
    rule
}

/// The name serde gives the field `field` under the `rename_all` rule
/// named `rule`; `None` for a rule serde does not know (serde reports it).
pub(crate) fn renamed_field(rule: &str, field: &str) -> Option<String> {
    RenameRule::from_name(rule).map(|rule| rule.apply_to_field(field))
}

/// Calls `f` with each entry of the `#[serde(..)]` attributes and its key.
fn each(attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta<'_>, &str) -> syn::Result<()>) {
    for attr in serde_attrs(attrs) {
        // A malformed attribute is serde's derive's to report.
        let _ = attr.parse_nested_meta(|meta| f(&meta, &key_of(&meta)));
    }
}
