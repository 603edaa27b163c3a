//! `#[derive(CollectionQuery)]`: use it through `problem_core::CollectionQuery`.
//!
//! The macro parses the struct into a small AST (`ast.rs`), reads the
//! `#[query(...)]` attributes (`attr.rs`), checks them (`valid.rs`) and
//! generates the `problem_core::query::CollectionQuery` impl (`expand.rs`).
//! Every mistake is a compile error spanned on the offending token, saying
//! what to write instead. Mistakes are reported in two passes: every
//! mistake in how the attributes are written at once, then, once they all
//! read, every mistake in what they say at once.
#![deny(missing_docs)]

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod ast;
mod attr;
mod expand;
mod fallback;
mod valid;
mod value;

/// Derives `problem_core::query::CollectionQuery`: the whitelist of a
/// collection's query parameters.
///
/// Container: `#[query(key = "id", default_sort = "-year,id",
/// max_page_size = 100, default_page_size = 20)]` (all optional, and
/// `default_page_size` defaults to `max_page_size` when that is below 20; `key`
/// and `default_sort` name fields by their query names, after `rename`;
/// `key` defaults to the field whose query name is `id`). Fields: `#[query(filter(eq, in, ..),
/// sort, search, select = false, column = "sql_column",
/// rename = "param_name", folded_column = "sql_column")]`, where `filter`
/// lists operators by their names in `problem_core::query::Operator` (the
/// operator table the runtime reads too: `eq`, `ne`, `gt`, ..., each
/// checked against the field's type). Every field is
/// selectable unless `select = false`. `folded_column` (with `search`, or
/// with a case-folding operator such as `icontains`, which require it)
/// names a column holding the field's text folded by
/// `problem_core::query::fold_case`: SQL search and those operators then
/// match the same rows on every database. A filterable field's query name
/// (its name or `rename`) may not be a reserved parameter (`page`,
/// `per_page`, `limit`, `cursor`, `sort`, `q`, `search`, `search_fields`,
/// `fields`, `exclude`): `page=..` could never filter it. A query name
/// holds no `__`, which separates a field from its operator: a field named
/// `year__gte` (without a `rename`) is a compile error, as `rename =
/// "year__gte"` is, since `year__gte=..` is read as the `gte` filter of
/// `year`.
///
/// Field types: a field that is filtered, sorted, searched or the key
/// needs `problem_core::query::QueryValue` (integers, floats, `bool`,
/// `String`, `time::Date`, `time::OffsetDateTime`, `Option` of one of them,
/// or an enum of unit variants with `#[derive(problem_core::QueryValue)]`).
/// Any other field is only selected (`fields`, `exclude`) and may have any
/// type: `Vec<String>`, a nested struct (`ValueKind::Opaque`). `in` and
/// `not_in` take a list of the field's own values (`id__in=1,2`), so a
/// field with them is declared `i64`, not `Vec<i64>` (a compile error
/// saying so). `column` is
/// the SQL column filters, sorting and search read, so it goes on the key
/// or a field with one of them (elsewhere it is an error).
///
/// `rename` gives the field its name everywhere the query reads it, not
/// only in the query string: its parameters (`<name>__gt`), its entries in
/// `sort`, `fields` and `exclude`, the JSON member the in-memory filters
/// and sorts read from each item (so the item must serialize it under
/// that name, e.g. with the same `#[serde(rename = "..")]`), and its SQL
/// column unless `column` names another. `key` and `default_sort` name
/// fields by that name too. To change only the SQL column, use `column`.
/// When the struct is itself serialized (the item type deriving both
/// `Serialize` and `CollectionQuery`), a `#[serde(rename_all = "..")]` on
/// it or a `#[serde(rename = "..")]` on a field that serializes a field
/// under another name than its query name is a compile error (the
/// in-memory filters would never match it): give the field that name with
/// `#[query(rename = "..")]`, or drop the serde rename. Likewise a
/// `#[serde(skip)]` or `#[serde(skip_serializing)]` on the key or on a
/// field with `filter`, `sort` or `search` is a compile error, and so is
/// `#[serde(skip_serializing_if = "..")]` there unless the field is an
/// `Option` (an absent `Option` member reads as `null`): the in-memory
/// pages read the key and those fields from every item (a field that is
/// only selected may be skipped).
///
/// Each mistake is a compile error spanned on the offending token, saying
/// what to write instead. They are reported in two passes: first every
/// mistake in how the attributes of the struct and its fields are written
/// (an unknown key such as `sortable`, a malformed or repeated value), all
/// at once; then, when every attribute reads, every mistake in what they
/// say (a `key` or `default_sort` naming no field, an operator the field's
/// type does not allow), all at once. The second pass waits for the first
/// because a key it cannot read would make it report mistakes that are
/// not there (a `default_sort` on a field whose `sort` was misspelled).
/// The type still implements
/// `CollectionQuery` (a placeholder), so its uses add no errors.
///
/// The generated code names `::problem_core`: with a renamed dependency
/// (`pc = { package = "problem-core", .. }` in `Cargo.toml`), add
/// `extern crate pc as problem_core;` at the crate root.
///
/// Examples are doctests of `problem_core::CollectionQuery` (this crate
/// cannot depend on `problem-core`).
#[proc_macro_derive(CollectionQuery, attributes(query))]
pub fn derive_collection_query(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match ast::Input::from_syn(&input).and_then(|ast| {
        let resolved = valid::check(&ast)?;
        Ok(expand::expand(&ast, &resolved))
    }) {
        Ok(tokens) => tokens.into(),
        Err(err) => fallback::expand(&input, &err).into(),
    }
}

/// Derives `problem_core::query::QueryValue` for an enum of unit variants:
/// `ValueKind::OneOf` of the names serde serializes the variants as, read
/// from the same `#[serde(rename_all = "..")]` and `#[serde(rename = "..")]`
/// attributes (variants with `#[serde(skip)]` or `skip_serializing` are
/// left out). A field of the enum's type can then be filtered with `eq`,
/// `ne`, `in` and `not_in`, and sorted (as text).
///
/// Refused, each with a spanned error: structs and unions, generic enums,
/// variants holding data, an unknown `rename_all` rule, two variants with
/// one name, and serde attributes under which a variant is no string
/// (`tag`, `content`, `untagged`, `into`, `remote`; on a variant
/// `untagged`, `serialize_with`, `with`).
///
/// Examples are doctests of `problem_core::QueryValue`.
#[proc_macro_derive(QueryValue)]
pub fn derive_query_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    value::derive(&input).into()
}
