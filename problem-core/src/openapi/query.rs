//! The query parameters of a collection ([`QuerySchema`]) as OpenAPI
//! parameters: what `#[derive(CollectionQuery)]`'s `utoipa::IntoParams`
//! impl returns (spec, "Collection request").

use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn, ParameterStyle};
use utoipa::openapi::schema::{
    ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::{RefOr, Required};

use utoipa::openapi::header::{Header, HeaderBuilder};

use crate::query::{
    Class, CountStrategy, Direction, FieldSpec, MAX_LIST_VALUES, MAX_SEARCH_TERMS, Operator,
    QuerySchema, ToleratedParameters, ValueKind,
};
use crate::query::{is_filter_parameter, prefix_may_name_filter};
use crate::spec::DEFAULT_MAX_VALUE_LENGTH;

fn query(name: impl Into<String>, description: String, schema: impl Into<SchemaArg>) -> Parameter {
    let mut builder = ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description));
    match schema.into() {
        SchemaArg::Scalar(s) => builder = builder.schema(Some(RefOr::T(s))),
        SchemaArg::List(a) => {
            builder = builder
                .schema(Some(RefOr::T(a)))
                .style(Some(ParameterStyle::Form))
                .explode(Some(true));
        }
    }
    builder.build()
}

/// A scalar value, or a list (`style: form`, `explode: true`: one
/// `name=value` pair per entry, what generated clients send; the parser
/// also accepts the entries comma-separated in one value).
enum SchemaArg {
    Scalar(Schema),
    List(Schema),
}

impl From<ObjectBuilder> for SchemaArg {
    fn from(o: ObjectBuilder) -> Self {
        Self::Scalar(Schema::Object(o.build()))
    }
}

impl From<ArrayBuilder> for SchemaArg {
    fn from(a: ArrayBuilder) -> Self {
        Self::List(Schema::Array(a.build()))
    }
}

fn integer(min: u64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(min))
}

/// A page size: any integer from 1, no `format` (sizes over the maximum,
/// however large, are clamped, not refused).
fn page_size() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
}

/// The schema of a value of `kind`, as it is written in a query string.
/// Feature `openapi`.
///
/// | Kind | Schema |
/// |---|---|
/// | integer | `integer` (`int32` or `int64`) with the Rust type's bounds |
/// | float (`f64`) | `number` (`double`) |
/// | float (`f32`) | `number` (`float`) |
/// | boolean | `boolean` |
/// | text | `string` |
/// | date | `string`, format `date` (RFC 3339 full-date) |
/// | date-time | `string`, format `date-time` (RFC 3339) |
///
/// ```
/// use problem_core::openapi::value_schema;
/// use problem_core::query::ValueKind;
///
/// let json = |kind| serde_json::to_value(value_schema(kind).build()).unwrap();
/// assert_eq!(json(ValueKind::Integer { min: 0, max: 255 }),
///     serde_json::json!({"type": "integer", "format": "int32", "minimum": 0, "maximum": 255}));
/// assert_eq!(json(ValueKind::Integer { min: i64::MIN, max: i64::MAX })["format"], "int64");
/// assert_eq!(json(ValueKind::Date), serde_json::json!({"type": "string", "format": "date"}));
/// assert_eq!(json(ValueKind::Float), serde_json::json!({"type": "number", "format": "double"}));
/// assert_eq!(json(ValueKind::Float32), serde_json::json!({"type": "number", "format": "float"}));
/// ```
pub fn value_schema(kind: ValueKind) -> ObjectBuilder {
    match kind {
        ValueKind::Integer { min, max } => {
            let format = if min >= i64::from(i32::MIN) && max <= i64::from(i32::MAX) {
                KnownFormat::Int32
            } else {
                KnownFormat::Int64
            };
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(format)))
                .minimum(Some(min))
                .maximum(Some(max))
        }
        ValueKind::Float => ObjectBuilder::new()
            .schema_type(Type::Number)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double))),
        ValueKind::Float32 => ObjectBuilder::new()
            .schema_type(Type::Number)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Float))),
        ValueKind::Boolean => ObjectBuilder::new().schema_type(Type::Boolean),
        ValueKind::Text => ObjectBuilder::new().schema_type(Type::String),
        ValueKind::Date => ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
        ValueKind::DateTime => ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
        ValueKind::OneOf(names) => ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names.iter().copied())),
        // No parameter reads a selected-only field; any JSON value.
        ValueKind::Opaque => ObjectBuilder::new(),
    }
}

/// The parameter name of a filter: `field` for equality, else
/// `field__operator`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::filter_parameter_name;
/// use problem_core::query::Operator;
/// assert_eq!(filter_parameter_name("year", Operator::Eq), "year");
/// assert_eq!(filter_parameter_name("year", Operator::Gte), "year__gte");
/// assert_eq!(filter_parameter_name("id", Operator::NotIn), "id__not_in");
/// ```
pub fn filter_parameter_name(field: &str, op: Operator) -> String {
    if op == Operator::Eq {
        field.to_owned()
    } else {
        format!("{field}__{}", op.as_str())
    }
}

/// One filter parameter: its description from the operator table, its
/// schema by the operator's class.
fn filter_parameter(field: &FieldSpec, op: Operator) -> Parameter {
    let name = field.name;
    let text = op
        .describe()
        .replace("{name}", name)
        .replace("{expected}", field.kind.expected())
        .replace("{max}", &MAX_LIST_VALUES.to_string());
    // Text values are at most `DEFAULT_MAX_VALUE_LENGTH` characters (the
    // query limits' default; longer is the issue `too_long`).
    let max_length = Some(DEFAULT_MAX_VALUE_LENGTH);
    // A value, and a list entry (text entries cannot be empty nor hold a
    // comma).
    let (value, item) = match field.kind {
        ValueKind::Text => {
            let text = || value_schema(field.kind).max_length(max_length);
            let item = text().min_length(Some(1)).pattern(Some("^[^,]+$"));
            (text(), item)
        }
        ValueKind::Integer { .. }
        | ValueKind::Float
        | ValueKind::Float32
        | ValueKind::Boolean
        | ValueKind::Date
        | ValueKind::DateTime
        | ValueKind::OneOf(_)
        | ValueKind::Opaque => (value_schema(field.kind), value_schema(field.kind)),
    };
    let schema: SchemaArg = match op.class() {
        Class::Compare => value.into(),
        Class::List => ArrayBuilder::new()
            .items(item)
            .min_items(Some(1))
            .max_items(Some(MAX_LIST_VALUES))
            .into(),
        Class::Text => ObjectBuilder::new()
            .schema_type(Type::String)
            .max_length(max_length)
            .into(),
        Class::Null => ObjectBuilder::new().schema_type(Type::Boolean).into(),
    };
    query(filter_parameter_name(name, op), text, schema)
}

/// Escapes a field name for a regular expression.
fn regex_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if "\\^$.|?*+()[]{}-/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn name_list(names: &[&'static str]) -> ArrayBuilder {
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(names.iter().copied())),
        )
        .max_items(Some(MAX_LIST_VALUES))
}

/// The query parameters of a collection, in this order: `page`,
/// `per_page`, `limit`, `cursor`, `sort`, one parameter per allowed filter
/// (`field` for equality, `field__operator` otherwise, typed by the
/// field's Rust type), `q`, `search`, `search_fields`, `fields`,
/// `exclude`. None is required.
/// Feature `openapi`.
///
/// - `page`, `per_page`, `limit` and `cursor` exclude one another, so none
///   has a `default` (a generated client would send it): the defaults are
///   stated in their `description`.
/// - The list-valued parameters (`sort`, `<field>__in`, `<field>__not_in`,
///   `search_fields`, `fields`, `exclude`) are arrays with `style: form`,
///   `explode: true` (`sort=-year&sort=id`), the form generated clients
///   send; the comma-separated form (`sort=-year,id`) means the same.
/// - `sort` names the sortable fields in its description and restricts
///   each entry with a `pattern` (`^[+-]?(?:id|title)$`).
/// - `search_fields`, `fields` and `exclude` entries are the searchable or
///   selectable field names (an `enum`).
/// - Parameters of parts the schema does not use (no sortable field, no
///   searchable field, no selectable field) are left out.
/// - A text filter value, and each text entry of a list, has `maxLength`
///   256 and the search's description says its terms are at most 256
///   characters: the query limits' default
///   ([`DEFAULT_MAX_VALUE_LENGTH`]; longer is the issue `too_long`). An
///   application that configures another limit states it in its own
///   descriptions.
///
/// ```
/// use problem_core::CollectionQuery;
/// use problem_core::openapi::utoipa::IntoParams;
///
/// #[derive(CollectionQuery)]
/// #[allow(dead_code)]
/// struct BookQuery {
///     #[query(filter(eq, gte), sort)]
///     id: i64,
///     #[query(filter(contains), search)]
///     title: String,
/// }
///
/// let names: Vec<String> = BookQuery::into_params(|| None).into_iter().map(|p| p.name).collect();
/// assert_eq!(names, ["page", "per_page", "limit", "cursor", "sort", "id", "id__gte",
///     "title__contains", "q", "search", "search_fields", "fields", "exclude"]);
/// let params = serde_json::to_value(BookQuery::into_params(|| None)).unwrap();
/// assert_eq!(params[7]["schema"], serde_json::json!({"type": "string", "maxLength": 256}));
/// ```
pub fn query_parameters(schema: &QuerySchema) -> Vec<Parameter> {
    let limits = schema.page_size;
    let mut params = vec![
        query(
            "page",
            "Page number of offset pagination, from 1 (default 1), at most (2^63 - 1) / page size + 1 (the offset must fit a signed 64-bit integer). Not together with `cursor`.".into(),
            integer(1),
        ),
        query(
            "per_page",
            format!(
                "Page size (default {}); larger sizes are clamped to {}. `limit` is the same parameter: given both, they must be equal.",
                limits.default, limits.max
            ),
            page_size(),
        ),
        query(
            "limit",
            format!(
                "Page size (default {}, clamped to {}), the name used with cursor pagination; the same as `per_page`.",
                limits.default, limits.max
            ),
            page_size(),
        ),
        query(
            "cursor",
            "Opaque cursor of the next or the previous page: `meta.next_cursor` and `meta.prev_cursor` of an envelope, or the `cursor` of the `next` and `prev` links (`Link` header). Valid only with the same sort, filters and search. Not together with `page`.".into(),
            ObjectBuilder::new().schema_type(Type::String),
        ),
    ];
    let sortable = schema.sortable_fields();
    if !sortable.is_empty() {
        let alternatives = sortable
            .iter()
            .map(|n| regex_escape(n))
            .collect::<Vec<_>>()
            .join("|");
        let default = schema
            .default_sort
            .iter()
            .map(|(f, d)| format!("{}{f}", if *d == Direction::Desc { "-" } else { "" }))
            .collect::<Vec<_>>()
            .join(",");
        let default = if default.is_empty() {
            schema.key.to_owned()
        } else {
            default
        };
        params.push(query(
            "sort",
            format!(
                "Sort fields in order of precedence (repeat the parameter, or separate them with commas), each field at most once; `-field` descending, `field` or `+field` ascending. Sortable fields: {}. Default: `{default}`; `{}` is always the last tie-breaker.",
                quoted(&sortable),
                schema.key
            ),
            ArrayBuilder::new()
                .items(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .pattern(Some(format!("^[+-]?(?:{alternatives})$"))),
                )
                .unique_items(true)
                .max_items(Some(MAX_LIST_VALUES)),
        ));
    }
    for field in schema.fields {
        for op in field.operators {
            params.push(filter_parameter(field, *op));
        }
    }
    let searchable = schema.searchable_fields();
    if !searchable.is_empty() {
        let text = format!(
            "Search: whitespace-separated terms (at most {MAX_SEARCH_TERMS}, each at most {DEFAULT_MAX_VALUE_LENGTH} characters), each found case-insensitively in at least one of {}.",
            quoted(&searchable)
        );
        params.push(query(
            "q",
            format!("{text} `search` is the same parameter."),
            ObjectBuilder::new().schema_type(Type::String),
        ));
        params.push(query(
            "search",
            format!("{text} The same as `q`."),
            ObjectBuilder::new().schema_type(Type::String),
        ));
        params.push(query(
            "search_fields",
            format!(
                "Subset of the searchable fields to search in (repeat the parameter, or separate them with commas): {}.",
                quoted(&searchable)
            ),
            name_list(&searchable),
        ));
    }
    let selectable = schema.selectable_fields();
    if !selectable.is_empty() {
        params.push(query(
            "fields",
            format!(
                "Sparse fieldset: the fields each item keeps (repeat the parameter, or separate them with commas), from {}.",
                quoted(&selectable)
            ),
            name_list(&selectable),
        ));
        params.push(query(
            "exclude",
            format!(
                "Fields left out of each item, applied after `fields` (repeat the parameter, or separate them with commas), from {}.",
                quoted(&selectable)
            ),
            name_list(&selectable),
        ));
    }
    params
}

/// The `Prefer` request header of an offset listing (RFC 7240 §2): a
/// string, not required. `count=exact`, `count=estimated` and `count=none`
/// choose how the total is counted; other preferences and unknown `count`
/// values are ignored (so the schema has no `enum`: any value is accepted).
/// `default` names the strategy used without a preference.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::prefer_count_parameter;
/// use problem_core::query::CountStrategy;
/// let p = serde_json::to_value(prefer_count_parameter(CountStrategy::Exact)).unwrap();
/// assert_eq!((p["name"].as_str(), p["in"].as_str(), p["required"].as_bool()), (Some("Prefer"), Some("header"), Some(false)));
/// assert_eq!(p["schema"], serde_json::json!({"type": "string"}));
/// ```
pub fn prefer_count_parameter(default: CountStrategy) -> Parameter {
    ParameterBuilder::new()
        .name("Prefer")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(format!(
            "RFC 7240 preferences. `count=exact` counts every matching item, `count=estimated` counts exactly up to a threshold and estimates above it (an envelope's `meta` then says `total_is_estimate: true`), `count=none` leaves out `total`, `total_pages`, the `last` link and `X-Total-Count`; without a preference: `count={}`. Honoured on offset pages only (answered with `Preference-Applied`); other preferences and unknown values are ignored.",
            default.as_str()
        )))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

/// The `Preference-Applied` response header of an offset listing (RFC
/// 7240 §3): `count=exact`, `count=estimated` or `count=none`, sent when
/// the request's `count` preference was honoured.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::preference_applied_header;
/// let h = serde_json::to_value(preference_applied_header()).unwrap();
/// assert_eq!(h["schema"]["enum"], serde_json::json!(["count=exact", "count=estimated", "count=none"]));
/// ```
pub fn preference_applied_header() -> Header {
    HeaderBuilder::new()
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([
                    "count=exact",
                    "count=estimated",
                    "count=none",
                ])),
        ))
        .description(Some(
            "The count strategy applied, when the request's `Prefer: count=...` was honoured (RFC 7240).",
        ))
        .build()
}

/// The tolerated parameters with an exact name (`_`) as optional string
/// query parameters of a collection, described as accepted and ignored;
/// `prefix*` patterns have no OpenAPI parameter form (a client may send
/// any name with the prefix) and are left to the operation's description
/// (see [`tolerated_description`]). A tolerated name that is one of the
/// collection's filter parameters is that filter, documented by
/// [`query_parameters`], so it is left out here.
/// Feature `openapi`.
///
/// ```
/// use problem_core::CollectionQuery;
/// use problem_core::openapi::tolerated_parameters;
/// use problem_core::query::{CollectionQuery as _, ToleratedParameters};
/// #[derive(CollectionQuery)]
/// #[query(key = "id")]
/// #[allow(dead_code)]
/// struct BookQuery {
///     #[query(filter(eq), sort)]
///     id: i64,
///     #[query(filter(gte))]
///     year: i32,
/// }
/// let tolerated = ToleratedParameters::new(["_", "utm_*", "year"]).unwrap();
/// let params = tolerated_parameters(&tolerated, BookQuery::SCHEMA);
/// let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
/// assert_eq!(names, ["_"]);
/// ```
pub fn tolerated_parameters(
    tolerated: &ToleratedParameters,
    schema: &QuerySchema,
) -> Vec<Parameter> {
    tolerated
        .patterns()
        .into_iter()
        .filter(|p| !p.ends_with('*') && !is_filter_parameter(schema, p))
        .map(|name| {
            query(
                name,
                "Tolerated: accepted and ignored (for example a cache buster); not a filter, left out of the links and cursors.".into(),
                ObjectBuilder::new().schema_type(Type::String),
            )
        })
        .collect()
}

/// A sentence naming every tolerated parameter of a collection, for an
/// operation's description: `` Tolerated parameters, accepted and ignored:
/// `_`, any parameter starting with `utm_`. `` (empty when nothing is
/// tolerated). An exact name that is one of the collection's filter
/// parameters is left out (it is that filter), and a prefix that such
/// parameters start with says "other than the filters".
/// Feature `openapi`.
///
/// ```
/// use problem_core::CollectionQuery;
/// use problem_core::openapi::tolerated_description;
/// use problem_core::query::{CollectionQuery as _, ToleratedParameters};
/// #[derive(CollectionQuery)]
/// #[query(key = "id")]
/// #[allow(dead_code)]
/// struct BookQuery {
///     #[query(filter(eq), sort)]
///     id: i64,
///     #[query(filter(gte))]
///     year: i32,
/// }
/// assert_eq!(
///     tolerated_description(&ToleratedParameters::new(["_", "utm_*"]).unwrap(), BookQuery::SCHEMA),
///     "Tolerated parameters, accepted and ignored (not filters, left out of the links and cursors): `_`, any parameter starting with `utm_`."
/// );
/// assert_eq!(
///     tolerated_description(&ToleratedParameters::new(["year", "y*"]).unwrap(), BookQuery::SCHEMA),
///     "Tolerated parameters, accepted and ignored (not filters, left out of the links and cursors): any parameter starting with `y` other than the filters."
/// );
/// ```
pub fn tolerated_description(tolerated: &ToleratedParameters, schema: &QuerySchema) -> String {
    let entries: Vec<String> = tolerated
        .patterns()
        .into_iter()
        .filter_map(|p| match p.strip_suffix('*') {
            Some(prefix) => {
                let but = if prefix_may_name_filter(schema, prefix) {
                    " other than the filters"
                } else {
                    ""
                };
                Some(format!("any parameter starting with `{prefix}`{but}"))
            }
            None => (!is_filter_parameter(schema, &p)).then(|| format!("`{p}`")),
        })
        .collect();
    if entries.is_empty() {
        return String::new();
    }
    format!(
        "Tolerated parameters, accepted and ignored (not filters, left out of the links and cursors): {}.",
        entries.join(", ")
    )
}
