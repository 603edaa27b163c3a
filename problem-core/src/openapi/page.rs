//! Schemas of the collection envelopes (spec, "Pagination": the offset
//! envelope `{"data", "meta", "links"}`, the cursor envelope and the bare
//! array) for `#[utoipa::path(responses(...))]`, named after the item
//! type, so `body = Page<Book>` documents a listing of `Book`s. Written
//! through a type alias (`type BookPage = Page<Book>;`, then
//! `body = BookPage`) the listing's schema is `BookPage`; written out,
//! utoipa's path macro appends the type argument (`BookPage_Book`).
//!
//! Items of a listing are reduced by the sparse fieldset (`fields`,
//! `exclude`): the envelopes' `data` items are [`Fieldset<T>`], `T`'s
//! members with none required, registered as `<T>Fields`. A member added
//! to `T` appears in every envelope with no other edit.
//!
//! The envelopes are generic, so they implement utoipa's `ComposeSchema`
//! (what `#[derive(ToSchema)]` generates for a generic type, and what
//! `#[utoipa::path]` calls for `Page<Book>`); `PartialSchema` follows from
//! it.

use std::borrow::Cow;
use std::marker::PhantomData;

use utoipa::__dev::ComposeSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema,
    SchemaFormat, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

use super::problem::schema_ref;
use crate::query::{BareList, CursorPage, Page};

/// `T` in a listing: the same members, none required (the sparse fieldset
/// keeps the members a request names), no other member allowed.
/// Registered in `components.schemas` as `<T>Fields`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::Fieldset;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// #[derive(utoipa::ToSchema)]
/// struct Book { id: i64, title: String }
///
/// assert_eq!(Fieldset::<Book>::name(), "BookFields");
/// let schema = serde_json::to_value(Fieldset::<Book>::schema()).unwrap();
/// assert_eq!(schema["properties"]["title"]["type"], "string");
/// assert_eq!(schema.get("required"), None);
/// assert_eq!(schema["additionalProperties"], false);
/// ```
pub struct Fieldset<T>(PhantomData<fn() -> T>);

fn fieldset_schema(item: RefOr<Schema>, item_name: &str) -> RefOr<Schema> {
    if let RefOr::T(Schema::Object(mut object)) = item {
        object.required.clear();
        object.description = Some(format!(
            "A `{item_name}` in a list: the members the sparse fieldset (`fields`, `exclude`) keeps."
        ));
        object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
        return RefOr::T(Schema::Object(object));
    }
    // Not an object (a `$ref`, a composition): documented as it is.
    item
}

impl<T: ToSchema> PartialSchema for Fieldset<T> {
    fn schema() -> RefOr<Schema> {
        fieldset_schema(T::schema(), &T::name())
    }
}

impl<T: ToSchema> ToSchema for Fieldset<T> {
    fn name() -> Cow<'static, str> {
        Cow::Owned(format!("{}Fields", T::name()))
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        T::schemas(schemas);
    }
}

fn int64(minimum: i64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(minimum))
}

fn links(names: &[&str]) -> ObjectBuilder {
    let mut o = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("Relative links; absent ones are omitted."))
        .property("self", ObjectBuilder::new().schema_type(Type::String))
        .required("self");
    for name in names {
        o = o.property(*name, ObjectBuilder::new().schema_type(Type::String));
    }
    o.additional_properties(Some(AdditionalProperties::FreeForm(false)))
}

/// `{"data": [<T>Fields], "meta": <meta, closed>, "links": <links>}`, all
/// three required: the shape both envelopes share.
fn envelope<T: ToSchema>(kind: &str, meta: ObjectBuilder, links_named: &[&str]) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(format!("One page of `{}` ({kind}).", T::name())))
        .property("data", items::<T>())
        .required("data")
        .property(
            "meta",
            meta.additional_properties(Some(AdditionalProperties::FreeForm(false))),
        )
        .required("meta")
        .property("links", links(links_named))
        .required("links")
        .into()
}

fn items<T: ToSchema>() -> ArrayBuilder {
    ArrayBuilder::new().items(schema_ref(&Fieldset::<T>::name()))
}

/// `<T>Fields`, `T` and what `T` references.
fn register<T: ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    schemas.push((Fieldset::<T>::name().into_owned(), Fieldset::<T>::schema()));
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

/// The offset envelope of `T`s, registered as `<T>Page`: `data` (array of
/// `<T>Fields`), `meta` (`page` and `per_page` required; `total` and
/// `total_pages` when counted, `total_is_estimate` when the total is an
/// estimate), `links` (`self`, `first`, `prev`, `next`, `last`).
///
/// ```
/// use problem_core::query::Page;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// #[derive(utoipa::ToSchema)]
/// struct Book { id: i64 }
///
/// assert_eq!(<Page<Book> as ToSchema>::name(), "BookPage");
/// let schema = serde_json::to_value(<Page<Book> as PartialSchema>::schema()).unwrap();
/// assert_eq!(schema["properties"]["data"]["items"]["$ref"], "#/components/schemas/BookFields");
/// assert_eq!(schema["properties"]["meta"]["required"], serde_json::json!(["page", "per_page"]));
/// ```
impl<T: ToSchema> ComposeSchema for Page<T> {
    fn compose(_generics: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        envelope::<T>(
            "offset pagination",
            ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property("page", int64(1))
                    .required("page")
                    .property("per_page", int64(1))
                    .required("per_page")
                    .property(
                        "total",
                        int64(0).description(Some(
                            "Matching items; absent with `Prefer: count=none`.",
                        )),
                    )
                    .property(
                        "total_pages",
                        int64(0).description(Some(
                            "`ceil(total / per_page)`; absent with `Prefer: count=none`.",
                        )),
                    )
                    .property(
                        "total_is_estimate",
                        ObjectBuilder::new()
                            .schema_type(Type::Boolean)
                            .enum_values(Some([true]))
                            .description(Some(
                                "Present, `true`, only when `total` is an estimate (`Prefer: count=estimated` above the estimate threshold); then there is no `last` link.",
                            )),
                    ),
            &["first", "prev", "next", "last"],
        )
    }
}

impl<T: ToSchema> ToSchema for Page<T> {
    fn name() -> Cow<'static, str> {
        Cow::Owned(format!("{}Page", T::name()))
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        register::<T>(schemas);
    }
}

/// The cursor envelope of `T`s, registered as `<T>CursorPage`: `data`
/// (array of `<T>Fields`), `meta` (`limit`, `next_cursor`: `null` on the
/// last page, `prev_cursor`: absent on the first), `links` (`self`,
/// `prev`, `next`).
///
/// ```
/// use problem_core::query::CursorPage;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// #[derive(utoipa::ToSchema)]
/// struct Book { id: i64 }
///
/// assert_eq!(<CursorPage<Book> as ToSchema>::name(), "BookCursorPage");
/// let schema = serde_json::to_value(<CursorPage<Book> as PartialSchema>::schema()).unwrap();
/// assert_eq!(schema["properties"]["meta"]["properties"]["next_cursor"]["type"],
///     serde_json::json!(["string", "null"]));
/// ```
impl<T: ToSchema> ComposeSchema for CursorPage<T> {
    fn compose(_generics: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        envelope::<T>(
            "keyset cursor pagination",
            ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property("limit", int64(1))
                    .required("limit")
                    .property(
                        "next_cursor",
                        ObjectBuilder::new()
                            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                            .description(Some("`null` on the last page.")),
                    )
                    .required("next_cursor")
                    .property(
                        "prev_cursor",
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .description(Some(
                                "The cursor of the previous page (the same sort, filters and search); absent on the first page.",
                            )),
                    ),
            &["prev", "next"],
        )
    }
}

impl<T: ToSchema> ToSchema for CursorPage<T> {
    fn name() -> Cow<'static, str> {
        Cow::Owned(format!("{}CursorPage", T::name()))
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        register::<T>(schemas);
    }
}

/// The bare array of `T`s (`BareList`: the page's `data` alone, its
/// pagination in `X-Total-Count` and `Link`), registered as `<T>List`:
/// an array of `<T>Fields`.
///
/// ```
/// use problem_core::query::BareList;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// #[derive(utoipa::ToSchema)]
/// struct Book { id: i64 }
///
/// assert_eq!(<BareList<Book> as ToSchema>::name(), "BookList");
/// let schema = serde_json::to_value(<BareList<Book> as PartialSchema>::schema()).unwrap();
/// assert_eq!(schema["items"]["$ref"], "#/components/schemas/BookFields");
/// ```
impl<T: ToSchema> ComposeSchema for BareList<T> {
    fn compose(_generics: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        items::<T>().into()
    }
}

impl<T: ToSchema> ToSchema for BareList<T> {
    fn name() -> Cow<'static, str> {
        Cow::Owned(format!("{}List", T::name()))
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        register::<T>(schemas);
    }
}

/// A listing that answers the offset envelope or the cursor envelope
/// (spec, "Pagination": cursor parameters select keyset pagination),
/// registered as `<T>Listing`: `oneOf` `$ref`s to `<T>Page` and
/// `<T>CursorPage`, both registered with it. For a 200 that may be either:
/// `body = inline(OffsetOrCursorPage<Book>)`.
/// Feature `openapi`.
///
/// ```
/// use problem_core::openapi::OffsetOrCursorPage;
/// use problem_core::openapi::utoipa::{PartialSchema, ToSchema};
///
/// #[derive(utoipa::ToSchema)]
/// struct Book { id: i64 }
///
/// let schema = serde_json::to_value(OffsetOrCursorPage::<Book>::schema()).unwrap();
/// assert_eq!(schema["oneOf"][0]["$ref"], "#/components/schemas/BookPage");
/// assert_eq!(schema["oneOf"][1]["$ref"], "#/components/schemas/BookCursorPage");
/// let mut refs = Vec::new();
/// OffsetOrCursorPage::<Book>::schemas(&mut refs);
/// let names: Vec<&str> = refs.iter().map(|(n, _)| n.as_str()).collect();
/// assert_eq!(names, ["BookPage", "BookCursorPage", "BookFields", "Book"]);
/// ```
pub struct OffsetOrCursorPage<T>(PhantomData<fn() -> T>);

impl<T: ToSchema> ComposeSchema for OffsetOrCursorPage<T> {
    fn compose(_generics: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(schema_ref(&<Page<T> as ToSchema>::name()))
            .item(schema_ref(&<CursorPage<T> as ToSchema>::name()))
            .into()
    }
}

impl<T: ToSchema> ToSchema for OffsetOrCursorPage<T> {
    fn name() -> Cow<'static, str> {
        Cow::Owned(format!("{}Listing", T::name()))
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            <Page<T> as ToSchema>::name().into_owned(),
            <Page<T> as PartialSchema>::schema(),
        ));
        schemas.push((
            <CursorPage<T> as ToSchema>::name().into_owned(),
            <CursorPage<T> as PartialSchema>::schema(),
        ));
        register::<T>(schemas);
    }
}
