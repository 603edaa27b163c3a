//! API versioning (spec, "Versioning", "States and transitions").
//!
//! - [`ApiVersion`] (`major.minor`; `V1`, `V2`, `V3`), its text forms and
//!   [`VersionParseError`].
//! - [`VersionStrategy`]: where a request carries its version (URL path,
//!   header, query parameter, media type, an ordered combination), and the
//!   request-side operations [`api_version`], [`url_version`],
//!   [`header_version`], [`query_version`].
//! - [`VersionConfig`]: default and supported versions, the lifecycle
//!   (deprecated with [`Deprecation`], sunset, removed), `require_version`,
//!   `add_response_headers`, neutral paths; [`VersionConfig::resolve_version`]
//!   with its [`VersionError`]s, each a problem document.
//! - [`VersionHeaders`]: the response-side operations (`with_api_version`,
//!   `with_deprecation_warning`, `with_supported_versions`,
//!   `with_sunset_date`) and [`VersionConfig::apply_headers`].
//! - [`Versioning`]: the middleware that resolves the version once per
//!   request, strips the URL version segment before routing, offers the
//!   version to handlers as the [`ApiVersion`] extractor and puts the
//!   version headers on every response.
//! - [`VersionConstraint`], [`VersionedHandler`] and [`VersionedRoute`]:
//!   per-version handlers; `#[versioned("1.0", "2.x")]` (re-exported as
//!   `problem_core::versioned`) marks a handler with its constraints and
//!   [`versioned!`](crate::version::versioned) builds one route from such
//!   handlers, rejecting overlapping constraints at compile time.
//!
//! The lifecycle of the spec, driven by configuration alone:
//!
//! | State | Configuration | Responses |
//! |---|---|---|
//! | supported | in `supported_versions` (or the list is empty) | `X-API-Version`, `X-API-Supported-Versions` |
//! | deprecated | [`deprecated`](VersionConfigBuilder::deprecated) / [`deprecated_with`](VersionConfigBuilder::deprecated_with) | plus `X-API-Deprecated: true`, `X-API-Deprecation-Message`, `Deprecation` |
//! | deprecated with sunset | [`Deprecation::sunset`] | plus `Sunset: <IMF-fixdate>` |
//! | removed | [`removed`](VersionConfigBuilder::removed) | 410 Gone problem, `Sunset` when set |
//!
//! ```
//! use actix_web::{test, web, App, HttpResponse};
//! use problem_core::version::{ApiVersion, Deprecation, VersionConfig, VersionStrategy, Versioning};
//!
//! # actix_web::rt::System::new().block_on(async {
//! let config = VersionConfig::builder(VersionStrategy::default())
//!     .default_version(ApiVersion::V3)
//!     .supported_versions([ApiVersion::V2, ApiVersion::V3])
//!     .deprecated_with(ApiVersion::V2, Deprecation::new().sunset(
//!         httpdate::parse_http_date("Fri, 31 Dec 2027 23:59:59 GMT").unwrap(),
//!     ))
//!     .removed(ApiVersion::V1)
//!     .neutral_path("/health")
//!     .build()
//!     .unwrap();
//! let app = test::init_service(
//!     App::new()
//!         .wrap(Versioning::new(config))
//!         .route("/books", web::get().to(|v: ApiVersion| async move { format!("v{}", v.short()) })),
//! )
//! .await;
//! let res = test::call_service(&app, test::TestRequest::get().uri("/v2/books").to_request()).await;
//! assert_eq!(res.headers().get("deprecation").unwrap(), "true");
//! assert_eq!(res.headers().get("sunset").unwrap(), "Fri, 31 Dec 2027 23:59:59 GMT");
//! let res = test::call_service(&app, test::TestRequest::get().uri("/v1/books").to_request()).await;
//! assert_eq!(res.status(), 410);
//! # });
//! ```

mod api_version;
mod attribute;
mod builder;
pub(crate) use builder::list as version_list;
pub(crate) mod cache;
mod config;
mod constraint;
mod error;
mod handler;
mod headers;
mod lifecycle;
mod middleware;
mod route;
mod strategy;

pub(crate) use api_version::clip;
pub use api_version::{ApiVersion, MAX_ECHOED_INPUT, ShortVersion, V1, V2, V3, VersionParseError};
pub use attribute::{VersionConstraints, Versioned, VersionedOutput, constraints_of};
pub use builder::VersionConfigBuilder;
pub use config::VersionConfig;
pub(crate) use config::renamed_query_in_use;
pub use constraint::{ConstraintParseError, VersionConstraint};
pub use error::VersionError;
pub use handler::VersionedHandler;
pub use headers::{
    DEPRECATION, HttpDateInput, SUNSET, VersionHeaders, X_API_DEPRECATED,
    X_API_DEPRECATION_MESSAGE, X_API_SUPPORTED_VERSIONS, X_API_VERSION,
    default_deprecation_message,
};
pub use lifecycle::{Deprecation, VersionState};
pub(crate) use middleware::VersionedError;
pub use middleware::{VersionMiddleware, Versioning};
pub use route::{RouteHandler, VersionedRoute};
pub use strategy::{
    DEFAULT_VERSION_HEADER, DEFAULT_VERSION_QUERY, VersionStrategy, api_version, header_version,
    query_version, url_version,
};

/// `versioned![handler_a, handler_b, fallback = other]`: one
/// [`VersionedRoute`] from `#[versioned(...)]` handler functions.
///
/// Each listed path names a function marked `#[versioned("…", …)]`. A
/// request is dispatched as the spec's "Version-specific handlers" say
/// ([`VersionedHandler::dispatch`]): to the handler one of whose
/// constraints contains its version, else (`getCompatible`) to the
/// handler with the highest version not above it within the same major,
/// counting an exact constraint as its version and a range as its upper
/// end (with handlers for `"2"` and `"2.4..=2.6"`, 2.3 goes to the first
/// and 2.9 to the second), else to the optional `fallback = <handler>`
/// (any actix-web handler, last), else it is the 400 `API version <v> is
/// not supported`. So the fallback serves only versions below every
/// handler of their major, or of a major no handler names. The result goes
/// wherever an actix-web handler goes:
/// `web::get().to(versioned![list_v1, list_v3])`.
///
/// Compile errors: a listed function without `#[versioned]`, a handler
/// listed twice, and two handlers whose constraints overlap (a
/// const-evaluated assertion naming both). The generated code names
/// `::problem_core`: with a renamed dependency, add
/// `extern crate pc as problem_core;` at the crate root. Needs the default
/// feature `derive`.
///
/// ```
/// use actix_web::{test, web, App};
/// use problem_core::versioned;
/// use problem_core::version::{self, ApiVersion, VersionConfig, VersionStrategy, Versioning};
///
/// #[versioned("1.0", "2.x")]
/// async fn list_books_v1() -> &'static str { "old books" }
/// #[versioned("3.x")]
/// async fn list_books_v3(v: ApiVersion) -> String { format!("books {v}") }
///
/// # actix_web::rt::System::new().block_on(async {
/// let config = VersionConfig::builder(VersionStrategy::url_path()).default_version(ApiVersion::V3).build().unwrap();
/// let app = test::init_service(
///     App::new()
///         .wrap(Versioning::new(config))
///         .route("/books", web::get().to(version::versioned![list_books_v1, list_books_v3])),
/// )
/// .await;
/// let body = |uri: &'static str| test::call_and_read_body(&app, test::TestRequest::get().uri(uri).to_request());
/// assert_eq!(body("/v2/books").await, "old books");
/// assert_eq!(body("/books").await, "books 3.0");
/// # });
/// ```
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use version_macros::versioned_table as versioned;

/// Items used by the code `#[versioned]` and `versioned!` generate.
#[doc(hidden)]
pub mod __private {
    pub use super::{
        ApiVersion, RouteHandler, VersionConstraint, VersionConstraints, Versioned,
        VersionedHandler, VersionedRoute,
    };

    use std::marker::PhantomData;

    use actix_web::{FromRequest, Handler, Responder};

    use super::VersionedOutput;

    /// What `versioned![...]` reads of one listed handler: its constraints
    /// (in a constant, for the overlap checks) and how to register it.
    pub struct Listed<F> {
        /// The handler's `#[versioned(...)]` constraints.
        pub constraints: &'static [VersionConstraint],
        /// Wraps the handler for the route.
        pub handler: fn(F) -> RouteHandler,
    }

    /// The one place `versioned![...]` states what a listed handler must
    /// be: it names each handler twice (in a constant, then in the route),
    /// both through this function with these bounds, so a listed
    /// non-handler or a handler without `#[versioned]` is one error (rustc
    /// emits two identical diagnostics once).
    pub const fn listed<F, Args>(_handler: &F) -> Listed<F>
    where
        F: Handler<Args> + Send + Sync,
        Args: FromRequest + 'static,
        F::Output: VersionedOutput + Responder + 'static,
    {
        Listed {
            constraints: <F::Output as VersionedOutput>::CONSTRAINTS,
            handler: RouteHandler::new::<F, Args>,
        }
    }

    /// The most constraints one `#[versioned(...)]` attribute records
    /// ([`Constraints`] of a tuple up to this length).
    pub const MAX_CONSTRAINTS: usize = 16;

    /// One constraint of a `#[versioned(...)]` attribute, as a type.
    pub trait Constraint {
        /// The constraint.
        const CONSTRAINT: VersionConstraint;
    }

    /// `"1.0"`: exactly `MAJOR.MINOR`.
    pub struct Exact<const MAJOR: u16, const MINOR: u16>;

    /// `"2.1+"`: `MAJOR.MINOR` and every later version.
    pub struct Minimum<const MAJOR: u16, const MINOR: u16>;

    /// `"1.0..=2.5"` (and `"2.x"`): both ends included.
    pub struct Range<
        const LOW_MAJOR: u16,
        const LOW_MINOR: u16,
        const HIGH_MAJOR: u16,
        const HIGH_MINOR: u16,
    >;

    impl<const MAJOR: u16, const MINOR: u16> Constraint for Exact<MAJOR, MINOR> {
        const CONSTRAINT: VersionConstraint =
            VersionConstraint::Exact(ApiVersion::new(MAJOR, MINOR));
    }

    impl<const MAJOR: u16, const MINOR: u16> Constraint for Minimum<MAJOR, MINOR> {
        const CONSTRAINT: VersionConstraint =
            VersionConstraint::Minimum(ApiVersion::new(MAJOR, MINOR));
    }

    impl<const LOW_MAJOR: u16, const LOW_MINOR: u16, const HIGH_MAJOR: u16, const HIGH_MINOR: u16>
        Constraint for Range<LOW_MAJOR, LOW_MINOR, HIGH_MAJOR, HIGH_MINOR>
    {
        const CONSTRAINT: VersionConstraint = VersionConstraint::Range(
            ApiVersion::new(LOW_MAJOR, LOW_MINOR),
            ApiVersion::new(HIGH_MAJOR, HIGH_MINOR),
        );
    }

    /// The constraints of one `#[versioned(...)]` attribute, a tuple of
    /// [`Constraint`] types in the attribute's order: the `C` of the
    /// handler's `Versioned<R, C>`. A type, not a generated item, so the
    /// attribute works on associated functions too.
    ///
    /// ```
    /// use problem_core::__private::version::{Constraints, Exact, Minimum, VersionConstraints};
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    ///
    /// assert_eq!(
    ///     <Constraints<(Exact<1, 0>, Minimum<2, 1>)> as VersionConstraints>::CONSTRAINTS,
    ///     [VersionConstraint::Exact(ApiVersion::new(1, 0)), VersionConstraint::Minimum(ApiVersion::new(2, 1))],
    /// );
    /// ```
    pub struct Constraints<T>(PhantomData<fn() -> T>);

    macro_rules! constraints {
        ($($c:ident),+) => {
            impl<$($c: Constraint),+> VersionConstraints for Constraints<($($c,)+)> {
                const CONSTRAINTS: &'static [VersionConstraint] = &[$($c::CONSTRAINT),+];
            }
        };
    }

    constraints!(A);
    constraints!(A, B);
    constraints!(A, B, C);
    constraints!(A, B, C, D);
    constraints!(A, B, C, D, E);
    constraints!(A, B, C, D, E, F);
    constraints!(A, B, C, D, E, F, G);
    constraints!(A, B, C, D, E, F, G, H);
    constraints!(A, B, C, D, E, F, G, H, I);
    constraints!(A, B, C, D, E, F, G, H, I, J);
    constraints!(A, B, C, D, E, F, G, H, I, J, K);
    constraints!(A, B, C, D, E, F, G, H, I, J, K, L);
    constraints!(A, B, C, D, E, F, G, H, I, J, K, L, M);
    constraints!(A, B, C, D, E, F, G, H, I, J, K, L, M, N);
    constraints!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
    constraints!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);
}
