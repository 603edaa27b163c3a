//! Reading `#[serde(..)]` attributes: which serde keys an input carries
//! and the serializing names they give. A malformed attribute is serde's
//! derive's to report; the readers only skip what they do not read.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Token};

/// The `#[serde(..)]` attributes among `attrs`.
pub fn serde_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("serde"))
}

/// The key of a `#[serde(..)]` entry (`rename`, `skip`, ...); empty for a
/// path that is not one identifier.
pub fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The serializing name of `key = ".."` or `key(serialize = "..",
/// deserialize = "..")`; `None` when only `deserialize` is given.
///
/// # Errors
/// A value that is not a string literal (serde reports it too).
pub fn serialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
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

/// Skips the value of a serde key the caller does not read:
/// `key`, `key = <expr>` or `key(..)`.
///
/// # Errors
/// A value that does not parse as an expression or a nested list.
pub fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip(&inner))?;
    }
    Ok(())
}
