//! Compile-time checks of `#[derive(CollectionQuery)]`, re-exported from
//! `problem_core::__private`. Not a public API.

use std::marker::PhantomData;

use super::{OrderedValue, QueryValue, TextValue};

/// A field's value type, for the operator checks of the derive:
/// `(&&ValueCheck::<T>::NEW).ordered()` picks by autoref
/// [`QueryableChecks`] when `T` is a [`QueryValue`] (then `T` must be an
/// [`OrderedValue`]: one error saying the operator does not apply), else
/// [`UnqueryableChecks`], which checks nothing: the field's `QueryValue`
/// error is then the one error.
///
/// ```
/// use problem_core::__private::{QueryableChecks as _, UnqueryableChecks as _, ValueCheck};
///
/// (&&ValueCheck::<i64>::NEW).ordered();
/// (&&ValueCheck::<String>::NEW).text();
/// // Not queryable: no check here (the derive reports `QueryValue`).
/// (&&ValueCheck::<Vec<u8>>::NEW).ordered();
/// ```
pub struct ValueCheck<T: ?Sized>(PhantomData<fn(&T)>);

impl<T: ?Sized> ValueCheck<T> {
    /// The check of `T`.
    pub const NEW: Self = Self(PhantomData);
}

/// The operator checks of a queryable type.
pub trait QueryableChecks<T: ?Sized> {
    /// `gt`, `gte`, `lt`, `lte`: `T` has an order.
    fn ordered(&self)
    where
        T: OrderedValue,
    {
    }

    /// `contains`, `starts_with`, `ends_with`, `search`: `T` is text.
    fn text(&self)
    where
        T: TextValue,
    {
    }
}

impl<T: QueryValue + ?Sized> QueryableChecks<T> for &ValueCheck<T> {}

/// The operator checks of a type that is not queryable: none.
pub trait UnqueryableChecks {
    /// Nothing to check.
    fn ordered(&self) {}

    /// Nothing to check.
    fn text(&self) {}
}

impl<T: ?Sized> UnqueryableChecks for ValueCheck<T> {}
