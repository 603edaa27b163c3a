//! Generating the `CollectionQuery` impl, and with the `openapi` feature of
//! `problem-core` the `utoipa::IntoParams` impl (its query parameters, from
//! the same schema: `problem_core::openapi::query_parameters`).

use proc_macro2::{Ident, Span, TokenStream};
use query_operators::Applies;
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

use crate::ast::Input;
use crate::valid::Resolved;

pub(crate) fn expand(input: &Input<'_>, resolved: &Resolved) -> TokenStream {
    let ident = input.ident;
    let resource = ident.unraw().to_string();
    let q = quote!(::problem_core::query);
    let mut specs = Vec::new();
    let mut checks = Vec::new();
    for f in &input.fields {
        let name = &f.name;
        let column = f
            .attrs
            .column
            .as_ref()
            .map_or(f.name.clone(), |c| c.value());
        let vty = f.value_ty;
        // A field only selected is never parsed, compared or sorted: its
        // type needs no `QueryValue`.
        let kind = if f.is_queried() || *name == resolved.key {
            quote_spanned!(vty.span()=> <#vty as #q::QueryValue>::KIND)
        } else {
            quote!(#q::ValueKind::Opaque)
        };
        let nullable = f.nullable;
        let ops = f.attrs.filter.iter().map(|o| {
            let v = Ident::new(o.info.variant, Span::call_site());
            quote!(#q::Operator::#v)
        });
        // The value types each operator applies to, as trait bounds: a
        // type alias the derive cannot see through is still checked. Each
        // check once per field, and none when the type is not queryable at
        // all (`ValueCheck`): its `QueryValue` error is then the only one.
        // Each check is spanned on the first operator that asks for it
        // (`gt`, `contains`, `search`): the token to change.
        let (mut ordered, mut text) = (None, None);
        for o in &f.attrs.filter {
            match o.info.applies {
                Applies::Ordered => ordered = ordered.or(Some(o.span)),
                Applies::Text => text = text.or(Some(o.span)),
                Applies::Any | Applies::Nullable => {}
            }
        }
        let text = text.or(f.attrs.search);
        let check = quote!(::problem_core::__private::ValueCheck::<#vty>::NEW);
        if let Some(span) = ordered {
            checks.push(quote_spanned!(span=> (&&#check).ordered();));
        }
        if let Some(span) = text {
            checks.push(quote_spanned!(span=> (&&#check).text();));
        }
        let sortable = f.attrs.sort.is_some();
        let searchable = f.attrs.search.is_some();
        let selectable = f.attrs.no_select.is_none();
        let folded_column = match &f.attrs.folded_column {
            Some(c) => {
                let c = c.value();
                quote!(::core::option::Option::Some(#c))
            }
            None => quote!(::core::option::Option::None),
        };
        specs.push(quote! {
            #q::FieldSpec {
                name: #name,
                column: #column,
                kind: #kind,
                nullable: #nullable,
                operators: &[#(#ops),*],
                sortable: #sortable,
                searchable: #searchable,
                selectable: #selectable,
                folded_column: #folded_column,
            }
        });
    }
    let key = &resolved.key;
    let default_sort = resolved.default_sort.iter().map(|(name, desc)| {
        let dir = if *desc { quote!(Desc) } else { quote!(Asc) };
        quote!((#name, #q::Direction::#dir))
    });
    let max = resolved.max_page_size;
    let default = resolved.default_page_size;
    let idents: Vec<&syn::Ident> = input.fields.iter().map(|f| f.ident).collect();
    quote! {
        impl #q::CollectionQuery for #ident {
            const SCHEMA: &'static #q::QuerySchema = &#q::QuerySchema {
                resource: #resource,
                key: #key,
                default_sort: &[#(#default_sort),*],
                page_size: #q::PageSizeLimits { default: #default, max: #max },
                fields: &[#(#specs),*],
            };
        }

        ::problem_core::__private::openapi_items! {
            #[automatically_derived]
            impl ::problem_core::__private::openapi::IntoParams for #ident {
                fn into_params(
                    _: impl ::core::ops::Fn() -> ::core::option::Option<::problem_core::__private::openapi::ParameterIn>,
                ) -> ::problem_core::__private::openapi::Vec<::problem_core::__private::openapi::Parameter> {
                    ::problem_core::__private::openapi::query_parameters(
                        <Self as #q::CollectionQuery>::SCHEMA,
                    )
                }
            }
        }

        const _: () = {
            #[allow(dead_code, clippy::all)]
            fn __checks() {
                #[allow(unused_imports)]
                use ::problem_core::__private::{QueryableChecks as _, UnqueryableChecks as _};
                #(#checks)*
            }
            impl #ident {
                // Marks the fields as read and the struct as constructed: the
                // struct only describes the query, it is never built.
                #[allow(dead_code, clippy::all)]
                #[doc(hidden)]
                fn __collection_query_fields(self) -> Self {
                    let Self { #(#idents),* } = self;
                    Self { #(#idents),* }
                }
            }
        };
    }
}
