//! The filter operators of collection queries, as one table: use them
//! through `problem_core::query::Operator` and `#[derive(CollectionQuery)]`.
//!
//! Both `problem-core` (the runtime) and `query-derive` (the derive, a
//! procedural-macro crate that cannot depend on the runtime it is
//! re-exported by) read this crate, the way `serde` and `serde_derive`
//! share `serde_derive_internals`:
//!
//! - [`operators!`] holds the table itself and hands it to a macro of the
//!   caller's choosing. `problem-core` generates `Operator` from it (the
//!   enum, `ALL`, the names, the class of each), so the enum stays local to
//!   the runtime, whose own matches on it are exhaustive while users see it
//!   `#[non_exhaustive]`.
//! - [`OPERATORS`] is the same table as data, for the derive: which names
//!   exist, their misspellings, which value types each applies to.
//!
//! Adding an operator is one entry in [`operators!`] plus its evaluation in
//! `problem-core`'s in-memory evaluator and SQL builder: the compiler points
//! at both (their matches on `Operator` have no wildcard), and everything
//! else (parsing, the derive's checks, OpenAPI parameters) follows the
//! entry's [`Class`] and [`Applies`].
//!
//! [`Class`] and [`Applies`] are exhaustive on purpose: `problem-core` and
//! the derive match them without a wildcard, so a new class or value-type
//! rule is a compile error at every place that must decide. Users never
//! see them (`problem_core::query::Operator` is the public face).
//!
//! Spec: "Filter parameters" (`field=value`, `field__operator=value`).
//!
//! ```
//! use query_operators::{Applies, Class, OPERATORS};
//! let gte = OPERATORS.iter().find(|o| o.name == "gte").unwrap();
//! assert_eq!((gte.variant, gte.class, gte.applies), ("Gte", Class::Compare, Applies::Ordered));
//! assert!(gte.aliases.contains(&"ge"));
//! ```

/// The derive crates' shared internals (feature `derive`): not for users.
#[cfg(feature = "derive")]
#[doc(hidden)]
pub mod derive_support;

/// How an operator reads its value, which decides how the query parser
/// parses and limits it.
///
/// ```
/// use query_operators::{Class, OPERATORS};
/// let class = |name: &str| OPERATORS.iter().find(|o| o.name == name).map(|o| o.class);
/// assert_eq!(class("in"), Some(Class::List));
/// assert_eq!(class("is_null"), Some(Class::Null));
/// assert_eq!(class("starts_with"), Some(Class::Text));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// One value typed by the field's Rust type, compared (`eq` .. `lte`).
    Compare,
    /// One text pattern, at most the value length limit (`contains`, ...).
    Text,
    /// A comma-separated (or exploded) list of typed values, at most 100
    /// (`in`, `not_in`).
    List,
    /// `true` or `false`: a null test, `false` inverting it (`is_null`,
    /// `is_not_null`).
    Null,
}

/// Which fields an operator applies to, by their Rust type; the derive
/// rejects the others with a compile error.
///
/// ```
/// use query_operators::{Applies, OPERATORS};
/// let applies = |name: &str| OPERATORS.iter().find(|o| o.name == name).map(|o| o.applies);
/// assert_eq!(applies("eq"), Some(Applies::Any));
/// assert_eq!(applies("lt"), Some(Applies::Ordered));
/// assert_eq!(applies("contains"), Some(Applies::Text));
/// assert_eq!(applies("is_not_null"), Some(Applies::Nullable));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applies {
    /// Every queryable type.
    Any,
    /// Types with an order: not `bool`.
    Ordered,
    /// Text: `String` (or `Option<String>`).
    Text,
    /// Nullable fields: `Option<T>`.
    Nullable,
}

/// One operator of the table.
///
/// ```
/// use query_operators::{Applies, Class, OPERATORS};
/// let not_in = OPERATORS.iter().find(|o| o.variant == "NotIn").unwrap();
/// assert_eq!((not_in.name, not_in.class, not_in.applies), ("not_in", Class::List, Applies::Any));
/// assert!(!not_in.folded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    /// Its name in the query string (`field__<name>=..`) and in
    /// `#[query(filter(..))]`.
    pub name: &'static str,
    /// Its variant of `problem_core::query::Operator`.
    pub variant: &'static str,
    /// How it reads its value.
    pub class: Class,
    /// Which fields it applies to.
    pub applies: Applies,
    /// Whether it compares case-folded text (Unicode simple case folding):
    /// in SQL it reads the field's `folded_column`.
    pub folded: bool,
    /// Common misspellings of the name, for "did you mean" hints.
    pub aliases: &'static [&'static str],
    /// What it means (the variant's documentation).
    pub doc: &'static str,
    /// The description of its OpenAPI query parameter: `{name}` stands for
    /// the field name, `{expected}` for the expected value type and `{max}`
    /// for the most list values.
    pub describe: &'static str,
}

/// The operator table, in the order of `Operator::ALL`: calls
/// `$callback! { .. }` with one entry per operator:
///
/// ```text
/// /// doc
/// Variant = "name", Class, Applies, folded, ["alias", ..],
///     "OpenAPI description, with {name}, {expected} and {max}";
/// ```
///
/// ```
/// macro_rules! names {
///     ($($(#[doc = $doc:literal])* $v:ident = $name:literal, $class:ident, $applies:ident, $folded:literal, [$($alias:literal),*], $describe:literal;)*) => {
///         const NAMES: &[&str] = &[$($name),*];
///     };
/// }
/// query_operators::operators!(names);
/// assert_eq!(NAMES[..3], ["eq", "ne", "gt"]);
/// ```
#[macro_export]
macro_rules! operators {
    ($callback:ident) => {
        $callback! {
            /// `field=value` (also `field__eq=value`): `=`.
            Eq = "eq", Compare, Any, false, ["equals"],
                "`{name}` equals the value ({expected}); `{name}__eq` means the same.";
            /// `field__ne=value`: `!=`.
            Ne = "ne", Compare, Any, false, ["neq", "not_eq"],
                "`{name}` differs from the value ({expected}).";
            /// `field__gt=value`: `>`.
            Gt = "gt", Compare, Ordered, false, ["greater_than"],
                "`{name}` is greater than the value ({expected}).";
            /// `field__gte=value`: `>=`.
            Gte = "gte", Compare, Ordered, false, ["ge"],
                "`{name}` is greater than or equal to the value ({expected}).";
            /// `field__lt=value`: `<`.
            Lt = "lt", Compare, Ordered, false, ["less_than"],
                "`{name}` is less than the value ({expected}).";
            /// `field__lte=value`: `<=`.
            Lte = "lte", Compare, Ordered, false, ["le"],
                "`{name}` is less than or equal to the value ({expected}).";
            /// `field__in=v1,v2`: `IN` (at most 100 values).
            In = "in", List, Any, false, [],
                "`{name}` is one of the values ({expected}, at most {max}): repeat the parameter per value, or separate the values with commas.";
            /// `field__not_in=v1,v2`: `NOT IN` (at most 100 values).
            NotIn = "not_in", List, Any, false, ["nin"],
                "`{name}` is none of the values ({expected}, at most {max}): repeat the parameter per value, or separate the values with commas.";
            /// `field__contains=value`: `LIKE %value%`, case-sensitive.
            Contains = "contains", Text, Text, false, ["like"],
                "`{name}` contains the text (case-sensitive).";
            /// `field__starts_with=value`: `LIKE value%`, case-sensitive.
            StartsWith = "starts_with", Text, Text, false, ["startswith"],
                "`{name}` starts with the text (case-sensitive).";
            /// `field__ends_with=value`: `LIKE %value`, case-sensitive.
            EndsWith = "ends_with", Text, Text, false, ["endswith"],
                "`{name}` ends with the text (case-sensitive).";
            /// `field__is_null=true`: `IS NULL` (`false` means `IS NOT NULL`).
            IsNull = "is_null", Null, Nullable, false, ["isnull"],
                "`true`: `{name}` is null; `false`: it is not.";
            /// `field__is_not_null=true`: `IS NOT NULL` (`false` means `IS NULL`).
            IsNotNull = "is_not_null", Null, Nullable, false, ["not_null"],
                "`true`: `{name}` is not null; `false`: it is.";
            /// `field__iexact=value`: equal ignoring case (both sides folded by
            /// Unicode simple case folding).
            IExact = "iexact", Text, Text, true, ["ieq", "iequals"],
                "`{name}` equals the text, ignoring case (Unicode simple case folding).";
            /// `field__icontains=value`: contains the value ignoring case (both
            /// sides folded by Unicode simple case folding).
            IContains = "icontains", Text, Text, true, ["ilike"],
                "`{name}` contains the text, ignoring case (Unicode simple case folding).";
            /// `field__istarts_with=value`: starts with the value ignoring case
            /// (both sides folded by Unicode simple case folding).
            IStartsWith = "istarts_with", Text, Text, true, ["istartswith"],
                "`{name}` starts with the text, ignoring case (Unicode simple case folding).";
        }
    };
}

macro_rules! table {
    ($($(#[doc = $doc:literal])* $v:ident = $name:literal, $class:ident, $applies:ident, $folded:literal, [$($alias:literal),*], $describe:literal;)*) => {
        /// Every operator of [`operators!`], as data.
        pub const OPERATORS: &[Info] = &[$(Info {
            name: $name,
            variant: stringify!($v),
            class: Class::$class,
            applies: Applies::$applies,
            folded: $folded,
            aliases: &[$($alias),*],
            doc: concat!($($doc),*),
            describe: $describe,
        }),*];
    };
}

operators!(table);

/// The default longest filter value, list entry and search term, in
/// characters: the runtime's
/// default limit, and the longest name `#[derive(QueryValue)]` accepts for a
/// variant (a longer one could be listed but never sent).
///
/// ```
/// assert_eq!(query_operators::DEFAULT_MAX_VALUE_LENGTH, 256);
/// ```
pub const DEFAULT_MAX_VALUE_LENGTH: usize = 256;

/// The query parameter names with a meaning of their own; every other
/// parameter is a filter (spec, "Collection request", Query). The derive
/// refuses a filterable field of one of these names, which could never be
/// filtered by its plain name.
///
/// ```
/// assert!(query_operators::RESERVED_PARAMETERS.contains(&"per_page"));
/// assert!(!query_operators::RESERVED_PARAMETERS.contains(&"year"));
/// ```
pub const RESERVED_PARAMETERS: [&str; 10] = [
    "page",
    "per_page",
    "limit",
    "cursor",
    "sort",
    "q",
    "search",
    "search_fields",
    "fields",
    "exclude",
];

/// The operator named `name`.
///
/// ```
/// assert_eq!(query_operators::find("not_in").map(|o| o.variant), Some("NotIn"));
/// assert!(query_operators::find("nin").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Info> {
    OPERATORS.iter().find(|o| o.name == name)
}

/// The operator a misspelling means (`neq` means `ne`).
///
/// ```
/// assert_eq!(query_operators::alias("neq").map(|o| o.name), Some("ne"));
/// ```
pub fn alias(misspelling: &str) -> Option<&'static Info> {
    OPERATORS.iter().find(|o| o.aliases.contains(&misspelling))
}
