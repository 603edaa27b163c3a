//! # problem-core
//!
//! Every HTTP error of an actix-web application answered as an RFC 9457
//! problem document, collection query conventions and API versioning.
//!
//! - [`problem`]: problem documents and HTTP exceptions.
//! - [`pipeline`]: the error pipeline (masking, logging, framework errors).
//! - [`query`]: collection query conventions.
//! - [`version`]: API versioning.
//!
//! ```
//! use problem_core::{HttpException, Problem};
//! let err = HttpException::new(409).unwrap().with_detail("Duplicate ISBN");
//! assert_eq!(err.to_string(), "Duplicate ISBN");
//! ```
#![deny(missing_docs)]

pub mod config;
pub mod pipeline;
pub mod problem;
pub mod query;
pub mod version;

pub use config::HttpConfigError;
pub use problem::*;

/// `#[derive(Problem)]`: a problem type with a fixed status, title and type
/// (the spec's user-defined exception subclass).
#[cfg(feature = "derive")]
pub use problem_derive::Problem;

/// `#[derive(CollectionQuery)]`: the whitelist of a collection's query
/// parameters (see [`query::CollectionQuery`]).
#[cfg(feature = "derive")]
pub use query_derive::CollectionQuery;

#[doc(hidden)]
pub mod __private {
    pub use crate::problem::standalone_response;
    pub use actix_web;
    pub use serde_json;
}
