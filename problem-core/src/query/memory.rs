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

use std::cmp::Ordering;

use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::error::ApplyError;
use super::filter::{FilterCondition, Operand, Operator};
use super::fold::fold_case;
use super::page::{CursorPage, Page};
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
    /// # Errors
    /// [`ApplyError`] when the item is not a JSON object or a member has
    /// the wrong type.
    pub fn matches<T: Serialize>(&self, item: &T) -> Result<bool, ApplyError> {
        self.row_matches(&to_row(0, item)?)
    }

    /// The offset page of `items`: filtered, searched, sorted by
    /// [`order`](TypedQuery::order), `offset`/`limit` applied, the total
    /// counted unless counting is off; the sparse fieldset is applied when
    /// the page is serialized.
    ///
    /// # Errors
    /// [`ApplyError`] when an item is not a JSON object or a member has
    /// the wrong type.
    pub fn page_in_memory<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
    ) -> Result<Page<Json>, ApplyError> {
        let sorted = self.select_sorted(to_rows(items)?)?;
        let total = sorted.len() as u64;
        let p = self.pagination();
        let data: Vec<Json> = sorted
            .into_iter()
            .skip(usize::try_from(p.offset()).unwrap_or(usize::MAX))
            .take(usize::try_from(p.limit()).unwrap_or(usize::MAX))
            .map(|(_, r)| Json::Object(r.object))
            .collect();
        Ok(self.page(data, self.count_total().then_some(total)))
    }

    /// The cursor page of `items`: filtered, searched, sorted, the rows
    /// after the cursor's position (keyset), `limit + 1` taken to know
    /// whether a next page exists; `next_cursor` is signed with the first
    /// cursor key.
    ///
    /// # Errors
    /// [`ApplyError::NoCursorKey`] when a next cursor is needed and no key is
    /// configured; item errors as [`page_in_memory`](Self::page_in_memory).
    pub fn cursor_page_in_memory<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
    ) -> Result<CursorPage<Json>, ApplyError> {
        let sorted = self.select_sorted(to_rows(items)?)?;
        let limit = usize::try_from(self.limit()).unwrap_or(usize::MAX);
        let after = self.after().map(<[FieldValue]>::to_vec);
        let mut rows: Vec<(Vec<FieldValue>, Row)> = sorted
            .into_iter()
            .filter(|(k, _)| {
                after
                    .as_ref()
                    .is_none_or(|a| self.compare_keys(k, a) == Ordering::Greater)
            })
            .take(limit.saturating_add(1))
            .collect();
        let next = if rows.len() > limit {
            rows.truncate(limit);
            match rows.last() {
                Some((k, _)) => Some(self.seal_cursor(k.clone())?),
                None => None,
            }
        } else {
            None
        };
        let data = rows
            .into_iter()
            .map(|(_, r)| Json::Object(r.object))
            .collect();
        Ok(CursorPage::new(data, self.limit(), next).with_fields(self.fields().clone()))
    }

    /// An offset [`Page`] of already paginated items (e.g. from SQL), with
    /// this query's page, size and sparse fieldset; `total` is dropped when
    /// counting is off.
    pub fn page<T>(&self, data: Vec<T>, total: Option<u64>) -> Page<T> {
        Page::new(
            data,
            self.pagination(),
            total.filter(|_| self.count_total()),
        )
        .with_fields(self.fields().clone())
    }

    /// A [`CursorPage`] from rows fetched with `limit + 1` (e.g. from SQL):
    /// when there are more than `limit` rows, the extra ones are dropped and
    /// `next_cursor` is signed from the last kept row's sort-key values
    /// (read from its serialized members).
    ///
    /// # Errors
    /// [`ApplyError::NoCursorKey`] without a cursor key; item errors as
    /// [`page_in_memory`](Self::page_in_memory).
    pub fn cursor_page<T: Serialize>(&self, mut rows: Vec<T>) -> Result<CursorPage<T>, ApplyError> {
        let limit = usize::try_from(self.limit()).unwrap_or(usize::MAX);
        let next = if rows.len() > limit {
            rows.truncate(limit);
            match rows.last() {
                Some(last) => {
                    let row = to_row(limit.saturating_sub(1), last)?;
                    Some(self.seal_cursor(self.order_values(&row)?)?)
                }
                None => None,
            }
        } else {
            None
        };
        Ok(CursorPage::new(rows, self.limit(), next).with_fields(self.fields().clone()))
    }
}
