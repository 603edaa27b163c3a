//! Code generation: `Display`, `std::error::Error`, `problem_core::Problem`
//! and `actix_web::ResponseError` for a validated input.
//!
//! The generated code names only `::problem_core::...` paths (everything
//! else through `::problem_core::__private`), binds fields as `__self_N`
//! (no unused-variable warnings) and matches on `*self` with `ref`
//! bindings, so empty enums work too. Everything is emitted in a
//! `const _` block that shadows the generated local names (`scoped`), so
//! user items named `__self_0` or `__formatter` do not clash.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Ident, LitStr, Type, WherePredicate};

use crate::ast::{Case, Field, Input, Role};
use crate::detail::{self, Piece, SpecPart};

/// Everything the derive generates.
pub(crate) fn derive(input: &Input<'_>) -> TokenStream {
    let p = quote!(::problem_core::__private);
    let ident = input.ident();
    let name = LitStr::new(&ident.unraw().to_string(), Span::call_site());
    let generics = input.generics();
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let bounds = Bounds::collect(input);
    let is_generic = !generics.params.is_empty();

    let display_where = bounds.where_clause(generics, &bounds.display, None);
    // A type without `Debug` is one error, from `debug_check`: the impls
    // that need `Debug` require it (`for<'workaround>` makes the bound on
    // a concrete type legal), so they add none of their own.
    let error_self = if is_generic {
        Some(quote!(Self: #p::fmt::Debug + #p::fmt::Display))
    } else {
        Some(quote!(for<'workaround> #ident: #p::fmt::Debug))
    };
    let error_preds: Vec<WherePredicate> = bounds
        .display
        .iter()
        .chain(&bounds.source)
        .cloned()
        .collect();
    let error_where = bounds.where_clause(generics, &error_preds, error_self);
    // Likewise a field that is not `Sync` is one error, on its type, from
    // `sync_checks` (a boxed `dyn Error` without `Send + Sync` is refused
    // by name in `valid.rs`).
    let problem_self = if is_generic {
        Some(quote!(Self: #p::fmt::Debug + #p::fmt::Display + #p::Send + #p::Sync + 'static))
    } else {
        Some(quote!(for<'workaround> #ident: #p::fmt::Debug + #p::Send + #p::Sync))
    };
    let debug_check = (!is_generic).then(|| {
        let span = ident.span();
        let check = quote_spanned!(span=> #p::debug_problem::<#ident>);
        quote! {
            #[allow(unused_qualifications)]
            const _: fn() = #check;
        }
    });
    let sync_checks = (!is_generic).then(|| {
        let checks = input.cases().iter().flat_map(|case| &case.fields).map(|f| {
            let ty = f.ty;
            let check = quote_spanned!(ty.span()=> #p::sync_field::<#ty>);
            quote! {
                #[allow(unused_qualifications)]
                const _: fn() = #check;
            }
        });
        quote!(#(#checks)*)
    });
    let all_preds: Vec<WherePredicate> = bounds
        .display
        .iter()
        .chain(&bounds.source)
        .chain(&bounds.problem)
        .cloned()
        .collect();
    let problem_where = bounds.where_clause(generics, &all_preds, problem_self);

    let cases = input.cases();
    let defaults = input.defaults();
    let plan: Vec<Plan<'_, '_>> = cases.iter().map(|case| Plan::new(case, defaults)).collect();

    let formatter = local("__formatter", Span::call_site());
    let display_arms = plan.iter().map(|c| {
        let pat = c.bound_pattern();
        match c.detail_args() {
            Some(args) => quote!(#pat => #formatter.write_fmt(#p::format_args!(#args)),),
            None => {
                let title = c.title_expr();
                quote!(#pat => #formatter.write_str(#title),)
            }
        }
    });

    let source_fn = plan.iter().any(|c| c.source.is_some()).then(|| {
        let arms = plan.iter().map(|c| {
            let pat = c.bound_pattern();
            let body = match c.source {
                Some(f) => {
                    let b = f.binding();
                    let span = f.ty.span();
                    // Spanned on the field's type: a type that is not an
                    // error is one error there (`ErrorSource`).
                    if f.option_inner().is_some() {
                        let source = local("__source", span);
                        let call =
                            quote_spanned!(span=> (&&&#p::SourceField(#source)).as_dyn_error());
                        quote! {
                            match #b {
                                #p::Some(#source) => #p::Some(#call),
                                #p::None => #p::None,
                            }
                        }
                    } else {
                        let call = quote_spanned!(span=> (&&&#p::SourceField(#b)).as_dyn_error());
                        quote!(#p::Some(#call))
                    }
                }
                None => quote!(#p::None),
            };
            quote!(#pat => #body,)
        });
        quote! {
            fn source(&self) -> #p::Option<&(dyn #p::Error + 'static)> {
                #[allow(unused_imports)]
                use #p::{SourceIsDyn as _, SourceIsError as _, SourceIsOther as _};
                match *self { #(#arms)* }
            }
        }
    });

    let status_arms = plan.iter().map(|c| {
        let pat = c.any_pattern();
        let status = c.status;
        quote!(#pat => #p::status_code(#status),)
    });

    let type_fn = plan.iter().any(|c| c.problem_type.is_some()).then(|| {
        let arms = plan.iter().map(|c| {
            let pat = c.any_pattern();
            match c.problem_type {
                Some(t) => quote!(#pat => #t,),
                None => quote!(#pat => #p::ABOUT_BLANK,),
            }
        });
        quote! {
            fn problem_type(&self) -> &str {
                match *self { #(#arms)* }
            }
        }
    });

    let title_arms = plan.iter().map(|c| {
        let pat = c.any_pattern();
        let title = c.title_expr();
        quote!(#pat => #p::Cow::Borrowed(#title),)
    });

    let detail_fn = plan.iter().any(|c| c.case.detail.is_some()).then(|| {
        let arms = plan.iter().map(|c| match c.detail_args() {
            Some(args) => {
                let pat = c.bound_pattern();
                quote! {
                    #pat => #p::Some(#p::Cow::Owned(#p::format_detail(#p::format_args!(#args)))),
                }
            }
            None => {
                let pat = c.any_pattern();
                quote!(#pat => #p::None,)
            }
        });
        quote! {
            fn detail(&self) -> #p::Option<#p::Cow<'_, str>> {
                match *self { #(#arms)* }
            }
        }
    });

    let extensions = local("__extensions", Span::call_site());
    let extensions_fn = plan.iter().any(|c| !c.extensions.is_empty()).then(|| {
        let arms = plan.iter().map(|c| {
            if c.extensions.is_empty() {
                let pat = c.any_pattern();
                return quote!(#pat => {});
            }
            let pat = c.bound_pattern();
            let inserts = c.extensions.iter().map(|(f, key)| {
                let span = f.ty.span();
                // A field named `source` is an extension member here only
                // because another field is the cause: its check says so.
                let extension = if f.is_implicit_source() {
                    quote!(extension_beside_source)
                } else {
                    quote!(extension)
                };
                let b = f.binding();
                let bs = f.binding_at(span);
                let value = local("__value", span);
                // The type as a generic argument: an unmet bound is then
                // spanned on the whole type, not on its first token.
                if let Some(inner) = f.option_inner() {
                    let call = quote_spanned!(span=> #p::#extension::<#inner>(&mut #extensions, #key, #value));
                    quote! {
                        if let #p::Some(#value) = #b {
                            #call?;
                        }
                    }
                } else {
                    let ty = &f.ty;
                    let call = quote_spanned!(span=> #p::#extension::<#ty>(&mut #extensions, #key, #bs));
                    quote!(#call?;)
                }
            });
            quote!(#pat => { #(#inserts)* })
        });
        quote! {
            fn extensions(&self) -> #p::Result<#p::Extensions, #p::ProblemBuildError> {
                let mut #extensions = #p::Extensions::new();
                match *self { #(#arms)* }
                #p::Ok(#extensions)
            }
        }
    });

    let headers = local("__headers", Span::call_site());
    let headers_fn = plan.iter().any(|c| !c.headers.is_empty()).then(|| {
        let arms = plan.iter().map(|c| {
            if c.headers.is_empty() {
                let pat = c.any_pattern();
                return quote!(#pat => {});
            }
            let pat = c.bound_pattern();
            let inserts = c.headers.iter().map(|(f, name)| {
                let span = f.ty.span();
                let b = f.binding();
                let bs = f.binding_at(span);
                let value = local("__value", span);
                // The type as a generic argument: an unmet bound is then
                // spanned on the whole type, not on its first token.
                if let Some(inner) = f.option_inner() {
                    let call =
                        quote_spanned!(span=> #p::header::<#inner>(&mut #headers, #name, #value));
                    quote! {
                        if let #p::Some(#value) = #b {
                            #call?;
                        }
                    }
                } else {
                    let ty = &f.ty;
                    let call = quote_spanned!(span=> #p::header::<#ty>(&mut #headers, #name, #bs));
                    quote!(#call?;)
                }
            });
            quote!(#pat => { #(#inserts)* })
        });
        quote! {
            fn headers(&self) -> #p::Result<#p::HeaderMap, #p::ProblemBuildError> {
                let mut #headers = #p::HeaderMap::new();
                match *self { #(#arms)* }
                #p::Ok(#headers)
            }
        }
    });

    let openapi = openapi(input, &plan);

    quote! {
        #openapi
        #debug_check
        #sync_checks

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics #p::fmt::Display for #ident #ty_generics #display_where {
            fn fmt(&self, #formatter: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                match *self { #(#display_arms)* }
            }
        }

        #[automatically_derived]
        #[allow(unused_qualifications, clippy::needless_borrow)]
        impl #impl_generics #p::Error for #ident #ty_generics #error_where {
            #source_fn
        }

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics ::problem_core::Problem for #ident #ty_generics #problem_where {
            fn status(&self) -> #p::StatusCode {
                match *self { #(#status_arms)* }
            }
            #type_fn
            fn title(&self) -> #p::Cow<'_, str> {
                match *self { #(#title_arms)* }
            }
            #detail_fn
            #extensions_fn
            #headers_fn
            fn name(&self) -> &'static str {
                #name
            }
        }

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics #p::actix_web::ResponseError for #ident #ty_generics #problem_where {
            fn status_code(&self) -> #p::StatusCode {
                <Self as ::problem_core::Problem>::status(self)
            }
            fn error_response(&self) -> #p::actix_web::HttpResponse {
                #p::standalone_response(self)
            }
        }
    }
}

/// The `utoipa` impls (`PartialSchema`, `ToSchema`, `IntoResponses`),
/// wrapped in `openapi_items!`, which drops them without the `openapi`
/// feature of `problem-core`. Each case becomes a run-time
/// `ProblemCase`; a field's schema is chosen by autoref specialization
/// (`ToSchema`, else `PartialSchema`, else any JSON value), so a field type
/// without a `utoipa` schema never breaks the build.
fn openapi(input: &Input<'_>, plan: &[Plan<'_, '_>]) -> TokenStream {
    let p = quote!(::problem_core::__private);
    let o = quote!(::problem_core::__private::openapi);
    let ident = input.ident();
    let name = LitStr::new(&ident.unraw().to_string(), Span::call_site());
    let generics = input.generics();
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let member_ty = |f: &Field<'_>| -> Type { f.option_inner().unwrap_or(f.ty).clone() };
    let cases: Vec<TokenStream> = plan
        .iter()
        .map(|c| {
            let status = c.status;
            let problem_type = match c.problem_type {
                Some(t) => quote!(#t),
                None => quote!(#p::ABOUT_BLANK),
            };
            let title = c.title_expr();
            let has_detail = c.case.detail.is_some();
            let members = c.documented_extensions().map(|(f, key)| {
                let required = f.option_inner().is_none();
                let ty = member_ty(f);
                quote! {
                    #o::ProblemMember {
                        name: #key,
                        required: #required,
                        schema: (&&&#o::SchemaOf::<#ty>::NEW).member_schema(),
                    }
                }
            });
            let headers = c.headers.iter().map(|(f, header)| {
                let required = f.option_inner().is_none();
                quote!((#header, #required))
            });
            let members = vec_from(&quote!(#o::Vec), members);
            let headers = vec_from(&quote!(#o::Vec), headers);
            quote! {
                #o::ProblemCase {
                    status: #status,
                    problem_type: #problem_type,
                    title: #title,
                    has_detail: #has_detail,
                    members: #members,
                    headers: #headers,
                }
            }
        })
        .collect();
    let mut member_types: Vec<Type> = Vec::new();
    for c in plan {
        for (f, _) in &c.extensions {
            let ty = member_ty(f);
            if !member_types
                .iter()
                .any(|t| quote!(#t).to_string() == quote!(#ty).to_string())
            {
                member_types.push(ty);
            }
        }
    }
    let schemas = local("__schemas", Span::call_site());
    let schemas_fn = (!member_types.is_empty()).then(|| {
        quote! {
            fn schemas(#schemas: &mut #o::Vec<(#p::String, #o::RefOr<#o::Schema>)>) {
                #[allow(unused_imports)]
                use #o::{ViaAnyValue as _, ViaPartialSchema as _, ViaSchema as _};
                #((&&&#o::SchemaOf::<#member_types>::NEW).member_schemas(#schemas);)*
            }
        }
    });
    quote! {
        ::problem_core::__private::openapi_items! {
            #[automatically_derived]
            #[allow(unused_qualifications, clippy::needless_borrow)]
            impl #impl_generics #o::PartialSchema for #ident #ty_generics #where_clause {
                fn schema() -> #o::RefOr<#o::Schema> {
                    #[allow(unused_imports)]
                    use #o::{ViaAnyValue as _, ViaPartialSchema as _, ViaSchema as _};
                    #o::problem_schema(&[#(#cases),*])
                }
            }

            #[automatically_derived]
            #[allow(unused_qualifications, clippy::needless_borrow)]
            impl #impl_generics #o::ToSchema for #ident #ty_generics #where_clause {
                fn name() -> #p::Cow<'static, str> {
                    #p::Cow::Borrowed(#name)
                }
                #schemas_fn
            }

            #[automatically_derived]
            #[allow(unused_qualifications, clippy::needless_borrow)]
            impl #impl_generics #o::IntoResponses for #ident #ty_generics #where_clause {
                fn responses() -> #o::BTreeMap<#p::String, #o::RefOr<#o::Response>> {
                    #[allow(unused_imports)]
                    use #o::{ViaAnyValue as _, ViaPartialSchema as _, ViaSchema as _};
                    #o::problem_responses(#name, &[#(#cases),*])
                }
            }
        }
    }
}

/// `problem_core::DocumentedProblem`: per case its type, title, status,
/// doc comment (`docs`, in case order) and extension members with their
/// JSON types (chosen by autoref specialization, `any` when unknown) and
/// field doc comments.
pub(crate) fn type_docs(input: &Input<'_>, docs: &[String]) -> TokenStream {
    let p = quote!(::problem_core::__private);
    let ident = input.ident();
    let generics = input.generics();
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let defaults = input.defaults();
    let cases = input.cases().iter().enumerate().map(|(i, case)| {
        let c = Plan::new(case, defaults);
        let status = c.status;
        let problem_type = match c.problem_type {
            Some(t) => quote!(#t),
            None => quote!(#p::ABOUT_BLANK),
        };
        let title = c.title_expr();
        let doc = LitStr::new(
            docs.get(i).map(String::as_str).unwrap_or_default(),
            Span::call_site(),
        );
        let members = c.documented_extensions().map(|(f, key)| {
            let required = f.option_inner().is_none();
            let ty = f.option_inner().unwrap_or(f.ty);
            let fdoc = LitStr::new(&crate::docs::text(&f.original.attrs), Span::call_site());
            quote! {
                #p::member_doc(#key, (&&#p::JsonTypeOf::<#ty>::NEW).json_type(), #required, #fdoc)
            }
        });
        let members = vec_from(&quote!(#p::Vec), members);
        quote! {
            #p::type_doc(#problem_type, #title, #status, #doc, #members)
        }
    });
    let cases = vec_from(&quote!(#p::Vec), cases);
    quote! {
        #[automatically_derived]
        #[allow(unused_qualifications, clippy::needless_borrow)]
        impl #impl_generics ::problem_core::DocumentedProblem for #ident #ty_generics #where_clause {
            fn problem_type_docs() -> #p::Vec<::problem_core::ProblemTypeDoc> {
                #[allow(unused_imports)]
                use #p::{ViaAnyJsonType as _, ViaKnownJsonType as _};
                #cases
            }
        }
    }
}

/// A generated local binding (`__self_N`, `__formatter`, ...), located at
/// `span` for errors. A user item of the same name in scope (a unit struct
/// `__formatter`, a `const __self_0`) would turn the binding into a
/// pattern naming it, whatever the span's hygiene: `scoped` shadows every
/// such name with a function, which a binding may shadow in turn.
///
/// Every local resolves at the derive's call site, wherever it is located:
/// a `detail` literal or field type passed through a `macro_rules!`
/// fragment carries the hygiene of the macro's caller, and a binding named
/// with it would not see the pattern's bindings.
pub(crate) fn local(name: &str, span: Span) -> Ident {
    Ident::new(name, Span::call_site().located_at(span))
}

/// The generated items in a `const _: () = { .. };` block that first
/// declares a function for every local name the expansion binds, so user
/// items of those names (`struct __self_0;`) are shadowed, not matched.
pub(crate) fn scoped(input: &Input<'_>, items: TokenStream) -> TokenStream {
    let fields = input
        .cases()
        .iter()
        .map(|c| c.fields.len())
        .max()
        .unwrap_or(0);
    let mut names: Vec<String> = [
        "__formatter",
        "__extensions",
        "__headers",
        "__value",
        "__source",
        "__schemas",
    ]
    .map(str::to_owned)
    .into();
    for i in 0..fields {
        names.push(format!("__self_{i}"));
        names.push(format!("__self_{i}_count"));
    }
    let names = names.iter().map(|n| Ident::new(n, Span::call_site()));
    quote! {
        #[allow(non_local_definitions)]
        const _: () = {
            #(
                #[allow(dead_code, non_snake_case)]
                fn #names() {}
            )*
            #items
        };
    }
}

/// `<Vec<_> as ::core::convert::From<[_; N]>>::from([items])`: a fully
/// qualified call, so it compiles without the prelude's `From` in scope
/// (`#![no_implicit_prelude]`).
fn vec_from(vec: &TokenStream, items: impl Iterator<Item = TokenStream>) -> TokenStream {
    let items: Vec<TokenStream> = items.collect();
    let n = items.len();
    quote!(<#vec<_> as ::core::convert::From<[_; #n]>>::from([#(#items),*]))
}

/// One case (struct or variant) with its keys resolved against the
/// enum-level defaults and its fields sorted by role.
struct Plan<'c, 'a> {
    case: &'c Case<'a>,
    status: u16,
    title: Option<&'c LitStr>,
    problem_type: Option<&'c LitStr>,
    source: Option<&'c Field<'a>>,
    extensions: Vec<(&'c Field<'a>, LitStr)>,
    headers: Vec<(&'c Field<'a>, LitStr)>,
}

impl<'c, 'a> Plan<'c, 'a> {
    fn new(case: &'c Case<'a>, defaults: &'c crate::attr::Attrs) -> Self {
        let status = case
            .attrs
            .status
            .as_ref()
            .or(defaults.status.as_ref())
            .and_then(|s| s.value)
            .and_then(|v| u16::try_from(v).ok())
            .unwrap_or(500);
        let mut source = None;
        let mut extensions = Vec::new();
        let mut headers = Vec::new();
        for field in &case.fields {
            match case.role(field) {
                Role::Source => source = Some(field),
                Role::Extension(name) => {
                    extensions.push((field, LitStr::new(&name, Span::call_site())));
                }
                Role::Header(name) => headers.push((field, LitStr::new(&name, Span::call_site()))),
                Role::Unused => {}
            }
        }
        Plan {
            case,
            status,
            title: case
                .attrs
                .title
                .as_ref()
                .or(defaults.title.as_ref())
                .map(|t| &t.lit),
            problem_type: case
                .attrs
                .problem_type
                .as_ref()
                .or(defaults.problem_type.as_ref())
                .map(|t| &t.lit),
            source,
            extensions,
            headers,
        }
    }

    /// The extension members the documents list (the OpenAPI schema, the
    /// problem type page): those that reach the body. A member named
    /// `type`, `title`, `status` or `instance` always gives way to the real
    /// member, and one named `detail` to the case's detail when it has one
    /// (spec, "Problem body", rules 1 and 2); such a field is still an
    /// extension at run time, where the same rules drop it.
    fn documented_extensions(&self) -> impl Iterator<Item = &(&'c Field<'a>, LitStr)> {
        let has_detail = self.case.detail.is_some();
        self.extensions.iter().filter(move |(_, key)| {
            let name = key.value();
            !crate::attr::ALWAYS_OVERWRITTEN.contains(&name.as_str())
                && (name != "detail" || !has_detail)
        })
    }

    /// `Self::V { .. }`: matches without binding.
    fn any_pattern(&self) -> TokenStream {
        let path = self.case.path();
        quote!(#path { .. })
    }

    /// `Self::V { isbn: ref __self_0, .. }`: binds every field by reference.
    fn bound_pattern(&self) -> TokenStream {
        let path = self.case.path();
        let fields = self.case.fields.iter().map(|f| {
            let member = &f.member;
            let binding = f.binding();
            quote!(#member: ref #binding)
        });
        quote!(#path { #(#fields,)* .. })
    }

    /// The title as a `&'static str` expression.
    fn title_expr(&self) -> TokenStream {
        match self.title {
            Some(t) => quote!(#t),
            None => {
                let status = self.status;
                quote!(::problem_core::status_title(#status))
            }
        }
    }

    /// The arguments of `format_args!` for the detail: the format string
    /// rewritten to name `__self_N` bindings, then the named arguments.
    fn detail_args(&self) -> Option<TokenStream> {
        let pieces = self.case.detail.as_ref()?;
        let lit = &self.case.attrs.detail.as_ref()?.lit;
        let mut fmt = String::new();
        let mut values = BTreeSet::new();
        let mut counts = BTreeSet::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => fmt.push_str(t),
                Piece::Arg { arg, spec } => {
                    let field = self.case.field_for(arg)?;
                    values.insert(field.index);
                    fmt.push('{');
                    fmt.push_str(&field.binding().to_string());
                    if !spec.is_empty() {
                        fmt.push(':');
                        for part in spec {
                            match part {
                                SpecPart::Text(t) => fmt.push_str(t),
                                SpecPart::Count(a) => {
                                    let f = self.case.field_for(a)?;
                                    counts.insert(f.index);
                                    fmt.push_str(&format!("__self_{}_count$", f.index));
                                }
                            }
                        }
                    }
                    fmt.push('}');
                }
            }
        }
        let span = lit.span();
        let fmt = LitStr::new(&fmt, span);
        // Spanned on the literal: a field that lacks the formatting trait
        // is reported on `detail`, not on the derive.
        let values = values.into_iter().map(|i| {
            let b = local(&format!("__self_{i}"), span);
            quote_spanned!(span=> #b = #b)
        });
        // A width or precision field goes through `format_count`, which
        // takes only a `usize`: any other type is one error on the field's
        // type saying so (`format_args!` alone points into `core::fmt`).
        let counts = counts.into_iter().filter_map(|i| {
            let f = self.case.fields.iter().find(|f| f.index == i)?;
            let ty = &f.ty;
            let ty_span = ty.span();
            let b = local(&format!("__self_{i}"), ty_span);
            let c = local(&format!("__self_{i}_count"), span);
            let call = quote_spanned!(ty_span=> ::problem_core::__private::format_count::<#ty>(#b));
            Some(quote!(#c = #call))
        });
        Some(quote!(#fmt #(, #values)* #(, #counts)*))
    }
}

/// `where` predicates for fields whose type mentions a type parameter
/// (like serde: a bound per field type, not per parameter).
struct Bounds {
    params: Vec<String>,
    /// Formatting traits of `detail` placeholders.
    display: Vec<WherePredicate>,
    /// `Error + 'static` of the source field.
    source: Vec<WherePredicate>,
    /// `Serialize` of extension fields, `Display` of header fields.
    problem: Vec<WherePredicate>,
}

impl Bounds {
    fn collect(input: &Input<'_>) -> Self {
        let p = quote!(::problem_core::__private);
        let mut b = Bounds {
            params: input
                .generics()
                .type_params()
                .map(|t| t.ident.to_string())
                .collect(),
            display: Vec::new(),
            source: Vec::new(),
            problem: Vec::new(),
        };
        if b.params.is_empty() {
            return b;
        }
        for case in input.cases() {
            if let Some(pieces) = &case.detail {
                for piece in pieces {
                    if let Piece::Arg { arg, spec } = piece
                        && let Some(f) = case.field_for(arg)
                    {
                        let tr = Ident::new(detail::fmt_trait(spec).name(), Span::call_site());
                        b.push_display(f.ty, quote!(#p::fmt::#tr));
                    }
                }
            }
            for field in &case.fields {
                let inner = field.option_inner().unwrap_or(field.ty);
                match case.role(field) {
                    Role::Source => b.push_source(inner, quote!(#p::Error + 'static)),
                    Role::Extension(_) => b.push_problem(inner, quote!(#p::serde::Serialize)),
                    Role::Header(_) => b.push_problem(inner, quote!(#p::fmt::Display)),
                    Role::Unused => {}
                }
            }
        }
        b
    }

    fn predicate(&self, ty: &Type, bound: TokenStream) -> Option<WherePredicate> {
        if !mentions(quote!(#ty), &self.params) {
            return None;
        }
        syn::parse2(quote!(#ty: #bound)).ok()
    }

    fn push_display(&mut self, ty: &Type, bound: TokenStream) {
        if let Some(pred) = self.predicate(ty, bound) {
            self.display.push(pred);
        }
    }

    fn push_source(&mut self, ty: &Type, bound: TokenStream) {
        if let Some(pred) = self.predicate(ty, bound) {
            self.source.push(pred);
        }
    }

    fn push_problem(&mut self, ty: &Type, bound: TokenStream) {
        if let Some(pred) = self.predicate(ty, bound) {
            self.problem.push(pred);
        }
    }

    /// The user's `where` clause plus `preds` and an optional `Self` bound.
    fn where_clause(
        &self,
        generics: &syn::Generics,
        preds: &[WherePredicate],
        self_bound: Option<TokenStream>,
    ) -> TokenStream {
        let user = generics
            .where_clause
            .as_ref()
            .map(|w| w.predicates.iter().collect::<Vec<_>>())
            .unwrap_or_default();
        if user.is_empty() && preds.is_empty() && self_bound.is_none() {
            return TokenStream::new();
        }
        let self_bound = self_bound.into_iter();
        quote!(where #(#user,)* #(#preds,)* #(#self_bound,)*)
    }
}

/// Whether a type's tokens name one of the type parameters.
fn mentions(tokens: TokenStream, params: &[String]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => params.iter().any(|p| i == p),
        TokenTree::Group(g) => mentions(g.stream(), params),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}
