//! What the derive emits on a mistake: the errors, plus (for a type
//! without generics) a placeholder impl, so uses of the type report no
//! follow-on "`QueryValue` is not implemented" errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// `error`: `None` when serde's derive reports the mistake.
pub(crate) fn expand(input: &DeriveInput, error: Option<&syn::Error>) -> TokenStream {
    let error = error.map(syn::Error::to_compile_error);
    if !input.generics.params.is_empty() {
        return quote!(#error);
    }
    let ident = &input.ident;
    let q = quote!(::problem_core::query);
    quote! {
        #error

        #[automatically_derived]
        impl #q::QueryValue for #ident {
            const KIND: #q::ValueKind = #q::ValueKind::OneOf(&[]);
        }
    }
}
