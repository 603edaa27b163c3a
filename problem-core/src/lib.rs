//! # problem-core
//!
//! Every HTTP error of an actix-web application answered as an RFC 9457
//! problem document, collection query conventions and API versioning.
//!
//! - [`problem`]: problem documents and HTTP exceptions.
//! - [`pipeline`]: the error pipeline (masking, logging, framework errors).
//! - [`query`]: collection query conventions.
//! - [`version`]: API versioning.
//! - [`routing`], [`server`]: the route table and [`ProblemApp`].
//! - [`spec`]: every fixed detail (with its status) and limit of the spec.
//!
//! The items the specification names (`HttpException`, the exception
//! classes, `ProblemDetails`, `STATUS_TITLES`, `default_error_response`,
//! `with_headers`, `ErrorLog`, `log_error`, `redact_value`,
//! `LOGGED_MESSAGE_LENGTH`, `ApiVersion`, `V1`..`V3`, `VersionConfig`,
//! `VersionConstraint`, `VersionedHandler`, ...) are also re-exported at the
//! crate root: `use problem_core::{ApiVersion, HttpException};`.
//! - `openapi` (feature `openapi`): OpenAPI 3.1 schemas, parameters and
//!   per-version documents from the same types and derives.
//!
//! ```
//! use problem_core::{ApiVersion, HttpException, Problem, V2};
//! let err = HttpException::new(409).unwrap().with_detail("Duplicate ISBN");
//! assert_eq!(err.to_string(), "Duplicate ISBN");
//! assert_eq!(ApiVersion::parse("v2"), Ok(V2));
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod config;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
pub mod pipeline;
pub mod problem;
pub mod query;
pub mod routing;
pub mod server;
pub mod spec;
mod uri;
pub mod version;

pub use config::HttpConfigError;
pub use problem::*;

// The names the specification gives its operations and types, also at the
// root (each stays at its module's path, where its docs are).
pub use pipeline::{
    ErrorContext, ErrorLog, LOGGED_MESSAGE_LENGTH, Logger, MemoryLogger, RequestContext,
    default_error_response, log_error, redact, redact_value, with_headers,
};
pub use query::{Collection, CollectionParams, QueryConfig, TypedQuery};
pub use server::{ListenOptions, ProblemApp};
pub use version::{
    ApiVersion, V1, V2, V3, VersionConfig, VersionConstraint, VersionError, VersionHeaders,
    VersionParseError, VersionStrategy, VersionedHandler, api_version, header_version,
    query_version, url_version,
};

/// `#[derive(Problem)]`: a problem type with a fixed status, title and type
/// (the spec's user-defined exception subclass). Needs the default feature
/// `derive`. The generated code names `::problem_core`: with a renamed
/// dependency (`pc = { package = "problem-core", .. }`), add
/// `extern crate pc as problem_core;` at the crate root.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use problem_derive::Problem;

/// `#[versioned("1.0", "2.x")]`: marks an `async fn` handler with the API
/// versions it serves; combine such handlers into one route with
/// [`version::versioned!`](crate::version::versioned). The function keeps
/// its name and arguments and stays an actix-web handler; its output is
/// wrapped in [`version::Versioned`], answered exactly as the handler's
/// own output (call `.into_inner()` when calling the handler directly).
/// Needs the default feature `derive`.
///
/// `"2"` means exactly 2.0 (like `"2.0"`); write `"2.x"` for every 2.*.
/// The constraints say which versions a handler is registered for; which
/// handler serves a request is decided by
/// [`version::versioned!`](crate::version::versioned)'s dispatch (the
/// spec's `getCompatible`): a version no handler names, such as 2.5 with
/// only `"2"` and `"3.x"` registered, is served by the handler of the
/// highest registered version below it in the same major (here `"2"`).
/// It goes on a free `async fn` or an associated function of an inherent
/// `impl` without generic parameters: not on a method of a trait impl,
/// and the handler cannot use an enclosing `impl`'s generic parameters.
/// The generated code names `::problem_core`: with a renamed dependency
/// (`pc = { package = "problem-core", .. }`), add
/// `extern crate pc as problem_core;` at the crate root.
///
/// ```
/// use problem_core::{version, versioned};
///
/// struct Books;
///
/// impl Books {
///     // Exactly 2.0: it does not overlap `list_v21` below.
///     #[versioned("2")]
///     async fn list_v2() -> &'static str {
///         "books 2.0"
///     }
/// }
///
/// #[versioned("2.1+")]
/// async fn list_v21() -> &'static str {
///     "books 2.1 and later"
/// }
///
/// let _ = actix_web::web::get().to(version::versioned![Books::list_v2, list_v21]);
/// ```
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use version_macros::versioned;

/// `#[derive(CollectionQuery)]`: the whitelist of a collection's query
/// parameters (see [`query::CollectionQuery`]). Needs the default feature
/// `derive`. The generated code names `::problem_core`: with a renamed
/// dependency (`pc = { package = "problem-core", .. }`), add
/// `extern crate pc as problem_core;` at the crate root.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use query_derive::CollectionQuery;

/// `#[derive(QueryValue)]`: makes an enum of unit variants a queryable
/// field type (see [`query::QueryValue`]), as
/// [`ValueKind::OneOf`](query::ValueKind::OneOf) of the names serde
/// serializes its variants as (`#[serde(rename_all = "..")]` and
/// `#[serde(rename = "..")]` are read; `skip` and `skip_serializing`
/// variants are left out). Needs the default feature `derive`.
///
/// ```
/// use problem_core::query::{QueryValue as _, ValueKind};
/// use problem_core::{CollectionQuery, QueryValue};
///
/// #[derive(serde::Serialize, QueryValue)]
/// #[serde(rename_all = "kebab-case")]
/// enum Status {
///     Draft,
///     InPrint,
///     #[serde(rename = "gone")]
///     OutOfPrint,
///     #[serde(skip)]
///     Internal,
/// }
/// assert_eq!(Status::KIND, ValueKind::OneOf(&["draft", "in-print", "gone"]));
///
/// #[derive(CollectionQuery)]
/// #[allow(dead_code)]
/// struct BookQuery {
///     id: i64,
///     #[query(filter(eq, in), sort)]
///     status: Status,
/// }
/// ```
///
/// A variant holding data, a generic enum, or a serde attribute under which
/// a variant is not written as a string (`tag`, `untagged`, `into`...) is
/// a compile error saying what to write instead.
///
/// The names come from the serde attributes only: derive `Serialize` too.
/// With a hand-written `Serialize` the derive cannot see the names it
/// writes; implement [`query::QueryValue`] by hand then, listing them.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use query_derive::QueryValue;

/// The [`sea-query`](https://docs.rs/sea-query) crate this crate builds SQL
/// with (feature `sea-query`): use it through this path and your
/// `SelectStatement`s are always the ones
/// [`TypedQuery::apply_to`](query::TypedQuery::apply_to) takes, with no
/// version to match by hand. Its backends `backend-sqlite`,
/// `backend-postgres` and `with-time` are on.
///
/// ```
/// # #[cfg(feature = "sea-query")] {
/// use problem_core::sea_query::{Alias, Query, SqliteQueryBuilder};
/// let sql = Query::select().column(Alias::new("id")).from(Alias::new("books")).to_string(SqliteQueryBuilder);
/// assert_eq!(sql, r#"SELECT "id" FROM "books""#);
/// # }
/// ```
#[cfg(feature = "sea-query")]
#[cfg_attr(docsrs, doc(cfg(feature = "sea-query")))]
pub use sea_query;

#[doc(hidden)]
pub mod __private {
    pub use crate::problem::derive_support::{
        DebugProblem, ErrorSource, ExtensionBesideSource, ExtensionValue, FormatCount, HeaderText,
        SourceField, SourceIsDyn, SourceIsError, SourceIsOther, SyncField, debug_problem,
        extension, extension_beside_source, format_count, format_detail, header, status_code,
        sync_field,
    };
    pub use crate::problem::type_docs::{
        JsonTypeOf, ViaAnyJsonType, ViaKnownJsonType, member_doc, type_doc,
    };
    pub use crate::problem::{ABOUT_BLANK, Extensions, ProblemBuildError, standalone_response};
    pub use crate::query::derive_support::{QueryableChecks, UnqueryableChecks, ValueCheck};
    pub use crate::version::__private as version;
    pub use actix_web;
    pub use actix_web::http::StatusCode;
    pub use actix_web::http::header::HeaderMap;
    pub use core::fmt;
    pub use core::format_args;
    pub use core::marker::{Send, Sync};
    pub use core::option::Option::{self, None, Some};
    pub use core::result::Result::{self, Err, Ok};
    pub use serde;
    pub use serde_json;
    pub use std::borrow::Cow;
    pub use std::error::Error;
    pub use std::string::String;
    pub use std::vec::Vec;

    /// Expands the items it is given with the feature `openapi`, to nothing
    /// without it: the derives wrap their `utoipa` impls in it.
    pub use crate::__problem_core_openapi_items as openapi_items;
    /// Items of the generated `utoipa` impls (feature `openapi`).
    #[cfg(feature = "openapi")]
    pub use crate::openapi::__private as openapi;
}

#[cfg(feature = "openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __problem_core_openapi_items {
    ($($item:tt)*) => { $($item)* };
}

#[cfg(not(feature = "openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __problem_core_openapi_items {
    ($($item:tt)*) => {};
}

/// The derives compile warning-free with and without the feature `openapi`
/// (which adds their `utoipa` impls); this doctest runs in both builds.
///
/// ```
/// #![deny(warnings)]
/// use problem_core::query::CollectionQuery as _;
/// use problem_core::{CollectionQuery, Problem};
///
/// #[derive(Debug, Problem)]
/// #[problem(status = 409, type = "/problems/duplicate-isbn", detail = "ISBN {isbn} exists")]
/// struct DuplicateIsbn {
///     isbn: String,
///     #[problem(header = "Retry-After")]
///     retry: Option<u32>,
/// }
///
/// #[derive(Debug, Problem)]
/// enum CatalogError {
///     #[problem(status = 404)]
///     Missing,
///     #[problem(status = 503)]
///     Down { window: Vec<String> },
/// }
///
/// #[derive(Debug, Problem)]
/// #[problem(status = 422)]
/// struct Wrapped<T: std::fmt::Debug + serde::Serialize + Send + Sync + 'static> {
///     value: T,
/// }
///
/// #[derive(CollectionQuery)]
/// struct BookQuery {
///     #[query(filter(eq, in), sort)]
///     id: i64,
/// }
///
/// fn main() {
///     let errors: Vec<Box<dyn Problem>> = vec![
///         Box::new(DuplicateIsbn { isbn: "1".into(), retry: None }),
///         Box::new(CatalogError::Missing),
///         Box::new(CatalogError::Down { window: vec![] }),
///         Box::new(Wrapped { value: 1u8 }),
///     ];
///     assert_eq!(errors.len(), 4);
///     assert_eq!(BookQuery::SCHEMA.key, "id");
/// }
/// ```
#[cfg(all(doctest, feature = "derive"))]
pub struct DerivesAreWarningFree;
