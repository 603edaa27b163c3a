//! [`HttpConfigError`]: mistakes in setup (spec, "Configuration errors").
//!
//! ```
//! use problem_core::HttpConfigError;
//! use problem_core::version::{VersionConfig, VersionStrategy};
//!
//! let err = VersionConfig::builder(VersionStrategy::url_path()).neutral_path("health").build().unwrap_err();
//! assert_eq!(err, HttpConfigError::InvalidVersionConfig("neutral path \"health\" must start with '/'".into()));
//! assert_eq!(err.to_string(), r#"invalid version configuration: neutral path "health" must start with '/'"#);
//! ```

/// A mistake in setting up the application: not an HTTP error. Returned when
/// the application is built or when the server starts listening, never while
/// a request is served (spec, "Configuration errors").
///
/// ```
/// use problem_core::HttpConfigError;
/// let err = HttpConfigError::DuplicateRoute { method: "GET".into(), path: "/books".into() };
/// assert_eq!(err.to_string(), "duplicate route: GET /books is registered twice");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpConfigError {
    /// The same method and path were registered twice.
    #[error("duplicate route: {method} {path} is registered twice")]
    DuplicateRoute {
        /// The HTTP method.
        method: String,
        /// The route path.
        path: String,
    },
    /// A route path or method is malformed.
    #[error("invalid route: {0}")]
    InvalidRoute(String),
    /// A guard cannot be used as given. No longer produced by
    /// [`Routes`](crate::routing::Routes): a guard can only be given with
    /// the route it protects ([`AddedRoute::guarded`](crate::routing::AddedRoute::guarded)).
    #[error("invalid guard: {0}")]
    InvalidGuard(String),
    /// A route dispatches by API version (`versioned![...]`) but the
    /// application has no versioning: add
    /// [`versioning(config)`](crate::server::ProblemAppBuilder::versioning).
    #[error(
        "route {method} {path} dispatches by API version (versioned![...]) but the app has no versioning: add `.versioning(config)` to the builder"
    )]
    VersionedRouteWithoutVersioning {
        /// The route's method.
        method: String,
        /// The route's path.
        path: String,
    },
    /// A route's handler takes the [`ApiVersion`](crate::version::ApiVersion)
    /// extractor but the application has no versioning: add
    /// [`versioning(config)`](crate::server::ProblemAppBuilder::versioning),
    /// or take `Option<ApiVersion>`.
    #[error(
        "route {method} {path} takes the ApiVersion extractor but the app has no versioning: add `.versioning(config)` to the builder, or take `Option<ApiVersion>`"
    )]
    ApiVersionWithoutVersioning {
        /// The route's method.
        method: String,
        /// The route's path.
        path: String,
    },
    /// An option of `listen()` (bind address, workers, body size, allowed
    /// hosts) is invalid.
    #[error("invalid listen option: {0}")]
    InvalidListenOption(String),
    /// A versioning configuration is inconsistent (e.g. `require_version`
    /// together with `default_version`, or overlapping versioned handlers).
    #[error("invalid version configuration: {0}")]
    InvalidVersionConfig(String),
    /// A collection query configuration is inconsistent.
    #[error("invalid query configuration: {0}")]
    InvalidQueryConfig(String),
    /// An OpenAPI document cannot be built or serialized (feature `openapi`).
    #[error("invalid OpenAPI document: {0}")]
    InvalidOpenApi(String),
    /// The server could not bind or start.
    #[error("cannot start the server: {0}")]
    Io(String),
}

/// An [`HttpConfigError`] as an [`std::io::Error`] of kind
/// [`InvalidInput`](std::io::ErrorKind::InvalidInput) ([`Io`](HttpConfigError::Io):
/// [`Other`](std::io::ErrorKind::Other)), so that a setup mistake can be
/// returned with `?` from the `std::io::Result<()>` that
/// `#[actix_web::main]` functions usually return. The message is the
/// error's `Display`.
///
/// ```
/// use problem_core::HttpConfigError;
/// use problem_core::version::{VersionConfig, VersionStrategy};
///
/// fn setup() -> std::io::Result<VersionConfig> {
///     Ok(VersionConfig::builder(VersionStrategy::url_path()).neutral_path("health").build()?)
/// }
/// let err = setup().unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
/// assert_eq!(err.to_string(), r#"invalid version configuration: neutral path "health" must start with '/'"#);
/// let io: std::io::Error = HttpConfigError::Io("address in use".into()).into();
/// assert_eq!(io.kind(), std::io::ErrorKind::Other);
/// ```
impl From<HttpConfigError> for std::io::Error {
    fn from(err: HttpConfigError) -> Self {
        let kind = match err {
            HttpConfigError::Io(_) => std::io::ErrorKind::Other,
            HttpConfigError::DuplicateRoute { .. }
            | HttpConfigError::InvalidRoute(_)
            | HttpConfigError::InvalidGuard(_)
            | HttpConfigError::VersionedRouteWithoutVersioning { .. }
            | HttpConfigError::ApiVersionWithoutVersioning { .. }
            | HttpConfigError::InvalidListenOption(_)
            | HttpConfigError::InvalidVersionConfig(_)
            | HttpConfigError::InvalidQueryConfig(_)
            | HttpConfigError::InvalidOpenApi(_) => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, err)
    }
}
