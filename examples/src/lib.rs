//! Examples of problem-core: the catalog service ([`catalog`]), the
//! project's main job, run with `cargo run --release -p examples --bin catalog`.
#![deny(missing_docs)]

pub mod catalog;

/// The README: every Rust snippet in it is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}
