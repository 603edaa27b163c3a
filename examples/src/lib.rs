//! Examples of problem-core: the catalog service ([`catalog`]), the
//! project's main job, run with `cargo run --release -p examples --bin catalog`.
#![deny(missing_docs)]

pub mod catalog;
