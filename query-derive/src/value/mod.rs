//! `#[derive(QueryValue)]`: an enum of unit variants is queryable as
//! `ValueKind::OneOf` of the names serde serializes its variants as.
//!
//! Its reading of `#[serde(..)]` (`ast.rs`) and serde's `rename_all` rules
//! (`rename.rs`) serve `#[derive(CollectionQuery)]` too, which checks that
//! serde serializes each field under its query name.
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
pub(crate) mod rename;
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
