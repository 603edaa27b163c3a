//! Parsing collection queries: every default, derived value, operator and
//! error code, with the `issues` JSON compared exactly.

mod query_support;

use problem_core::query::{
    CollectionParams, CursorPagination, FieldSelection, FieldValue, Filter, Operand, Operator,
    Pagination, QueryConfig, QueryError, RawQuery, Search, Sort, SortField, TypedQuery,
};
use query_support::{Book, book, book_issues};
use serde_json::json;

fn raw(qs: &str) -> RawQuery {
    RawQuery::parse(qs).unwrap()
}

fn untyped_issues(qs: &str) -> serde_json::Value {
    serde_json::to_value(CollectionParams::from_query_str(qs).unwrap_err().issues()).unwrap()
}

#[test]
fn pagination_defaults_and_derived_values() {
    let p = Pagination::parse(&raw("")).unwrap();
    assert_eq!((p.page, p.per_page, p.offset(), p.limit()), (1, 20, 0, 20));
    let p = Pagination::parse(&raw("page=2&per_page=50")).unwrap();
    assert_eq!((p.page, p.per_page, p.offset(), p.limit()), (2, 50, 50, 50));
    let p = Pagination::parse(&raw("page=3&limit=7")).unwrap();
    assert_eq!((p.offset(), p.limit()), (14, 7));
    assert_eq!(
        Pagination::parse(&raw("per_page=101")).unwrap().per_page,
        100
    );
    assert_eq!(
        Pagination::parse(&raw("per_page=99999999999999999999999999"))
            .unwrap()
            .per_page,
        100
    );
    assert_eq!(
        Pagination::parse(&raw("per_page=10&limit=10"))
            .unwrap()
            .per_page,
        10
    );
    assert_eq!(
        Pagination::parse(&raw("per_page=10&limit=010"))
            .unwrap()
            .per_page,
        10
    );
    assert_eq!(Pagination::parse(&raw("page=1&page=1")).unwrap().page, 1);
    let c = CursorPagination::parse(&raw("")).unwrap();
    assert_eq!((c.cursor, c.limit), (None, 20));
    let c = CursorPagination::parse(&raw("cursor=&limit=3")).unwrap();
    assert_eq!((c.cursor, c.limit), (None, 3));
}

#[test]
fn pagination_errors() {
    assert_eq!(
        untyped_issues("page=0&per_page=abc"),
        json!([
            {"location": "query", "name": "per_page", "code": "invalid_value", "message": "`abc` is not a valid integer", "expected": "integer"},
            {"location": "query", "name": "page", "code": "out_of_range", "message": "`page` must be 1 or more, got 0", "minimum": 1}
        ])
    );
    assert_eq!(
        untyped_issues("page=x&limit=0"),
        json!([
            {"location": "query", "name": "limit", "code": "out_of_range", "message": "`limit` must be 1 or more, got 0", "minimum": 1, "maximum": 100},
            {"location": "query", "name": "page", "code": "invalid_value", "message": "`x` is not a valid integer", "expected": "integer"}
        ])
    );
    assert_eq!(
        untyped_issues("per_page=-5"),
        json!([{"location": "query", "name": "per_page", "code": "out_of_range", "message": "`per_page` must be 1 or more, got -5", "minimum": 1, "maximum": 100}])
    );
    assert_eq!(
        untyped_issues("per_page=1.5"),
        json!([{"location": "query", "name": "per_page", "code": "invalid_value", "message": "`1.5` is not a valid integer", "expected": "integer"}])
    );
    // An empty value is named as such, not quoted as ``.
    assert_eq!(
        untyped_issues("page="),
        json!([{"location": "query", "name": "page", "code": "invalid_value", "message": "an empty value is not a valid integer", "expected": "integer"}])
    );
    assert_eq!(
        untyped_issues("page=-1"),
        json!([{"location": "query", "name": "page", "code": "out_of_range", "message": "`page` must be 1 or more, got -1", "minimum": 1}])
    );
    assert_eq!(
        untyped_issues("per_page=10&limit=20"),
        json!([{"location": "query", "name": "per_page", "code": "conflicting_parameters", "message": "`per_page` (10) and `limit` (20) differ: send one of them", "parameters": ["per_page", "limit"]}])
    );
    assert_eq!(
        untyped_issues("page=1&page=2"),
        json!([{"location": "query", "name": "page", "code": "conflicting_parameters", "message": "`page` is given more than once with different values: send it once", "parameters": ["page"]}])
    );
    assert_eq!(
        untyped_issues("cursor=abc&page=2"),
        json!([{"location": "query", "name": "cursor", "code": "conflicting_parameters", "message": "`cursor` and `page` cannot be combined: a cursor already says which page comes next", "parameters": ["cursor", "page"]}])
    );
    // The largest page whose offset fits: (i64::MAX / 20) + 1 at the
    // default page size.
    assert_eq!(
        untyped_issues("page=99999999999999999999"),
        json!([{"location": "query", "name": "page", "code": "out_of_range", "message": "`page` is too large", "minimum": 1, "maximum": 461_168_601_842_738_791_u64}])
    );
}

/// An empty `sort=`, `fields=`, `exclude=`, `q=`, `search=` or `cursor=`
/// means "not given" beside a value too: sent again with a value, or beside
/// its synonym, it neither conflicts nor leaves an empty entry.
#[test]
fn empty_values_beside_values_are_not_given() {
    assert_eq!(book("sort=&sort=title").order().to_string(), "title,id");
    assert_eq!(book("sort=title&sort=").order().to_string(), "title,id");
    assert_eq!(book("sort=&sort=").order().to_string(), "id");
    let fields = book("fields=&fields=title").fields().clone();
    assert_eq!(fields, FieldSelection::parse(&raw("fields=title")).unwrap());
    assert!(book("exclude=&exclude=").fields().is_all());
    for qs in [
        "q=&search=dune",
        "q=dune&search=",
        "q=+&search=dune",
        "q=dune&q=",
    ] {
        let terms = book(qs).search().map(|s| s.terms.clone());
        assert_eq!(terms, Some(vec!["dune".into()]), "{qs}");
    }
    assert!(book("q=&search=").search().is_none());
    assert_eq!(
        book("q=dune&search_fields=&search_fields=title")
            .search()
            .map(|s| s.fields.clone()),
        Some(Some(vec!["title".into()]))
    );
    assert!(!book("cursor=&cursor=").has_cursor());
    // A cursor of whitespace is a malformed token, not "not given".
    assert_eq!(book_issues("cursor=%0A")[0]["code"], "invalid_cursor");
    // Values that are not blank still conflict.
    assert_eq!(
        book_issues("q=a&search=b")[0]["code"],
        "conflicting_parameters"
    );
    assert_eq!(book_issues("sort=id&sort=-id")[0]["code"], "invalid_value");
}

#[test]
fn sort_parsing() {
    let s = Sort::parse(&raw("sort=-age,name")).unwrap();
    assert_eq!(s.fields(), [SortField::desc("age"), SortField::asc("name")]);
    let s = Sort::parse(&raw("sort=%2Bname,+age")).unwrap();
    assert_eq!(s.fields(), [SortField::asc("name"), SortField::asc("age")]);
    assert!(Sort::parse(&raw("sort=")).unwrap().is_empty());
    assert!(Sort::parse(&raw("")).unwrap().is_empty());
    assert_eq!(
        untyped_issues("sort=a,,b"),
        json!([{"location": "query", "name": "sort", "code": "invalid_value", "message": "`a,,b` has an empty entry", "expected": "comma-separated list of field names"}])
    );
    assert_eq!(
        untyped_issues("sort=a,-a"),
        json!([{"location": "query", "name": "sort", "code": "invalid_value", "message": "`a` is sorted on more than once", "expected": "comma-separated list of distinct field names"}])
    );
    assert_eq!(untyped_issues("sort=-")[0]["message"], "`-` names no field");
}

#[test]
fn every_operator_in_query_form() {
    let f = Filter::parse(&raw(
        "a=1&a__eq=1&a__ne=2&a__gt=3&a__gte=4&a__lt=5&a__lte=6&a__in=7,8&a__not_in=9&a__contains=x&a__starts_with=y&a__ends_with=z&a__is_null=true&a__is_not_null=true&b__is_null=false&b__is_not_null=false",
    ))
    .unwrap();
    let ops: Vec<Operator> = f.conditions().iter().map(|c| c.op).collect();
    use Operator::*;
    assert_eq!(
        ops,
        [
            Eq, Eq, Ne, Gt, Gte, Lt, Lte, In, NotIn, Contains, StartsWith, EndsWith, IsNull,
            IsNotNull, IsNotNull, IsNull
        ]
    );
    let t = |s: &str| FieldValue::Text(s.into());
    assert_eq!(
        f.conditions()[7].operand,
        Operand::List(vec![t("7"), t("8")])
    );
    assert_eq!(f.conditions()[12].operand, Operand::None);
    assert_eq!(f.conditions()[3].param, "a__gt");
    for op in Operator::ALL {
        assert_eq!(Operator::from_name(op.as_str()), Some(op));
    }
}

#[test]
fn filter_errors_untyped() {
    assert_eq!(
        untyped_issues("a__like=1"),
        json!([{"location": "query", "name": "a__like", "code": "operator_not_allowed", "message": "operator `like` is not allowed on `a`",
            "allowed": ["eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "contains", "starts_with", "ends_with", "is_null", "is_not_null", "iexact", "icontains", "istarts_with"]}])
    );
    assert_eq!(
        untyped_issues("a__is_null=yes"),
        json!([{"location": "query", "name": "a__is_null", "code": "invalid_value", "message": "`yes` is not a valid boolean", "expected": "boolean"}])
    );
    let hundred = vec!["1"; 100].join(",");
    assert!(Filter::parse(&raw(&format!("a__in={hundred}"))).is_ok());
    assert_eq!(
        untyped_issues(&format!("a__not_in={hundred},1")),
        json!([{"location": "query", "name": "a__not_in", "code": "too_many_values", "message": "`a__not_in` takes at most 100 values", "max": 100}])
    );
    assert_eq!(
        untyped_issues("__gt=1"),
        json!([{"location": "query", "name": "__gt", "code": "unknown_field", "message": "the filter names no field"}])
    );
    // the versioning query parameter is not a filter
    assert!(Filter::parse(&raw("api-version=2")).unwrap().is_empty());
}

#[test]
fn search_and_fields() {
    let s = Search::parse(&raw("q=%20rust%09async%20"))
        .unwrap()
        .unwrap();
    assert_eq!(
        (s.query.as_str(), s.terms.clone(), s.fields.clone()),
        (" rust\tasync ", vec!["rust".into(), "async".into()], None)
    );
    assert_eq!(
        Search::parse(&raw("search=x")).unwrap().unwrap().terms,
        ["x"]
    );
    assert_eq!(
        Search::parse(&raw("q=x&search=x")).unwrap().unwrap().terms,
        ["x"]
    );
    assert_eq!(Search::parse(&raw("q=%20%20")).unwrap(), None);
    assert_eq!(
        untyped_issues("q=a&search=b"),
        json!([{"location": "query", "name": "q", "code": "conflicting_parameters", "message": "`q` and `search` differ: send one of them", "parameters": ["q", "search"]}])
    );
    let many = vec!["t"; 21].join("+");
    assert_eq!(
        untyped_issues(&format!("q={many}")),
        json!([{"location": "query", "name": "q", "code": "too_many_values", "message": "`q` takes at most 20 terms", "max": 20}])
    );
    let f = FieldSelection::parse(&raw("fields=id,title&exclude=title")).unwrap();
    assert!(f.keeps("id") && !f.keeps("title") && !f.keeps("year"));
    let f = FieldSelection::parse(&raw("exclude=isbn")).unwrap();
    assert!(f.keeps("id") && !f.keeps("isbn"));
    assert!(FieldSelection::parse(&raw("fields=")).unwrap().is_all());
}

#[test]
fn combined_reports_every_issue_at_once() {
    assert_eq!(
        untyped_issues("page=0&per_page=x&sort=a,a&a__foo=1&q=a&search=b&fields=a,,b"),
        json!([
            {"location": "query", "name": "per_page", "code": "invalid_value", "message": "`x` is not a valid integer", "expected": "integer"},
            {"location": "query", "name": "page", "code": "out_of_range", "message": "`page` must be 1 or more, got 0", "minimum": 1},
            {"location": "query", "name": "sort", "code": "invalid_value", "message": "`a` is sorted on more than once", "expected": "comma-separated list of distinct field names"},
            {"location": "query", "name": "a__foo", "code": "operator_not_allowed", "message": "operator `foo` is not allowed on `a`",
                "allowed": ["eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "contains", "starts_with", "ends_with", "is_null", "is_not_null", "iexact", "icontains", "istarts_with"]},
            {"location": "query", "name": "q", "code": "conflicting_parameters", "message": "`q` and `search` differ: send one of them", "parameters": ["q", "search"]},
            {"location": "query", "name": "fields", "code": "invalid_value", "message": "`a,,b` has an empty entry", "expected": "comma-separated list of field names"}
        ])
    );
}

#[test]
fn parameter_limit() {
    let ok = vec!["a=1"; 1000].join("&");
    assert_eq!(RawQuery::parse(&ok).unwrap().len(), 1000);
    let over = vec!["a=1"; 1001].join("&");
    assert_eq!(RawQuery::parse(&over), Err(QueryError::TooManyParameters));
    // checked before anything else: the other errors are not reported
    let bad = format!("{over}&page=0");
    assert_eq!(
        CollectionParams::from_query_str(&bad),
        Err(QueryError::TooManyParameters)
    );
    assert_eq!(
        TypedQuery::<Book>::from_query_str(&bad, &QueryConfig::default()).unwrap_err(),
        QueryError::TooManyParameters
    );
    assert_eq!(
        RawQuery::from_pairs(vec![("a", "1"); 1001]),
        Err(QueryError::TooManyParameters)
    );
}

#[test]
fn typed_whitelist_errors() {
    let allowed_filters = json!(["id", "title", "year", "subtitle", "published", "available"]);
    assert_eq!(
        book_issues("color=red"),
        json!([{"location": "query", "name": "color", "code": "unknown_parameter", "message": "unknown query parameter `color`", "allowed": allowed_filters}])
    );
    assert_eq!(
        book_issues("color__gte=1&isbn=x"),
        json!([
            {"location": "query", "name": "color__gte", "code": "unknown_field", "message": "`color` is not a filterable field", "allowed": allowed_filters},
            {"location": "query", "name": "isbn", "code": "unknown_parameter", "message": "unknown query parameter `isbn`", "allowed": allowed_filters}
        ])
    );
    assert_eq!(
        book_issues("year__ne=1&title__gt=a&subtitle=x"),
        json!([
            {"location": "query", "name": "year__ne", "code": "operator_not_allowed", "message": "operator `ne` is not allowed on `year`", "allowed": ["eq", "gt", "gte", "lt", "lte", "in"]},
            {"location": "query", "name": "title__gt", "code": "operator_not_allowed", "message": "operator `gt` is not allowed on `title`", "allowed": ["eq", "contains", "starts_with", "ends_with"]},
            {"location": "query", "name": "subtitle", "code": "operator_not_allowed", "message": "operator `eq` is not allowed on `subtitle`", "allowed": ["is_null", "is_not_null", "contains"]}
        ])
    );
    assert_eq!(
        book_issues(
            "year__gte=abc&published__gt=2024-13-01&available=yes&id__in=1,x&year=99999999999"
        ),
        json!([
            {"location": "query", "name": "year__gte", "code": "invalid_value", "message": "`abc` is not a valid integer", "expected": "integer"},
            {"location": "query", "name": "published__gt", "code": "invalid_value", "message": "`2024-13-01` is not a valid RFC 3339 date", "expected": "RFC 3339 date"},
            {"location": "query", "name": "available", "code": "invalid_value", "message": "`yes` is not a valid boolean", "expected": "boolean"},
            {"location": "query", "name": "id__in", "code": "invalid_value", "message": "`x` is not a valid integer", "expected": "integer"},
            {"location": "query", "name": "year", "code": "invalid_value", "message": "`99999999999` is not an integer from -2147483648 to 2147483647", "expected": "integer", "minimum": -2147483648_i64, "maximum": 2147483647}
        ])
    );
    assert_eq!(
        book_issues("sort=-subtitle,isbn_x"),
        json!([
            {"location": "query", "name": "sort", "code": "not_sortable", "message": "`subtitle` is not a sortable field", "allowed": ["id", "title", "year", "published", "available"]},
            {"location": "query", "name": "sort", "code": "not_sortable", "message": "`isbn_x` is not a sortable field", "allowed": ["id", "title", "year", "published", "available"]}
        ])
    );
    assert_eq!(
        book_issues("q=x&search_fields=title,year"),
        json!([{"location": "query", "name": "search_fields", "code": "not_searchable", "message": "`year` is not a searchable field", "allowed": ["title", "subtitle"]}])
    );
    // A wrong entry named again is one issue, not one per entry.
    assert_eq!(
        book_issues("sort=-subtitle,subtitle,id,-id&search_fields=year,year&fields=nope,nope"),
        json!([
            {"location": "query", "name": "sort", "code": "not_sortable", "message": "`subtitle` is not a sortable field", "allowed": ["id", "title", "year", "published", "available"]},
            {"location": "query", "name": "sort", "code": "invalid_value", "message": "`id` is sorted on more than once", "expected": "comma-separated list of distinct field names"},
            {"location": "query", "name": "search_fields", "code": "not_searchable", "message": "`year` is not a searchable field", "allowed": ["title", "subtitle"]},
            {"location": "query", "name": "fields", "code": "not_selectable", "message": "`nope` is not a selectable field", "allowed": ["id", "title", "year", "subtitle", "published", "available", "isbn"]}
        ])
    );
    assert_eq!(
        book_issues("fields=id,secret&exclude=nope"),
        json!([
            {"location": "query", "name": "fields", "code": "not_selectable", "message": "`secret` is not a selectable field", "allowed": ["id", "title", "year", "subtitle", "published", "available", "isbn"]},
            {"location": "query", "name": "exclude", "code": "not_selectable", "message": "`nope` is not a selectable field", "allowed": ["id", "title", "year", "subtitle", "published", "available", "isbn"]}
        ])
    );
}

#[test]
fn typed_values_and_defaults() {
    let q = book("");
    assert_eq!((q.pagination().page, q.limit()), (1, 20));
    assert_eq!(q.order().to_string(), "id");
    let q = book("sort=-year,title&page=2&per_page=50");
    assert_eq!(q.order().to_string(), "-year,title,id");
    assert_eq!((q.pagination().offset(), q.pagination().limit()), (50, 50));
    let q = book(
        "year__gte=2000&year__lte=2010&available=false&subtitle__is_null=true&published__gt=2020-01-31",
    );
    let c = q.filter().conditions();
    assert_eq!(c[0].operand, Operand::One(FieldValue::Integer(2000)));
    assert_eq!(c[2].operand, Operand::One(FieldValue::Boolean(false)));
    assert_eq!((c[3].op, &c[3].operand), (Operator::IsNull, &Operand::None));
    assert_eq!(
        c[4].operand,
        Operand::One(FieldValue::Date(time::macros::date!(2020 - 01 - 31)))
    );
    assert_eq!(book("q=x").search_fields(), ["title", "subtitle"]);
    assert_eq!(
        book("q=x&search_fields=subtitle").search_fields(),
        ["subtitle"]
    );
    // api-version is ignored by default
    assert!(book("api-version=2").filter().is_empty());
}

#[test]
fn lenient_mode_and_ignored_parameters() {
    let lenient = QueryConfig::default().lenient(true);
    let q = TypedQuery::<Book>::from_query_str("color=red&x__gt=1&year=2000", &lenient).unwrap();
    assert_eq!(q.filter().conditions().len(), 1);
    // lenient does not hide real mistakes
    let err = TypedQuery::<Book>::from_query_str("year__ne=1", &lenient).unwrap_err();
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        json!([{"location": "query", "name": "year__ne", "code": "operator_not_allowed", "message": "operator `ne` is not allowed on `year`", "allowed": ["eq", "gt", "gte", "lt", "lte", "in"]}])
    );
    let custom = QueryConfig::default().ignore_parameters(["v", "utm_source"]);
    assert!(TypedQuery::<Book>::from_query_str("v=2&utm_source=x", &custom).is_ok());
    assert_eq!(
        TypedQuery::<Book>::from_query_str("api-version=2", &custom)
            .unwrap_err()
            .issues()[0]
            .code,
        "unknown_parameter"
    );
}
