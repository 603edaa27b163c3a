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
    // supertrait): every type parameter gets the bound.
    let mut generics = input.generics.clone();
    let type_params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let predicates = &mut generics.make_where_clause().predicates;
    for param in &type_params {
        predicates.push(syn::parse_quote!(#param: 'static));
    }
    let (_, _, static_where) = generics.split_for_impl();
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
    if input.generics.lifetimes().next().is_some() {
        // The derive supports no generic parameters (the error says so),
        // and with a lifetime a placeholder impl (`Self: 'static`) would
        // only add lifetime errors of its own. Type and const parameters
        // get one, so that uses of the type add no errors.
        return quote! {
            #error
            const _: () = { #fields };
        };
    }
    quote! {
        #error

        #[automatically_derived]
        impl #impl_generics #q::CollectionQuery for #ident #ty_generics #static_where {
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
            impl #impl_generics ::problem_core::__private::openapi::IntoParams for #ident #ty_generics #static_where {
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
