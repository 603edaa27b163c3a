//! `GET /books`: the collection query conventions in full, run in the
//! database; version 3 answers the envelope, version 2 a bare array.
//!
//! Pagination: offset (`page`, `per_page`/`limit`) by default; keyset
//! cursors when the request carries `cursor`, or `limit` without `page` or
//! `per_page` (the spec's cursor parameters are `cursor` and `limit`). The
//! first cursor page's `meta.next_cursor` (or `links.next`) continues it;
//! every later page's `meta.prev_cursor` (or `links.prev`) goes back.
//!
//! Totals of offset pages (and of version 2's keyset pages, sent in
//! `X-Total-Count`): counted exactly by default; the client may send
//! `Prefer: count=exact`, `count=estimated` (exact up to 10,000 matching
//! rows, above that PostgreSQL's planner estimate or, on SQLite, 10,001)
//! or `count=none`, answered with `Preference-Applied`.
//!
//! Tolerated parameters: `_` and `utm_*` are accepted and ignored.

use actix_web::http::header::HeaderName;
use actix_web::{HttpRequest, HttpResponse, Responder, web};
use problem_core::openapi::{BadRequestProblem, OffsetOrCursorPage};
use problem_core::query::{
    BareList, Collection, CountStrategy, CursorPage, Page, Total, TypedQuery,
};
use problem_core::{CollectionQuery, versioned};
use sea_query::{Query, SelectStatement};
use time::Date;

use super::books::db_error;
use super::db::{BOOK_COLUMNS, Books, Db};
use super::model::Book;
use super::openapi::{DatabaseUnavailable, TotalCount};

/// The queryable fields of a book (issue "The catalog service", `GET /books`).
#[derive(Debug, CollectionQuery)]
#[query(key = "id", default_sort = "id", max_page_size = 100)]
#[allow(dead_code)]
pub struct BookQuery {
    #[query(filter(eq, ne, in, not_in, gt, gte, lt, lte), sort)]
    id: i64,
    #[query(filter(eq, in))]
    isbn: String,
    #[query(
        filter(eq, contains, starts_with, ends_with, icontains, istarts_with),
        sort,
        search,
        folded_column = "title_folded"
    )]
    title: String,
    #[query(
        filter(eq, ne, in, not_in, contains, starts_with, icontains, istarts_with),
        sort,
        search,
        folded_column = "author_folded"
    )]
    author: String,
    #[query(filter(eq, ne, in, not_in))]
    genre: String,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    year: i32,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    price: f64,
    #[query(filter(eq, ne, gt, gte, lt, lte, in), sort)]
    rating: f64,
    #[query(
        filter(is_null, is_not_null, contains),
        search,
        folded_column = "subtitle_folded"
    )]
    subtitle: Option<String>,
    #[query(filter(eq, gt, gte, lt, lte), sort)]
    published_at: Date,
    #[query(filter(eq))]
    in_stock: bool,
}

const LIST_DESCRIPTION: &str = "The collection query conventions: offset or keyset pagination (forward with `meta.next_cursor`, backward with `meta.prev_cursor`), multi-field sorting, filters, search and sparse fieldsets, all in SQL. Offset pages count their total as the `Prefer` header asks (`count=exact`, the default, `count=estimated` or `count=none`).";
/// Version 2's: a bare array, its links and total in headers.
const LIST_DESCRIPTION_V2: &str = "The collection query conventions: offset or keyset pagination (forward and backward with the `cursor` of the `next` and `prev` links of the `Link` header), multi-field sorting, filters, search and sparse fieldsets, all in SQL. Every page, offset or cursor, counts the matching books (`X-Total-Count`) as the `Prefer` header asks (`count=exact`, the default, `count=estimated` or `count=none`).";
const BAD_QUERY: &str = "An invalid query: `issues` names each parameter (unknown parameter or field, operator not allowed, value of the wrong type, invalid or mismatched cursor, more than 64 filter conditions in all (`too_many_filters`), a value, list entry or search term over 256 characters (`too_long`), ...).";

/// The 200 of version 3 in the OpenAPI document: `BookPage` or
/// `BookCursorPage`.
type BookListing = OffsetOrCursorPage<Book>;
/// The 200 of version 2 in the OpenAPI document: an array of `BookFields`.
type BookList = BareList<Book>;

/// `X-Total-Count` of version-2 lists.
pub const X_TOTAL_COUNT: HeaderName = problem_core::query::X_TOTAL_COUNT;

fn base() -> SelectStatement {
    Query::select()
        .columns(BOOK_COLUMNS)
        .from(Books::Table)
        .to_owned()
}

/// One page of books, with what each version needs to answer it.
enum Listing {
    Offset(Page<Book>),
    /// A keyset page, with the collection's total when it was counted.
    Cursor(CursorPage<Book>, Option<Total>),
}

/// The page the query asks for. A keyset page's total is counted (as the
/// count strategy says) only with `count_keyset`: version 2 sends it in
/// `X-Total-Count` on every list, version 3's cursor envelope has none.
async fn fetch(
    db: &Db,
    query: &TypedQuery<BookQuery>,
    count_keyset: bool,
) -> Result<Listing, actix_web::Error> {
    let mut select = base();
    if query.wants_cursor_page() {
        query.apply_cursor_to(&mut select);
        let (rows, total) = if count_keyset {
            futures_util::future::try_join(db.books(&select), count(db, query))
                .await
                .map_err(db_error)?
        } else {
            (db.books(&select).await.map_err(db_error)?, None)
        };
        let page = query.cursor_page(rows).map_err(actix_web::Error::from)?;
        return Ok(Listing::Cursor(page, total));
    }
    query.apply_to(&mut select);
    // Without an exact total, one row more than the page says whether a
    // next page exists (the `next` link), as for keyset pages.
    let per_page = query.pagination().limit();
    // (Any strategy a later problem-core adds is counted exactly, below.)
    let look_ahead = matches!(
        query.count_strategy(),
        CountStrategy::None | CountStrategy::Estimated
    );
    if look_ahead {
        select.limit(per_page.saturating_add(1));
    }
    // The page and its total are independent: on a pool with more than one
    // connection (PostgreSQL) they run side by side, so a planner estimate
    // adds no round trip to the page's latency.
    let (mut rows, total) = futures_util::future::try_join(db.books(&select), count(db, query))
        .await
        .map_err(db_error)?;
    let has_next = rows.len() as u64 > per_page;
    rows.truncate(usize::try_from(per_page).unwrap_or(usize::MAX));
    let page = query.page_with_total(rows, total);
    Ok(Listing::Offset(if look_ahead {
        page.with_next(has_next)
    } else {
        page
    }))
}

/// The total of an offset page as the query's count strategy says
/// ([`TypedQuery::count_strategy`]: the client's `Prefer: count=...`, else
/// exact): `None` for `none`, the `COUNT(*)` for `exact`, and for
/// `estimated` the count up to the threshold (10,000), above it the
/// database's estimate ([`Db::estimated_count`]).
///
/// # Errors
/// The driver's error.
pub async fn count(db: &Db, query: &TypedQuery<BookQuery>) -> Result<Option<Total>, sqlx::Error> {
    Ok(match query.count_strategy() {
        CountStrategy::None => None,
        CountStrategy::Estimated => {
            let threshold = query.estimate_threshold();
            Some(
                db.estimated_count(
                    &query.filtered_statement(&base()),
                    &query.capped_count_statement(&base(), threshold.saturating_add(1)),
                    threshold,
                )
                .await?,
            )
        }
        // `CountStrategy::Exact`, and any strategy a later problem-core
        // adds (the enum is `#[non_exhaustive]`): counted exactly.
        _ => {
            let n = db.scalar(&query.count_statement(&base())).await?;
            Some(Total::Exact(u64::try_from(n).unwrap_or(0)))
        }
    })
}

/// Version 3: the envelope `{"data", "meta", "links"}` and the `Link` header.
#[utoipa::path(
    get,
    path = "/books",
    operation_id = "listBooks",
    tag = "books",
    summary = "List books",
    description = LIST_DESCRIPTION,
    params(BookQuery),
    responses(
        (status = 200,
            description = "One page of books: the offset envelope, or the cursor envelope when the request carries `cursor`, or `limit` without `page`/`per_page`.",
            body = inline(BookListing),
            headers(("Link" = String, description = "RFC 8288 links of the page (`self`, `first`, `prev`, `next`, `last`). Over 2 KiB (links repeat the query; cursors hold the sort keys), only `prev` and `next`; when those two are still longer, `next` alone (`prev` on a page reached with a previous cursor), else the other; absent when each alone is longer."))),
        (status = 400, description = BAD_QUERY,
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
#[versioned("3.x")]
pub async fn list_books_v3(
    req: HttpRequest,
    db: web::Data<Db>,
    query: Collection<BookQuery>,
) -> Result<HttpResponse, actix_web::Error> {
    Ok(match fetch(&db, &query, false).await? {
        Listing::Offset(page) => page.respond_to(&req),
        Listing::Cursor(page, _) => page.respond_to(&req),
    })
}

/// Version 2 (deprecated): a bare JSON array of books, with `X-Total-Count`
/// (the number of matching books, offset and keyset pages alike, unless
/// `Prefer: count=none`) and the `Link` header, field selection applied as
/// in version 3 ([`BareList`]).
#[utoipa::path(
    get,
    path = "/books",
    operation_id = "listBooks",
    tag = "books",
    summary = "List books",
    description = LIST_DESCRIPTION_V2,
    params(BookQuery),
    responses(
        (status = 200, description = "The books of the page, as a bare array.",
            body = inline(BookList),
            headers(
                ("X-Total-Count" = inline(TotalCount), description = "The number of matching books (offset and cursor pages alike); an estimate with `Prefer: count=estimated` above 10,000; absent with `count=none`."),
                ("Link" = String, description = "RFC 8288 links of the page (`self`, `first`, `prev`, `next`, `last`). Over 2 KiB (links repeat the query; cursors hold the sort keys), only `prev` and `next`; when those two are still longer, `next` alone (`prev` on a page reached with a previous cursor), else the other; absent when each alone is longer."),
            )),
        (status = 400, description = BAD_QUERY,
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
#[versioned("2.x")]
pub async fn list_books_v2(
    db: web::Data<Db>,
    query: Collection<BookQuery>,
) -> Result<BareList<Book>, actix_web::Error> {
    Ok(match fetch(&db, &query, true).await? {
        Listing::Offset(page) => page.into_bare(),
        Listing::Cursor(page, total) => query.counted_bare_list(page, total),
    })
}
