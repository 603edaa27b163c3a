//! What the derive emits on a mistake: the errors, plus a placeholder impl
//! (with the type's own generics, when it has any), so uses of the type
//! report no follow-on "`QueryValue` is not implemented" errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// `error`: `None` when serde's derive reports the mistake.
pub(crate) fn expand(input: &DeriveInput, error: Option<&syn::Error>) -> TokenStream {
    let error = error.map(syn::Error::to_compile_error);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let q = quote!(::problem_core::query);
    quote! {
        #error

        #[automatically_derived]
        impl #impl_generics #q::QueryValue for #ident #ty_generics #where_clause {
            const KIND: #q::ValueKind = #q::ValueKind::OneOf(&[]);
        }
    }
}
