//! Checks on the parsed struct: every mistake is a spanned error saying
//! what to write instead.

use query_operators::Applies;
use syn::Error;

use crate::ast::{Input, KnownType};

/// Container settings after defaults and checks.
pub(crate) struct Resolved {
    pub key: String,
    /// `(field, descending)`.
    pub default_sort: Vec<(String, bool)>,
    pub max_page_size: u64,
    pub default_page_size: u64,
}

fn type_name(k: KnownType) -> &'static str {
    match k {
        KnownType::Integer => "an integer",
        KnownType::Float => "a float",
        KnownType::Bool => "`bool`",
        KnownType::Text => "`String`",
        KnownType::Date => "`Date`",
        KnownType::DateTime => "`OffsetDateTime`",
        KnownType::Other => "this type",
    }
}

pub(crate) fn check(input: &Input<'_>) -> syn::Result<Resolved> {
    let mut errors: Option<Error> = None;
    let mut push = |e: Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    let struct_name = input.ident.to_string();

    for (i, f) in input.fields.iter().enumerate() {
        if let Some(span) = f.nested_option {
            push(Error::new(
                span,
                "`Option<Option<T>>` is not a queryable type: use `Option<T>` for a nullable field",
            ));
        }
        if input.fields[..i].iter().any(|g| g.name == f.name) {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span());
            push(Error::new(
                span,
                format!(
                    "two fields are named `{}` in the query: give one a different `rename = \"..\"`",
                    f.name
                ),
            ));
        }
        if !f.attrs.filter.is_empty()
            && query_operators::RESERVED_PARAMETERS.contains(&f.name.as_str())
        {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span());
            push(Error::new(
                span,
                format!(
                    "`{}` is a reserved query parameter (pagination, sorting, search or field selection), so `{}=..` could never filter this field: give the field another query name with `rename = \"..\"`",
                    f.name, f.name
                ),
            ));
        }
        if let Some(r) = &f.attrs.rename
            && !valid_param_name(&r.value())
        {
            push(Error::new(
                r.span(),
                "`rename` must be a non-empty name of letters, digits and `_` without `__` (it becomes a query parameter name)",
            ));
        }
        if let Some(c) = &f.attrs.column {
            let v = c.value();
            let parts: Vec<&str> = v.split('.').collect();
            if parts.len() > 2 || parts.iter().any(|p| !valid_identifier(p)) {
                push(Error::new(
                    c.span(),
                    "`column` must be a SQL identifier (`published_at`) or `table.column`, made of letters, digits and `_`",
                ));
            }
        }
        if let Some(c) = &f.attrs.folded_column {
            let v = c.value();
            let parts: Vec<&str> = v.split('.').collect();
            if parts.len() > 2 || parts.iter().any(|p| !valid_identifier(p)) {
                push(Error::new(
                    c.span(),
                    "`folded_column` must be a SQL identifier (`title_folded`) or `table.column`, made of letters, digits and `_`",
                ));
            } else if f.attrs.search.is_none() && !f.attrs.filter.iter().any(|o| o.info.folded) {
                push(Error::new(
                    c.span(),
                    "`folded_column` is the column search reads: add `search` to this field, or remove `folded_column`",
                ));
            }
        }
        let known = f.known_type();
        for op in &f.attrs.filter {
            let name = op.info.name;
            match op.info.applies {
                Applies::Any => {}
                Applies::Ordered => {
                    if known == KnownType::Bool {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` compares by order and `bool` has none: use `eq` or `ne` on `{}`",
                                f.name
                            ),
                        ));
                    }
                }
                Applies::Text => {
                    if !matches!(known, KnownType::Text | KnownType::Other) {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` matches text and `{}` is {}: use it on a `String` field, or use `eq`/`in` here",
                                f.name,
                                type_name(known)
                            ),
                        ));
                    }
                }
                Applies::Nullable => {
                    if !f.nullable {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` needs a nullable field and `{}` is not an `Option`: declare it as `Option<{}>` or remove `{name}`",
                                f.name,
                                quote::ToTokens::to_token_stream(f.ty)
                                    .to_string()
                                    .replace(' ', ""),
                            ),
                        ));
                    }
                }
            }
            if op.info.folded && f.attrs.folded_column.is_none() {
                push(Error::new(
                    op.span,
                    format!(
                        "`{name}` compares case-folded text and `{0}` has no folded column: add `folded_column = \"..\"` to `{0}`, naming a column that holds `problem_core::query::fold_case` of its text",
                        f.name
                    ),
                ));
            }
        }
        if let Some(span) = f.attrs.search
            && !matches!(known, KnownType::Text | KnownType::Other)
        {
            push(Error::new(
                span,
                format!(
                    "`search` matches text and `{}` is {}: remove `search`, or filter it with `eq`/`in`",
                    f.name,
                    type_name(known)
                ),
            ));
        }
    }

    // key
    let key = match &input.attrs.key {
        Some(lit) => {
            let k = lit.value();
            match input.field(&k) {
                None => {
                    push(Error::new(
                        lit.span(),
                        format!(
                            "`key = \"{k}\"` names no field of `{struct_name}`: use one of: {}",
                            names(input)
                        ),
                    ));
                }
                Some(f) if f.nullable => push(Error::new(
                    lit.span(),
                    format!(
                        "the key `{k}` is an `Option`: the key must be unique and never null, so use a non-`Option` field"
                    ),
                )),
                Some(f) if f.known_type() == KnownType::Bool => push(Error::new(
                    lit.span(),
                    format!(
                        "the key `{k}` is a `bool`, which cannot be unique: use the primary key field"
                    ),
                )),
                Some(_) => {}
            }
            k
        }
        None => {
            if input.field("id").is_none() {
                push(Error::new(
                    input.ident.span(),
                    format!(
                        "`{struct_name}` has no field `id` to use as its key: add `#[query(key = \"..\")]` naming a unique, non-null field (one of: {})",
                        names(input)
                    ),
                ));
            } else if input.field("id").is_some_and(|f| f.nullable) {
                push(Error::new(
                    input.ident.span(),
                    "the key `id` is an `Option`: add `#[query(key = \"..\")]` naming a unique, non-null field",
                ));
            }
            "id".to_owned()
        }
    };

    // default_sort
    let mut default_sort = Vec::new();
    if let Some(lit) = &input.attrs.default_sort {
        let text = lit.value();
        if text.trim().is_empty() {
            push(Error::new(
                lit.span(),
                "`default_sort` is empty: write field names like `default_sort = \"-year,id\"`, or remove it to sort by the key",
            ));
        }
        for entry in text.split(',').filter(|_| !text.trim().is_empty()) {
            let entry = entry.trim();
            let (desc, name) = match entry.strip_prefix('-') {
                Some(n) => (true, n),
                None => (false, entry.strip_prefix('+').unwrap_or(entry)),
            };
            match input.field(name) {
                Some(f) if f.attrs.sort.is_some() || f.name == key => {
                    if default_sort.iter().any(|(n, _)| n == name) {
                        push(Error::new(
                            lit.span(),
                            format!("`default_sort` names `{name}` twice: remove one"),
                        ));
                    }
                    default_sort.push((name.to_owned(), desc));
                }
                Some(_) => push(Error::new(
                    lit.span(),
                    format!(
                        "`default_sort` uses `{name}`, which is not sortable: add `sort` to `#[query(..)]` on `{name}`"
                    ),
                )),
                None => push(Error::new(
                    lit.span(),
                    format!(
                        "`default_sort` names `{}`, which is no field of `{struct_name}`: write `field` or `-field` with one of: {}",
                        if name.is_empty() { entry } else { name },
                        names(input)
                    ),
                )),
            }
        }
    }
    if default_sort.is_empty() {
        default_sort.push((key.clone(), false));
    }

    let max_page_size = page_size(&input.attrs.max_page_size, 100, "max_page_size", &mut push);
    let default_page_size = page_size(
        &input.attrs.default_page_size,
        20.min(max_page_size),
        "default_page_size",
        &mut push,
    );
    if default_page_size > max_page_size
        && let Some(lit) = &input.attrs.default_page_size
    {
        {
            push(Error::new(
                lit.span(),
                format!(
                    "`default_page_size` ({default_page_size}) is larger than `max_page_size` ({max_page_size}): lower it"
                ),
            ));
        }
    }

    match errors {
        Some(e) => Err(e),
        None => Ok(Resolved {
            key,
            default_sort,
            max_page_size,
            default_page_size,
        }),
    }
}

fn page_size(
    lit: &Option<syn::LitInt>,
    default: u64,
    what: &str,
    push: &mut impl FnMut(Error),
) -> u64 {
    match lit {
        None => default,
        Some(l) => match l.base10_parse::<u64>() {
            Ok(0) | Err(_) => {
                push(Error::new(
                    l.span(),
                    format!("`{what}` must be a whole number of at least 1, like `{what} = 100`"),
                ));
                default
            }
            Ok(n) => n,
        },
    }
}

fn names(input: &Input<'_>) -> String {
    input
        .fields
        .iter()
        .map(|f| format!("`{}`", f.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn valid_param_name(s: &str) -> bool {
    !s.is_empty() && !s.contains("__") && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
