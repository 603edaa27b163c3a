//! The parsed input of both macros.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::{Expr, ItemFn, Path, Token};

/// A version `major.minor`.
pub(crate) type Version = (u16, u16);

/// What a constraint literal accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Exactly one version.
    Exact(Version),
    /// A version and every later one.
    Minimum(Version),
    /// Both ends included.
    Range(Version, Version),
}

impl Kind {
    /// The lowest accepted version.
    pub(crate) fn low(self) -> Version {
        match self {
            Kind::Exact(v) | Kind::Minimum(v) | Kind::Range(v, _) => v,
        }
    }

    /// The highest accepted version.
    pub(crate) fn high(self) -> Version {
        match self {
            Kind::Exact(v) | Kind::Range(_, v) => v,
            Kind::Minimum(_) => (u16::MAX, u16::MAX),
        }
    }

    /// Whether some version satisfies both.
    pub(crate) fn overlaps(self, other: Kind) -> bool {
        self.low() <= self.high()
            && other.low() <= other.high()
            && self.low() <= other.high()
            && other.low() <= self.high()
    }
}

/// One constraint literal of `#[versioned(...)]`.
#[derive(Debug, Clone)]
pub(crate) struct Constraint {
    /// What it accepts.
    pub kind: Kind,
    /// The literal's text.
    pub text: String,
    /// The literal's span.
    pub span: Span,
}

/// A function under `#[versioned(...)]`.
pub(crate) struct VersionedFn {
    /// The function, unchanged.
    pub item: ItemFn,
    /// Its constraints, in order.
    pub constraints: Vec<Constraint>,
}

impl VersionedFn {
    /// Parses the item: a function, or one error (a trait method
    /// declaration has no body to version).
    pub(crate) fn parse_item(item: TokenStream) -> syn::Result<ItemFn> {
        syn::parse2(item.clone()).map_err(|e| {
            // A trait's method declaration (no body) parses as a trait item.
            match syn::parse2::<syn::TraitItemFn>(item) {
                Ok(decl) if decl.default.is_none() => syn::Error::new_spanned(
                    &decl.sig,
                    "#[versioned] goes on a handler's definition, and a trait method declaration has none: put it on the `async fn` with a body (a free function, or an associated function in an inherent `impl`)",
                ),
                Ok(_) | Err(_) => syn::Error::new(
                    e.span(),
                    "#[versioned] goes on a handler function, e.g. #[versioned(\"1.0\")] async fn list_books() -> ...",
                ),
            }
        })
    }
}

/// How `versioned![...]` is written.
const TABLE_USAGE: &str = "write the #[versioned] handlers separated by commas, then an optional `fallback = <handler>`, e.g. versioned![list_v1, list_v2, fallback = list_any]";

/// The input of `versioned![...]`.
pub(crate) struct Table {
    /// The listed `#[versioned]` functions.
    pub handlers: Vec<Path>,
    /// `fallback = <handler>`, if given.
    pub fallback: Option<Fallback>,
}

/// `fallback = <expr>`.
pub(crate) struct Fallback {
    /// The `fallback` keyword's span.
    pub span: Span,
    /// The handler expression.
    pub expr: Expr,
}

enum Entry {
    Handler(Path),
    Fallback(Fallback),
}

impl Parse for Entry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::Ident) && input.peek2(Token![=]) {
            let key: syn::Ident = input.parse()?;
            if key != "fallback" {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown option `{key}`: the only option is `fallback = <handler>`"),
                ));
            }
            let eq = input.parse::<Token![=]>()?;
            if input.is_empty() || input.peek(Token![,]) {
                return Err(syn::Error::new_spanned(
                    quote::quote!(#key #eq),
                    format!("`fallback` needs a handler after `=`: {TABLE_USAGE}"),
                ));
            }
            let expr: Expr = input.parse()?;
            return Ok(Entry::Fallback(Fallback {
                span: key.span(),
                expr,
            }));
        }
        let path: Path = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the path of a #[versioned] handler function, or `fallback = <handler>`",
            )
        })?;
        Ok(Entry::Handler(path))
    }
}

impl Parse for Table {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut entries = Vec::new();
        while !input.is_empty() {
            entries.push(input.parse::<Entry>()?);
            if input.is_empty() {
                break;
            }
            // `versioned![list_v1()]`: the handler is named, not called.
            if input.peek(syn::token::Paren) {
                let args;
                let paren = syn::parenthesized!(args in input);
                let _ = args.parse::<proc_macro2::TokenStream>();
                return Err(syn::Error::new(
                    paren.span.join(),
                    "list the handler without calling it: write its name alone, e.g. `versioned![list_v1, list_v2]`",
                ));
            }
            // `versioned![a b]`: the entries' own mistakes say what to write.
            input
                .parse::<Token![,]>()
                .map_err(|e| syn::Error::new(e.span(), format!("{e}: {TABLE_USAGE}")))?;
        }
        let mut handlers = Vec::new();
        let mut fallback: Option<Fallback> = None;
        for entry in entries {
            match entry {
                Entry::Handler(path) => {
                    if let Some(f) = &fallback {
                        return Err(syn::Error::new(
                            f.span,
                            "`fallback = <handler>` goes last, after the #[versioned] handlers",
                        ));
                    }
                    handlers.push(path);
                }
                Entry::Fallback(f) => {
                    if fallback.is_some() {
                        return Err(syn::Error::new(
                            f.span,
                            "only one `fallback = <handler>` per versioned! route",
                        ));
                    }
                    fallback = Some(f);
                }
            }
        }
        Ok(Self { handlers, fallback })
    }
}
