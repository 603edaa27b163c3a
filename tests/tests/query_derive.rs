//! `#[derive(CollectionQuery)]`: the generated schema and typed parsing of
//! the issue's example.
#![deny(warnings)]

use problem_core::CollectionQuery;
use problem_core::query::{
    CollectionQuery as _, Direction, FieldSpec, FieldValue, Operand, Operator, PageSizeLimits,
    QueryConfig, TypedQuery, ValueKind,
};
use time::{Date, OffsetDateTime};

#[derive(CollectionQuery)]
#[query(key = "id", default_sort = "id", max_page_size = 100)]
struct BookQuery {
    #[query(filter(eq, ne, in, not_in, gt, gte, lt, lte), sort)]
    id: i64,
    #[query(filter(eq, contains, starts_with, ends_with), sort, search)]
    title: String,
    #[query(filter(eq, gt, gte, lt, lte, in), sort)]
    year: i32,
    #[query(filter(is_null, is_not_null, contains), search)]
    subtitle: Option<String>,
    #[query(filter(eq, gt, lt), sort, column = "published_at")]
    published: Date,
}

#[derive(CollectionQuery)]
#[query(default_sort = "-at", default_page_size = 5, max_page_size = 10)]
struct EventQuery {
    id: u32,
    #[query(filter(gte, lt), sort)]
    at: OffsetDateTime,
    #[query(filter(eq, ne))]
    done: bool,
    #[query(filter(gt, lte))]
    score: f64,
    #[query(rename = "type", filter(eq), select = false)]
    r#kind: String,
}

fn q<Q: problem_core::query::CollectionQuery>(s: &str) -> TypedQuery<Q> {
    TypedQuery::<Q>::from_query_str(s, &QueryConfig::default()).unwrap()
}

#[test]
fn schema_of_the_issue_example() {
    let s = BookQuery::SCHEMA;
    assert_eq!(s.resource, "BookQuery");
    assert_eq!(s.key, "id");
    assert_eq!(s.default_sort, &[("id", Direction::Asc)]);
    assert_eq!(
        s.page_size,
        PageSizeLimits {
            default: 20,
            max: 100
        }
    );
    assert_eq!(
        s.fields[4],
        FieldSpec {
            name: "published",
            column: "published_at",
            kind: ValueKind::Date,
            nullable: false,
            operators: &[Operator::Eq, Operator::Gt, Operator::Lt],
            sortable: true,
            searchable: false,
            selectable: true,
            folded_column: None,
        }
    );
    assert_eq!(
        s.fields[3],
        FieldSpec {
            name: "subtitle",
            column: "subtitle",
            kind: ValueKind::Text,
            nullable: true,
            operators: &[Operator::IsNull, Operator::IsNotNull, Operator::Contains],
            sortable: false,
            searchable: true,
            selectable: true,
            folded_column: None,
        }
    );
    assert_eq!(
        s.fields[2].kind,
        ValueKind::Integer {
            min: i32::MIN as i64,
            max: i32::MAX as i64
        }
    );
    assert_eq!(
        s.filterable_fields(),
        ["id", "title", "year", "subtitle", "published"]
    );
    assert_eq!(s.sortable_fields(), ["id", "title", "year", "published"]);
    assert_eq!(s.searchable_fields(), ["title", "subtitle"]);
    assert_eq!(
        s.selectable_fields(),
        ["id", "title", "year", "subtitle", "published"]
    );
}

#[test]
fn container_defaults_and_field_options() {
    let s = EventQuery::SCHEMA;
    assert_eq!(s.key, "id");
    assert_eq!(s.default_sort, &[("at", Direction::Desc)]);
    assert_eq!(
        s.page_size,
        PageSizeLimits {
            default: 5,
            max: 10
        }
    );
    assert_eq!(s.fields[0].operators, &[] as &[Operator]);
    assert_eq!(s.fields[1].kind, ValueKind::DateTime);
    assert_eq!(s.fields[2].kind, ValueKind::Boolean);
    assert_eq!(s.fields[3].kind, ValueKind::Float);
    assert_eq!(s.fields[4].name, "type");
    assert!(!s.fields[4].selectable);
    let e = q::<EventQuery>("");
    assert_eq!(e.order().to_string(), "-at,id");
    assert_eq!(e.limit(), 5);
    assert_eq!(q::<EventQuery>("limit=50").limit(), 10);
}

#[test]
fn typed_values() {
    let b = q::<BookQuery>(
        "year__gte=2000&published__lt=2024-01-31&subtitle__is_null=false&id__in=1,2,3&title__contains=Rust",
    );
    let c = b.filter().conditions();
    assert_eq!(c[0].operand, Operand::One(FieldValue::Integer(2000)));
    assert_eq!(
        c[1].operand,
        Operand::One(FieldValue::Date(time::macros::date!(2024 - 01 - 31)))
    );
    assert_eq!(
        (c[2].op, &c[2].operand),
        (Operator::IsNotNull, &Operand::None)
    );
    assert_eq!(
        c[3].operand,
        Operand::List(vec![
            FieldValue::Integer(1),
            FieldValue::Integer(2),
            FieldValue::Integer(3)
        ])
    );
    assert_eq!(c[4].operand, Operand::One(FieldValue::Text("Rust".into())));
    let e = q::<EventQuery>("at__gte=2024-01-01T10:00:00%2B02:00&done=true&score__gt=1.5&type=x");
    let c = e.filter().conditions();
    assert_eq!(
        c[0].operand,
        Operand::One(FieldValue::DateTime(
            time::macros::datetime!(2024-01-01 08:00 UTC)
        ))
    );
    assert_eq!(c[1].operand, Operand::One(FieldValue::Boolean(true)));
    assert_eq!(c[2].operand, Operand::One(FieldValue::Float(1.5)));
    assert_eq!((&*c[3].field, c[3].param.as_str()), ("type", "type"));
}

#[test]
fn order_appends_the_key() {
    assert_eq!(q::<BookQuery>("").order().to_string(), "id");
    assert_eq!(q::<BookQuery>("sort=-year").order().to_string(), "-year,id");
    assert_eq!(
        q::<BookQuery>("sort=-id,year").order().to_string(),
        "-id,year"
    );
    assert!(q::<BookQuery>("").sort().is_empty());
}

async fn list(q: problem_core::query::Collection<BookQuery>) -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok().body(q.order().to_string())
}

#[actix_web::test]
async fn extractor_with_the_derived_query() {
    use actix_web::{App, test as atest, web};
    let app = atest::init_service(App::new().route("/books", web::get().to(list))).await;
    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/books?sort=-published&year__gte=2000&api-version=2")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(atest::read_body(res).await, "-published,id");
    let res = atest::call_service(
        &app,
        atest::TestRequest::get()
            .uri("/books?year__gte=soon&sort=subtitle&isbn=1&subtitle__is_null=maybe")
            .to_request(),
    )
    .await;
    assert_eq!(res.status(), 400);
    let body: serde_json::Value = atest::read_body_json(res).await;
    assert_eq!(
        body,
        serde_json::json!({
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": "Request validation failed",
            "instance": "",
            "issues": [
                {"location": "query", "name": "sort", "code": "not_sortable", "message": "`subtitle` is not a sortable field", "allowed": ["id", "title", "year", "published"]},
                {"location": "query", "name": "year__gte", "code": "invalid_value", "message": "`soon` is not a valid integer", "expected": "integer"},
                {"location": "query", "name": "isbn", "code": "unknown_parameter", "message": "unknown query parameter `isbn`", "allowed": ["id", "title", "year", "subtitle", "published"]},
                {"location": "query", "name": "subtitle__is_null", "code": "invalid_value", "message": "`maybe` is not a valid boolean", "expected": "boolean"}
            ]
        })
    );
}

/// RFC 3339 writes four-digit years; a date-time whose UTC instant leaves
/// the years 0000 to 9999 is not a value any database stores alike. Both
/// are `invalid_value` issues. (`9999-12-31T23:59:59-23:59` is in year 10000
/// in UTC: converting it used to panic.)
#[test]
fn date_times_outside_four_digit_years_are_invalid_values() {
    for (raw, message) in [
        (
            "9999-12-31T23:59:59-23:59",
            "`9999-12-31T23:59:59-23:59` is an RFC 3339 date-time no filter can compare: it falls outside the years 0000 to 9999 in UTC",
        ),
        (
            "-0001-01-01T00:00:00Z",
            "`-0001-01-01T00:00:00Z` is not a valid RFC 3339 date-time",
        ),
        (
            "+2024-01-01T00:00:00Z",
            "`+2024-01-01T00:00:00Z` is not a valid RFC 3339 date-time",
        ),
    ] {
        let qs = format!("at__gte={}", raw.replace('+', "%2B"));
        let err = TypedQuery::<EventQuery>::from_query_str(&qs, &QueryConfig::default())
            .err()
            .unwrap_or_else(|| panic!("{raw} was accepted"));
        let issues = serde_json::to_value(err.issues()).unwrap();
        assert_eq!(
            issues,
            serde_json::json!([{
                "location": "query",
                "name": "at__gte",
                "code": "invalid_value",
                "message": message,
                "expected": "RFC 3339 date-time"
            }]),
            "{raw}"
        );
    }
    let ok = q::<EventQuery>("at__gte=9999-12-31T23:59:59Z");
    assert_eq!(
        ok.filter().conditions()[0].operand,
        Operand::One(FieldValue::DateTime(
            time::macros::datetime!(9999-12-31 23:59:59 UTC)
        ))
    );
}

/// A unit-variant enum, serialized in snake case: queryable as
/// `ValueKind::OneOf` of the names serde writes.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum Shelf {
    Draft,
    InPrint,
    OutOfPrint,
}

impl problem_core::query::QueryValue for Shelf {
    const KIND: ValueKind = ValueKind::OneOf(&["draft", "in_print", "out_of_print"]);
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
struct Dimensions {
    width: u32,
    height: u32,
}

/// Fields only selected (no filter, sort or search, not the key) may have
/// any type: a `Vec`, a struct, a nested `Option`.
#[derive(CollectionQuery)]
#[allow(dead_code)]
struct ShelfQuery {
    id: i64,
    #[query(filter(eq, ne, in, not_in, is_null), sort)]
    shelf: Option<Shelf>,
    tags: Vec<String>,
    size: Dimensions,
    note: Option<Option<String>>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
struct Copy_ {
    id: i64,
    shelf: Option<Shelf>,
    tags: Vec<String>,
    size: Dimensions,
    note: Option<Option<String>>,
}

fn copies() -> Vec<Copy_> {
    let mk = |id, shelf, tags: &[&str]| Copy_ {
        id,
        shelf,
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        size: Dimensions {
            width: 10 * id as u32,
            height: 20,
        },
        note: None,
    };
    vec![
        mk(1, Some(Shelf::OutOfPrint), &["a"]),
        mk(2, Some(Shelf::Draft), &[]),
        mk(3, None, &["b", "c"]),
        mk(4, Some(Shelf::InPrint), &["d"]),
        mk(5, Some(Shelf::Draft), &["e"]),
    ]
}

/// The ids of the in-memory offset page of `items` for `qs`.
fn ids_of<T: serde::Serialize>(qs: &str, items: impl IntoIterator<Item = T>) -> Vec<i64> {
    q::<ShelfQuery>(qs)
        .page_in_memory(items)
        .unwrap()
        .data
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .collect()
}

/// A configuration with a fixed cursor key.
fn keyed() -> QueryConfig {
    QueryConfig::default()
        .cursor_keys([b"an-example-cursor-key-of-32-bytes".to_vec()])
        .unwrap()
}

fn shelf_ids(qs: &str) -> Vec<i64> {
    ids_of(qs, copies())
}

#[test]
fn enum_fields_are_one_of_their_names_and_other_fields_any_type() {
    let s = ShelfQuery::SCHEMA;
    let kinds: Vec<(&str, ValueKind, bool)> = s
        .fields
        .iter()
        .map(|f| (f.name, f.kind, f.nullable))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "id",
                ValueKind::Integer {
                    min: i64::MIN,
                    max: i64::MAX
                },
                false
            ),
            (
                "shelf",
                ValueKind::OneOf(&["draft", "in_print", "out_of_print"]),
                true
            ),
            ("tags", ValueKind::Opaque, false),
            ("size", ValueKind::Opaque, false),
            ("note", ValueKind::Opaque, true),
        ]
    );
    assert_eq!(
        s.selectable_fields(),
        ["id", "shelf", "tags", "size", "note"]
    );
    assert_eq!(s.filterable_fields(), ["shelf"]);

    assert_eq!(shelf_ids("shelf=draft"), [2, 5]);
    assert_eq!(shelf_ids("shelf__ne=draft"), [1, 4]);
    assert_eq!(shelf_ids("shelf__in=in_print,out_of_print"), [1, 4]);
    assert_eq!(
        shelf_ids("shelf__not_in=draft&shelf__is_null=false"),
        [1, 4]
    );
    assert_eq!(shelf_ids("shelf__is_null=true"), [3]);
    // Sorted by name as text, null first (as SQLite sorts).
    assert_eq!(shelf_ids("sort=shelf"), [3, 2, 5, 4, 1]);
    // The key breaks ties ascending: `-shelf,id`.
    assert_eq!(shelf_ids("sort=-shelf"), [1, 4, 2, 5, 3]);

    let query = q::<ShelfQuery>("fields=tags,size&shelf=in_print");
    let page = query.page_in_memory(copies()).unwrap();
    let selected: Vec<serde_json::Value> = page
        .data
        .into_iter()
        .map(|v| query.fields().apply(v))
        .collect();
    assert_eq!(
        serde_json::Value::Array(selected),
        serde_json::json!([{"tags": ["d"], "size": {"width": 40, "height": 20}}])
    );
}

#[test]
fn an_enum_value_walks_cursors_in_order() {
    let config = keyed();
    let mut seen = Vec::new();
    let mut qs = "sort=-shelf&limit=2".to_owned();
    for _ in 0..5 {
        let page = TypedQuery::<ShelfQuery>::from_query_str(&qs, &config)
            .unwrap()
            .cursor_page_in_memory(copies())
            .unwrap();
        seen.extend(page.data.iter().map(|v| v["id"].as_i64().unwrap()));
        match page.meta.next_cursor {
            Some(c) => qs = format!("sort=-shelf&limit=2&cursor={c}"),
            None => break,
        }
    }
    assert_eq!(seen, [1, 4, 2, 5, 3]);
}

#[test]
fn an_enum_value_not_listed_is_an_invalid_value_with_the_names() {
    let err = TypedQuery::<ShelfQuery>::from_query_str(
        "shelf=Draft&shelf__in=gone,draft,lost&sort=tags&tags=a&shelf__gt=draft",
        &QueryConfig::default(),
    )
    .err()
    .unwrap_or_else(|| panic!("accepted"));
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        serde_json::json!([
            {"location": "query", "name": "sort", "code": "not_sortable", "message": "`tags` is not a sortable field", "allowed": ["shelf"]},
            {"location": "query", "name": "shelf", "code": "invalid_value", "message": "`Draft` is not one of the allowed values", "expected": "one of the allowed values", "allowed": ["draft", "in_print", "out_of_print"]},
            {"location": "query", "name": "shelf__in", "code": "invalid_value", "message": "`gone` is not one of the allowed values", "expected": "one of the allowed values", "allowed": ["draft", "in_print", "out_of_print"]},
            {"location": "query", "name": "tags", "code": "unknown_parameter", "message": "unknown query parameter `tags`", "allowed": ["shelf"]},
            {"location": "query", "name": "shelf__gt", "code": "operator_not_allowed", "message": "operator `gt` is not allowed on `shelf`", "allowed": ["eq", "ne", "in", "not_in", "is_null"]}
        ])
    );
}

/// An item whose member is a name the kind does not list (a variant a newer
/// build added, during a rolling deploy) is read as text: it matches no
/// filter value, `ne` and `not_in` keep it, and it sorts and pages as text.
#[test]
fn an_item_with_a_name_not_listed_is_read_as_text() {
    let items = || {
        [
            serde_json::json!({"id": 1, "shelf": "in_print", "tags": [], "size": {}, "note": null}),
            serde_json::json!({"id": 2, "shelf": "archived", "tags": [], "size": {}, "note": null}),
        ]
    };
    let ids = |qs: &str| ids_of(qs, items());
    assert_eq!(ids("shelf=in_print"), [1]);
    assert_eq!(ids("shelf__ne=in_print"), [2]);
    assert_eq!(ids("shelf__not_in=draft,in_print"), [2]);
    assert_eq!(ids("sort=shelf"), [2, 1]);
    let config = keyed();
    let first = TypedQuery::<ShelfQuery>::from_query_str("sort=shelf&limit=1", &config)
        .unwrap()
        .cursor_page_in_memory(items())
        .unwrap();
    let next = first.meta.next_cursor.expect("a next page");
    let second = TypedQuery::<ShelfQuery>::from_query_str(
        &format!("sort=shelf&limit=1&cursor={next}"),
        &config,
    )
    .unwrap()
    .cursor_page_in_memory(items())
    .unwrap();
    assert_eq!(second.data[0]["id"], 1);
}

mod derived_value {
    //! `#[derive(QueryValue)]` lists exactly the names serde writes: each
    //! rename rule, `rename`, `skip`, raw identifiers, compared with
    //! `serde_json`'s own output of every variant.
    use problem_core::QueryValue;
    use problem_core::query::{QueryValue as _, ValueKind};
    use serde::Serialize;

    macro_rules! rule {
        ($name:ident, $rule:literal) => {
            #[derive(Serialize, QueryValue, Clone, Copy)]
            #[serde(rename_all = $rule)]
            #[allow(dead_code, non_camel_case_types)]
            enum $name {
                Draft,
                InPrint,
                OutOfPrintSince2020,
                A,
                r#Type,
                NaïveÜber,
            }
            impl $name {
                const ALL: [Self; 6] = [
                    Self::Draft,
                    Self::InPrint,
                    Self::OutOfPrintSince2020,
                    Self::A,
                    Self::r#Type,
                    Self::NaïveÜber,
                ];
            }
        };
    }
    rule!(Lower, "lowercase");
    rule!(Upper, "UPPERCASE");
    rule!(Pascal, "PascalCase");
    rule!(Camel, "camelCase");
    rule!(Snake, "snake_case");
    rule!(ScreamingSnake, "SCREAMING_SNAKE_CASE");
    rule!(Kebab, "kebab-case");
    rule!(ScreamingKebab, "SCREAMING-KEBAB-CASE");

    fn serde_names<T: Serialize>(all: &[T]) -> Vec<String> {
        all.iter()
            .map(|v| match serde_json::to_value(v).unwrap() {
                serde_json::Value::String(s) => s,
                other => panic!("not a string: {other}"),
            })
            .collect()
    }

    fn kind_names(kind: ValueKind) -> Vec<String> {
        match kind {
            ValueKind::OneOf(names) => names.iter().map(|n| (*n).to_owned()).collect(),
            other => panic!("not OneOf: {other:?}"),
        }
    }

    #[test]
    fn every_rename_rule_gives_serde_s_names() {
        let cases: [(Vec<String>, ValueKind); 8] = [
            (serde_names(&Lower::ALL), Lower::KIND),
            (serde_names(&Upper::ALL), Upper::KIND),
            (serde_names(&Pascal::ALL), Pascal::KIND),
            (serde_names(&Camel::ALL), Camel::KIND),
            (serde_names(&Snake::ALL), Snake::KIND),
            (serde_names(&ScreamingSnake::ALL), ScreamingSnake::KIND),
            (serde_names(&Kebab::ALL), Kebab::KIND),
            (serde_names(&ScreamingKebab::ALL), ScreamingKebab::KIND),
        ];
        for (serde, kind) in cases {
            assert_eq!(kind_names(kind), serde);
        }
        // Written out once, independently of serde.
        assert_eq!(
            kind_names(Snake::KIND),
            [
                "draft",
                "in_print",
                "out_of_print_since2020",
                "a",
                "type",
                "naïve_Über"
            ]
        );
        assert_eq!(
            kind_names(ScreamingKebab::KIND),
            [
                "DRAFT",
                "IN-PRINT",
                "OUT-OF-PRINT-SINCE2020",
                "A",
                "TYPE",
                "NAïVE-ÜBER"
            ]
        );
    }

    #[derive(Serialize, QueryValue)]
    #[serde(
        rename_all(serialize = "camelCase", deserialize = "snake_case"),
        deny_unknown_fields
    )]
    #[allow(dead_code)]
    enum Mixed {
        #[serde(rename = "first")]
        One,
        #[serde(rename(serialize = "second", deserialize = "2"), alias = "deux")]
        Two,
        #[serde(skip)]
        Hidden,
        #[serde(skip_serializing)]
        AlsoHidden,
        #[serde(skip_deserializing)]
        WrittenOnly,
        ThreeFour,
    }

    #[test]
    fn rename_skip_and_other_attributes() {
        assert_eq!(
            Mixed::KIND,
            ValueKind::OneOf(&["first", "second", "writtenOnly", "threeFour"])
        );
        assert_eq!(
            serde_names(&[Mixed::One, Mixed::Two, Mixed::WrittenOnly, Mixed::ThreeFour]),
            kind_names(Mixed::KIND)
        );
    }

    /// Without serde attributes, the names are the variants'.
    #[derive(Serialize, QueryValue)]
    #[allow(dead_code)]
    enum Plain {
        Hardcover,
        Paperback,
    }

    #[derive(problem_core::CollectionQuery)]
    #[allow(dead_code)]
    struct EditionQuery {
        id: i64,
        #[query(filter(eq, in), sort)]
        binding: Plain,
    }

    #[test]
    fn a_derived_enum_filters_in_a_collection_query() {
        use problem_core::query::{CollectionQuery as _, QueryConfig, TypedQuery};
        assert_eq!(
            EditionQuery::SCHEMA.fields[1].kind,
            ValueKind::OneOf(&["Hardcover", "Paperback"])
        );
        let items = [
            serde_json::json!({"id": 1, "binding": Plain::Paperback}),
            serde_json::json!({"id": 2, "binding": Plain::Hardcover}),
        ];
        let q = TypedQuery::<EditionQuery>::from_query_str(
            "binding=Hardcover",
            &QueryConfig::default(),
        )
        .unwrap();
        let page = q.page_in_memory(items).unwrap();
        assert_eq!(
            serde_json::to_value(&page.data).unwrap(),
            serde_json::json!([{"id": 2, "binding": "Hardcover"}])
        );
    }
}
