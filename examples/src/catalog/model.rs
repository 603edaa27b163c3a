//! Books: the catalog's resource.

use problem_core::query::{FieldValue, ValueKind};
use serde::de::{Error as _, Unexpected};
use serde::{Deserialize, Deserializer, Serialize};
use time::Date;
use utoipa::ToSchema;
use validator::{Validate, ValidationError};

/// A book.
// Its OpenAPI schema (`Book`, and `BookFields` in lists) is derived from
// this struct: a member added here is documented with no other edit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Book {
    /// The key.
    pub id: i64,
    /// ISBN-10 or ISBN-13 digits; unique.
    pub isbn: String,
    /// Title.
    pub title: String,
    /// Author.
    pub author: String,
    /// Genre (seeded rows use a fixed list of genres).
    pub genre: String,
    /// Publication year.
    pub year: i32,
    /// Price, >= 0.
    #[schema(minimum = 0)]
    pub price: f64,
    /// Rating, 0 to 5.
    #[schema(minimum = 0, maximum = 5)]
    pub rating: f64,
    /// Subtitle, or null.
    #[schema(required = true)]
    pub subtitle: Option<String>,
    /// Publication date (RFC 3339 full-date).
    #[schema(value_type = String, format = Date)]
    pub published_at: Date,
    /// Whether the book is in stock.
    pub in_stock: bool,
}

fn isbn_digits(isbn: &str) -> Result<(), ValidationError> {
    if (isbn.len() == 10 || isbn.len() == 13) && isbn.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(ValidationError::new("isbn").with_message("isbn must be 10 or 13 digits".into()))
    }
}

fn not_blank(text: &str) -> Result<(), ValidationError> {
    if text.trim().is_empty() {
        Err(ValidationError::new("length").with_message("must not be empty".into()))
    } else {
        Ok(())
    }
}

fn publication_year(year: i32) -> Result<(), ValidationError> {
    let next = time::OffsetDateTime::now_utc().year() + 1;
    if (1450..=next).contains(&year) {
        Ok(())
    } else {
        let mut e = ValidationError::new("range")
            .with_message(format!("year must be between 1450 and {next}").into());
        e.add_param("min".into(), &1450);
        e.add_param("max".into(), &next);
        Err(e)
    }
}

/// `published_at` as RFC 3339 writes a date: `YYYY-MM-DD`, four-digit
/// year, no sign. `time`'s own format also takes `-4714-11-24`, which
/// PostgreSQL cannot store and SQLite would compare as text: a 500 on one
/// database and a wrong order on the other. The query's filter values are
/// read by the same rule (`ValueKind::Date`).
fn rfc3339_full_date<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Date>, D::Error> {
    let Some(text) = Option::<String>::deserialize(de)? else {
        return Ok(None);
    };
    if let Some(FieldValue::Date(date)) = ValueKind::Date.parse(&text) {
        Ok(Some(date))
    } else {
        Err(D::Error::invalid_value(
            Unexpected::Str(&text),
            &"an RFC 3339 full-date (YYYY-MM-DD)",
        ))
    }
}

fn default_genre() -> String {
    "fiction".into()
}

fn default_true() -> bool {
    true
}

/// A new book: the body of `POST /books`, as JSON or as a form. Defaults:
/// `genre` `fiction`, `rating` 0, `subtitle` null, `published_at` January
/// 1st of `year`, `in_stock` true.
// Texts are at most 256 characters: the query limit on a filter value, so
// every stored text can be filtered on and carried in a cursor. The OpenAPI
// schema (`NewBook`) is derived from this struct; the maximum `year` (next
// year) is set when the document is built.
#[derive(Debug, Clone, Deserialize, Validate, ToSchema)]
pub struct NewBook {
    /// 10 or 13 digits; unique.
    #[validate(custom(function = "isbn_digits"))]
    #[schema(pattern = "^([0-9]{10}|[0-9]{13})$")]
    pub isbn: String,
    /// Not blank; at most 256 characters.
    #[validate(custom(function = "not_blank"), length(max = 256))]
    #[schema(min_length = 1, max_length = 256, pattern = r"\S")]
    pub title: String,
    /// Not blank; at most 256 characters.
    #[validate(custom(function = "not_blank"), length(max = 256))]
    #[schema(min_length = 1, max_length = 256, pattern = r"\S")]
    pub author: String,
    /// Not blank; at most 256 characters.
    #[serde(default = "default_genre")]
    #[validate(custom(function = "not_blank"), length(max = 256))]
    #[schema(min_length = 1, max_length = 256, pattern = r"\S", default = "fiction")]
    pub genre: String,
    /// Publication year: 1450 to next year.
    #[validate(custom(function = "publication_year"))]
    #[schema(minimum = 1450)]
    pub year: i32,
    /// Price, >= 0.
    #[validate(range(min = 0.0, message = "price must be at least 0"))]
    #[schema(minimum = 0)]
    pub price: f64,
    /// Rating, 0 to 5.
    #[serde(default)]
    #[validate(range(min = 0.0, max = 5.0, message = "rating must be between 0 and 5"))]
    #[schema(minimum = 0, maximum = 5, default = 0)]
    pub rating: f64,
    /// Subtitle; at most 256 characters.
    #[serde(default)]
    #[validate(length(max = 256))]
    #[schema(max_length = 256)]
    pub subtitle: Option<String>,
    /// Publication date (RFC 3339 full-date, years 0000 to 9999); default
    /// January 1st of `year`.
    #[serde(default, deserialize_with = "rfc3339_full_date")]
    #[schema(value_type = Option<String>, format = Date)]
    pub published_at: Option<Date>,
    /// In stock.
    #[serde(default = "default_true")]
    #[schema(default = true)]
    pub in_stock: bool,
}
