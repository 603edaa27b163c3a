//! Checks made before generating code; every error is spanned on the
//! offending token.

use syn::{FnArg, GenericParam, PathArguments, Type};

use crate::ast::{Table, VersionedFn};
use crate::fallback::is_versioned_attr;

/// The most constraints one attribute records: the length of the longest
/// tuple `problem_core::__private::version::Constraints` is implemented
/// for (its `MAX_CONSTRAINTS`).
const MAX_CONSTRAINTS: usize = 16;

/// actix-web's route attributes (`#[get("/books")]`, ...): each replaces
/// the function by a service struct.
const ACTIX_ROUTE_MACROS: [&str; 11] = [
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "connect", "route",
    "routes",
];

pub(crate) use query_operators::derive_support::Errors;

/// The function is a safe Rust `async fn` (no `unsafe`, no `extern` ABI)
/// without `self`, type or const parameters
/// (free or associated); its constraints are at most `MAX_CONSTRAINTS`,
/// each accepts a version, and they do not overlap each other. Each
/// mistake is pushed to `errors`.
pub(crate) fn versioned_fn(f: &VersionedFn, errors: &mut Errors) {
    if let Err(err) = signature(f) {
        errors.push(err);
    }
    constraints(f, errors);
}

/// The first mistake of the signature and attributes, if any.
fn signature(f: &VersionedFn) -> syn::Result<()> {
    let sig = &f.item.sig;
    if sig.asyncness.is_none() {
        let write = if sig.constness.is_some() {
            "write `async fn` (without `const`: an `async fn` is never const)"
        } else {
            "write `async fn`"
        };
        return Err(syn::Error::new_spanned(
            sig.fn_token,
            format!("#[versioned] goes on an `async fn` handler: {write}"),
        ));
    }
    if let Some(constness) = sig.constness {
        return Err(syn::Error::new_spanned(
            constness,
            "a #[versioned] handler cannot be `const`: an `async fn` is never const; remove `const`",
        ));
    }
    if let Some(unsafety) = sig.unsafety {
        return Err(syn::Error::new_spanned(
            unsafety,
            "a #[versioned] handler must be a safe Rust `async fn`: remove `unsafe` (actix-web calls its handlers as safe functions; wrap the unsafe operation in an `unsafe` block inside)",
        ));
    }
    if let Some(abi) = &sig.abi {
        let written = match &abi.name {
            Some(name) => format!("extern {:?}", name.value()),
            None => "extern".to_owned(),
        };
        return Err(syn::Error::new_spanned(
            abi,
            format!(
                "a #[versioned] handler must be a safe Rust `async fn`: remove `{written}` (actix-web calls its handlers as Rust functions)"
            ),
        ));
    }
    if let Some(again) = f.item.attrs.iter().find(|a| is_versioned_attr(a)) {
        return Err(syn::Error::new_spanned(
            again,
            "#[versioned] is given twice: list every constraint in one attribute, e.g. #[versioned(\"2.x\", \"3.x\")]",
        ));
    }
    if let Some(route) = f.item.attrs.iter().find(|a| is_route_attr(a)) {
        return Err(syn::Error::new_spanned(
            route,
            "actix-web's route attribute turns the function into a service, which versioned![...] cannot dispatch to: remove it and register the table on the route instead, e.g. `.route(\"/books\", web::get().to(versioned![list_v1, list_v2]))`",
        ));
    }
    if let Some(receiver) = sig.receiver() {
        return Err(syn::Error::new_spanned(
            receiver,
            "a #[versioned] handler takes no `self` (actix-web calls it without a value): remove the `self` parameter; an associated function without `self` works",
        ));
    }
    if let Some(param) = sig
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, GenericParam::Lifetime(_)))
    {
        return Err(syn::Error::new_spanned(
            param,
            "a #[versioned] handler cannot have type or const parameters: versioned![...] names its handlers without generic arguments, so it could never choose them; write one handler per concrete type (it may call a generic function)",
        ));
    }
    if let Some(ty) = sig.inputs.iter().find_map(|arg| match arg {
        FnArg::Typed(t) if matches!(*t.ty, Type::ImplTrait(_)) => Some(&t.ty),
        FnArg::Typed(_) | FnArg::Receiver(_) => None,
    }) {
        return Err(syn::Error::new_spanned(
            ty,
            "a #[versioned] handler cannot take an `impl Trait` argument (a hidden type parameter versioned![...] could never choose): name the argument's concrete type",
        ));
    }
    Ok(())
}

/// Too many constraints, each constraint accepting no version and each
/// overlapping an earlier one of the same handler.
fn constraints(f: &VersionedFn, errors: &mut Errors) {
    if let Some(extra) = f.constraints.get(MAX_CONSTRAINTS) {
        errors.push(syn::Error::new(
            extra.span,
            format!(
                "#[versioned] takes at most {MAX_CONSTRAINTS} version constraints: merge neighbouring ones into a range (\"1.0..=2.5\"), a major (\"2.x\") or a minimum (\"2.1+\")"
            ),
        ));
    }
    for c in f
        .constraints
        .iter()
        .filter(|c| c.kind.low() > c.kind.high())
    {
        errors.push(syn::Error::new(
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
            errors.push(syn::Error::new(
                later.span,
                format!(
                    "version constraint \"{}\" overlaps \"{}\" of the same handler; remove one of them",
                    later.text, earlier.text
                ),
            ));
        }
    }
}

/// One of actix-web's route attributes (`#[get("/books")]`,
/// `#[actix_web::get(..)]`, ...).
pub(crate) fn is_route_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| ACTIX_ROUTE_MACROS.iter().any(|m| s.ident == m))
}

/// A table lists at least one handler, each once, without generic
/// arguments.
pub(crate) fn table(t: &Table) -> syn::Result<()> {
    if t.handlers.is_empty() {
        // With only a fallback, point at it: a plain route serves it.
        return Err(match &t.fallback {
            Some(fallback) => syn::Error::new(
                fallback.span,
                "versioned! needs at least one #[versioned] handler besides the fallback: list them before it (versioned![list_v1, list_v2, fallback = list_any]), or route the fallback alone as a plain handler (`.get(path, list_any)`)",
            ),
            None => syn::Error::new(
                proc_macro2::Span::call_site(),
                "versioned! needs at least one #[versioned] handler, e.g. versioned![list_books_v1, list_books_v3]",
            ),
        });
    }
    for (n, path) in t.handlers.iter().enumerate() {
        // The handlers are named in a constant item (the overlap checks),
        // where an enclosing impl's `Self` is not in scope.
        if let Some(first) = path.segments.first()
            && first.ident == "Self"
        {
            let rest: Vec<String> = path
                .segments
                .iter()
                .skip(1)
                .map(|s| s.ident.to_string())
                .collect();
            let rest = if rest.is_empty() {
                "list".to_owned()
            } else {
                rest.join("::")
            };
            return Err(syn::Error::new_spanned(
                &first.ident,
                format!(
                    "versioned! cannot name a handler through `Self`: write the type's name instead of `Self`, e.g. `versioned![Books::{rest}]` in `impl Books`"
                ),
            ));
        }
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
