//! What `#[versioned]` emits on a mistake: the error, plus the function
//! (as `thiserror-impl`'s `fallback.rs` emits placeholder impls), so that
//! the uses of the handler (`Books::list`, `versioned![Books::list]`) add
//! no "no function or associated item named ..." errors of their own.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{FnArg, GenericParam, ItemFn, Type};

use crate::ast::{Constraint, Kind, VersionedFn};
use crate::valid::is_route_attr;

/// The item that is not a function, unchanged, after the error.
pub(crate) fn item(error: &syn::Error, item: TokenStream) -> TokenStream {
    let error = error.to_compile_error();
    quote!(#error #item)
}

/// The function after the error: expanded as a valid one would be, with
/// one constraint that accepts no version (an empty range, which overlaps
/// no other handler's, so `versioned![...]` adds no error either), and
/// made into a safe, non-`const` `async fn` with no other `#[versioned]`.
/// A function `versioned![...]` could never list (with `self`, type or
/// const parameters, or an `impl Trait` argument) is replaced by a
/// handler of the same name that takes nothing and answers `""`, so that
/// its listing in `versioned![...]` adds no false "no #[versioned]
/// attribute" error (its body is checked once the signature is mended).
/// Under an actix-web route attribute, which turns the function into a
/// service type, it is emitted unchanged.
pub(crate) fn versioned_fn(error: &syn::Error, mut item: ItemFn) -> TokenStream {
    let error = error.to_compile_error();
    if item.attrs.iter().any(is_route_attr) {
        return quote!(#error #item);
    }
    let sig = &item.sig;
    let unlistable = sig.receiver().is_some()
        || sig
            .generics
            .params
            .iter()
            .any(|p| !matches!(p, GenericParam::Lifetime(_)))
        || sig.inputs.iter().any(|arg| match arg {
            FnArg::Typed(t) => matches!(*t.ty, Type::ImplTrait(_)),
            FnArg::Receiver(_) => false,
        });
    if unlistable {
        item.sig.generics = Default::default();
        item.sig.inputs = Default::default();
        item.sig.variadic = None;
        item.sig.output = syn::parse_quote!(-> &'static str);
        item.block = Box::new(syn::parse_quote!({ "" }));
        item.attrs
            .retain(|a| a.path().is_ident("cfg") || a.path().is_ident("doc"));
    }
    item.sig.asyncness = Some(Default::default());
    item.sig.constness = None;
    item.sig.unsafety = None;
    item.sig.abi = None;
    item.attrs.retain(|a| !is_versioned_attr(a));
    let placeholder = Constraint {
        kind: Kind::Range((0, 1), (0, 0)),
        text: String::new(),
        span: Span::call_site(),
    };
    let f = VersionedFn {
        item,
        constraints: vec![placeholder],
    };
    let expanded = crate::expand::versioned_fn(&f);
    quote!(#error #expanded)
}

/// `#[versioned(..)]` or `#[path::versioned(..)]`.
pub(crate) fn is_versioned_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "versioned")
}
