//! Field filters: `field=value` and `field__operator=value` (spec, "Filter
//! parameters"; unknown fields and operators, value typing,
//! `__in` limits, null tests, `LIKE` semantics).

use std::fmt;

use crate::problem::Issue;

use std::borrow::Cow;

use smallvec::SmallVec;

use super::error::{
    QueryError, code, invalid_filter_value, invalid_value, issue, repeated_parameter, shorten,
    too_many_values,
};
use super::params::{MAX_LIST_VALUES, Pairs, QueryLimits, RawQuery, commas, join_values};
use super::text::QueryText;
use super::typed::{FieldSpec, QuerySchema};
use super::value::{FieldValue, ValueKind};

pub(crate) use query_operators::Class;

macro_rules! define_operator {
    ($($(#[doc = $doc:literal])* $v:ident = $name:literal, $class:ident, $applies:ident, $folded:literal, [$($alias:literal),*], $describe:literal;)*) => {
        /// A filter operator (spec, "Filter parameters"), generated from
        /// the one operator table that the parser, the in-memory evaluator,
        /// the SQL builder, the OpenAPI parameters and
        /// `#[derive(CollectionQuery)]` all read.
        ///
        /// ```
        /// use problem_core::query::Operator;
        /// assert_eq!(Operator::from_name("not_in"), Some(Operator::NotIn));
        /// assert_eq!(Operator::NotIn.as_str(), "not_in");
        /// assert_eq!(Operator::ALL[0], Operator::Eq);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Operator {
            $($(#[doc = $doc])* $v,)*
        }

        impl Operator {
            /// Every operator, in the spec's order (the operators beyond
            /// the spec's last).
            ///
            /// ```
            /// use problem_core::query::Operator;
            /// assert_eq!(Operator::ALL[..4], [Operator::Eq, Operator::Ne, Operator::Gt, Operator::Gte]);
            /// assert!(Operator::ALL.iter().all(|op| Operator::from_name(op.as_str()) == Some(*op)));
            /// ```
            pub const ALL: [Operator; { const N: &[&str] = &[$($name),*]; N.len() }] = [$(Self::$v),*];

            /// The operator's name in the query form (`field__<name>=..`)
            /// and in `#[query(filter(..))]`: `eq`, `ne`, `gt`, `gte`,
            /// `lt`, `lte`, `in`, `not_in`, `contains`, `starts_with`,
            /// `ends_with`, `is_null`, `is_not_null`, ...
            ///
            /// ```
            /// use problem_core::query::Operator;
            /// assert_eq!(Operator::StartsWith.as_str(), "starts_with");
            /// assert_eq!(Operator::Gte.to_string(), "gte");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$v => $name,)*
                }
            }

            /// The operator of a name given by [`as_str`](Self::as_str).
            ///
            /// ```
            /// use problem_core::query::Operator;
            /// assert_eq!(Operator::from_name("is_null"), Some(Operator::IsNull));
            /// assert_eq!(Operator::from_name("GTE"), None);
            /// assert!(Operator::ALL.iter().all(|op| Operator::from_name(op.as_str()) == Some(*op)));
            /// ```
            pub fn from_name(name: &str) -> Option<Self> {
                // One `match` on the text, not a search of `ALL`.
                match name {
                    $($name => Some(Self::$v),)*
                    _ => None,
                }
            }

            /// How the operator reads its value.
            pub(crate) fn class(self) -> Class {
                match self {
                    $(Self::$v => Class::$class,)*
                }
            }

            /// The description of the operator's OpenAPI parameter, with
            /// `{name}`, `{expected}` and `{max}` to fill in.
            #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
            pub(crate) fn describe(self) -> &'static str {
                match self {
                    $(Self::$v => $describe,)*
                }
            }
        }
    };
}

query_operators::operators!(define_operator);

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`Operator`]'s, from [`Operator::from_str`](std::str::FromStr::from_str).
/// Its `Display` lists the operator names.
///
/// ```
/// use problem_core::query::{Operator, UnknownOperator};
/// let err = "like".parse::<Operator>().unwrap_err();
/// assert_eq!(err, UnknownOperator { name: "like".into() });
/// assert!(err.to_string().starts_with("unknown filter operator `like`; the operators are: eq, ne, gt,"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown filter operator `{name}`; the operators are: {}",
    OperatorNames
)]
pub struct UnknownOperator {
    /// The name given.
    pub name: String,
}

/// The operator names, comma-separated, in [`Operator::ALL`]'s order.
struct OperatorNames;

impl fmt::Display for OperatorNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, op) in Operator::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(op.as_str())?;
        }
        Ok(())
    }
}

/// Parses an operator's query-form name, exactly as
/// [`Operator::from_name`] (case-sensitive).
///
/// ```
/// use problem_core::query::Operator;
/// assert_eq!("not_in".parse::<Operator>(), Ok(Operator::NotIn));
/// assert!("NE".parse::<Operator>().is_err());
/// ```
impl std::str::FromStr for Operator {
    type Err = UnknownOperator;
    fn from_str(name: &str) -> Result<Self, UnknownOperator> {
        Self::from_name(name).ok_or_else(|| UnknownOperator {
            name: name.to_owned(),
        })
    }
}

/// The right-hand side of a condition.
///
/// ```
/// use problem_core::query::{FieldValue, Filter, Operand, RawQuery};
/// let f = Filter::parse(&RawQuery::parse("tag__in=a,b&year__lt=2000&isbn__is_null=true").unwrap()).unwrap();
/// let operands: Vec<&Operand> = f.conditions().iter().map(|c| &c.operand).collect();
/// assert_eq!(operands, [
///     &Operand::List(vec![FieldValue::Text("a".into()), FieldValue::Text("b".into())]),
///     &Operand::One(FieldValue::Text("2000".into())),
///     &Operand::None,
/// ]);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Operand {
    /// One value (the comparisons `eq` .. `lte` and the text matches
    /// `contains`, `starts_with`, ...).
    One(FieldValue),
    /// A list (`in`, `not_in`).
    List(Vec<FieldValue>),
    /// No value (`is_null`, `is_not_null`).
    None,
}

/// One filter condition: `field <op> operand`.
///
/// `is_null=false` is stored as [`Operator::IsNotNull`] and
/// `is_not_null=false` as [`Operator::IsNull`].
///
/// ```
/// use problem_core::query::{Filter, Operand, Operator, RawQuery};
/// let f = Filter::parse(&RawQuery::parse("isbn__is_null=false").unwrap()).unwrap();
/// let c = &f.conditions()[0];
/// assert_eq!((c.param.as_str(), c.field.as_ref()), ("isbn__is_null", "isbn"));
/// assert_eq!((c.op, &c.operand), (Operator::IsNotNull, &Operand::None));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FilterCondition {
    /// The parameter name as sent, percent-decoded (`year__gte`).
    pub param: QueryText,
    /// The field name.
    pub field: Cow<'static, str>,
    /// The operator.
    pub op: Operator,
    /// The value(s). Without a schema every value is [`FieldValue::Text`].
    pub operand: Operand,
}

/// Every filter condition of a request; all must hold (AND).
///
/// Repeated parameters (RFC 6570 / OpenAPI `style: form, explode: true`,
/// what generated clients send): `k__in=a&k__in=b` means `k__in=a,b` (one
/// list, at most 100 values in all); any other filter repeated with the
/// same value counts once, and with different values is a
/// `conflicting_parameters` issue naming it. The limit on filters
/// ([`QueryLimits::max_filters`]) counts every parameter as sent, except
/// the repeats of an exploded list.
///
/// Without a schema ([`Filter::parse`]) every parameter that is not reserved
/// is a filter on a field of that name, and values stay text. With a schema
/// (typed queries) only whitelisted fields and operators are accepted and
/// values are typed by the field's Rust type.
///
/// ```
/// use problem_core::query::{Filter, Operand, Operator, RawQuery, FieldValue};
/// let f = Filter::parse(&RawQuery::parse("status=active&age__gte=18&id__in=1,2").unwrap()).unwrap();
/// let c = &f.conditions()[1];
/// assert_eq!((&*c.field, c.op), ("age", Operator::Gte));
/// assert_eq!(c.operand, Operand::One(FieldValue::Text("18".into())));
/// assert_eq!(f.conditions()[2].operand, Operand::List(vec![FieldValue::Text("1".into()), FieldValue::Text("2".into())]));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter(Vec<FilterCondition>);

impl Filter {
    /// The conditions, in query order.
    ///
    /// ```
    /// use problem_core::query::{Filter, Operator, RawQuery};
    /// let f = Filter::parse(&RawQuery::parse("b__ne=1&sort=b&a=2").unwrap()).unwrap();
    /// let ops: Vec<(&str, Operator)> = f.conditions().iter().map(|c| (c.field.as_ref(), c.op)).collect();
    /// assert_eq!(ops, [("b", Operator::Ne), ("a", Operator::Eq)]);
    /// ```
    pub fn conditions(&self) -> &[FilterCondition] {
        &self.0
    }

    /// Whether there is no condition.
    ///
    /// ```
    /// use problem_core::query::{Filter, RawQuery};
    /// assert!(Filter::parse(&RawQuery::parse("sort=a&page=2&api-version=1").unwrap()).unwrap().is_empty());
    /// assert!(!Filter::parse(&RawQuery::parse("a=").unwrap()).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses this part alone from a raw query string (`a=1&b=2`, without
    /// the `?`), as [`parse`](Self::parse) does from its pairs.
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] over 1000 parameters, else
    /// [`QueryError::Invalid`] with every issue of this part.
    ///
    /// ```
    /// use problem_core::query::{Filter, Operator};
    /// let f = Filter::from_query_str("year__gte=2000&genre=sf").unwrap();
    /// assert_eq!(f.conditions()[0].op, Operator::Gte);
    /// assert_eq!(f.conditions().len(), 2);
    /// ```
    pub fn from_query_str(query: &str) -> Result<Self, QueryError> {
        Self::parse(&RawQuery::parse(query)?)
    }

    /// Parses every non-reserved parameter as a filter, without a whitelist
    /// (`api-version`, the versioning parameter, is ignored).
    ///
    /// ```
    /// use problem_core::query::{Filter, RawQuery};
    /// let f = Filter::parse(&RawQuery::parse("id__in=1&id__in=2,3&api-version=2").unwrap()).unwrap();
    /// assert_eq!(f.conditions().len(), 1);
    /// let err = Filter::parse(&RawQuery::parse("a__like=x&b__is_null=yes").unwrap()).unwrap_err();
    /// let codes: Vec<&str> = err.issues().iter().map(|i| i.code.as_ref()).collect();
    /// assert_eq!(codes, ["operator_not_allowed", "invalid_value"]);
    /// ```
    ///
    /// # Errors
    /// [`QueryError::Invalid`]: an unknown operator (`operator_not_allowed`),
    /// an empty field name (`unknown_field`), more than 100 list values
    /// (`too_many_values`), a null test that is not `true`/`false`
    /// (`invalid_value`), more than 64 filters (`too_many_filters`); a
    /// parameter holding a NUL character (`invalid_value`, checked first:
    /// those issues alone).
    pub fn parse(raw: &RawQuery) -> Result<Self, QueryError> {
        let pairs = raw.borrowed();
        // A NUL character is refused before anything else is parsed, as
        // the typed query does (its `invalid_value` issues alone).
        let nul = super::params::nul_issues(&pairs);
        if !nul.is_empty() {
            return QueryError::from_issues(nul).map(|()| Filter::default());
        }
        let mut issues = Vec::new();
        let f = parse_filter(&pairs, None, &FilterOptions::default(), &mut issues);
        QueryError::from_issues(issues).map(|()| f)
    }
}

/// Which non-reserved parameters are not filters.
#[derive(Debug, Clone, Default)]
pub(crate) struct FilterOptions<'a> {
    /// Ignore parameters that match no filterable field.
    pub lenient: bool,
    /// Parameter names that are always ignored; `None`: `api-version`.
    pub ignored: Option<&'a [String]>,
    /// The size limits.
    pub limits: QueryLimits,
}

impl FilterOptions<'_> {
    /// Whether `name` is never a filter (the version's query parameter).
    fn is_ignored(&self, name: &str) -> bool {
        match self.ignored {
            Some(list) => list.iter().any(|i| i == name),
            None => name == crate::spec::DEFAULT_VERSION_QUERY,
        }
    }
}

pub(crate) fn parse_filter(
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    options: &FilterOptions<'_>,
    issues: &mut Vec<Issue>,
) -> Filter {
    // The filter parameters as sent, repeats grouped by name in order of
    // first appearance; the limit counts every pair as sent.
    // (name, first value, further values): no allocation for a parameter
    // sent once.
    let mut groups: SmallVec<[(&str, &str, Vec<&str>); 8]> = SmallVec::new();
    let mut sent = 0usize;
    for (name, value, reserved) in raw.iter_marked() {
        if reserved {
            continue;
        }
        if options.is_ignored(name) {
            continue;
        }
        let group = groups.iter_mut().find(|(n, _, _)| *n == name);
        // A repeat of an exploded list (`k__in=a&k__in=b`) adds to its list,
        // not a condition; every other pair counts as sent.
        let list_repeat = group.is_some()
            && split_param(name, schema)
                .1
                .and_then(Operator::from_name)
                .is_some_and(|op| op.class() == Class::List);
        if !list_repeat {
            sent += 1;
        }
        if sent > options.limits.max_filters {
            return parse_filter_over_limit(raw, schema, options, issues);
        }
        match group {
            Some((_, _, more)) => more.push(value),
            None => groups.push((name, value, Vec::new())),
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for &(name, first, ref more) in &groups {
        let (field_name, op_name) = split_param(name, schema);
        let op = match op_name {
            None => Some(Operator::Eq),
            Some(o) => Operator::from_name(o),
        };
        let spec = match schema {
            None => None,
            Some(schema) => match schema.field(field_name).filter(|f| !f.operators.is_empty()) {
                Some(spec) => Some(spec),
                None => {
                    if !options.lenient {
                        issues.push(unknown(name, field_name, op_name, schema));
                    }
                    continue;
                }
            },
        };
        if field_name.is_empty() {
            issues.push(issue(
                name,
                code::UNKNOWN_FIELD,
                "the filter names no field",
            ));
            continue;
        }
        let op = match op {
            Some(op) if spec.is_none_or(|s| s.operators.contains(&op)) => op,
            _ => {
                let allowed: Vec<&str> = match spec {
                    Some(s) => s.operators.iter().map(|o| o.as_str()).collect(),
                    None => Operator::ALL.iter().map(|o| o.as_str()).collect(),
                };
                issues.push(
                    issue(
                        name,
                        code::OPERATOR_NOT_ALLOWED,
                        format!(
                            "operator `{}` is not allowed on `{}`",
                            shorten(op_name.unwrap_or("eq")),
                            shorten(field_name)
                        ),
                    )
                    .with("allowed", allowed),
                );
                continue;
            }
        };
        // Exploded lists (`k=a&k=b`) mean `k=a,b`; any other repeat must
        // repeat the same value.
        let value = match op.class() {
            Class::List => join_values(std::iter::once(first).chain(more.iter().copied())),
            Class::Compare | Class::Text | Class::Null => {
                if more.iter().any(|v| *v != first) {
                    issues.push(repeated_parameter(name));
                    continue;
                }
                Some(Cow::Borrowed(first))
            }
        };
        let Some(value) = value else {
            continue;
        };
        let kind = spec.map_or(ValueKind::Text, |s| s.kind);
        if let Some((op, operand)) = parse_operand(name, op, &value, kind, &options.limits, issues)
        {
            out.push(FilterCondition {
                param: QueryText::from(name),
                // A whitelisted name is the schema's own (no copy).
                field: match spec {
                    Some(spec) => Cow::Borrowed(spec.name),
                    None => Cow::Owned(field_name.to_owned()),
                },
                op,
                operand,
            });
        }
    }
    Filter(out)
}

/// [`parse_filter`] of a query with more candidate pairs than
/// `max_filters`. Only pairs naming a filterable field are filter
/// conditions and count toward the limit (a repeat of an exploded list
/// adds to its list and does not count); the others are unknown
/// parameters, each reported once (or ignored when lenient), whatever the
/// count. Within the limit, the conditions are parsed as usual; over it,
/// the pair that crosses it gets the one `too_many_filters` issue, after
/// the issues of the conditions before it (parsed as usual, so a bad value
/// or a conflicting repeat among them is still reported: every problem of
/// a request at once, at most `max_filters` conditions' worth). Without a
/// schema every pair is a condition.
fn parse_filter_over_limit(
    raw: &Pairs<'_>,
    schema: Option<&QuerySchema>,
    options: &FilterOptions<'_>,
    issues: &mut Vec<Issue>,
) -> Filter {
    let is_condition = |name: &str| schema.is_none_or(|schema| is_filter_parameter(schema, name));
    let max = options.limits.max_filters;
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut conditions = 0usize;
    // The position of the pair that crosses the limit, and its issue.
    let mut over: Option<(usize, Issue)> = None;
    for (at, (name, _, reserved)) in raw.iter_marked().enumerate() {
        if reserved || options.is_ignored(name) {
            continue;
        }
        let first = seen.insert(name);
        if !is_condition(name) {
            if let Some(schema) = schema
                && first
                && !options.lenient
            {
                let (field_name, op_name) = split_param(name, Some(schema));
                issues.push(unknown(name, field_name, op_name, schema));
            }
            continue;
        }
        let list_repeat = !first
            && split_param(name, schema)
                .1
                .and_then(Operator::from_name)
                .is_some_and(|op| op.class() == Class::List);
        if !list_repeat {
            conditions += 1;
        }
        if conditions > max && over.is_none() {
            let limit = issue(
                name,
                code::TOO_MANY_FILTERS,
                format!("at most {max} filter conditions are allowed"),
            )
            .with("max", max);
            over = Some((at, limit));
        }
    }
    // The limit is applied here, once: the pairs kept below may still count
    // more than `max` (a pair holding a NUL is kept whatever its name or
    // place, for the NUL rule), and a second look at the limit would come
    // back here with the same pairs, for ever.
    let counted = FilterOptions {
        limits: QueryLimits {
            max_filters: usize::MAX,
            ..options.limits
        },
        ..options.clone()
    };
    match over {
        None => {
            // Within the limit: the conditions alone, now under it.
            let conditions_only = raw.without_unreserved(|_, name| !is_condition(name));
            parse_filter(&conditions_only, schema, &counted, issues)
        }
        Some((crossing, limit)) => {
            // The conditions before the crossing pair, at most `max` of
            // them, parsed for their own issues; the request fails anyway.
            let before = raw.without_unreserved(|at, name| at >= crossing || !is_condition(name));
            parse_filter(&before, schema, &counted, issues);
            issues.push(limit);
            Filter::default()
        }
    }
}

/// Whether `name` is one of `schema`'s filter parameters (`year`,
/// `year__gte`: a field with filter operators, with or without one).
pub(crate) fn is_filter_parameter(schema: &QuerySchema, name: &str) -> bool {
    schema
        .field(split_param(name, Some(schema)).0)
        .is_some_and(|f| !f.operators.is_empty())
}

/// Whether some parameter starting with `prefix` is one of `schema`'s
/// filter parameters ([`is_filter_parameter`]): a filtered field's name
/// starts with `prefix`, or `prefix` is such a name followed by a start of
/// `__` or by `__` and more (`year`, `y`, `year_`, `year__g`).
#[cfg(feature = "openapi")]
pub(crate) fn prefix_may_name_filter(schema: &QuerySchema, prefix: &str) -> bool {
    schema.fields.iter().any(|f| {
        !f.operators.is_empty()
            && (f.name.starts_with(prefix)
                || prefix
                    .strip_prefix(f.name)
                    .is_some_and(|rest| "__".starts_with(rest) || rest.starts_with("__")))
    })
}

/// Splits `field__op`; a whitelisted field whose name contains `__` wins.
fn split_param<'a>(name: &'a str, schema: Option<&QuerySchema>) -> (&'a str, Option<&'a str>) {
    if schema.is_some_and(|s| s.field(name).is_some()) {
        return (name, None);
    }
    // The last `__` (as `rsplit_once("__")`): the last `_` preceded by
    // another, found byte by byte from the end.
    let bytes = name.as_bytes();
    let mut end = bytes.len();
    while let Some(i) = bytes
        .get(..end)
        .and_then(|b| b.iter().rposition(|&b| b == b'_'))
    {
        if i > 0 && bytes.get(i - 1) == Some(&b'_') {
            return (
                name.get(..i - 1).unwrap_or(""),
                Some(name.get(i + 1..).unwrap_or("")),
            );
        }
        end = i;
    }
    (name, None)
}

fn unknown(name: &str, field: &str, op: Option<&str>, schema: &QuerySchema) -> Issue {
    let allowed = schema.filterable_fields();
    if op.is_some_and(|o| Operator::from_name(o).is_some()) {
        issue(
            name,
            code::UNKNOWN_FIELD,
            format!("`{}` is not a filterable field", shorten(field)),
        )
        .with("allowed", allowed)
    } else {
        issue(
            name,
            code::UNKNOWN_PARAMETER,
            format!("unknown query parameter `{}`", shorten(name)),
        )
        .with("allowed", allowed)
    }
}

fn parse_operand(
    name: &str,
    op: Operator,
    value: &str,
    kind: ValueKind,
    limits: &QueryLimits,
    issues: &mut Vec<Issue>,
) -> Option<(Operator, Operand)> {
    let one = |v: &str, issues: &mut Vec<Issue>| match kind.parse(v) {
        Some(v) => Some(v),
        None => {
            issues.push(invalid_filter_value(name, v, kind));
            None
        }
    };
    match op.class() {
        Class::Compare => {
            if limits.too_long(value) {
                issues.push(limits.too_long_issue(name, "the value"));
                return None;
            }
            one(value, issues).map(|v| (op, Operand::One(v)))
        }
        Class::Text => {
            if limits.too_long(value) {
                issues.push(limits.too_long_issue(name, "the value"));
                return None;
            }
            Some((op, Operand::One(FieldValue::Text(QueryText::from(value)))))
        }
        Class::List => {
            // Counted and checked before anything is parsed or copied.
            let count = value.bytes().filter(|&b| b == b',').count() + 1;
            if count > MAX_LIST_VALUES {
                issues.push(too_many_values(name, MAX_LIST_VALUES, "values"));
                return None;
            }
            if commas(value).any(|p| limits.too_long(p)) {
                issues.push(limits.too_long_issue(name, "an entry"));
                return None;
            }
            // The first entry that does not parse is the parameter's one
            // issue: a list of 100 bad entries is not 100 issues (each
            // carrying `allowed`, for a `OneOf` field).
            let mut values = Vec::with_capacity(count);
            for entry in commas(value) {
                values.push(one(entry, issues)?);
            }
            Some((op, Operand::List(values)))
        }
        Class::Null => {
            let truth = match value {
                "true" => true,
                "false" => false,
                _ => {
                    issues.push(invalid_value(name, value, "boolean"));
                    return None;
                }
            };
            // The null class is `is_null` and its negation `is_not_null`;
            // `false` inverts either.
            let op = if (op == Operator::IsNull) == truth {
                Operator::IsNull
            } else {
                Operator::IsNotNull
            };
            Some((op, Operand::None))
        }
    }
}

/// Escapes `%`, `_` and the escape character `\` for a `LIKE` pattern with
/// `ESCAPE '\'`.
///
/// ```
/// assert_eq!(problem_core::query::escape_like(r"50%_a\b"), r"50\%\_a\\b");
/// ```
pub fn escape_like(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl FieldSpec {
    /// Whether `op` is allowed on this field.
    ///
    /// ```
    /// use problem_core::CollectionQuery;
    /// use problem_core::query::{CollectionQuery as _, Operator};
    /// #[derive(CollectionQuery)]
    /// #[query(key = "id")]
    /// #[allow(dead_code)]
    /// struct BookQuery {
    ///     #[query(filter(eq, in), sort)]
    ///     id: i64,
    /// }
    /// let id = BookQuery::SCHEMA.field("id").unwrap();
    /// assert!(id.allows(Operator::In));
    /// assert!(!id.allows(Operator::Gt));
    /// ```
    pub fn allows(&self, op: Operator) -> bool {
        self.operators.contains(&op)
    }
}

#[cfg(test)]
mod tests {
    /// More than `max_filters` pairs with a NUL one at or after the limit:
    /// the over-limit parse kept the NUL pair (for the NUL rule), its inner
    /// parse crossed the limit again with the same pairs, and recursed
    /// until the stack overflowed. `Filter::parse` also answers the NUL
    /// issue first now.
    #[test]
    fn a_nul_pair_past_the_filter_limit_does_not_recurse() {
        use super::{Filter, FilterOptions, parse_filter};
        use crate::query::params::Pairs;
        let mut query: Vec<String> = (0..64).map(|i| format!("a{i}=1")).collect();
        query.push("x=%00".into());
        let query = query.join("&");
        let err = Filter::from_query_str(&query).unwrap_err();
        let issues: Vec<(&str, &str)> = err
            .issues()
            .iter()
            .map(|i| (i.name.as_ref(), i.code.as_ref()))
            .collect();
        assert_eq!(issues, [("x", "invalid_value")]);
        // The parse itself, as a route without the NUL check would run it.
        let pairs = Pairs::parse(&query).unwrap();
        let mut issues = Vec::new();
        let f = parse_filter(&pairs, None, &FilterOptions::default(), &mut issues);
        assert!(f.is_empty());
        assert_eq!(
            issues.last().map(|i| i.code.as_ref()),
            Some("too_many_filters")
        );
    }

    use super::*;

    #[test]
    fn from_name_finds_every_operator_by_its_name_only() {
        for op in Operator::ALL {
            assert_eq!(Operator::from_name(op.as_str()), Some(op));
            assert_eq!(Operator::from_name(&op.as_str().to_uppercase()), None);
        }
        for name in ["", "e", "eqq", "not in", "in "] {
            assert_eq!(Operator::from_name(name), None, "{name}");
        }
    }

    /// A list's first entry that does not parse is the parameter's one
    /// issue, whatever follows: 100 bad entries are not 100 issues.
    #[test]
    fn a_list_with_bad_entries_is_one_issue() {
        let int = ValueKind::Integer { min: 0, max: 9 };
        let mut issues = Vec::new();
        let bad = vec!["x"; 100].join(",");
        for (value, first, message) in [
            ("1,x,y", "x", "`x` is not a valid integer"),
            ("10,2", "10", "`10` is not an integer from 0 to 9"),
            (bad.as_str(), "x", "`x` is not a valid integer"),
        ] {
            issues.clear();
            let parsed = parse_operand(
                "id__in",
                Operator::In,
                value,
                int,
                &QueryLimits::default(),
                &mut issues,
            );
            assert_eq!(parsed, None, "{value}");
            let issue = match issues.as_slice() {
                [one] => one,
                many => panic!("{value}: {many:?}"),
            };
            assert_eq!(
                (
                    issue.name.as_str(),
                    issue.code.as_ref(),
                    issue.message.as_ref()
                ),
                ("id__in", "invalid_value", message),
                "{value}"
            );
            assert!(message.starts_with(&format!("`{first}`")));
        }
    }

    #[test]
    fn split_param_is_rsplit_once_on_double_underscore() {
        for name in [
            "a", "a__b", "a__b__c", "a___b", "__", "___", "____", "__a", "a__", "é__ü", "_", "",
            "a_b_c", "a_b__c_d", "_a_b", "a_b_",
        ] {
            let expected = match name.rsplit_once("__") {
                Some((f, o)) => (f, Some(o)),
                None => (name, None),
            };
            assert_eq!(split_param(name, None), expected, "{name}");
        }
    }
}
