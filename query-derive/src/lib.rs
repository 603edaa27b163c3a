//! `#[derive(CollectionQuery)]`: use it through `problem_core::CollectionQuery`.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Derives `problem_core::query::CollectionQuery` (stub until implemented).
#[proc_macro_derive(CollectionQuery, attributes(query))]
pub fn derive_collection_query(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
