//! What the derive emits when the input has a mistake: the error(s) plus a
//! placeholder `CollectionQuery` impl (as `thiserror-impl`'s `fallback.rs`),
//! so code using the type compiles on and the user sees the real mistake
//! alone, not follow-on "trait not implemented" errors.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Ident};

pub(crate) fn expand(input: &DeriveInput, error: &syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    // The ident itself (`r#BookQuery` stays raw), located at the derive.
    let mut ident = input.ident.clone();
    ident.set_span(Span::call_site());
    let resource = input.ident.unraw().to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // The placeholder impls need `Self: 'static` (`CollectionQuery`'s
    // supertrait): every type parameter gets the bound, and every lifetime
    // is `'static` (`Q<'static>`, the only `Q<'a>` a `CollectionQuery` can
    // be), so that uses of the type add no errors.
    let mut generics = input.generics.clone();
    generics.params = generics
        .params
        .into_iter()
        .filter(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
        .map(|mut p| {
            if let syn::GenericParam::Type(t) = &mut p {
                t.bounds = without_lifetimes(&t.bounds);
            }
            p
        })
        .collect();
    // Bounds naming the lifetimes are `'static` ones now: left out.
    if let Some(w) = &mut generics.where_clause {
        w.predicates = w
            .predicates
            .iter()
            .filter_map(|pred| match pred {
                syn::WherePredicate::Lifetime(_) => None,
                syn::WherePredicate::Type(t) => {
                    let mut t = t.clone();
                    t.bounds = without_lifetimes(&t.bounds);
                    (!t.bounds.is_empty()).then_some(syn::WherePredicate::Type(t))
                }
                other => Some(other.clone()),
            })
            .collect();
    }
    let type_params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let predicates = &mut generics.make_where_clause().predicates;
    for param in &type_params {
        predicates.push(syn::parse_quote!(#param: 'static));
    }
    let (static_impl, _, static_where) = generics.split_for_impl();
    let static_args = input.generics.params.iter().map(|p| match p {
        syn::GenericParam::Lifetime(_) => quote!('static),
        syn::GenericParam::Type(t) => {
            let ident = &t.ident;
            quote!(#ident)
        }
        syn::GenericParam::Const(c) => {
            let ident = &c.ident;
            quote!(#ident)
        }
    });
    let static_ty = if input.generics.params.is_empty() {
        quote!()
    } else {
        quote!(<#(#static_args),*>)
    };
    let q = quote!(::problem_core::query);
    // Marks the fields as read, as the real expansion does: no dead-code
    // warnings on top of the error.
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(n) => {
                let idents: Vec<&Ident> = n.named.iter().filter_map(|f| f.ident.as_ref()).collect();
                Some(quote! {
                    impl #impl_generics #ident #ty_generics #where_clause {
                        #[allow(dead_code, clippy::all)]
                        #[doc(hidden)]
                        fn __collection_query_fields(self) -> Self {
                            let Self { #(#idents),* } = self;
                            Self { #(#idents),* }
                        }
                    }
                })
            }
            Fields::Unnamed(_) | Fields::Unit => None,
        },
        Data::Enum(_) | Data::Union(_) => None,
    };
    quote! {
        #error

        #[automatically_derived]
        impl #static_impl #q::CollectionQuery for #ident #static_ty #static_where {
            const SCHEMA: &'static #q::QuerySchema = &#q::QuerySchema {
                resource: #resource,
                key: "",
                default_sort: &[],
                page_size: #q::PageSizeLimits { default: 1, max: 1 },
                fields: &[],
            };
        }

        ::problem_core::__private::openapi_items! {
            #[automatically_derived]
            impl #static_impl ::problem_core::__private::openapi::IntoParams for #ident #static_ty #static_where {
                fn into_params(
                    _: impl ::core::ops::Fn() -> ::core::option::Option<::problem_core::__private::openapi::ParameterIn>,
                ) -> ::problem_core::__private::openapi::Vec<::problem_core::__private::openapi::Parameter> {
                    ::core::unreachable!()
                }
            }
        }

        const _: () = { #fields };
    }
}

/// `bounds` without its lifetimes (`T: 'a + Clone` gives `Clone`).
fn without_lifetimes(
    bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
) -> syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]> {
    bounds
        .iter()
        .filter(|b| !matches!(b, syn::TypeParamBound::Lifetime(_)))
        .cloned()
        .collect()
}
