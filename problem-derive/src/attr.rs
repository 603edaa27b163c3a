//! Parsing of `#[problem(...)]` attributes into plain values with spans.
//!
//! Only syntax is checked here (known keys, each key once, literal values);
//! the rules between values live in `valid.rs`.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, LitInt, LitStr, Token};

/// Keys of a container: a struct, an enum or an enum variant.
pub(crate) const CONTAINER_KEYS: &[&str] = &["status", "title", "type", "detail"];
/// Keys of a field.
pub(crate) const FIELD_KEYS: &[&str] = &["skip", "rename", "source", "header"];
/// The standard members an extension member of the same name always gives
/// way to (spec, "Problem body", rule 1); `detail` gives way only to a
/// detail (rule 2).
pub(crate) const ALWAYS_OVERWRITTEN: &[&str] = &["type", "title", "status", "instance"];

/// A key of an attribute and where it was written.
#[derive(Clone)]
pub(crate) struct Key {
    pub span: Span,
}

/// `status = <int literal>`, kept as written; the range is checked in `valid.rs`.
pub(crate) struct Status {
    pub lit: LitInt,
    /// `None` when the literal does not fit in a `u64`.
    pub value: Option<u64>,
}

/// A string-valued key (`title`, `type`, `detail`, `rename`, `header`).
pub(crate) struct StrValue {
    pub key: Key,
    pub lit: LitStr,
}

/// The keys of a struct, an enum or an enum variant.
#[derive(Default)]
pub(crate) struct Attrs {
    pub status: Option<Status>,
    pub title: Option<StrValue>,
    pub problem_type: Option<StrValue>,
    pub detail: Option<StrValue>,
    /// thiserror's `#[error(..)]` next to the keys: refused in `valid.rs`.
    pub thiserror: Option<Box<Attribute>>,
}

/// The keys of a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub skip: Option<Key>,
    pub rename: Option<StrValue>,
    pub source: Option<Key>,
    pub header: Option<StrValue>,
}

pub(crate) use query_operators::derive_support::Errors;

/// Parses the `#[problem(...)]` attributes of a struct, enum or variant.
pub(crate) fn container(attrs: &[Attribute], errors: &mut Errors) -> Attrs {
    let mut out = Attrs {
        thiserror: thiserror_attr(attrs).cloned().map(Box::new),
        ..Attrs::default()
    };
    for attr in problem_attrs(attrs, "`#[problem(status = 404)]`", errors) {
        let result = attr.parse_nested_meta(|meta| {
            let (name, span) = key_name(&meta)?;
            let key = Key { span };
            match name.as_str() {
                "status" => {
                    let value = parse_status(&meta, &name)?;
                    set_once(&mut out.status, value, &name, span)
                }
                "title" => {
                    let lit = parse_str(&meta, &name, "\"Conflict\"")?;
                    set_once(&mut out.title, StrValue { key, lit }, &name, span)
                }
                "type" => {
                    let lit = parse_str(&meta, &name, "\"/problems/duplicate-isbn\"")?;
                    set_once(&mut out.problem_type, StrValue { key, lit }, &name, span)
                }
                "detail" => {
                    let lit = parse_str(&meta, &name, "\"A book with ISBN {isbn} already exists\"")?;
                    set_once(&mut out.detail, StrValue { key, lit }, &name, span)
                }
                _ if FIELD_KEYS.contains(&name.as_str()) => Err(syn::Error::new(
                    span,
                    format!(
                        "`{name}` is a field key: put `#[problem({name}{})]` on a field, not on the type or variant",
                        example_value(&name)
                    ),
                )),
                _ => Err(unknown_key(&name, span, CONTAINER_KEYS, "#[problem(...)] on a type or variant")),
            }
        });
        if let Err(e) = result {
            errors.push(explain_syntax(
                e,
                "`#[problem(status = 409, title = \"Conflict\")]`",
            ));
        }
    }
    out
}

/// thiserror's `#[error(..)]` among `attrs`: visible here when
/// `thiserror::Error` is derived too, whose helper attribute it is.
pub(crate) fn thiserror_attr(attrs: &[Attribute]) -> Option<&Attribute> {
    attrs.iter().find(|a| a.path().is_ident("error"))
}

/// Parses the `#[problem(...)]` attributes of a field.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in problem_attrs(attrs, "`#[problem(skip)]`", errors) {
        let result = attr.parse_nested_meta(|meta| {
            let (name, span) = key_name(&meta)?;
            let key = Key { span };
            match name.as_str() {
                "skip" => {
                    no_value(&meta, &name)?;
                    set_once(&mut out.skip, key, &name, span)
                }
                "source" => {
                    no_value(&meta, &name)?;
                    set_once(&mut out.source, key, &name, span)
                }
                "rename" => {
                    let lit = parse_str(&meta, &name, "\"bookId\"")?;
                    set_once(&mut out.rename, StrValue { key, lit }, &name, span)
                }
                "header" => {
                    let lit = parse_str(&meta, &name, "\"Retry-After\"")?;
                    set_once(&mut out.header, StrValue { key, lit }, &name, span)
                }
                _ if CONTAINER_KEYS.contains(&name.as_str()) => Err(syn::Error::new(
                    span,
                    format!(
                        "`{name}` is a key of the type or variant: move `{name} = ...` to the `#[problem(...)]` above the struct, enum or variant"
                    ),
                )),
                _ => Err(unknown_key(&name, span, FIELD_KEYS, "#[problem(...)] on a field")),
            }
        });
        if let Err(e) = result {
            errors.push(explain_syntax(
                e,
                "`#[problem(rename = \"bookId\")]` or `#[problem(skip)]`",
            ));
        }
    }
    out
}

/// The `#[problem(...)]` attributes among `attrs`; `#[problem]`,
/// `#[problem = ...]` and an empty `#[problem()]` are reported (`example`
/// is a list with a key of the place).
fn problem_attrs<'a>(
    attrs: &'a [Attribute],
    example: &str,
    errors: &mut Errors,
) -> Vec<&'a Attribute> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("problem")) {
        match &attr.meta {
            syn::Meta::List(list) if list.tokens.is_empty() => errors.push(syn::Error::new(
                list.delimiter.span().join(),
                format!("`#[problem()]` lists no key: write a key inside, like {example}, or remove the attribute"),
            )),
            syn::Meta::List(_) => out.push(attr),
            other @ (syn::Meta::Path(_) | syn::Meta::NameValue(_)) => errors.push(syn::Error::new(
                other.span(),
                "expected a list of keys: `#[problem(status = 404)]` on a type or variant, `#[problem(skip)]` on a field",
            )),
        }
    }
    out
}

fn key_name(meta: &ParseNestedMeta<'_>) -> syn::Result<(String, Span)> {
    let span = meta.path.span();
    match meta.path.get_ident() {
        Some(ident) => Ok((ident.unraw().to_string(), span)),
        None => Err(syn::Error::new(
            span,
            "expected a key such as `status`, `title`, `type`, `detail` (type or variant) or `skip`, `rename`, `source`, `header` (field), not a path",
        )),
    }
}

fn set_once<T>(slot: &mut Option<T>, value: T, name: &str, span: Span) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            span,
            format!("duplicate key `{name}`: give each key once, remove this one"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn no_value(meta: &ParseNestedMeta<'_>, name: &str) -> syn::Result<()> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(());
    }
    Err(meta.error(format!(
        "`{name}` takes no value: write `#[problem({name})]`"
    )))
}

fn value_expr(meta: &ParseNestedMeta<'_>, name: &str, example: &str) -> syn::Result<Expr> {
    if !meta.input.peek(Token![=]) {
        return Err(syn::Error::new(
            meta.path.span(),
            format!("`{name}` needs a value: write `{name} = {example}`"),
        ));
    }
    Ok(ungroup(meta.value()?.parse::<Expr>()?))
}

/// The expression inside invisible groups: a literal passed through a
/// `macro_rules!` fragment (`$t:literal`, `$t:expr`) arrives wrapped in
/// one, and is the literal all the same.
fn ungroup(mut expr: Expr) -> Expr {
    while let Expr::Group(group) = expr {
        expr = *group.expr;
    }
    expr
}

#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr is #[non_exhaustive]: every other expression is the mistake reported"
)]
fn parse_str(meta: &ParseNestedMeta<'_>, name: &str, example: &str) -> syn::Result<LitStr> {
    match value_expr(meta, name, example)? {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => Ok(lit),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` must be a string literal: write `{name} = {example}`"),
        )),
    }
}

#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr is #[non_exhaustive]: every other expression is the mistake reported"
)]
fn parse_status(meta: &ParseNestedMeta<'_>, name: &str) -> syn::Result<Status> {
    match value_expr(meta, name, "404")? {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) if !lit.suffix().is_empty() => Err(syn::Error::new(
            lit.span(),
            format!(
                "`status` is a plain integer: write `{}` without a suffix",
                lit.base10_digits()
            ),
        )),
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => {
            let value = lit.base10_parse::<u64>().ok();
            Ok(Status { lit, value })
        }
        other => Err(syn::Error::new_spanned(
            other,
            "`status` must be an integer literal from 400 to 599: write e.g. `status = 404` (a constant or expression is not allowed, the status is checked at compile time)",
        )),
    }
}

fn example_value(name: &str) -> &'static str {
    match name {
        "rename" => " = \"bookId\"",
        "header" => " = \"Retry-After\"",
        _ => "",
    }
}

/// syn's own message for a list that is not `key = value, ...` (a bare
/// literal, a missing comma), with the form to write; the derive's own
/// messages pass unchanged.
fn explain_syntax(e: syn::Error, form: &str) -> syn::Error {
    let text = e.to_string();
    let syntax = text.starts_with("unexpected literal")
        || text.starts_with("expected `,`")
        || text.starts_with("expected identifier")
        || text.starts_with("unexpected token");
    if syntax {
        syn::Error::new(
            e.span(),
            format!("{text}: write the keys as `key = value` separated by commas, e.g. {form}"),
        )
    } else {
        e
    }
}

/// Keys users bring from elsewhere, and the key that says it here.
const SYNONYMS: [(&str, &str); 7] = [
    ("message", "detail"),
    ("msg", "detail"),
    ("description", "detail"),
    ("code", "status"),
    ("status_code", "status"),
    ("kind", "type"),
    ("uri", "type"),
];

fn unknown_key(name: &str, span: Span, expected: &[&str], place: &str) -> syn::Error {
    let list = expected
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    // Other crates' names for a key first (thiserror, anyhow, HTTP), then
    // a misspelling.
    let synonym = SYNONYMS
        .iter()
        .find(|(other, key)| *other == name && expected.contains(key))
        .map(|(_, key)| *key);
    let hint = synonym
        .or_else(|| query_operators::derive_support::closest(name, expected))
        .map(|k| format!("did you mean `{k}`? "))
        .unwrap_or_default();
    syn::Error::new(
        span,
        format!("unknown key `{name}` in {place}: {hint}expected one of {list}"),
    )
}
