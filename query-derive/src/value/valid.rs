//! Checks the enum and works out the name serde serializes each variant
//! as: every mistake is one spanned error saying what to write instead.

use query_operators::DEFAULT_MAX_VALUE_LENGTH;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Error, Fields};

use super::ast::Input;
use query_operators::derive_support::RenameRule;

/// The serialized names of the variants serde serializes, in order. `Err(None)`:
/// a serde attribute is malformed (an unknown `rename_all` rule...), which
/// serde's derive reports; one mistake is one error, so none is added here.
pub(crate) fn names(input: &Input<'_>) -> Result<Vec<String>, Option<Error>> {
    let mut serde_reports = input.serde_malformed;
    let mut errors: Vec<Error> = Vec::new();
    let mut push = |e: Error| errors.push(e);
    let name = input.ident.unraw().to_string();
    if let Some(generics) = input.generics {
        push(Error::new_spanned(
            generics,
            format!(
                "`#[derive(QueryValue)]` takes no generic parameters: `{name}`'s names must be known without them"
            ),
        ));
    }
    for (span, key) in &input.not_strings {
        push(Error::new(*span, container_advice(key)));
    }
    let rule = match &input.rename_all {
        Some(lit) => match RenameRule::from_name(&lit.value()) {
            Some(rule) => rule,
            None => {
                serde_reports = true;
                RenameRule::Pascal
            }
        },
        None => RenameRule::Pascal,
    };
    let mut names: Vec<(String, &syn::Ident)> = Vec::new();
    for v in &input.variants {
        // Never serialized: neither a name nor a mistake, whatever it holds.
        if v.skipped {
            continue;
        }
        if let Fields::Named(_) | Fields::Unnamed(_) = v.fields
            && v.fields.is_empty()
        {
            // serde writes `A()` as `{"A":[]}` and `A {}` as `{"A":{}}`.
            let written = if let Fields::Named(_) = v.fields {
                "{}"
            } else {
                "()"
            };
            push(Error::new(
                v.fields.span(),
                format!(
                    "`{0}{written}` is serialized as an object (`{{\"{0}\": ..}}`), not a name: write the unit variant `{0}` without `{written}`",
                    v.ident.unraw()
                ),
            ));
            continue;
        }
        if !v.fields.is_empty() {
            push(Error::new(
                v.fields.span(),
                format!(
                    "`{}` holds data: `#[derive(QueryValue)]` takes unit variants only, which serialize as their names; a field whose type holds data can only be selected (remove its `filter`, `sort` and `search`)",
                    v.ident.unraw()
                ),
            ));
            continue;
        }
        for (span, key) in &v.not_strings {
            push(Error::new(*span, variant_advice(key)));
        }
        let serialized = match &v.rename {
            Some(lit) => lit.value(),
            None => rule.apply_to_variant(&v.ident.unraw().to_string()),
        };
        let span = v.rename.as_ref().map_or(v.ident.span(), |l| l.span());
        // `in` and `not_in` split their value on commas.
        if serialized.contains(',') {
            push(Error::new(
                span,
                format!(
                    "\"{serialized}\" holds a comma, and `in` and `not_in` split their values on commas, so it could never be sent in them: rename it without a comma"
                ),
            ));
            continue;
        }
        // `in` and `not_in` refuse an empty entry (`status__in=a,,b`).
        if serialized.is_empty() {
            push(Error::new(
                span,
                format!(
                    "`{}` serializes as the empty name, and `in` and `not_in` refuse empty entries, so it could never be sent in them: rename it to a non-empty name",
                    v.ident.unraw()
                ),
            ));
            continue;
        }
        if serialized.chars().count() > DEFAULT_MAX_VALUE_LENGTH {
            push(Error::new(
                span,
                format!(
                    "`{}` serializes as a name of {} characters, and a filter value may have at most {DEFAULT_MAX_VALUE_LENGTH} by default: rename it shorter",
                    v.ident.unraw(),
                    serialized.chars().count()
                ),
            ));
            continue;
        }
        if let Some((_, first)) = names.iter().find(|(n, _)| *n == serialized) {
            push(Error::new(
                span,
                format!(
                    "`{}` and `{}` both serialize as \"{serialized}\": give one another `#[serde(rename = \"..\")]`",
                    first.unraw(),
                    v.ident.unraw()
                ),
            ));
            continue;
        }
        names.push((serialized, v.ident));
    }
    if names.is_empty() && errors.is_empty() && !serde_reports {
        errors.push(Error::new(
            input.ident.span(),
            format!(
                "`{name}` has no variant that serializes: a `QueryValue` needs at least one name to filter by"
            ),
        ));
    }
    let mut errors = errors.into_iter();
    match errors.next() {
        Some(mut first) => {
            first.extend(errors);
            Err(Some(first))
        }
        None if serde_reports => Err(None),
        None => Ok(names.into_iter().map(|(n, _)| n).collect()),
    }
}

fn container_advice(key: &str) -> String {
    let why = match key {
        "tag" => "serializes a unit variant as an object (`{\"<tag>\": \"Name\"}`), not a string",
        "untagged" => "serializes a unit variant as `null`, not its name",
        _ => "serializes through another type, whose names this derive cannot see",
    };
    format!(
        "`#[serde({key})]` {why}: `#[derive(QueryValue)]` needs each variant written as its name; remove `{key}`, or implement `QueryValue` by hand with `ValueKind::OneOf` listing what is serialized"
    )
}

fn variant_advice(key: &str) -> String {
    let why = match key {
        "untagged" => "serializes this unit variant as `null`, not a name",
        _ => "serializes this variant through a function, whose output this derive cannot see",
    };
    format!(
        "`#[serde({key})]` {why}: use `#[serde(rename = \"..\")]` to choose its name, or implement `QueryValue` by hand with `ValueKind::OneOf`"
    )
}
