//! What the derive emits when the input has a mistake: the error(s) plus
//! placeholder impls of `Display`, `Error`, `Problem`, `ResponseError`,
//! `DocumentedProblem` (`ProblemAppBuilder::problem_type`)
//! (as `thiserror-impl`'s `fallback.rs`), so code using the type compiles
//! on and the user sees the real mistake alone, not follow-on errors.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput};

pub(crate) fn expand(input: &DeriveInput, error: &syn::Error) -> TokenStream {
    let p = quote!(::problem_core::__private);
    let o = quote!(::problem_core::__private::openapi);
    let error = error.to_compile_error();
    // The ident itself (`r#match` stays raw), located at the derive.
    let mut ident = input.ident.clone();
    ident.set_span(Span::call_site());
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let extra = |bound: TokenStream| match where_clause {
        // `for<'workaround>` makes the bound on a concrete type legal
        // (trivial bounds are unstable), as thiserror does.
        Some(w) => {
            // Each predicate with its own comma: the user's list may end
            // with one (rustfmt writes it on a multi-line `where`).
            let preds = w.predicates.iter();
            quote!(where #(#preds,)* for<'workaround> #ident #ty_generics: #bound)
        }
        None => quote!(where for<'workaround> #ident #ty_generics: #bound),
    };
    let error_where = extra(quote!(#p::fmt::Debug));
    let problem_where = extra(quote!(#p::fmt::Debug + #p::Send + #p::Sync + 'static));
    // With thiserror's `#[error(..)]` (the mistake reported), thiserror's
    // derive writes `Display` and `Error`: placeholders would conflict.
    let display_and_error = (!has_thiserror_attr(input)).then(|| {
        quote! {
            #[automatically_derived]
            #[allow(unused_qualifications)]
            impl #impl_generics #p::fmt::Display for #ident #ty_generics #where_clause {
                fn fmt(&self, _: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            #[allow(unused_qualifications)]
            impl #impl_generics #p::Error for #ident #ty_generics #error_where {}
        }
    });
    quote! {
        #error

        #display_and_error

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics ::problem_core::Problem for #ident #ty_generics #problem_where {
            fn status(&self) -> #p::StatusCode {
                ::core::unreachable!()
            }
            fn name(&self) -> &'static str {
                ::core::unreachable!()
            }
        }

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics #p::actix_web::ResponseError for #ident #ty_generics #problem_where {}

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics ::problem_core::DocumentedProblem for #ident #ty_generics #where_clause {
            fn problem_type_docs() -> #p::Vec<::problem_core::ProblemTypeDoc> {
                ::core::unreachable!()
            }
        }

        ::problem_core::__private::openapi_items! {
            #[automatically_derived]
            impl #impl_generics #o::PartialSchema for #ident #ty_generics #where_clause {
                fn schema() -> #o::RefOr<#o::Schema> {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics #o::ToSchema for #ident #ty_generics #where_clause {}

            #[automatically_derived]
            impl #impl_generics #o::IntoResponses for #ident #ty_generics #where_clause {
                fn responses() -> #o::BTreeMap<#p::String, #o::RefOr<#o::Response>> {
                    ::core::unreachable!()
                }
            }
        }
    }
}

/// Whether the type or a variant has thiserror's `#[error(..)]`.
fn has_thiserror_attr(input: &DeriveInput) -> bool {
    let variants = match &input.data {
        Data::Enum(data) => data.variants.iter().map(|v| v.attrs.as_slice()).collect(),
        Data::Struct(_) | Data::Union(_) => Vec::new(),
    };
    std::iter::once(input.attrs.as_slice())
        .chain(variants)
        .any(|attrs| crate::attr::thiserror_attr(attrs).is_some())
}
