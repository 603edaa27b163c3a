//! `#[derive(QueryValue)]`: an enum of unit variants is queryable as
//! `ValueKind::OneOf` of the names serde serializes its variants as.
//!
//! It reads `#[serde(..)]` and applies serde's `rename_all` rules with
//! `query_operators::derive_support` (shared with the other derives);
//! `#[derive(CollectionQuery)]` uses the same to check that serde
//! serializes each field under its query name.
//!
//! As the `CollectionQuery` derive: parse (`ast.rs`: the enum and what its
//! `#[serde(..)]` attributes say about serialization), validate
//! (`valid.rs`: the names, or one spanned error per mistake), generate
//! (`expand.rs`), and on a mistake the errors plus a placeholder impl
//! (`fallback.rs`).

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) mod ast;
mod expand;
mod fallback;
mod valid;

pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let names = match ast::Input::from_syn(input) {
        Ok(ast) => valid::names(&ast),
        Err(err) => Err(Some(err)),
    };
    match names {
        Ok(names) => expand::expand(input, &names),
        Err(err) => fallback::expand(input, err.as_ref()),
    }
}
