//! Collection query conventions (spec, "Collection request" and the
//! parameter tables under "Resources and fields").
//!
//! - Untyped parsing of each part, or all at once: [`Pagination`], [`Sort`],
//!   [`Filter`], [`Search`], [`FieldSelection`], [`CursorPagination`],
//!   [`CollectionParams`], from a [`RawQuery`] (decoded with
//!   `form_urlencoded`, never serde).
//! - Typed queries: `#[derive(CollectionQuery)]` describes a resource's
//!   whitelist ([`CollectionQuery`], [`QuerySchema`]); [`TypedQuery`] is a
//!   request parsed against it; [`Collection`] is the actix-web extractor,
//!   configured by [`QueryConfig`].
//! - Applying: in memory (`memory`), to SQL through sea-query (`sql`,
//!   feature `sea-query`), with signed keyset cursors that page forward
//!   (`meta.next_cursor`) and backward (`meta.prev_cursor`, the same page
//!   as the forward walk visited, in the same order).
//! - Responses: [`Page`], [`CursorPage`], the bare-array [`BareList`] and the
//!   RFC 8288 [`LinkHeader`].
//! - Totals of offset pages: [`CountStrategy`] (`exact`, `estimated`,
//!   `none`), the application's default on [`QueryConfig`], the client's
//!   `Prefer: count=...` (RFC 7240, [`prefer_count`]) answered with
//!   `Preference-Applied` and, when the request carried `Prefer`, `Vary:
//!   Prefer`; an estimated [`Total`] sets
//!   `meta.total_is_estimate`.
//! - Tolerated parameters ([`ToleratedParameters`],
//!   [`QueryConfig::tolerate`]): names and `prefix*` patterns strict parsing
//!   accepts and ignores.
//!
//! ```
//! use problem_core::CollectionQuery;
//! use problem_core::query::{QueryConfig, TypedQuery};
//!
//! #[derive(CollectionQuery, serde::Serialize)]
//! #[query(key = "id")]
//! struct Book {
//!     #[query(filter(eq, gte), sort)]
//!     id: i64,
//!     #[query(filter(contains), sort, search)]
//!     title: String,
//! }
//! let books = [(1, "Dune"), (2, "Emma"), (3, "Dune Messiah")].map(|(id, t)| Book { id, title: t.into() });
//! let query = "q=dune&sort=-id&per_page=1&fields=title";
//! let q = TypedQuery::<Book>::from_query_str(query, &QueryConfig::default()).unwrap();
//! assert_eq!(
//!     q.page_in_memory(&books).unwrap().to_json("/books", query).unwrap(),
//!     serde_json::json!({
//!         "data": [{"title": "Dune Messiah"}],
//!         "meta": {"page": 1, "per_page": 1, "total": 2, "total_pages": 2},
//!         "links": {
//!             "self": "/books?q=dune&sort=-id&per_page=1&fields=title",
//!             "first": "/books?q=dune&sort=-id&per_page=1&fields=title&page=1",
//!             "next": "/books?q=dune&sort=-id&per_page=1&fields=title&page=2",
//!             "last": "/books?q=dune&sort=-id&per_page=1&fields=title&page=2"
//!         }
//!     })
//! );
//! let err = TypedQuery::<Book>::from_query_str("id__gte=x&sort=isbn", &QueryConfig::default()).unwrap_err();
//! let codes: Vec<&str> = err.issues().iter().map(|i| i.code.as_ref()).collect();
//! assert_eq!(codes, ["not_sortable", "invalid_value"]);
//! ```
//!
//! Every query error is a value: [`QueryError`], answered as a 400
//! `ValidationException` whose `issues` list holds every issue of the
//! request (location `query`, the parameter name as sent, percent-decoded, a stable [`code`]).
//!
//! # Choices where the spec is silent
//! - A single-valued parameter (`page`, `per_page`, `limit`, `cursor`,
//!   `q`, `search`, a filter other than `__in`/`__not_in`) repeated with the
//!   same value is accepted; with different values it is
//!   `conflicting_parameters` (name = the parameter). List-valued ones
//!   (`sort`, `fields`, `exclude`, `search_fields`, `__in`, `__not_in`)
//!   repeated are joined: `sort=a&sort=b` means `sort=a,b`.
//! - `per_page`/`limit` conflicts are reported under `per_page`, `q`/`search`
//!   under `q`, `cursor`/`page` under `cursor`; each such issue lists both
//!   names in `parameters`.
//! - A plain parameter that is no filterable field is `unknown_parameter`;
//!   `name__op` with a real operator on a field that is not filterable is
//!   `unknown_field`; both list the filterable fields in `allowed`. An
//!   operator that does not exist or is not allowed on the field is
//!   `operator_not_allowed` listing the field's operators. `field__eq=` is
//!   accepted as the explicit form of `field=`.
//! - A sort, search or selection naming a field that does not exist is
//!   reported like one that exists but is not marked: `not_sortable`,
//!   `not_searchable`, `not_selectable` with `allowed`.
//! - Empty `sort=`, `fields=`, `exclude=`, `search_fields=`, `q=`,
//!   `search=`, `cursor=` (and a `q` or `search` of whitespace only) mean
//!   "not given", also beside a value or a synonym
//!   (`sort=&sort=id` is `sort=id`, `q=&search=dune` searches `dune`); an
//!   empty entry inside one of these lists (`sort=a,,b`) is
//!   `invalid_value`. In a filter's list (`__in`, `__not_in`) an empty
//!   entry is the empty value: the empty text of a text field
//!   (`genre__in=a,,b` matches `""` too), and `invalid_value` for a field
//!   of another type.
//! - Values of `__in`/`__not_in` cannot contain commas.
//! - Nulls sort first ascending and last descending everywhere (SQL uses
//!   `NULLS FIRST`/`NULLS LAST` on nullable columns).
//! - Text compares by code point (memory, SQLite); on PostgreSQL use a `C`
//!   collation for the same order. Search folds case by Unicode simple
//!   case folding ([`fold_case`]) in memory, and in SQL against the field's
//!   `folded_column` (a column the application fills with [`fold_case`] of
//!   the value), so every database finds the same rows; a searched field
//!   without one falls back to the database's `LOWER`, which folds ASCII
//!   only on SQLite, and on PostgreSQL under that `C` collation.
//! - Date-times are compared in UTC; store them in UTC.
//! - At most 20 search terms (`too_many_values`).
//! - Page size 0 or negative and `page` below 1 are `out_of_range`; non
//!   integers `invalid_value` with `expected: "integer"`.

mod combined;
mod count;
mod cursor;
pub(crate) mod derive_support;
mod error;
mod extract;
mod fields;
mod filter;
mod fold;
pub mod memory;
mod page;
mod pagination;
mod params;
mod search;
mod sort;
#[cfg(feature = "sea-query")]
#[cfg_attr(docsrs, doc(cfg(feature = "sea-query")))]
pub mod sql;
mod text;
mod tolerated;
mod typed;
mod value;

pub use combined::CollectionParams;
pub use count::{
    CountStrategy, DEFAULT_ESTIMATE_THRESHOLD, PREFER, PREFERENCE_APPLIED, Total,
    UnknownCountStrategy, explain_plan_rows, prefer_count,
};
pub use cursor::{CursorKeys, CursorPagination, MAX_CURSOR_LENGTH, MIN_CURSOR_KEY_LENGTH};
pub use error::{ApplyError, QueryError, code};
pub(crate) use error::{nul_issue, repeated_parameter};
pub(crate) use extract::random_cursor_keys;
pub use extract::{Collection, QueryConfig, RANDOM_CURSOR_KEY_WARNING};
pub use fields::FieldSelection;
#[cfg(feature = "openapi")]
pub(crate) use filter::prefix_may_name_filter;
#[cfg(feature = "openapi")]
pub(crate) use filter::{Class, is_filter_parameter};
pub use filter::{Filter, FilterCondition, Operand, Operator, UnknownOperator, escape_like};
pub use fold::fold_case;
pub use page::{
    BareList, CursorMeta, CursorPage, LinkHeader, Links, Page, PageMeta, X_TOTAL_COUNT,
    request_path,
};
pub use pagination::{PageSizeLimits, Pagination};
pub use params::{
    DEFAULT_MAX_FILTERS, DEFAULT_MAX_PAGE_SIZE, DEFAULT_MAX_VALUE_LENGTH, DEFAULT_PAGE_SIZE,
    MAX_LIST_VALUES, MAX_SEARCH_TERMS, QueryLimits, RESERVED_PARAMETERS, RawQuery, is_reserved,
};
pub(crate) use params::{form_decode, over_parameter_limit, query_nul_issues};
pub use search::Search;
pub use sort::{Direction, Sort, SortField};
pub use text::QueryText;
pub use tolerated::ToleratedParameters;
pub use typed::{CollectionQuery, FieldSpec, QuerySchema, TypedQuery};
pub use value::{FieldValue, OrderedValue, QueryValue, TextValue, ValueKind};
