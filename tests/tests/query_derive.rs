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
    for raw in [
        "9999-12-31T23:59:59-23:59",
        "-0001-01-01T00:00:00Z",
        "+2024-01-01T00:00:00Z",
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
                "message": format!("`{raw}` is not a valid RFC 3339 date-time"),
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
