//! `iexact`, `icontains` and `istarts_with`: Unicode simple case folding in
//! memory, the folded column in SQL (and `LOWER` for a hand-written field
//! without one), their OpenAPI parameters.

use problem_core::query::{
    CollectionQuery, Direction, FieldSpec, Operator, PageSizeLimits, QueryConfig, QuerySchema,
    QueryValue, TypedQuery,
};
use serde_json::{Value as Json, json};

#[derive(problem_core::CollectionQuery)]
#[allow(dead_code)]
struct Author {
    #[query(sort)]
    id: i64,
    #[query(filter(iexact, icontains, istarts_with), folded_column = "name_folded")]
    name: String,
    #[query(filter(icontains), folded_column = "note_folded")]
    note: Option<String>,
}

/// The same field without a folded column (only a hand-written schema can
/// say so: the derive requires `folded_column`). Only ever a type
/// parameter, and only in the tests that need the `sea-query` feature.
#[allow(dead_code)]
struct Plain;

impl CollectionQuery for Plain {
    const SCHEMA: &'static QuerySchema = &QuerySchema {
        resource: "Plain",
        key: "id",
        default_sort: &[("id", Direction::Asc)],
        page_size: PageSizeLimits {
            default: 20,
            max: 100,
        },
        fields: &[
            FieldSpec {
                name: "id",
                column: "id",
                kind: <i64 as QueryValue>::KIND,
                nullable: false,
                operators: &[],
                sortable: true,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "name",
                column: "name",
                kind: <String as QueryValue>::KIND,
                nullable: false,
                operators: &[Operator::IExact, Operator::IContains, Operator::IStartsWith],
                sortable: false,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
        ],
    };
}

fn authors() -> Vec<Json> {
    vec![
        json!({"id": 1, "name": "Gabriel García Márquez", "note": null}),
        json!({"id": 2, "name": "WISŁAWA SZYMBORSKA", "note": "Nobel 1996"}),
        json!({"id": 3, "name": "wisława szymborska", "note": "ΣΊΣΥΦΟΣ"}),
        json!({"id": 4, "name": "Marquez", "note": "50% off_"}),
    ]
}

fn ids(qs: &str) -> Vec<i64> {
    TypedQuery::<Author>::from_query_str(qs, &QueryConfig::default())
        .unwrap()
        .page_in_memory(authors())
        .unwrap()
        .data
        .iter()
        .map(|a| a["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn in_memory_both_sides_are_folded() {
    assert_eq!(ids("name__iexact=wis%C5%82awa+SZYMBORSKA"), [2, 3]);
    assert_eq!(ids("name__iexact=wis%C5%82awa"), Vec::<i64>::new());
    assert_eq!(ids("name__icontains=M%C3%81RQUEZ"), [1]);
    assert_eq!(ids("name__icontains=marquez"), [4]);
    assert_eq!(ids("name__icontains=%C5%81AWA"), [2, 3]);
    assert_eq!(ids("name__istarts_with=GABRIEL+g"), [1]);
    assert_eq!(ids("name__istarts_with=m%C3%A1rquez"), Vec::<i64>::new());
    assert_eq!(ids("name__istarts_with="), [1, 2, 3, 4]);
    // Σ and ς fold to σ; a null never matches.
    assert_eq!(
        ids("note__icontains=%CF%83%CE%AF%CF%83%CF%85%CF%86%CE%BF%CF%82"),
        [3]
    );
    // LIKE wildcards are plain characters.
    assert_eq!(ids("note__icontains=%25+OFF_"), [4]);
    assert_eq!(ids("note__icontains=_"), [4]);
}

#[cfg(feature = "sea-query")]
mod sql {
    use super::*;
    use problem_core::sea_query::{
        Alias, Asterisk, PostgresQueryBuilder, Query, SqliteQueryBuilder,
    };

    fn sql<Q: CollectionQuery>(qs: &str) -> (String, String) {
        let q = TypedQuery::<Q>::from_query_str(qs, &QueryConfig::default()).unwrap();
        let mut select = Query::select()
            .column(Asterisk)
            .from(Alias::new("authors"))
            .to_owned();
        q.apply_to(&mut select);
        (
            select.to_string(SqliteQueryBuilder),
            select.to_string(PostgresQueryBuilder),
        )
    }

    #[test]
    fn the_folded_column_against_the_folded_value() {
        assert_eq!(
            sql::<Author>("name__iexact=WIS%C5%81AWA&name__icontains=50%25_&name__istarts_with=M%C3%81R&note__icontains=%CE%A3"),
            (
                r#"SELECT * FROM "authors" WHERE "name_folded" = 'wisława' AND ("name_folded" LIKE '%50\%\_%' ESCAPE '\' AND REPLACE("name_folded", '50%_', '') <> "name_folded") AND ("name_folded" LIKE 'már%' ESCAPE '\' AND SUBSTR("name_folded", 1, 3) = 'már') AND ("note_folded" LIKE '%σ%' ESCAPE '\' AND REPLACE("note_folded", 'σ', '') <> "note_folded") ORDER BY "id" ASC LIMIT 20 OFFSET 0"#.to_owned(),
                r#"SELECT * FROM "authors" WHERE "name_folded" = 'wisława' AND ("name_folded" LIKE E'%50\\%\\_%' ESCAPE E'\\' AND REPLACE("name_folded", '50%_', '') <> "name_folded") AND ("name_folded" LIKE 'már%' ESCAPE E'\\' AND SUBSTR("name_folded", 1, 3) = 'már') AND ("note_folded" LIKE '%σ%' ESCAPE E'\\' AND REPLACE("note_folded", 'σ', '') <> "note_folded") ORDER BY "id" ASC LIMIT 20 OFFSET 0"#.to_owned(),
            )
        );
    }

    #[test]
    fn without_a_folded_column_lower_on_both_sides() {
        assert_eq!(
            sql::<Plain>("name__iexact=Ab&name__icontains=C%25&name__istarts_with=D").0,
            r#"SELECT * FROM "authors" WHERE LOWER("name") = LOWER('ab') AND LOWER("name") LIKE LOWER('%c\%%') ESCAPE '\' AND LOWER("name") LIKE LOWER('d%') ESCAPE '\' ORDER BY "id" ASC LIMIT 20 OFFSET 0"#
        );
    }
}

#[cfg(feature = "openapi")]
#[test]
fn openapi_parameters_come_from_the_operator_table() {
    let params = serde_json::to_value(problem_core::openapi::query_parameters(
        <Author as CollectionQuery>::SCHEMA,
    ))
    .unwrap();
    let named = |name: &str| {
        params
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        named("name__iexact"),
        json!({"name": "name__iexact", "in": "query", "required": false,
               "description": "`name` equals the text, ignoring case (Unicode simple case folding).",
               "schema": {"type": "string", "maxLength": 256}})
    );
    assert_eq!(
        named("name__icontains")["description"],
        "`name` contains the text, ignoring case (Unicode simple case folding)."
    );
    assert_eq!(
        named("name__istarts_with")["description"],
        "`name` starts with the text, ignoring case (Unicode simple case folding)."
    );
}
