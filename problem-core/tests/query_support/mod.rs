//! A hand-written schema shared by the runtime tests (no derive needed).
#![allow(dead_code)]

use problem_core::query::{
    CollectionQuery, Direction, FieldSpec, Operator, PageSizeLimits, QueryConfig, QuerySchema,
    QueryValue, TypedQuery,
};

/// `Book`: id (key), title, year, subtitle (nullable), published (date), available (bool), isbn (select only).
pub(crate) struct Book;

const ALL_CMP: &[Operator] = &[
    Operator::Eq,
    Operator::Ne,
    Operator::In,
    Operator::NotIn,
    Operator::Gt,
    Operator::Gte,
    Operator::Lt,
    Operator::Lte,
];

impl CollectionQuery for Book {
    const SCHEMA: &'static QuerySchema = &QuerySchema {
        resource: "Book",
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
                operators: ALL_CMP,
                sortable: true,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "title",
                column: "title",
                kind: <String as QueryValue>::KIND,
                nullable: false,
                operators: &[
                    Operator::Eq,
                    Operator::Contains,
                    Operator::StartsWith,
                    Operator::EndsWith,
                ],
                sortable: true,
                searchable: true,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "year",
                column: "year",
                kind: <i32 as QueryValue>::KIND,
                nullable: false,
                operators: &[
                    Operator::Eq,
                    Operator::Gt,
                    Operator::Gte,
                    Operator::Lt,
                    Operator::Lte,
                    Operator::In,
                ],
                sortable: true,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "subtitle",
                column: "subtitle",
                kind: <String as QueryValue>::KIND,
                nullable: true,
                operators: &[Operator::IsNull, Operator::IsNotNull, Operator::Contains],
                sortable: false,
                searchable: true,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "published",
                column: "published_at",
                kind: <time::Date as QueryValue>::KIND,
                nullable: false,
                operators: &[Operator::Eq, Operator::Gt, Operator::Lt],
                sortable: true,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "available",
                column: "available",
                kind: <bool as QueryValue>::KIND,
                nullable: false,
                operators: &[Operator::Eq, Operator::Ne],
                sortable: true,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
            FieldSpec {
                name: "isbn",
                column: "isbn",
                kind: <String as QueryValue>::KIND,
                nullable: false,
                operators: &[],
                sortable: false,
                searchable: false,
                selectable: true,
                folded_column: None,
            },
        ],
    };
}

pub(crate) const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

pub(crate) fn config() -> QueryConfig {
    QueryConfig::default().cursor_keys([KEY.to_vec()]).unwrap()
}

pub(crate) fn book(qs: &str) -> TypedQuery<Book> {
    TypedQuery::<Book>::from_query_str(qs, &config()).unwrap()
}

pub(crate) fn book_issues(qs: &str) -> serde_json::Value {
    serde_json::to_value(
        TypedQuery::<Book>::from_query_str(qs, &config())
            .unwrap_err()
            .issues(),
    )
    .unwrap()
}
