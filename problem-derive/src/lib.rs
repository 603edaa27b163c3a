//! `#[derive(Problem)]`: use it through `problem_core::Problem`.
//!
//! The macro parses its input into a small AST (`ast.rs`, `attr.rs`,
//! `detail.rs`), checks every rule at compile time (`valid.rs`), then
//! generates the impls (`expand.rs`).
#![deny(missing_docs)]

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod ast;
mod attr;
mod detail;
mod expand;
mod valid;

/// Derives `Display`, `std::error::Error`, `problem_core::Problem` and
/// `actix_web::ResponseError`: a problem type with a fixed status, title and
/// type, the Rust form of the spec's "users may extend the exception class
/// for recurring statuses or problem types" (RFC 9457; spec "HTTP
/// exception").
///
/// ```
/// use problem_core::Problem;
///
/// #[derive(Debug, Problem)]
/// #[problem(status = 409, title = "Conflict", type = "/problems/duplicate-isbn",
///           detail = "A book with ISBN {isbn} already exists")]
/// struct DuplicateIsbn {
///     isbn: String,
///     #[problem(skip)]
///     internal_id: i64,
/// }
///
/// let err = DuplicateIsbn { isbn: "978-0".into(), internal_id: 7 };
/// assert_eq!(err.to_string(), "A book with ISBN 978-0 already exists");
/// assert_eq!(err.name(), "DuplicateIsbn");
/// assert_eq!(
///     serde_json::to_string(&err.to_problem("/books").unwrap()).unwrap(),
///     r#"{"type":"/problems/duplicate-isbn","title":"Conflict","status":409,"detail":"A book with ISBN 978-0 already exists","instance":"/books","isbn":"978-0"}"#
/// );
/// ```
///
/// # Keys of the type (`#[problem(...)]` above a struct or a variant)
///
/// | Key | Value | Default |
/// |---|---|---|
/// | `status` | integer literal, 400 to 599, checked at compile time | required |
/// | `title` | string literal | `problem_core::status_title(status)` at run time |
/// | `type` | string literal, the problem type URI | `about:blank` |
/// | `detail` | format string over the fields | no detail |
///
/// `detail` is a `format!` string whose placeholders name fields: `{isbn}`
/// for a named field, `{0}` for a tuple field, with any format spec
/// (`{isbn:?}`, `{0:>8}`, `{amount:.2}`, a width from a field
/// `{code:>width$}`); `{{` and `}}` are literal braces. A placeholder that
/// names no field, and `{}` without a name, are compile errors. A detail may
/// use any field, including skipped, header and source fields.
///
/// # Keys of a field (`#[problem(...)]` on a field)
///
/// | Key | Meaning |
/// |---|---|
/// | `skip` | not an extension member (still usable in `detail`) |
/// | `rename = "bookId"` | the extension member's name (default: the field's name, `r#` stripped) |
/// | `source` | the cause, returned by `std::error::Error::source`, never serialized or sent |
/// | `header = "Retry-After"` | sent as a response header (the field's `Display`) instead of an extension member; the name is checked at compile time |
///
/// - **Extension members.** Every named field that is not `skip`, `source`
///   or `header` is an extension member, serialized with `serde_json`
///   (its type must implement `serde::Serialize`), in field order. A value
///   that fails to serialize makes `Problem::extensions` return
///   `ProblemBuildError::Extension` (the pipeline then answers a masked 500);
///   it never panics. Extension members named like the standard members
///   follow the spec's rules (`type`, `title`, `status`, `instance` always
///   give way; `detail` gives way when there is a detail).
/// - **Tuple fields** have no name, so they are not extension members
///   unless given one with `rename`; they can always be used in `detail`
///   as `{0}`, `{1}`, ...
/// - **`Option` fields** (a type written `Option<T>`) are left out when
///   `None`: no extension member, no header. When `Some`, the inner value
///   is used.
/// - **The source**: a field marked `source`, else a field named `source`
///   (as in `thiserror`) unless it is marked `skip`, `rename` or `header`.
///   Its type is an error type, `Box<dyn Error + Send + Sync>`, or an
///   `Option` of either. At most one field per struct or variant is marked
///   `source`.
/// - **Headers**: the value is the field's `Display`; a value that is not a
///   valid header value (e.g. with a line break) makes `Problem::headers`
///   return `ProblemBuildError::Header`, never a panic. Header fields are
///   sent for 4xx and 5xx alike.
///
/// # Enums
///
/// Each variant carries its own `#[problem(...)]`. A `#[problem(...)]` on
/// the enum itself gives defaults (`status`, `title`, `type`) for every
/// variant, which a variant's own keys override. `detail` names fields, so
/// it is only allowed on variants. `name()` is the enum's name for every
/// variant.
///
/// ```
/// use problem_core::Problem;
///
/// #[derive(Debug, Problem)]
/// #[problem(type = "/problems/catalog")]
/// enum CatalogError {
///     #[problem(status = 404, detail = "Book {0} not found")]
///     BookNotFound(u64),
///     #[problem(status = 429, detail = "Slow down")]
///     RateLimited {
///         #[problem(header = "Retry-After")]
///         retry_after: u32,
///         limit: u32,
///     },
///     #[problem(status = 503, type = "/problems/maintenance")]
///     Maintenance,
/// }
///
/// let err = CatalogError::BookNotFound(7);
/// assert_eq!((err.status().as_u16(), err.problem_type()), (404, "/problems/catalog"));
/// assert_eq!(err.to_string(), "Book 7 not found");
/// assert_eq!(err.name(), "CatalogError");
///
/// let err = CatalogError::RateLimited { retry_after: 30, limit: 100 };
/// assert_eq!(err.headers().unwrap().get("retry-after").unwrap(), "30");
/// assert_eq!(err.extensions().unwrap().get("limit"), Some(&serde_json::json!(100)));
///
/// let err = CatalogError::Maintenance;
/// assert_eq!(err.title(), "Service Unavailable");
/// assert_eq!(err.to_string(), "Service Unavailable");
/// ```
///
/// # What is generated
///
/// - `Display`: the message, i.e. the detail, else the title (spec:
///   "message is its detail, or its title").
/// - `std::error::Error` with `source()` from the source field.
/// - `problem_core::Problem`: `status`, `problem_type`, `title`, `detail`,
///   `extensions`, `headers`, and `name` = the type's own name without its
///   path (`"DuplicateIsbn"`).
/// - `actix_web::ResponseError`: a handler returning the type as its error
///   answers with the problem document (see `problem_core::standalone_response`
///   and the error pipeline).
///
/// Generic types work; a bound is added per field type that mentions a type
/// parameter (`Serialize` for extension members, `Display` for headers and
/// the formatting trait of each `detail` placeholder, `Error + 'static`
/// for the source), and the `Problem` impl requires `Self: Debug + Send +
/// Sync + 'static`. The generated code names only `::problem_core::...`
/// paths and compiles under `#![deny(warnings)]`.
///
/// # Caller overrides
///
/// The spec's subclass "lets the caller override options": any problem value
/// can be wrapped with `problem_core::ProblemExt::customize`, which replaces
/// the detail and adds extension members and headers while keeping the
/// status, type, title, name and cause.
///
/// ```
/// use problem_core::{Problem, ProblemExt};
///
/// #[derive(Debug, Problem)]
/// #[problem(status = 404, detail = "Book {id} not found")]
/// struct BookNotFound { id: u64 }
///
/// let err = BookNotFound { id: 7 }
///     .customize()
///     .with_detail("Book 7 was withdrawn")
///     .with_extension("withdrawn", true)
///     .with_header(("Cache-Control", "no-store"));
/// assert_eq!(err.to_string(), "Book 7 was withdrawn");
/// assert_eq!(err.name(), "BookNotFound");
/// assert_eq!(
///     serde_json::to_string(&err.to_problem("/books/7").unwrap()).unwrap(),
///     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 was withdrawn","instance":"/books/7","id":7,"withdrawn":true}"#
/// );
/// ```
///
/// # Compile errors
///
/// Each mistake is an error on the offending token saying what to write:
/// a missing `status`, a status outside 400..=599 or not an integer
/// literal, an unknown or duplicate key, a field key on the type (or the
/// reverse), a `detail` placeholder that names no field, an invalid header
/// name, two `source` fields, conflicting field keys (`skip` with `rename`,
/// ...), two fields with the same extension member name, an empty `type`,
/// `detail` on an enum, and unions.
#[proc_macro_derive(Problem, attributes(problem))]
pub fn derive_problem(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn derive(node: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let input = ast::Input::from_syn(node)?;
    valid::validate(&input)?;
    Ok(expand::derive(&input))
}
