//! Collection query conventions (spec, "Collection request" and the
//! parameter tables under "Resources and fields"; the crate's design rules,
//! "Collection queries").
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
//!   `Preference-Applied` and `Vary: Prefer`; an estimated [`Total`] sets
//!   `meta.total_is_estimate`.
//! - Tolerated parameters ([`ToleratedParameters`],
//!   [`QueryConfig::tolerate`]): names and `prefix*` patterns strict parsing
//!   accepts and ignores.
//!
//! Every query error is a value: [`QueryError`], answered as a 400
//! `ValidationException` whose `issues` list holds every issue of the
//! request (location `query`, the parameter name as sent, a stable [`code`]).
//!
//! # Choices where the spec is silent
//! - A reserved parameter repeated with the same value is accepted; with
//!   different values it is `conflicting_parameters` (name = the parameter).
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
//! - Empty `sort=`, `fields=`, `exclude=`, `q=`, `cursor=` mean "not given";
//!   an empty entry inside a list (`a,,b`) is `invalid_value`.
//! - A repeated filter parameter adds one condition per value (all must hold).
//! - Values of `__in`/`__not_in` cannot contain commas.
//! - Nulls sort first ascending and last descending everywhere (SQL uses
//!   `NULLS FIRST`/`NULLS LAST` on nullable columns).
//! - Text compares by code point (memory, SQLite); on PostgreSQL use a `C`
//!   collation for the same order. Search lowercases with Unicode rules in
//!   memory and with the database's `LOWER` in SQL (SQLite folds ASCII only).
//! - Date-times are compared in UTC; store them in UTC.
//! - At most 20 search terms (`too_many_values`).
//! - Page size 0 or negative and `page` below 1 are `out_of_range`; non
//!   integers `invalid_value` with `expected: "integer"`.

mod combined;
mod count;
mod cursor;
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
    explain_plan_rows, prefer_count,
};
pub use cursor::{CursorKeys, CursorPagination, MAX_CURSOR_LENGTH, MIN_CURSOR_KEY_LENGTH};
pub(crate) use error::conflict;
pub use error::{ApplyError, QueryError, code};
pub use extract::{Collection, QueryConfig, RANDOM_CURSOR_KEY_WARNING};
pub use fields::FieldSelection;
#[cfg(feature = "openapi")]
pub(crate) use filter::Class;
pub use filter::{Filter, FilterCondition, Operand, Operator, escape_like};
pub use fold::fold_case;
pub use page::{
    BareList, CursorMeta, CursorPage, LinkHeader, Links, Page, PageMeta, X_TOTAL_COUNT,
    request_path,
};
pub use pagination::{PageSizeLimits, Pagination};
pub(crate) use params::over_parameter_limit;
pub use params::{
    DEFAULT_MAX_FILTERS, DEFAULT_MAX_PAGE_SIZE, DEFAULT_MAX_VALUE_LENGTH, DEFAULT_PAGE_SIZE,
    MAX_LIST_VALUES, MAX_SEARCH_TERMS, QueryLimits, RESERVED_PARAMETERS, RawQuery, is_reserved,
};
pub use search::Search;
pub use sort::{Direction, Sort, SortField};
pub use text::QueryText;
pub use tolerated::ToleratedParameters;
pub use typed::{CollectionQuery, FieldSpec, QuerySchema, TypedQuery};
pub use value::{FieldValue, OrderedValue, QueryValue, TextValue, ValueKind};
