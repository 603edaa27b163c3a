//! What the type's `#[serde(..)]` attributes say about its members. The
//! derive writes the problem document itself, not through `Serialize`, so
//! a serde attribute that would change a member (`skip`, `rename`,
//! `rename_all`, `serialize_with`, `with`, `flatten`,
//! `skip_serializing_if`) is a mistake `valid.rs` reports, saying which
//! `#[problem(..)]` key to write instead. A malformed serde attribute is
//! serde's derive's to report.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Token};

/// A field's `#[serde(..)]`: its serializing `rename`, and the `skip` /
/// `skip_serializing` key.
#[derive(Default)]
pub(crate) struct SerdeField {
    pub rename: Option<LitStr>,
    pub skip: Option<Span>,
    /// Keys that change how the member is written (`serialize_with`,
    /// `with`, `flatten`, `skip_serializing_if`), which the document would
    /// not follow: the key's name and span.
    pub shaping: Vec<(String, Span)>,
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
            "serialize_with" | "with" | "flatten" | "skip_serializing_if" => {
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

/// The name serde gives a `snake_case` field under the `rename_all` rule
/// named `rule` (serde_derive's `internals/case.rs`); `None` for a rule
/// serde does not know (serde reports it).
pub(crate) fn renamed_field(rule: &str, field: &str) -> Option<String> {
    let pascal = || {
        let mut out = String::new();
        let mut capitalize = true;
        for ch in field.chars() {
            if ch == '_' {
                capitalize = true;
            } else if capitalize {
                out.push(ch.to_ascii_uppercase());
                capitalize = false;
            } else {
                out.push(ch);
            }
        }
        out
    };
    Some(match rule {
        "lowercase" | "snake_case" => field.to_owned(),
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let pascal = pascal();
            let mut chars = pascal.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_lowercase().to_string() + chars.as_str()
            })
        }
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_ascii_uppercase().replace('_', "-"),
        _ => return None,
    })
}

fn each(attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta<'_>, &str) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // A malformed attribute is serde's derive's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            f(&meta, &key)
        });
    }
}

/// The serializing name of `key = ".."` or `key(serialize = "..",
/// deserialize = "..")`; `None` when only `deserialize` is given.
fn serialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return meta.value()?.parse().map(Some);
    }
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            name = Some(inner.value()?.parse()?);
        } else {
            skip(&inner)?;
        }
        Ok(())
    })?;
    Ok(name)
}

/// Skips the value of a serde key this derive does not read: `key`,
/// `key = <expr>` or `key(..)`.
fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip(&inner))?;
    }
    Ok(())
}
