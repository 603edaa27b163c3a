//! Raw query strings into the catalog's `BookQuery`.
//!
//! Properties: parsing never panics; a refused query is a 400 with issues;
//! an accepted query written back as a query string parses to the same
//! value (strict and lenient modes); its SQL builds on both backends; the
//! untyped parser never panics either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use problem_core::query::CollectionParams;
use problem_fuzz::{
    BookQuery, check_error, config, lenient_config, parse, same_query, to_query_string,
};
use sea_query::{PostgresQueryBuilder, Query, SqliteQueryBuilder};

fuzz_target!(|data: &[u8]| {
    let qs = String::from_utf8_lossy(data);
    let _ = CollectionParams::from_query_str(&qs);
    for cfg in [config(), lenient_config()] {
        match parse(&qs, cfg) {
            Err(err) => check_error(&err),
            Ok(q) => {
                let again = to_query_string(&q);
                let q2 = match parse(&again, cfg) {
                    Ok(q2) => q2,
                    Err(e) => {
                        panic!("{qs:?} parsed, but its re-serialization {again:?} did not: {e:?}")
                    }
                };
                if let Err(diff) = same_query(&q, &q2) {
                    panic!("{qs:?} -> {again:?} parses differently: {diff}");
                }
                // The query applies to SQL on both backends without panicking.
                let mut select = Query::select()
                    .column(sea_query::Asterisk)
                    .from(sea_query::Alias::new("books"))
                    .to_owned();
                q.apply_to(&mut select);
                let _ = select.build(PostgresQueryBuilder);
                let _ = select.build(SqliteQueryBuilder);
                let _ = q.count_statement(&select).build(PostgresQueryBuilder);
                let mut keyset = Query::select()
                    .column(sea_query::Asterisk)
                    .from(sea_query::Alias::new("books"))
                    .to_owned();
                q.apply_cursor_to(&mut keyset);
                let _ = keyset.build(SqliteQueryBuilder);
                let _ = std::any::type_name::<BookQuery>();
            }
        }
    }
});
