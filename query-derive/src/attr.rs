//! Reading `#[query(...)]` attributes.

use proc_macro2::Span;
use query_operators::{Info, OPERATORS};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitBool, LitInt, LitStr};

const CONTAINER_KEYS: &str = "key, default_sort, max_page_size, default_page_size";
/// The keys of the struct's and of a field's `#[query(..)]`, by name.
const CONTAINER_NAMES: [&str; 4] = ["key", "default_sort", "max_page_size", "default_page_size"];
const FIELD_NAMES: [&str; 7] = [
    "filter",
    "sort",
    "search",
    "select",
    "column",
    "rename",
    "folded_column",
];
/// A list of keys, as the messages show it.
const CONTAINER_EXAMPLE: &str = "`#[query(key = \"isbn\")]`";
const FIELD_EXAMPLE: &str = "`#[query(filter(eq), sort)]`";
const FIELD_KEYS: &str = "filter(..), sort, search, select, select = false, column = \"..\", rename = \"..\", folded_column = \"..\"";

/// Container attributes.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub key: Option<LitStr>,
    pub default_sort: Option<LitStr>,
    pub max_page_size: Option<LitInt>,
    pub default_page_size: Option<LitInt>,
}

/// One operator as written, with its entry of the shared operator table.
pub(crate) struct Op {
    pub info: &'static Info,
    pub span: Span,
}

/// Field attributes.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub filter: Vec<Op>,
    pub sort: Option<Span>,
    pub search: Option<Span>,
    /// `select = false` (span of the `false`).
    pub no_select: Option<Span>,
    pub column: Option<LitStr>,
    pub rename: Option<LitStr>,
    /// `folded_column = ".."`: the column of the case-folded text, for search.
    pub folded_column: Option<LitStr>,
}

fn duplicate(meta: &ParseNestedMeta<'_>, what: &str) -> syn::Error {
    meta.error(format!("`{what}` is given twice: remove one"))
}

pub(crate) use query_operators::derive_support::Errors;

/// A mistake in one key is recorded, and reading goes on at the next key
/// of the list (its value, whatever it is, is skipped), so that every
/// mistake of an attribute is reported, not only the first.
fn recover(
    meta: &ParseNestedMeta<'_>,
    result: syn::Result<()>,
    errors: &mut Errors,
) -> syn::Result<()> {
    if let Err(err) = result {
        errors.push(err);
        while !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            meta.input.parse::<proc_macro2::TokenTree>()?;
        }
    }
    Ok(())
}

/// The `#[query(..)]` attributes among `attrs`; an empty `#[query()]` is
/// reported (`example` is a list with a key of the place), and so is a
/// literal where a key goes.
fn query_attrs<'a>(
    attrs: &'a [Attribute],
    keys: &[&str],
    example: &str,
    errors: &mut Errors,
) -> Vec<&'a Attribute> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("query")) {
        match not_empty(attr, example).and_then(|()| literal_key(attr, keys, example)) {
            Ok(()) => out.push(attr),
            Err(err) => errors.push(err),
        }
    }
    out
}

/// A syntax slip in the list of keys (the keys' own mistakes are
/// recorded as they are read), with the form to write.
fn syntax_slip(err: &syn::Error, example: &str) -> syn::Error {
    syn::Error::new(
        err.span(),
        format!("{err}: write the keys separated by commas, e.g. {example}"),
    )
}

impl ContainerAttrs {
    /// The struct's `#[query(..)]` settings; each mistake is pushed to
    /// `errors`.
    pub(crate) fn from_attrs(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut out = Self::default();
        for attr in query_attrs(attrs, &CONTAINER_NAMES, CONTAINER_EXAMPLE, errors) {
            let result = attr.parse_nested_meta(|meta| {
                let result = out.key(&meta);
                recover(&meta, result, errors)
            });
            if let Err(err) = result {
                errors.push(syntax_slip(&err, CONTAINER_EXAMPLE));
            }
        }
        out
    }

    fn key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match key.as_str() {
            "key" => set(&mut self.key, meta, "key", str_value(meta, "key = \"isbn\"")?),
            "default_sort" => set(
                &mut self.default_sort,
                meta,
                "default_sort",
                str_value(meta, "default_sort = \"-year,id\"")?,
            ),
            "max_page_size" => set(
                &mut self.max_page_size,
                meta,
                "max_page_size",
                int_value(meta, "max_page_size = 100")?,
            ),
            "default_page_size" => set(
                &mut self.default_page_size,
                meta,
                "default_page_size",
                int_value(meta, "default_page_size = 20")?,
            ),
            "filter" | "sort" | "search" | "select" | "column" | "rename" | "folded_column" => {
                Err(meta.error(format!(
                    "`{key}` belongs on a field: move it to `#[query({key}..)]` on the field; on the struct use one of: {CONTAINER_KEYS}"
                )))
            }
            _ => Err(meta.error(format!(
                "unknown query attribute `{}` on the struct: {}expected one of: {CONTAINER_KEYS}",
                path_text(meta),
                suggest(&key, &CONTAINER_NAMES)
            ))),
        }
    }
}

/// An integer literal after `=`; anything else is one error saying what
/// to write (`example`).
fn int_value(meta: &ParseNestedMeta<'_>, example: &str) -> syn::Result<syn::LitInt> {
    let value = meta.value()?;
    let name = example.split(' ').next().unwrap_or_default();
    if value.peek(syn::Token![-]) && value.peek2(syn::LitInt) {
        // Spanned on both tokens, `-` and the digits.
        let minus: syn::Token![-] = value.parse()?;
        let lit: LitInt = value.parse()?;
        return Err(syn::Error::new_spanned(
            quote::quote!(#minus #lit),
            format!("`{name}` must be a whole number of at least 1, like `{example}`"),
        ));
    }
    if value.peek(syn::LitInt) {
        let lit: LitInt = value.parse()?;
        if !lit.suffix().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "`{name}` is a plain integer: write `{}` without a suffix",
                    lit.base10_digits()
                ),
            ));
        }
        return Ok(lit);
    }
    let other: syn::Expr = value.parse()?;
    Err(syn::Error::new_spanned(
        other,
        format!("expected an integer literal: write `{example}`"),
    ))
}

/// The expression inside invisible groups: a literal passed through a
/// `macro_rules!` fragment (`$t:literal`, `$t:expr`) arrives wrapped in
/// one, and is the literal all the same.
fn ungroup(mut expr: syn::Expr) -> syn::Expr {
    while let syn::Expr::Group(group) = expr {
        expr = *group.expr;
    }
    expr
}

/// A string literal after `=`; anything else is one error saying what to
/// write (`example`, `key = "..."`).
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr and syn::Lit are #[non_exhaustive]: every other value is the mistake reported"
)]
fn str_value(meta: &ParseNestedMeta<'_>, example: &str) -> syn::Result<LitStr> {
    let name = example.split(' ').next().unwrap_or_default();
    match ungroup(meta.value()?.parse::<syn::Expr>()?) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => Ok(lit),
        // `key = id`: the name in quotes.
        syn::Expr::Path(path) if path.path.get_ident().is_some() => {
            let ident = quote::ToTokens::to_token_stream(&path).to_string();
            Err(syn::Error::new_spanned(
                path,
                format!("`{name}` must be a string literal: write `{name} = \"{ident}\"`"),
            ))
        }
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` must be a string literal: write `{example}`"),
        )),
    }
}

/// `false` or `true` after `select =`; anything else (`"false"`) is one
/// error saying what to write.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr and syn::Lit are #[non_exhaustive]: every other value is the mistake reported"
)]
fn bool_value(meta: &ParseNestedMeta<'_>) -> syn::Result<LitBool> {
    match ungroup(meta.value()?.parse::<syn::Expr>()?) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Ok(b),
        other => Err(syn::Error::new_spanned(
            other,
            "`select` takes the boolean `false`, unquoted: write `select = false` to leave the field out of `fields` (or `select` alone)",
        )),
    }
}

/// The `(..)` of `filter(..)` lists operators as bare names: an empty list
/// or a literal (`filter("eq")`) is one error, before the list is read.
/// Takes the list (the group) from `meta`, and returns it to be read.
fn operator_list(meta: &ParseNestedMeta<'_>) -> syn::Result<proc_macro2::Group> {
    let group: proc_macro2::Group = meta.input.parse()?;
    if group.stream().is_empty() {
        return Err(syn::Error::new(
            group.span(),
            "`filter()` lists no operator: write `filter(eq, ..)` or remove it",
        ));
    }
    let mut entry_start = true;
    for token in group.stream() {
        // `filter(*)`, `filter(!eq)`: a symbol where an operator's name goes.
        if let proc_macro2::TokenTree::Punct(p) = &token
            && entry_start
            && !matches!(p.as_char(), ',' | ':')
        {
            let c = p.as_char();
            let wildcard = if c == '*' {
                " (there is no wildcard)"
            } else {
                ""
            };
            return Err(syn::Error::new(
                p.span(),
                format!(
                    "`{c}` is not a filter operator{wildcard}: list by name the operators this field takes, e.g. `filter(eq, in)`, from: {}",
                    operator_names()
                ),
            ));
        }
        entry_start = matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',');
        if let proc_macro2::TokenTree::Literal(lit) = token {
            let text = lit.to_string();
            let bare = text.trim_matches('"');
            let write = if query_operators::find(bare).is_some() {
                format!("write `filter({bare})`")
            } else {
                "write `filter(eq, in, ..)`".to_owned()
            };
            return Err(syn::Error::new(
                lit.span(),
                format!("filter operators are bare names, not literals: {write}"),
            ));
        }
    }
    Ok(group)
}

/// The names in `filter(eq in)`, as they should be written: `eq, in`.
fn comma_separated(list: &proc_macro2::Group) -> String {
    let mut names = Vec::new();
    for token in list.stream() {
        match token {
            proc_macro2::TokenTree::Ident(name) => names.push(name.to_string()),
            proc_macro2::TokenTree::Punct(p) if p.as_char() != ':' => {}
            // A path or a value: no simple fix to show.
            proc_macro2::TokenTree::Punct(_)
            | proc_macro2::TokenTree::Group(_)
            | proc_macro2::TokenTree::Literal(_) => return "eq, in".to_owned(),
        }
    }
    names.join(", ")
}

/// `#[query("sort")]`: a literal where a key goes is one error, spanned on
/// it, before the list is read (`keys` are the place's keys, `example` a
/// list of them).
fn literal_key(attr: &Attribute, keys: &[&str], example: &str) -> syn::Result<()> {
    let syn::Meta::List(list) = &attr.meta else {
        return Ok(());
    };
    let mut entry_start = true;
    for token in list.tokens.clone() {
        if let proc_macro2::TokenTree::Literal(lit) = &token
            && entry_start
        {
            let text = lit.to_string();
            let bare = text.trim_matches('"');
            let write = if keys.contains(&bare) {
                format!("write `{bare}` without quotes")
            } else {
                format!("write e.g. {example}")
            };
            return Err(syn::Error::new(
                lit.span(),
                format!("query keys are bare names, not literals: {write}"),
            ));
        }
        entry_start = matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',');
    }
    Ok(())
}

/// The names of every filter operator, from the shared operator table.
fn operator_names() -> String {
    OPERATORS
        .iter()
        .map(|o| o.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An empty `#[query()]` is one error on its parentheses, and `#[query]`
/// or `#[query = ..]` one on the attribute (`example` is a list with a key
/// of the place).
fn not_empty(attr: &Attribute, example: &str) -> syn::Result<()> {
    match &attr.meta {
        syn::Meta::List(list) if list.tokens.is_empty() => Err(syn::Error::new(
            list.delimiter.span().join(),
            format!(
                "`#[query()]` lists no key: write a key inside, like {example}, or remove the attribute"
            ),
        )),
        syn::Meta::List(_) => Ok(()),
        // `#[query]`, `#[query = ..]`.
        syn::Meta::Path(_) | syn::Meta::NameValue(_) => Err(syn::Error::new_spanned(
            attr,
            format!("`#[query]` takes a list of keys in parentheses: write e.g. {example}"),
        )),
    }
}

fn set<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta<'_>,
    what: &str,
    value: T,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate(meta, what));
    }
    *slot = Some(value);
    Ok(())
}

fn flag(slot: &mut Option<Span>, meta: &ParseNestedMeta<'_>, what: &str) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!("`{what}` takes no value: write `{what}`")));
    }
    if slot.is_some() {
        return Err(duplicate(meta, what));
    }
    *slot = Some(meta.path.span());
    Ok(())
}

/// `did you mean `sort`? ` when `name` is close to a known key or
/// operator (`derive_support::closest`), else nothing.
fn suggest(name: &str, known: &[&str]) -> String {
    query_operators::derive_support::closest(name, known)
        .map(|k| format!("did you mean `{k}`? "))
        .unwrap_or_default()
}

fn path_text(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// What `FieldAttrs::key` has seen of the keys that record no value.
#[derive(Default)]
struct Seen {
    filter: bool,
    select: bool,
}

impl FieldAttrs {
    /// A field's `#[query(..)]` settings; each mistake is pushed to
    /// `errors`.
    pub(crate) fn from_attrs(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut out = Self::default();
        let mut seen = Seen::default();
        for attr in query_attrs(attrs, &FIELD_NAMES, FIELD_EXAMPLE, errors) {
            let result = attr.parse_nested_meta(|meta| {
                let result = out.key(&meta, &mut seen, errors);
                recover(&meta, result, errors)
            });
            if let Err(err) = result {
                errors.push(syntax_slip(&err, FIELD_EXAMPLE));
            }
        }
        out
    }

    fn key(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        seen: &mut Seen,
        errors: &mut Errors,
    ) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match key.as_str() {
            "filter" => {
                if seen.filter {
                    return Err(meta.error(
                        "`filter(..)` is given twice: list every operator in one `filter(..)`",
                    ));
                }
                seen.filter = true;
                if !meta.input.peek(syn::token::Paren) {
                    return Err(meta.error("`filter` needs its operators: write `filter(eq, in, ..)`"));
                }
                let list = operator_list(meta)?;
                // Read on its own (not as `meta.parse_nested_meta`): after
                // a slip the rest of the list is no second error.
                let operators = syn::meta::parser(|op| {
                    let result = self.operator(&op);
                    recover(&op, result, errors)
                });
                syn::parse::Parser::parse2(operators, list.stream())
                // The operators' own mistakes are recorded: this is a
                // syntax slip, `filter(eq in)`.
                .map_err(|err| {
                    syn::Error::new(
                        err.span(),
                        format!(
                            "{err}: separate the operators with commas: write `filter({})`",
                            comma_separated(&list)
                        ),
                    )
                })
            }
            "sort" => flag(&mut self.sort, meta, "sort"),
            "search" => flag(&mut self.search, meta, "search"),
            "select" => {
                if meta.input.peek(syn::token::Paren) {
                    return Err(meta.error(
                        "`select` takes `= false` or nothing: write `select = false` to leave the field out of `fields`, or `select`",
                    ));
                }
                if seen.select {
                    return Err(duplicate(meta, "select"));
                }
                seen.select = true;
                if meta.input.peek(syn::Token![=]) {
                    let b = bool_value(meta)?;
                    if !b.value {
                        self.no_select = Some(b.span());
                    }
                }
                Ok(())
            }
            "column" => set(
                &mut self.column,
                meta,
                "column",
                str_value(meta, "column = \"published_at\"")?,
            ),
            "rename" => set(
                &mut self.rename,
                meta,
                "rename",
                str_value(meta, "rename = \"book_id\"")?,
            ),
            "folded_column" => set(
                &mut self.folded_column,
                meta,
                "folded_column",
                str_value(meta, "folded_column = \"title_folded\"")?,
            ),
            "key" | "default_sort" | "max_page_size" | "default_page_size" => Err(meta.error(format!(
                "`{key}` belongs on the struct: move it to `#[query({key} = ..)]` above `struct`; on a field use one of: {FIELD_KEYS}"
            ))),
            _ => Err(meta.error(format!(
                "unknown query attribute `{}` on a field: {}expected one of: {FIELD_KEYS}",
                path_text(meta),
                suggest(&key, &FIELD_NAMES)
            ))),
        }
    }

    /// One operator of `filter(..)`.
    fn operator(&mut self, op: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let name = op
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let name = name.trim_start_matches("r#");
        let Some(info) = query_operators::find(name) else {
            let all = operator_names();
            // `Operator::Eq`: the variant, for its name.
            let variant = op
                .path
                .segments
                .last()
                .filter(|_| op.path.segments.len() > 1)
                .and_then(|s| OPERATORS.iter().find(|o| s.ident == o.variant));
            if let Some(o) = variant {
                return Err(op.error(format!(
                    "unknown filter operator `{}`: did you mean `{}`? write each operator by its name, not its `Operator` variant; expected one of: {all}",
                    path_text(op),
                    o.name
                )));
            }
            if let Some(o) = query_operators::find(&name.to_ascii_lowercase()) {
                return Err(op.error(format!(
                    "unknown filter operator `{}`: did you mean `{}`? operators are lower case",
                    path_text(op),
                    o.name
                )));
            }
            // An alias from another library (`like`, `ge`), or a slip
            // (`contain`, `eqq`).
            let hint = match query_operators::alias(name) {
                Some(o) => format!("did you mean `{}`? ", o.name),
                None => suggest(name, &OPERATORS.iter().map(|o| o.name).collect::<Vec<_>>()),
            };
            return Err(op.error(format!(
                "unknown filter operator `{}`: {hint}expected one of: {all}",
                path_text(op)
            )));
        };
        let n = info.name;
        if op.input.peek(syn::Token![=]) || op.input.peek(syn::token::Paren) {
            return Err(op.error(format!("operator `{n}` takes no value: write `{n}`")));
        }
        if self.filter.iter().any(|o| o.info.name == n) {
            return Err(op.error(format!("operator `{n}` is listed twice: remove one")));
        }
        self.filter.push(Op {
            info,
            span: op.path.span(),
        });
        Ok(())
    }
}
