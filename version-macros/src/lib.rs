//! Procedural macros of `problem-core`'s API versioning: `#[versioned(...)]`
//! and `versioned![...]`. Use them through `problem_core::versioned` and
//! `problem_core::version::versioned`.
//!
//! Shape (as thiserror-impl): `ast.rs` is the parsed input, `attr.rs`
//! parses the version-constraint literals, `valid.rs` checks it,
//! `expand.rs` generates the code, and on a mistake `fallback.rs` emits
//! the error with the function still defined, so its uses add no errors.
#![deny(missing_docs)]

mod ast;
mod attr;
mod expand;
mod fallback;
mod valid;

use proc_macro::TokenStream;

/// `#[versioned("1.0", "2.x")]` on an `async fn` handler: the function stays
/// an actix-web handler with the same name and arguments; its output is
/// wrapped in `problem_core::version::Versioned<R, _>` (answered exactly as
/// `R`), whose hidden marker type carries the constraints that
/// `versioned![...]` reads. It may be an associated function (listed as
/// `versioned![Books::list_v1, ..]`; `Self` works in it).
///
/// Constraint literals: `"1.0"` (exact), `"2.x"` (every 2.*), `"2.1+"`
/// (2.1 and later), `"1.0..=2.5"` (inclusive range). A bare major is
/// exact too: `"2"` means 2.0 only, like `"2.0"`; write `"2.x"` for every
/// 2.*. A version has no patch: `"1.0.0"` is an error saying to write
/// `"1.0"`. A constraint in another notation (`">=2.1"`, `">2.0"`,
/// `"<3"`, `"<=2.1"`, Cargo's `"^2"` and `"~2.1"`, `"1..2"`,
/// `"2.x..=3.x"`, `"2.*"`, `"*"`) is an error giving the literal to write
/// instead (`"2.1+"`, `"2.1+"`, `"1.0..=2.65535"`, `"1.0..=2.1"`,
/// `"2.x"`, `"2.1"`, `"1.0..=2.0"`, `"2.0..=3.65535"`, `"2.x"`,
/// `"0.0+"`). A malformed literal,
/// a non-string argument, no argument, or two overlapping constraints on
/// one function are compile errors spanned on the offending token, and so
/// are a function that is not `async` or is `const`, `unsafe` or `extern "C"` (a
/// handler is a safe Rust `async fn`), a method (`self`), a type or const
/// parameter or an `impl Trait` argument (`versioned![...]` lists handlers
/// without generic arguments), and more than 16 constraints; every
/// malformed constraint is reported at once, with the signature's first
/// mistake. On a mistake the function is still defined (as a handler that
/// accepts no version), so its uses, direct or in `versioned![...]`, add
/// no errors of their own; after a mistake in its parameters (`self`, a
/// type parameter, an `impl Trait` argument) it is defined without them,
/// so its listing in `versioned![...]` adds none (a direct call with the
/// parameters does, until the signature is mended).
///
/// Where it goes: a free `async fn`, or an associated function of an
/// inherent `impl` without generic parameters. It cannot go on a method
/// of a trait impl (it changes the return type, which the trait fixes),
/// and the handler cannot use an enclosing `impl`'s generic parameters
/// (the function body moves into an inner function, which does not see
/// them, and `versioned![...]` names handlers without generic arguments).
/// The macro cannot see these misplacements, so rustc reports them, in
/// terms of the generated code:
///
/// - on a method of a trait impl: ``error[E0271]: expected `impl
///   Future<Output = Versioned<R, ..>>` to be a future that resolves to
///   `R` `` on the attribute: move the handler to an inherent `impl` (the
///   trait method may call it);
/// - in a generic `impl<T>` whose handler uses `T`: `error[E0401]: can't
///   use generic parameters from outer item` (ignore rustc's suggestion
///   `#[versioned("1.0")]<T>`): write the handler in an `impl` of a
///   concrete type, e.g. `impl Repo<Book>`;
/// - a handler of a generic `impl<T>` listed as `versioned![Repo::list]`:
///   `error[E0282]: type annotations needed` (and `Repo::<T>::list` is
///   refused, as `versioned!` takes plain paths): the same fix;
/// - below an actix-web route attribute (`#[get("/books")]` above
///   `#[versioned]`; the reverse order is refused): it compiles, and
///   listing the handler in `versioned![...]` reports ``the trait bound
///   `list_v1: Handler<_>` is not satisfied``: remove the route attribute
///   and register the table on the route, e.g.
///   `.route("/books", web::get().to(versioned![list_v1, list_v2]))`.
///
/// The generated code names `::problem_core`: with a renamed dependency
/// (`pc = { package = "problem-core", .. }` in `Cargo.toml`), add
/// `extern crate pc as problem_core;` at the crate root.
///
/// Examples (compiled as doctests of `problem_core::versioned`, the
/// re-export: this crate cannot depend on `problem-core`).
#[proc_macro_attribute]
pub fn versioned(args: TokenStream, item: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let item = proc_macro2::TokenStream::from(item);
    let item_fn = match ast::VersionedFn::parse_item(item.clone()) {
        Ok(item_fn) => item_fn,
        Err(err) => return fallback::item(&err, item).into(),
    };
    // Every mistake at once: the malformed constraints, the signature's,
    // and how the constraints that parsed fit together.
    let mut errors = valid::Errors::default();
    let constraints = attr::constraints(args).unwrap_or_else(|err| {
        errors.push(err);
        Vec::new()
    });
    let f = ast::VersionedFn {
        item: item_fn,
        constraints,
    };
    valid::versioned_fn(&f, &mut errors);
    match errors.finish() {
        Ok(()) => expand::versioned_fn(&f),
        Err(err) => fallback::versioned_fn(&err, f.item),
    }
    .into()
}

/// `versioned![handler_a, handler_b, fallback = other]`: one
/// `problem_core::version::VersionedRoute` dispatching by the resolved API
/// version to the listed `#[versioned]` functions (re-exported as
/// `problem_core::version::versioned`).
///
/// Handlers whose constraints overlap are rejected at compile time by a
/// const-evaluated assertion naming both, spanned on the later of the
/// two (one error per overlapping pair); a listed function without
/// `#[versioned(...)]` is a compile error saying to add it. The generated
/// code names `::problem_core`: with a renamed dependency, add
/// `extern crate pc as problem_core;` at the crate root.
#[proc_macro]
pub fn versioned_table(input: TokenStream) -> TokenStream {
    syn::parse::<ast::Table>(input)
        .and_then(|t| valid::table(&t).map(|()| t))
        .map(|t| expand::table(&t))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
