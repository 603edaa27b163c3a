//! Applying a typed query in memory: filter, search, sort, paginate (offset
//! or keyset cursor) and select over a collection of serializable items,
//! for small collections and tests.
//!
//! Items are serialized with serde to JSON objects; each field is read from
//! the member of the same name. A missing member is `null` for an `Option`
//! field (so `skip_serializing_if = "Option::is_none"` works) and an
//! [`ApplyError::MissingMember`] otherwise: a query field named unlike the
//! item's member is an error, never a silently empty result. Dates
//! and date-times must serialize as RFC 3339 strings (e.g. with
//! `time::serde::rfc3339`); a member of the wrong type is an
//! [`ApplyError::FieldType`]. Semantics are SQL's: a comparison with `null`
//! is false, nulls sort first ascending and last descending, text compares
//! by code point, `contains`/`starts_with`/`ends_with` are case-sensitive,
//! `iexact`/`icontains`/`istarts_with` and search compare both sides folded
//! by [`fold_case`] (Unicode simple case folding).
//!
//! ```
//! use problem_core::CollectionQuery;
//! use problem_core::query::{ApplyError, QueryConfig, TypedQuery};
//!
//! #[derive(CollectionQuery, serde::Serialize)]
//! #[query(key = "id")]
//! struct Book {
//!     #[query(sort)]
//!     id: i64,
//!     #[query(filter(gte), sort)]
//!     year: Option<i32>,
//! }
//! let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
//! let ids = |qs: &str| -> Vec<i64> {
//!     let q = TypedQuery::<Book>::from_query_str(qs, &QueryConfig::default()).unwrap();
//!     q.page_in_memory(&books).unwrap().data.iter().map(|b| b["id"].as_i64().unwrap()).collect()
//! };
//! assert_eq!(ids("sort=year"), [2, 3, 1]);
//! assert_eq!(ids("sort=-year"), [1, 3, 2]);
//! assert_eq!(ids("year__gte=1900"), [1, 3]);
//!
//! let q = TypedQuery::<Book>::from_query_str("", &QueryConfig::default()).unwrap();
//! let err = q.page_in_memory([serde_json::json!({"ident": 1})]).unwrap_err();
//! assert_eq!(err, ApplyError::MissingMember { index: 0, field: "id" });
//! ```

use std::cmp::Ordering;

use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::count::{CountAnswer, Total};
use super::cursor::Way;
use super::error::ApplyError;
use super::filter::{FilterCondition, Operand, Operator};
use super::fold::fold_case;
use super::page::{CursorPage, ListExtras, Page};
use super::sort::Direction;
use super::typed::{CollectionQuery, FieldSpec, TypedQuery};
use super::value::FieldValue;

/// An item as read for a query: its JSON object.
struct Row {
    index: usize,
    object: Map<String, Json>,
}

fn field_value(spec: &FieldSpec, row: &Row) -> Result<FieldValue, ApplyError> {
    match row.object.get(spec.name) {
        None if spec.nullable => Ok(FieldValue::Null),
        None => Err(ApplyError::MissingMember {
            index: row.index,
            field: spec.name,
        }),
        Some(json) => spec.kind.from_json(json).ok_or(ApplyError::FieldType {
            index: row.index,
            field: spec.name,
            expected: spec.kind.expected(),
        }),
    }
}

fn to_row<T: Serialize + ?Sized>(index: usize, item: &T) -> Result<Row, ApplyError> {
    match serde_json::to_value(item) {
        Ok(Json::Object(object)) => Ok(Row { index, object }),
        Ok(other) => Err(ApplyError::NotAnObject {
            index,
            message: format!("got {other}"),
        }),
        Err(e) => Err(ApplyError::NotAnObject {
            index,
            message: e.to_string(),
        }),
    }
}

/// The JSON value of an item of a page, as `serde_json::to_vec` writes the
/// item: read back from its bytes (exactly, `float_roundtrip`), not taken
/// from its row, where `serde_json::to_value` widened an `f32` to the
/// `f64` whose digits it then writes (`0.10000000149011612` for `0.1`).
fn output<T: Serialize>(items: &[T], index: usize) -> Result<Json, ApplyError> {
    let error = |e: serde_json::Error| ApplyError::NotAnObject {
        index,
        message: e.to_string(),
    };
    let item = items.get(index).ok_or_else(|| ApplyError::NotAnObject {
        index,
        message: "no such item".to_owned(),
    })?;
    serde_json::from_slice(&serde_json::to_vec(item).map_err(error)?).map_err(error)
}

fn to_rows<T: Serialize>(items: impl IntoIterator<Item = T>) -> Result<Vec<Row>, ApplyError> {
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| to_row(index, &item))
        .collect()
}

/// Whether `value` satisfies `cond`. Every operator is named (no
/// wildcard): a new one does not compile until it is evaluated here. An
/// operand of the wrong shape (impossible for parsed queries) holds for no
/// row, never widening the result.
fn holds(cond: &FilterCondition, value: &FieldValue) -> bool {
    let one = |test: &dyn Fn(Option<Ordering>) -> bool| match &cond.operand {
        Operand::One(v) => test(value.compare(v)),
        Operand::List(_) | Operand::None => false,
    };
    let text = |test: &dyn Fn(&str, &str) -> bool| {
        if let (Operand::One(FieldValue::Text(p)), FieldValue::Text(t)) = (&cond.operand, value) {
            test(t, p)
        } else {
            false
        }
    };
    let list = |test: &dyn Fn(&[FieldValue]) -> bool| match &cond.operand {
        Operand::List(vs) => test(vs),
        Operand::One(_) | Operand::None => false,
    };
    match cond.op {
        Operator::Eq => one(&|o| o == Some(Ordering::Equal)),
        Operator::Ne => one(&|o| o.is_some_and(|o| o != Ordering::Equal)),
        Operator::Gt => one(&|o| o == Some(Ordering::Greater)),
        Operator::Gte => one(&|o| o.is_some_and(|o| o != Ordering::Less)),
        Operator::Lt => one(&|o| o == Some(Ordering::Less)),
        Operator::Lte => one(&|o| o.is_some_and(|o| o != Ordering::Greater)),
        Operator::In => list(&|vs| vs.iter().any(|v| value.compare(v) == Some(Ordering::Equal))),
        Operator::NotIn => list(&|vs| {
            !value.is_null()
                && vs
                    .iter()
                    .all(|v| value.compare(v).is_some_and(|o| o != Ordering::Equal))
        }),
        Operator::Contains => text(&|t, p| t.contains(p)),
        Operator::StartsWith => text(&|t, p| t.starts_with(p)),
        Operator::EndsWith => text(&|t, p| t.ends_with(p)),
        Operator::IsNull => value.is_null(),
        Operator::IsNotNull => !value.is_null(),
        Operator::IExact => text(&|t, p| fold_case(t) == fold_case(p)),
        Operator::IContains => text(&|t, p| fold_case(t).contains(fold_case(p).as_ref())),
        Operator::IStartsWith => text(&|t, p| fold_case(t).starts_with(fold_case(p).as_ref())),
    }
}

impl<Q: CollectionQuery> TypedQuery<Q> {
    fn spec(name: &str) -> Option<&'static FieldSpec> {
        Q::SCHEMA.field(name)
    }

    fn row_matches(&self, row: &Row) -> Result<bool, ApplyError> {
        for cond in self.filter().conditions() {
            let Some(spec) = Self::spec(&cond.field) else {
                return Ok(false);
            };
            if !holds(cond, &field_value(spec, row)?) {
                return Ok(false);
            }
        }
        if let Some(search) = self.search() {
            let fields: Vec<&FieldSpec> = self
                .search_fields()
                .into_iter()
                .filter_map(Self::spec)
                .collect();
            let mut texts = Vec::with_capacity(fields.len());
            for spec in fields {
                if let FieldValue::Text(t) = field_value(spec, row)? {
                    texts.push(fold_case(&t).into_owned());
                }
            }
            for term in &search.terms {
                let term = fold_case(term);
                if !texts.iter().any(|t| t.contains(term.as_ref())) {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn order_values(&self, row: &Row) -> Result<Vec<FieldValue>, ApplyError> {
        self.order()
            .fields()
            .iter()
            .map(|s| match Self::spec(&s.field) {
                Some(spec) => field_value(spec, row),
                None => Ok(FieldValue::Null),
            })
            .collect()
    }

    fn compare_keys(&self, a: &[FieldValue], b: &[FieldValue]) -> Ordering {
        for ((x, y), s) in a.iter().zip(b).zip(self.order().fields()) {
            let o = x.sort_cmp(y);
            let o = if s.direction == Direction::Desc {
                o.reverse()
            } else {
                o
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    }

    /// Filters, searches and sorts; keeps each row's sort-key values.
    fn select_sorted(&self, rows: Vec<Row>) -> Result<Vec<(Vec<FieldValue>, Row)>, ApplyError> {
        let mut kept = Vec::new();
        for row in rows {
            if self.row_matches(&row)? {
                kept.push((self.order_values(&row)?, row));
            }
        }
        kept.sort_by(|a, b| self.compare_keys(&a.0, &b.0));
        Ok(kept)
    }

    /// Whether one item passes the filters and the search.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: Option<i32>,
    /// # }
    /// # let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::query::ApplyError;
    /// let q = TypedQuery::<Book>::from_query_str("year__gte=1960", &config).unwrap();
    /// assert_eq!(q.matches(&books[0]), Ok(true));
    /// assert_eq!(q.matches(&books[1]), Ok(false));
    /// assert_eq!(
    ///     q.matches(&serde_json::json!({"id": 4, "year": "1970"})),
    ///     Err(ApplyError::FieldType { index: 0, field: "year", expected: "integer" })
    /// );
    /// ```
    ///
    /// # Errors
    /// [`ApplyError`] when the item is not a JSON object or a member has
    /// the wrong type.
    pub fn matches<T: Serialize>(&self, item: &T) -> Result<bool, ApplyError> {
        self.row_matches(&to_row(0, item)?)
    }

    /// The offset page of `items`: filtered, searched, sorted by
    /// [`order`](TypedQuery::order), `offset`/`limit` applied, the total
    /// counted (always exactly, also with the estimated strategy) unless the
    /// strategy is none; the sparse fieldset is applied when the page is
    /// serialized. A `cursor` in the request is not applied (the page is
    /// the one `page` names): test [`has_cursor`](TypedQuery::has_cursor)
    /// or [`wants_cursor_page`](TypedQuery::wants_cursor_page) to answer
    /// keyset pages, or a 400, instead.
    ///
    /// # Errors
    /// [`ApplyError`] when an item is not a JSON object or a member has
    /// the wrong type.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: Option<i32>,
    /// # }
    /// # let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use serde_json::json;
    /// let q = TypedQuery::<Book>::from_query_str("sort=-id&page=2&per_page=2", &config).unwrap();
    /// let page = q.page_in_memory(&books).unwrap();
    /// assert_eq!(page.data, [json!({"id": 1, "year": 1965})]);
    /// assert_eq!((page.meta.total, page.meta.total_pages), (Some(3), Some(2)));
    /// ```
    pub fn page_in_memory<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
    ) -> Result<Page<Json>, ApplyError> {
        let items: Vec<T> = items.into_iter().collect();
        let sorted = self.select_sorted(to_rows(&items)?)?;
        let total = sorted.len() as u64;
        let p = self.pagination();
        let data = sorted
            .into_iter()
            .skip(usize::try_from(p.offset()).unwrap_or(usize::MAX))
            .take(usize::try_from(p.limit()).unwrap_or(usize::MAX))
            .map(|(_, r)| output(&items, r.index))
            .collect::<Result<Vec<Json>, ApplyError>>()?;
        // All rows are here: whether a next page exists is known even when
        // the total is not sent.
        let has_next = p.offset().saturating_add(p.limit()) < total;
        Ok(self.page(data, Some(total)).with_next(has_next))
    }

    /// The cursor page of `items`: filtered, searched, sorted, the rows
    /// after a next cursor's position (keyset), or the rows just before a
    /// previous cursor's position (at it too when
    /// [`cursor_includes_row`](Self::cursor_includes_row)), `limit + 1` taken to know whether a
    /// further page exists in that direction; the cursors are signed with
    /// the first cursor key (see [`cursor_page`](Self::cursor_page) for
    /// when each is given).
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: Option<i32>,
    /// # }
    /// # let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::query::ApplyError;
    /// let first = TypedQuery::<Book>::from_query_str("limit=2", &config).unwrap();
    /// let page = first.cursor_page_in_memory(&books).unwrap();
    /// assert_eq!((page.data.len(), page.meta.prev_cursor.is_none()), (2, true));
    /// let next = page.meta.next_cursor.unwrap();
    /// let second = TypedQuery::<Book>::from_query_str(&format!("limit=2&cursor={next}"), &config).unwrap();
    /// let page = second.cursor_page_in_memory(&books).unwrap();
    /// assert_eq!((page.data[0]["id"].as_i64(), page.meta.next_cursor.is_none()), (Some(3), true));
    /// let keyless = TypedQuery::<Book>::from_query_str("limit=2", &QueryConfig::default()).unwrap();
    /// assert_eq!(keyless.cursor_page_in_memory(&books).unwrap_err(), ApplyError::NoCursorKey);
    /// ```
    ///
    /// # Errors
    /// [`ApplyError::NoCursorKey`] when a cursor is needed and no key is
    /// configured; [`ApplyError::CursorTooLong`] when a cursor would be
    /// longer than [`MAX_CURSOR_LENGTH`](super::MAX_CURSOR_LENGTH) (the
    /// edge row's sort-key values are too long to carry); item errors as
    /// [`page_in_memory`](Self::page_in_memory).
    pub fn cursor_page_in_memory<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
    ) -> Result<CursorPage<Json>, ApplyError> {
        let items: Vec<T> = items.into_iter().collect();
        let sorted = self.select_sorted(to_rows(&items)?)?;
        let take = usize::try_from(self.limit())
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        // In fetch order: away from the cursor's row, as SQL returns them.
        // Strictly beyond the cursor's row, or at it too when the cursor
        // includes it.
        let at_row = self.cursor_includes_row();
        let beyond = |o: Ordering, past: Ordering| o == past || (at_row && o == Ordering::Equal);
        let rows: Vec<(Vec<FieldValue>, Row)> = match (self.after(), self.before()) {
            (_, Some(before)) => sorted
                .into_iter()
                .rev()
                .filter(|(k, _)| beyond(self.compare_keys(k, before), Ordering::Less))
                .take(take)
                .collect(),
            (after, None) => sorted
                .into_iter()
                .filter(|(k, _)| {
                    after.is_none_or(|a| beyond(self.compare_keys(k, a), Ordering::Greater))
                })
                .take(take)
                .collect(),
        };
        let (rows, next, prev) = self.keyset_window(rows, |(k, _), _| Ok(k.clone()))?;
        let data = rows
            .into_iter()
            .map(|(_, r)| output(&items, r.index))
            .collect::<Result<Vec<Json>, ApplyError>>()?;
        Ok(self.cursor_page_of(data, next, prev))
    }

    /// Cuts rows fetched with `limit + 1` in fetch order (away from the
    /// cursor's row) to the page, in the effective order, and signs its
    /// next and previous cursors from the sort-key values `key` reads.
    #[allow(clippy::type_complexity)]
    fn keyset_window<R>(
        &self,
        mut rows: Vec<R>,
        key: impl Fn(&R, usize) -> Result<Vec<FieldValue>, ApplyError>,
    ) -> Result<(Vec<R>, Option<String>, Option<String>), ApplyError> {
        let limit = usize::try_from(self.limit()).unwrap_or(usize::MAX);
        let more = rows.len() > limit;
        rows.truncate(limit);
        let backward = self.before().is_some();
        if backward {
            rows.reverse();
        }
        // Forward: a next page when a row beyond the page was found, a
        // previous one when a cursor led here. Backward: the reverse (the
        // cursor's own row follows this page).
        let (has_next, has_prev) = if backward {
            (true, more)
        } else {
            (more, self.after().is_some())
        };
        // Only the cursors given are read and signed. An empty page (its
        // rows removed since the cursor was issued) points back at the
        // cursor's own row, that row included: following it gives the page
        // that ended (or began) with it.
        let next = match (rows.last(), self.before()) {
            (Some(r), _) if has_next => Some(self.seal_cursor(key(r, rows.len() - 1)?)?),
            (None, Some(before)) => Some(self.seal_way(before.to_vec(), Way::Next, true)?),
            (Some(_) | None, _) => None,
        };
        let prev = match (rows.first(), self.after()) {
            (Some(r), _) if has_prev => Some(self.seal_prev_cursor(key(r, 0)?)?),
            (None, Some(after)) => Some(self.seal_way(after.to_vec(), Way::Prev, true)?),
            (Some(_) | None, _) => None,
        };
        Ok((rows, next, prev))
    }

    fn cursor_page_of<T>(
        &self,
        data: Vec<T>,
        next: Option<String>,
        prev: Option<String>,
    ) -> CursorPage<T> {
        let mut page = CursorPage::new(data, self.limit(), next)
            .with_prev_cursor(prev)
            .with_fields(self.fields().clone());
        page.extras = ListExtras {
            walked_back: self.before().is_some(),
            ..self.list_extras(false)
        };
        page
    }

    fn list_extras(&self, offset: bool) -> ListExtras {
        ListExtras {
            tolerated: self.config_tolerated().clone(),
            schema: Some(Q::SCHEMA),
            count: CountAnswer {
                varies: offset && self.prefer_sent(),
                applied: self.count_preference_applied().filter(|_| offset),
            },
            has_next: None,
            walked_back: false,
        }
    }

    /// An offset [`Page`] of already paginated items (e.g. from SQL), with
    /// this query's page, size and sparse fieldset; `total` (exact) is
    /// dropped when the [`count_strategy`](Self::count_strategy) is
    /// [`CountStrategy::None`](super::CountStrategy::None). As a responder
    /// the page answers `Vary: Prefer` when the request carried `Prefer`, and `Preference-Applied:
    /// count=<strategy>` when the client's preference was honoured. It is
    /// an offset page whether or not the request carried a `cursor` (see
    /// [`wants_cursor_page`](TypedQuery::wants_cursor_page)).
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: Option<i32>,
    /// # }
    /// # let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::query::{CountStrategy, PageMeta};
    /// let q = TypedQuery::<Book>::from_query_str("page=3&per_page=10", &config).unwrap();
    /// let page = q.page(vec!["row 21", "row 22"], Some(22));
    /// assert_eq!(page.meta, PageMeta { page: 3, per_page: 10, total: Some(22), total_pages: Some(3), total_is_estimate: false });
    /// let uncounted = config.count_strategy(CountStrategy::None);
    /// let q = TypedQuery::<Book>::from_query_str("page=3&per_page=10", &uncounted).unwrap();
    /// assert_eq!(q.page(vec!["row 21"], Some(22)).meta.total, None);
    /// ```
    pub fn page<T>(&self, data: Vec<T>, total: Option<u64>) -> Page<T> {
        self.page_with_total(data, total.map(Total::Exact))
    }

    /// [`page`](Self::page) with an exact or estimated [`Total`] (e.g. from
    /// `capped_count_statement` (feature `sea-query`) or a
    /// database's row estimate): an estimate sets `meta.total_is_estimate`
    /// and drops the `last` link.
    ///
    /// ```
    /// use problem_core::CollectionQuery;
    /// use problem_core::query::{CountStrategy, QueryConfig, Total, TypedQuery};
    ///
    /// #[derive(CollectionQuery)]
    /// #[query(key = "id")]
    /// struct Q {
    ///     #[query(sort)]
    ///     id: i64,
    /// }
    /// let config = QueryConfig::default().count_strategy(CountStrategy::Estimated);
    /// let q = TypedQuery::<Q>::from_query_str("per_page=2", &config).unwrap();
    /// let page = q.page_with_total(vec![1, 2], Some(Total::Estimate(20_000)));
    /// assert_eq!(
    ///     page.to_json("/q", "per_page=2").unwrap()["meta"],
    ///     serde_json::json!({"page": 1, "per_page": 2, "total": 20000, "total_pages": 10000, "total_is_estimate": true})
    /// );
    /// let none = TypedQuery::<Q>::from_query_str("per_page=2", &config.count_strategy(CountStrategy::None)).unwrap();
    /// assert_eq!(none.page_with_total(vec![1, 2], Some(Total::Exact(5))).meta.total, None);
    /// ```
    pub fn page_with_total<T>(&self, data: Vec<T>, total: Option<Total>) -> Page<T> {
        let mut page = Page::counted(
            data,
            self.pagination(),
            total.filter(|_| self.count_total()),
        )
        .with_fields(self.fields().clone());
        page.extras = self.list_extras(true);
        page
    }

    /// A keyset page as a [`BareList`](super::BareList) that also sends the
    /// total of every matching item (filters and search, the cursor's
    /// position aside) in `X-Total-Count`, as a version-2 style list sends
    /// it on offset pages: `total` as counted by the application (e.g. from
    /// `count_statement`, feature `sea-query`), dropped when the
    /// [`count_strategy`](Self::count_strategy) is `none`. As an offset
    /// page, it answers `Preference-Applied: count=<strategy>` when the
    /// client's preference was honoured, and `Vary: Prefer` when the
    /// request carried `Prefer`.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// # }
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// use problem_core::query::{CountStrategy, Total};
    /// let q = TypedQuery::<Book>::from_query_str("limit=2", &config).unwrap();
    /// let page = q.cursor_page(vec![Book { id: 1 }, Book { id: 2 }, Book { id: 3 }]).unwrap();
    /// assert_eq!(q.counted_bare_list(page, Some(Total::Exact(40))).total(), Some(40));
    /// let uncounted = config.count_strategy(CountStrategy::None);
    /// let q = TypedQuery::<Book>::from_query_str("limit=2", &uncounted).unwrap();
    /// let page = q.cursor_page(vec![Book { id: 1 }]).unwrap();
    /// assert_eq!(q.counted_bare_list(page, Some(Total::Exact(40))).total(), None);
    /// ```
    pub fn counted_bare_list<T>(
        &self,
        mut page: CursorPage<T>,
        total: Option<Total>,
    ) -> super::BareList<T> {
        page.extras = ListExtras {
            walked_back: page.extras.walked_back,
            ..self.list_extras(true)
        };
        let total = total.filter(|_| self.count_total()).map(Total::value);
        super::BareList::counted_cursor(page, total)
    }

    /// A [`CursorPage`] from rows fetched with `limit + 1` by
    /// `apply_cursor_to` (feature `sea-query`; e.g. from SQL), in the
    /// order fetched: after a previous cursor that is the reverse of the
    /// effective order, and the rows are put back in the effective order.
    /// The extra row, if any, is dropped. Cursors are signed from the
    /// sort-key values of the page's rows (read from their serialized
    /// members):
    ///
    /// - `next_cursor` (after the last row): when the extra row was found,
    ///   or the page was reached with a previous cursor;
    /// - `prev_cursor` (before the first row): when the page was reached
    ///   with a next cursor, or with a previous cursor and the extra row
    ///   was found. The first page has none.
    ///
    /// An empty page (rows removed since the cursor was issued) reached
    /// with a next cursor has a `prev_cursor` that leads back to the page
    /// that ended with the cursor's row, that row included
    /// ([`cursor_includes_row`](Self::cursor_includes_row)); one reached
    /// with a previous cursor has a `next_cursor` to the page that began
    /// with it.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # use problem_core::query::{QueryConfig, TypedQuery};
    /// # #[derive(CollectionQuery, serde::Serialize)]
    /// # #[query(key = "id")]
    /// # struct Book {
    /// #     #[query(filter(eq), sort)]
    /// #     id: i64,
    /// #     #[query(filter(gte), sort)]
    /// #     year: Option<i32>,
    /// # }
    /// # let books = [(1, Some(1965)), (2, None), (3, Some(1951))].map(|(id, year)| Book { id, year });
    /// # let config = QueryConfig::default().cursor_keys([[7u8; 32]]).unwrap();
    /// let q = TypedQuery::<Book>::from_query_str("limit=2&sort=id", &config).unwrap();
    /// // The rows a database returned for `LIMIT 3`: one more than the page.
    /// let page = q.cursor_page(books.into_iter().collect()).unwrap();
    /// assert_eq!(page.data.iter().map(|b| b.id).collect::<Vec<_>>(), [1, 2]);
    /// assert!(page.meta.next_cursor.is_some() && page.meta.prev_cursor.is_none());
    /// ```
    ///
    /// # Errors
    /// [`ApplyError::NoCursorKey`] without a cursor key;
    /// [`ApplyError::CursorTooLong`] when a cursor would be longer than
    /// [`MAX_CURSOR_LENGTH`](super::MAX_CURSOR_LENGTH); item errors as
    /// [`page_in_memory`](Self::page_in_memory).
    pub fn cursor_page<T: Serialize>(&self, rows: Vec<T>) -> Result<CursorPage<T>, ApplyError> {
        let (rows, next, prev) =
            self.keyset_window(rows, |r, i| self.order_values(&to_row(i, r)?))?;
        Ok(self.cursor_page_of(rows, next, prev))
    }
}
