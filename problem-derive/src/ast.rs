//! The derive input as a small AST: a struct or an enum of variants, each
//! with its `#[problem(...)]` keys and its fields with their field keys.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{
    Data, DeriveInput, Fields, GenericArgument, Generics, Ident, Member, PathArguments, Type,
};

use crate::attr::{self, Attrs, Errors, FieldAttrs};
use crate::detail::{self, Piece};
use crate::serde::{self as serde_attr, SerdeField};

/// A `#[derive(Problem)]` input.
pub(crate) enum Input<'a> {
    Struct(Struct<'a>),
    Enum(Enum<'a>),
}

pub(crate) struct Struct<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub attrs: Attrs,
    pub case: Case<'a>,
}

pub(crate) struct Enum<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    /// Enum-level keys: defaults for every variant.
    pub attrs: Attrs,
    pub variants: Vec<Case<'a>>,
}

/// A struct or one enum variant: what one `match` arm of the expansion covers.
pub(crate) struct Case<'a> {
    /// The variant's name; `None` for a struct.
    pub variant: Option<&'a Ident>,
    /// The struct's or variant's name, for spans and messages.
    pub ident: &'a Ident,
    /// Keys given on the variant itself (for a struct, on the struct).
    pub attrs: Attrs,
    pub fields: Vec<Field<'a>>,
    /// The parsed `detail`, when it is given and well-formed.
    pub detail: Option<Vec<Piece>>,
    /// The serde `rename_all` rule that names these fields: a struct's, a
    /// variant's own, else its enum's `rename_all_fields`.
    pub serde_rename_all: Option<syn::LitStr>,
}

pub(crate) struct Field<'a> {
    pub original: &'a syn::Field,
    pub member: Member,
    pub index: usize,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    /// What the field's `#[serde(..)]` says of its member.
    pub serde: SerdeField,
}

/// What a field is in the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// An extension member with this name.
    Extension(String),
    /// A response header with this name.
    Header(String),
    /// The cause (`std::error::Error::source`).
    Source,
    /// `#[problem(skip)]`, or a tuple field without `rename`: only usable in `detail`.
    Unused,
}

impl<'a> Input<'a> {
    pub(crate) fn from_syn(node: &'a DeriveInput) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let input = match &node.data {
            Data::Struct(data) => {
                let attrs = attr::container(&node.attrs, &mut errors);
                let fields = fields(&data.fields, &mut errors);
                let detail = parse_detail(&attrs, &mut errors);
                Input::Struct(Struct {
                    ident: &node.ident,
                    generics: &node.generics,
                    attrs: Attrs::default(),
                    case: Case {
                        variant: None,
                        ident: &node.ident,
                        attrs,
                        fields,
                        detail,
                        serde_rename_all: serde_attr::rule(&node.attrs, "rename_all"),
                    },
                })
            }
            Data::Enum(data) => {
                let attrs = attr::container(&node.attrs, &mut errors);
                let all_fields = serde_attr::rule(&node.attrs, "rename_all_fields");
                let variants = data
                    .variants
                    .iter()
                    .map(|v| {
                        let attrs = attr::container(&v.attrs, &mut errors);
                        let fields = fields(&v.fields, &mut errors);
                        let detail = parse_detail(&attrs, &mut errors);
                        Case {
                            variant: Some(&v.ident),
                            ident: &v.ident,
                            attrs,
                            fields,
                            detail,
                            serde_rename_all: serde_attr::rule(&v.attrs, "rename_all")
                                .or_else(|| all_fields.clone()),
                        }
                    })
                    .collect();
                Input::Enum(Enum {
                    ident: &node.ident,
                    generics: &node.generics,
                    attrs,
                    variants,
                })
            }
            Data::Union(data) => {
                return Err(syn::Error::new(
                    data.union_token.span,
                    "#[derive(Problem)] does not support unions: use a struct or an enum",
                ));
            }
        };
        errors.finish()?;
        Ok(input)
    }

    pub(crate) fn ident(&self) -> &'a Ident {
        match self {
            Input::Struct(s) => s.ident,
            Input::Enum(e) => e.ident,
        }
    }

    pub(crate) fn generics(&self) -> &'a Generics {
        match self {
            Input::Struct(s) => s.generics,
            Input::Enum(e) => e.generics,
        }
    }

    /// Enum-level defaults (empty for a struct).
    pub(crate) fn defaults(&self) -> &Attrs {
        match self {
            Input::Struct(s) => &s.attrs,
            Input::Enum(e) => &e.attrs,
        }
    }

    pub(crate) fn cases(&self) -> &[Case<'a>] {
        match self {
            Input::Struct(s) => std::slice::from_ref(&s.case),
            Input::Enum(e) => &e.variants,
        }
    }
}

fn fields<'a>(fields: &'a Fields, errors: &mut Errors) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(index, f)| Field {
            original: f,
            member: match &f.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(syn::Index {
                    index: index as u32,
                    span: f.ty.span(),
                }),
            },
            index,
            ty: &f.ty,
            attrs: attr::field(&f.attrs, errors),
            serde: serde_attr::field(&f.attrs),
        })
        .collect()
}

fn parse_detail(attrs: &Attrs, errors: &mut Errors) -> Option<Vec<Piece>> {
    let lit = &attrs.detail.as_ref()?.lit;
    match detail::parse(lit) {
        Ok(pieces) => Some(pieces),
        Err(e) => {
            errors.push(e);
            None
        }
    }
}

impl Case<'_> {
    /// The pattern that matches this case: `Self` or `Self::Variant`.
    pub(crate) fn path(&self) -> TokenStream {
        match self.variant {
            Some(v) => quote!(Self::#v),
            None => quote!(Self),
        }
    }

    /// `Type` or `Type::Variant`, for messages.
    pub(crate) fn describe(&self, ty: &Ident) -> String {
        match self.variant {
            Some(v) => format!("{}::{}", ty.unraw(), v.unraw()),
            None => ty.unraw().to_string(),
        }
    }

    /// The source field: the one marked `#[problem(source)]`, else a field
    /// named `source` that is not skipped, renamed or sent as a header.
    pub(crate) fn source_field(&self) -> Option<&Field<'_>> {
        self.fields
            .iter()
            .find(|f| f.attrs.source.is_some())
            .or_else(|| self.fields.iter().find(|f| f.is_implicit_source()))
    }

    pub(crate) fn role(&self, field: &Field<'_>) -> Role {
        if field.attrs.skip.is_some() {
            return Role::Unused;
        }
        if self
            .source_field()
            .is_some_and(|src| src.index == field.index)
        {
            return Role::Source;
        }
        if let Some(h) = &field.attrs.header {
            return Role::Header(h.lit.value());
        }
        match (&field.attrs.rename, &field.original.ident) {
            (Some(r), _) => Role::Extension(r.lit.value()),
            (None, Some(ident)) => Role::Extension(ident.unraw().to_string()),
            (None, None) => Role::Unused,
        }
    }

    /// The field a placeholder names, if any.
    pub(crate) fn field_for(&self, arg: &detail::ArgRef) -> Option<&Field<'_>> {
        self.fields.iter().find(|f| match (arg, &f.member) {
            (detail::ArgRef::Named(n), Member::Named(ident)) => ident.unraw() == n,
            (detail::ArgRef::Index(i), Member::Unnamed(_)) => f.index == *i,
            _ => false,
        })
    }
}

impl Field<'_> {
    pub(crate) fn is_implicit_source(&self) -> bool {
        self.attrs.skip.is_none()
            && self.attrs.rename.is_none()
            && self.attrs.header.is_none()
            && self.original.ident.as_ref().is_some_and(|i| i == "source")
    }

    /// The binding of this field in the generated `match` arms.
    pub(crate) fn binding(&self) -> Ident {
        self.binding_at(Span::call_site())
    }

    /// The binding, spanned so that a type error on its use points at `span`
    /// (the field's type, or the `detail` literal).
    pub(crate) fn binding_at(&self, span: Span) -> Ident {
        crate::expand::local(&format!("__self_{}", self.index), span)
    }

    /// `Some(T)` when the field's type is written `Option<T>`.
    pub(crate) fn option_inner(&self) -> Option<&Type> {
        let Type::Path(path) = self.ty else {
            return None;
        };
        if path.qself.is_some() {
            return None;
        }
        let last = path.path.segments.last()?;
        if last.ident != "Option" {
            return None;
        }
        let PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        match args.args.first() {
            Some(GenericArgument::Type(ty)) if args.args.len() == 1 => Some(ty),
            _ => None,
        }
    }

    /// The key span used for errors about this field.
    pub(crate) fn span(&self) -> Span {
        match &self.original.ident {
            Some(i) => i.span(),
            None => self.ty.span(),
        }
    }
}
