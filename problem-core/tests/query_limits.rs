//! Query limits, NUL characters and exploded list parameters, with the
//! `issues` JSON compared exactly.

mod query_support;

use problem_core::query::{FieldValue, Operand, Operator, QueryConfig, TypedQuery, fold_case};
use query_support::{Book, book, book_issues};
use serde_json::json;

#[test]
fn more_than_64_filters_is_too_many_filters() {
    let qs = vec!["title=a"; 65].join("&");
    assert_eq!(
        book_issues(&qs),
        json!([{"location": "query", "name": "title", "code": "too_many_filters",
                "message": "at most 64 filter conditions are allowed", "max": 64}])
    );
    // 64 distinct filters pass.
    let qs = (0..64)
        .map(|i| format!("id__in={i}"))
        .collect::<Vec<_>>()
        .join("&");
    let q = book(&qs);
    assert_eq!(q.filter().conditions().len(), 1, "exploded: one list");
    // The limit is configurable.
    let config = QueryConfig::default().max_filters(2);
    let err = TypedQuery::<Book>::from_query_str("id=1&year=2&title=x", &config).unwrap_err();
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        json!([{"location": "query", "name": "title", "code": "too_many_filters",
                "message": "at most 2 filter conditions are allowed", "max": 2}])
    );
}

#[test]
fn only_filter_conditions_count_toward_the_limit() {
    let filters = vec!["year__gte=1900"; 64].join("&");
    // 64 conditions and an unknown parameter: the unknown parameter is
    // reported as such, not as a 65th filter.
    let unknown = json!({"location": "query", "name": "colour", "code": "unknown_parameter",
        "message": "unknown query parameter `colour`",
        "allowed": ["id", "title", "year", "subtitle", "published", "available"]});
    let issues = book_issues(&format!("{filters}&colour=red"));
    assert_eq!(issues, json!([unknown]));
    // 65 conditions and the unknown parameter: both problems at once.
    let issues = book_issues(&format!("colour=red&{filters}&year__lte=2000"));
    assert_eq!(
        issues,
        json!([unknown, {"location": "query", "name": "year__lte", "code": "too_many_filters",
                "message": "at most 64 filter conditions are allowed", "max": 64}])
    );
    // 100 unknown parameters: 100 issues, each once however often it is
    // repeated, and no filter limit.
    let qs = (0..200)
        .map(|i| format!("x{}=1", i % 100))
        .collect::<Vec<_>>()
        .join("&");
    let issues = book_issues(&format!("title=a&{qs}"));
    let names: Vec<&str> = issues
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            assert_eq!(i["code"], "unknown_parameter");
            i["name"].as_str().unwrap()
        })
        .collect();
    let want: Vec<String> = (0..100).map(|i| format!("x{i}")).collect();
    assert_eq!(names, want);
    // Lenient: they are ignored, and the conditions are parsed.
    let config = QueryConfig::default().lenient(true);
    let q = TypedQuery::<Book>::from_query_str(&format!("{qs}&title=a&id__in=1&id__in=2"), &config)
        .unwrap();
    assert_eq!(q.filter().conditions().len(), 2);
    // Within the limit, a condition's own problem is still reported.
    let issues = book_issues(&format!("{qs}&year=x"));
    assert_eq!(issues.as_array().unwrap().len(), 101);
    assert_eq!(issues[100]["name"], "year");
    assert_eq!(issues[100]["code"], "invalid_value");
}

#[test]
fn over_the_limit_the_conditions_before_it_still_report_their_problems() {
    // A bad value and 65 `id__ne`, each with another value: the bad value
    // and the conflicting repeat are reported beside the limit, as every
    // problem of a request is.
    let repeats = (0..65)
        .map(|i| format!("id__ne={i}"))
        .collect::<Vec<_>>()
        .join("&");
    let issues = book_issues(&format!("year=abc&{repeats}"));
    assert_eq!(
        issues,
        json!([
            {"location": "query", "name": "year", "code": "invalid_value",
             "message": "`abc` is not a valid integer", "expected": "integer"},
            {"location": "query", "name": "id__ne", "code": "conflicting_parameters",
             "message": "`id__ne` is given more than once with different values: send it once",
             "parameters": ["id__ne"]},
            {"location": "query", "name": "id__ne", "code": "too_many_filters",
             "message": "at most 64 filter conditions are allowed", "max": 64}
        ])
    );
    // Only the conditions before the limit are read: a bad value after the
    // pair that crosses it is not (the problems reported stay bounded by
    // `max_filters`).
    let issues = book_issues(&format!("{repeats}&year=abc"));
    assert_eq!(
        issues,
        json!([
            {"location": "query", "name": "id__ne", "code": "conflicting_parameters",
             "message": "`id__ne` is given more than once with different values: send it once",
             "parameters": ["id__ne"]},
            {"location": "query", "name": "id__ne", "code": "too_many_filters",
             "message": "at most 64 filter conditions are allowed", "max": 64}
        ])
    );
}

#[test]
fn values_terms_and_list_items_over_256_characters_are_too_long() {
    let long = "é".repeat(257);
    for (qs, name, what) in [
        (format!("title={long}"), "title", "the value"),
        (
            format!("title__contains={long}"),
            "title__contains",
            "the value",
        ),
        (format!("id__in=1,{long}"), "id__in", "an entry"),
        (format!("q=a+{long}"), "q", "a term"),
        (format!("search={long}"), "search", "a term"),
    ] {
        assert_eq!(
            book_issues(&qs),
            json!([{"location": "query", "name": name, "code": "too_long",
                    "message": format!("{what} of `{name}` is longer than 256 characters"), "max": 256}]),
            "{qs}"
        );
    }
    let ok = "é".repeat(256);
    let q = book(&format!("title__contains={ok}&q={ok}"));
    assert_eq!(
        q.filter().conditions()[0].operand,
        Operand::One(FieldValue::Text(ok.as_str().into()))
    );
    let config = QueryConfig::default().max_value_length(3);
    let err = TypedQuery::<Book>::from_query_str("title=abcd", &config).unwrap_err();
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        json!([{"location": "query", "name": "title", "code": "too_long",
                "message": "the value of `title` is longer than 3 characters", "max": 3}])
    );
}

#[test]
fn nul_in_any_query_value_is_invalid_value() {
    for (qs, name) in [
        ("title=a%00", "title"),
        ("q=%00", "q"),
        ("sort=title%00", "sort"),
        ("page=1%00", "page"),
        ("x%00=1", "x\0"),
    ] {
        let shown = name.replace('\0', "\\0");
        assert_eq!(
            book_issues(qs),
            json!([{"location": "query", "name": name, "code": "invalid_value",
                    "message": format!("`{shown}` must not contain NUL characters (U+0000)"),
                    "expected": "text without NUL characters"}]),
            "{qs}"
        );
    }
}

#[test]
fn nul_in_a_tolerated_parameter_is_invalid_value() {
    let config = query_support::config().tolerate(["_", "utm_*"]).unwrap();
    assert!(TypedQuery::<Book>::from_query_str("_=1&utm_source=x&title=a", &config).is_ok());
    for (qs, name) in [
        ("_=%00&title=a", "_"),
        ("title=a&utm_source=a%00", "utm_source"),
    ] {
        let err = TypedQuery::<Book>::from_query_str(qs, &config).unwrap_err();
        assert_eq!(
            serde_json::to_value(err.issues()).unwrap(),
            json!([{"location": "query", "name": name, "code": "invalid_value",
                    "message": format!("`{name}` must not contain NUL characters (U+0000)"),
                    "expected": "text without NUL characters"}]),
            "{qs}"
        );
    }
}

/// A tolerated name or pattern that is also one of the collection's
/// filter parameters is that filter: not dropped from the parse, the
/// cursor binding or the links. Before, `tolerate(["year", "t*"])` turned
/// the `year` and `title` filters off without a word (every row came back).
#[test]
fn a_tolerated_name_never_hides_a_filter() {
    let config = query_support::config()
        .tolerate(["year", "t*", "_"])
        .unwrap();
    let qs = "year=1999&title__contains=a&tx=1&_=2";
    let q = TypedQuery::<Book>::from_query_str(qs, &config).unwrap();
    let filters: Vec<(&str, Operator)> = q
        .filter()
        .conditions()
        .iter()
        .map(|c| (c.param.as_str(), c.op))
        .collect();
    assert_eq!(
        filters,
        [
            ("year", Operator::Eq),
            ("title__contains", Operator::Contains)
        ]
    );
    // The links keep the filters and leave the tolerated `tx` and `_` out.
    let page = q.page(vec![1], Some(30));
    let links = page.links("/books", qs);
    assert_eq!(links.self_, "/books?year=1999&title__contains=a");
}

#[test]
fn exploded_lists_mean_comma_lists() {
    let exploded = book("id__in=1&id__in=2,3&sort=-year&sort=title&fields=id&fields=title");
    let commas = book("id__in=1,2,3&sort=-year,title&fields=id,title");
    assert_eq!(exploded.filter(), commas.filter());
    assert_eq!(exploded.order().to_string(), commas.order().to_string());
    assert_eq!(exploded.fields(), commas.fields());
    let c = &exploded.filter().conditions()[0];
    assert_eq!(
        (c.op, &c.operand),
        (
            Operator::In,
            &Operand::List(vec![
                FieldValue::Integer(1),
                FieldValue::Integer(2),
                FieldValue::Integer(3)
            ])
        )
    );
    let not_in = book("id__not_in=4&id__not_in=5");
    assert_eq!(
        not_in.filter().conditions()[0].operand,
        Operand::List(vec![FieldValue::Integer(4), FieldValue::Integer(5)])
    );
    // An exploded list of 100 values is one condition, not 100 filters.
    let qs = (0..100)
        .map(|i| format!("id__in={i}"))
        .collect::<Vec<_>>()
        .join("&");
    assert_eq!(book(&format!("{qs}&year=1")).filter().conditions().len(), 2);
    // More than 100 values in all is still too many.
    let err =
        TypedQuery::<Book>::from_query_str(&format!("{qs}&id__in=100"), &QueryConfig::default())
            .unwrap_err();
    assert_eq!(
        serde_json::to_value(err.issues()).unwrap(),
        json!([{"location": "query", "name": "id__in", "code": "too_many_values",
                "message": "`id__in` takes at most 100 values", "max": 100}])
    );
}

#[test]
fn other_repeats_must_repeat_the_same_value() {
    let q = book("year=1990&year=1990");
    assert_eq!(q.filter().conditions().len(), 1);
    assert_eq!(
        book_issues("year=1990&year=1991"),
        json!([{"location": "query", "name": "year", "code": "conflicting_parameters",
                "message": "`year` is given more than once with different values: send it once",
                "parameters": ["year"]}])
    );
    assert_eq!(
        book_issues("title__contains=a&title__contains=b"),
        json!([{"location": "query", "name": "title__contains", "code": "conflicting_parameters",
                "message": "`title__contains` is given more than once with different values: send it once",
                "parameters": ["title__contains"]}])
    );
}

#[test]
fn fold_case_is_simple_case_folding() {
    assert_eq!(fold_case("MÁRQUEZ"), "márquez");
    assert_eq!(fold_case("ǅ"), "ǆ");
    assert_eq!(fold_case("ﬁ"), "ﬁ", "simple folding keeps one character");
}

/// Every comma list takes at most 100 entries, as `__in` does: `sort`,
/// `fields`, `exclude` and `search_fields`, exploded repeats counted
/// together. Each entry could be an issue of its own, so 30,000 unknown
/// names (a 60 KB query) made a 6 MB answer.
#[test]
fn comma_lists_take_at_most_100_entries() {
    for (name, entry) in [
        ("sort", "-id"),
        ("fields", "id"),
        ("exclude", "title"),
        ("search_fields", "title"),
    ] {
        let hundred = vec![entry; 100].join(",");
        let query = format!("{name}={hundred}&q=night");
        let issues = book_issues(&format!("{name}={hundred},{entry}&q=night"));
        assert_eq!(
            issues,
            json!([{"location": "query", "name": name, "code": "too_many_values",
                    "message": format!("`{name}` takes at most 100 values"), "max": 100}]),
            "{name}"
        );
        // Exploded: the repeats are one list.
        let exploded = format!("{query}&{name}={entry}");
        assert_eq!(
            book_issues(&exploded),
            json!([{"location": "query", "name": name, "code": "too_many_values",
                    "message": format!("`{name}` takes at most 100 values"), "max": 100}]),
            "{name}"
        );
    }
    // 100 entries are read as usual: a repeated name is kept once, and
    // repeats of one sort field are their own issue.
    let hundred = |entry: &str| vec![entry; 100].join(",");
    let read = |query: String| {
        TypedQuery::<Book>::from_query_str(&query, &QueryConfig::default())
            .unwrap_or_else(|e| panic!("{query}: {:?}", e.issues()))
    };
    let fields = read(format!("fields={}", hundred("id")));
    let item = json!({"id": 1, "title": "Dune"});
    assert_eq!(fields.fields().apply(item.clone()), json!({"id": 1}));
    let exclude = read(format!("exclude={}", hundred("title")));
    assert_eq!(exclude.fields().apply(item), json!({"id": 1}));
    let search = read(format!("search_fields={}&q=night", hundred("title")));
    assert_eq!(search.search_fields(), ["title"]);
    assert_eq!(
        book_issues(&format!("sort={}", hundred("-id"))),
        json!([{"location": "query", "name": "sort", "code": "invalid_value",
                "message": "`id` is sorted on more than once",
                "expected": "comma-separated list of distinct field names"}])
    );
    // Unknown names: one issue, not one per name.
    let unknown = (0..30_000)
        .map(|i| format!("f{i}"))
        .collect::<Vec<_>>()
        .join(",");
    assert_eq!(
        book_issues(&format!("fields={unknown}"))
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}
