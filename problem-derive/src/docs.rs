//! Doc comments of the derive input: the text of `#[doc = "..."]`
//! attributes (what `///` lines become), for problem type documentation.

use syn::{Attribute, Data, DeriveInput, Expr, ExprLit, Lit, Meta};

/// The doc comment of attributes: each line without its first space,
/// joined with `\n`, trimmed.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr is #[non_exhaustive]: a doc attribute's value is a string literal"
)]
pub(crate) fn text(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => {
                // `#[doc = $doc]` from a `macro_rules!` fragment: the
                // literal in an invisible group.
                let mut value = &nv.value;
                while let Expr::Group(group) = value {
                    value = &group.expr;
                }
                match value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) => Some(s.value()),
                    _ => None,
                }
            }
            Meta::Path(_) | Meta::List(_) => None,
        })
        .map(|line| line.strip_prefix(' ').map(str::to_owned).unwrap_or(line))
        .collect();
    lines.join("\n").trim().to_owned()
}

/// The doc comment of each case, in the order of `Input::cases`: the
/// struct's, or each variant's (the enum's when a variant has none).
pub(crate) fn cases(node: &DeriveInput) -> Vec<String> {
    match &node.data {
        Data::Struct(_) | Data::Union(_) => vec![text(&node.attrs)],
        Data::Enum(data) => {
            let own = text(&node.attrs);
            data.variants
                .iter()
                .map(|v| {
                    let t = text(&v.attrs);
                    if t.is_empty() { own.clone() } else { t }
                })
                .collect()
        }
    }
}
