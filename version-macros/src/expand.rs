//! Code generation. Generated code uses absolute paths through
//! `::problem_core::__private::version` and compiles warning-free.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::{Attribute, FnArg, ItemFn, ReturnType};

use crate::ast::{Kind, Table, VersionedFn};
use crate::valid::display;

/// One constraint as a type of `problem_core::__private::version`.
fn kind(k: Kind) -> TokenStream {
    let v = quote!(::problem_core::__private::version);
    match k {
        Kind::Exact((major, minor)) => quote!(#v::Exact<#major, #minor>),
        Kind::Minimum((major, minor)) => quote!(#v::Minimum<#major, #minor>),
        Kind::Range((low_major, low_minor), (high_major, high_minor)) => {
            quote!(#v::Range<#low_major, #low_minor, #high_major, #high_minor>)
        }
    }
}

/// Whether the tokens name `Self`, outside nested `impl` and `trait`
/// blocks (where `Self` is their own type).
fn mentions_self(tokens: TokenStream) -> bool {
    let mut nested_item = false;
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) if i == "Self" => return true,
            TokenTree::Ident(i) => {
                if i == "impl" || i == "trait" {
                    nested_item = true;
                }
            }
            TokenTree::Group(g) => {
                if g.delimiter() == Delimiter::Brace && nested_item {
                    nested_item = false;
                } else if mentions_self(g.stream()) {
                    return true;
                }
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
    false
}

/// A lint level attribute (`allow`, `warn`, ...), which goes with the body.
fn is_lint_attr(attr: &Attribute) -> bool {
    ["allow", "warn", "deny", "forbid", "expect"]
        .iter()
        .any(|name| attr.path().is_ident(name))
}

/// The function with its output wrapped in `Versioned<R, C>`, where `C`
/// (`Constraints<(..)>`) carries its constraints as a type: no item is
/// generated beside the function, so it works as an associated function
/// too. The original body moves, unchanged, into an inner function of the
/// same signature, so patterns, `return` and `?` keep their meaning: a
/// function nested in the new one, or, when the function names `Self`
/// (an associated function, where a nested function could not), a hidden
/// associated function beside it.
pub(crate) fn versioned_fn(f: &VersionedFn) -> TokenStream {
    let ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = &f.item;
    let kinds = f.constraints.iter().map(|c| kind(c.kind));
    let output = match &sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    };
    let private = quote!(::problem_core::__private::version);
    let mut outer = sig.clone();
    outer.output =
        syn::parse_quote!(-> #private::Versioned<#output, #private::Constraints<(#(#kinds,)*)>>);
    let mut forwarded = Vec::new();
    for (n, input) in outer.inputs.iter_mut().enumerate() {
        if let FnArg::Typed(arg) = input {
            let ident = format_ident!("__versioned_arg{}", n, span = Span::mixed_site());
            arg.attrs.clear();
            *arg.pat = syn::parse_quote!(#ident);
            forwarded.push(ident);
        }
    }
    // The signature and the body apart: `-> impl Responder` in the
    // signature does not start an `impl` block whose braces would be the
    // body.
    if mentions_self(quote!(#sig)) || mentions_self(quote!(#block)) {
        let inner = inner_sig(sig, format_ident!("__versioned_inner_{}", sig.ident));
        let inner_name = &inner.ident;
        let cfgs = attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"));
        let (lints, others): (Vec<&Attribute>, Vec<&Attribute>) =
            attrs.iter().partition(|a| is_lint_attr(a));
        return quote! {
            #[doc(hidden)]
            #(#cfgs)*
            #(#lints)*
            #inner #block

            #(#others)*
            #vis #outer {
                #private::Versioned::new(Self::#inner_name(#(#forwarded),*).await)
            }
        };
    }
    let inner = inner_sig(
        sig,
        format_ident!("__versioned_inner", span = Span::mixed_site()),
    );
    let inner_name = &inner.ident;
    quote! {
        #(#attrs)*
        #vis #outer {
            #inner #block
            #private::Versioned::new(#inner_name(#(#forwarded),*).await)
        }
    }
}

/// The signature of the function that holds the original body: the
/// handler's, renamed, with its `async fn` keywords spanned in the macro.
///
/// The body is now only called, where actix-web took the handler as a
/// value: clippy's `unused_async` would fire on a handler without an
/// `.await`, and its advice (drop `async`) is one this macro refuses. A
/// lint attribute cannot silence it (`#[allow]` is error E0453 under the
/// user's `#![forbid(clippy::pedantic)]`); a function whose span starts in
/// the macro is generated code, which clippy's lints leave alone.
fn inner_sig(sig: &syn::Signature, ident: syn::Ident) -> syn::Signature {
    let mut inner = sig.clone();
    inner.ident = ident;
    inner.asyncness = Some(syn::Token![async](Span::call_site()));
    inner.fn_token = syn::Token![fn](Span::call_site());
    inner
}

/// The route: compile-time overlap assertions, then the registry.
pub(crate) fn table(t: &Table) -> TokenStream {
    // Each handler's constraints are read once, into a constant of their
    // own, so the overlap checks do not name it again. The constant and
    // the registration both go through `listed(&handler)`, spanned alike:
    // a listed non-handler, or a handler without `#[versioned]`, makes
    // two identical diagnostics, which rustc emits once.
    let names: Vec<syn::Ident> = (0..t.handlers.len())
        .map(|i| {
            format_ident!(
                "__PROBLEM_CORE_CONSTRAINTS_{}",
                i,
                span = Span::mixed_site()
            )
        })
        .collect();
    let consts = t.handlers.iter().zip(&names).map(|(path, name)| {
        quote_spanned! {path_span(path)=>
            const #name: &[::problem_core::__private::version::VersionConstraint] =
                ::problem_core::__private::version::listed(&#path).constraints;
        }
    });
    let mut asserts = Vec::new();
    for i in 0..t.handlers.len() {
        for j in i + 1..t.handlers.len() {
            let (a, b) = (&names[i], &names[j]);
            let message = format!(
                "versioned! handlers `{}` and `{}` accept overlapping API versions: make their #[versioned] constraints disjoint (if both name one handler, list it once)",
                display(&t.handlers[i]),
                display(&t.handlers[j])
            );
            // Spanned on the later handler: the entry to change.
            asserts.push(quote_spanned! {path_span(&t.handlers[j])=>
                const _: () = ::core::assert!(
                    !::problem_core::__private::version::VersionConstraint::any_overlap(#a, #b),
                    #message
                );
            });
        }
    }
    let registrations = t.handlers.iter().zip(&names).map(|(path, c)| {
        quote_spanned! {path_span(path)=>
            .constraints(
                ::core::iter::Iterator::copied(<[_]>::iter(#c)),
                (::problem_core::__private::version::listed(&#path).handler)(#path),
            )
        }
    });
    // Not spanned on the handler (where a fallback that is no handler
    // would be reported better): so spanned, clippy's `unused_async` fires
    // on an `async fn` fallback without `.await` (the pass case
    // `versioned_ok` checks it does not).
    let fallback = t.fallback.as_ref().map(|f| {
        let expr = &f.expr;
        quote!(.fallback(::problem_core::__private::version::RouteHandler::new(#expr)))
    });
    quote! {
        {
            #(#consts)*
            #(#asserts)*
            ::problem_core::__private::version::VersionedRoute::__checked(
                ::problem_core::__private::version::VersionedHandler::new()
                    #(#registrations)*
                    #fallback
            )
        }
    }
}

fn path_span(path: &syn::Path) -> proc_macro2::Span {
    path.segments
        .last()
        .map(|s| s.ident.span())
        .unwrap_or_else(proc_macro2::Span::call_site)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each listed handler goes through `listed` twice (its constant and
    /// its registration, whose identical diagnostics rustc emits once),
    /// whatever the number of overlap checks: a handler without the
    /// attribute is one error, not one per check (rustc does not merge
    /// different ones; `trybuild` would hide the repeats).
    #[test]
    fn each_handler_is_listed_once_per_use() {
        for (list, handlers) in [
            ("a", 1),
            ("a, b", 2),
            ("a, b, c", 3),
            ("a, b, c, fallback = d", 3),
        ] {
            let parsed: Table = syn::parse_str(list).unwrap();
            let out = table(&parsed).to_string();
            assert_eq!(out.matches("listed").count(), 2 * handlers, "{list}: {out}");
            assert_eq!(
                out.matches("any_overlap").count(),
                handlers * (handlers - 1) / 2,
                "{list}: {out}"
            );
        }
    }
}
