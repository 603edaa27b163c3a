//! Generating the `QueryValue` impl: `ValueKind::OneOf` of the names.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub(crate) fn expand(input: &DeriveInput, names: &[String]) -> TokenStream {
    let ident = &input.ident;
    let q = quote!(::problem_core::query);
    quote! {
        #[automatically_derived]
        impl #q::QueryValue for #ident {
            const KIND: #q::ValueKind = #q::ValueKind::OneOf(&[#(#names),*]);
        }
    }
}
