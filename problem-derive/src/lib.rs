//! `#[derive(Problem)]`: use it through `problem_core::Problem`.
//!
//! The macro parses its input into a small AST (`ast.rs`, `attr.rs`,
//! `detail.rs`), checks every rule at compile time (`valid.rs`), then
//! generates the impls (`expand.rs`).
//!
//! The examples of `derive_problem.md` run as doctests of `problem-core`
//! (this crate cannot depend on `problem-core`, not even as a
//! dev-dependency: the cycle breaks `cargo test --workspace` doctests).
#![deny(missing_docs)]

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod ast;
mod attr;
mod detail;
mod docs;
mod expand;
mod fallback;
mod serde;
mod valid;

#[doc = include_str!("derive_problem.md")]
#[proc_macro_derive(Problem, attributes(problem))]
pub fn derive_problem(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input)
        .unwrap_or_else(|err| fallback::expand(&input, &err))
        .into()
}

fn derive(node: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let input = ast::Input::from_syn(node)?;
    valid::validate(&input)?;
    let mut tokens = expand::derive(&input);
    tokens.extend(expand::type_docs(&input, &docs::cases(node)));
    Ok(expand::scoped(&input, tokens))
}
