//! `#[versioned(...)]`: use it through `problem_core::versioned`.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Marks a handler with the API versions it serves (stub until implemented).
#[proc_macro_attribute]
pub fn versioned(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}
