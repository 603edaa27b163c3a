//! Checks made before generating code; every error is spanned on the
//! offending token.

use syn::PathArguments;

use crate::ast::{Table, VersionedFn};

/// The function is a free `async fn`; its constraints are not empty and
/// do not overlap each other.
pub(crate) fn versioned_fn(f: &VersionedFn) -> syn::Result<()> {
    let sig = &f.item.sig;
    if sig.asyncness.is_none() {
        return Err(syn::Error::new_spanned(
            sig.fn_token,
            "#[versioned] goes on an `async fn` handler: write `async fn`",
        ));
    }
    if let Some(again) = f.item.attrs.iter().find(|a| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "versioned")
    }) {
        return Err(syn::Error::new_spanned(
            again,
            "#[versioned] is given twice: list every constraint in one attribute, e.g. #[versioned(\"2.x\", \"3.x\")]",
        ));
    }
    if let Some(receiver) = sig.receiver() {
        return Err(syn::Error::new_spanned(
            receiver,
            "#[versioned] goes on a free handler function: remove the `self` parameter",
        ));
    }
    if let Some(c) = f.constraints.iter().find(|c| c.kind.low() > c.kind.high()) {
        return Err(syn::Error::new(
            c.span,
            format!(
                "version constraint \"{}\" accepts no version: write the lower end first",
                c.text
            ),
        ));
    }
    for (n, later) in f.constraints.iter().enumerate() {
        if let Some(earlier) = f.constraints[..n]
            .iter()
            .find(|c| c.kind.overlaps(later.kind))
        {
            return Err(syn::Error::new(
                later.span,
                format!(
                    "version constraint \"{}\" overlaps \"{}\" of the same handler; remove one of them",
                    later.text, earlier.text
                ),
            ));
        }
    }
    Ok(())
}

/// A table lists at least one handler, each once, without generic
/// arguments.
pub(crate) fn table(t: &Table) -> syn::Result<()> {
    if t.handlers.is_empty() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "versioned! needs at least one #[versioned] handler, e.g. versioned![list_books_v1, list_books_v3]",
        ));
    }
    for (n, path) in t.handlers.iter().enumerate() {
        if let Some(seg) = path
            .segments
            .iter()
            .find(|s| !matches!(s.arguments, PathArguments::None))
        {
            return Err(syn::Error::new_spanned(
                &seg.arguments,
                "versioned! takes plain handler paths: remove the generic arguments",
            ));
        }
        if t.handlers[..n].iter().any(|p| p == path) {
            return Err(syn::Error::new_spanned(
                path,
                format!(
                    "handler `{}` is listed twice in this versioned! route",
                    display(path)
                ),
            ));
        }
    }
    Ok(())
}

/// `a::b` for messages.
pub(crate) fn display(path: &syn::Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let lead = if path.leading_colon.is_some() {
        "::"
    } else {
        ""
    };
    format!("{lead}{}", segments.join("::"))
}
