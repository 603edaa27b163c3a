//! `#[derive(Problem)]`: use it through `problem_core::Problem`.
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Derives `problem_core::Problem` (stub until implemented).
#[proc_macro_derive(Problem, attributes(problem))]
pub fn derive_problem(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
