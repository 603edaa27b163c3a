//! What `#[versioned(...)]` leaves on a handler: its output wrapped in
//! [`Versioned`], whose type carries the handler's version constraints, so
//! `versioned![...]` reads them through a trait ([`VersionedOutput`]) and a
//! handler listed without the attribute is a compile error that says so.

use std::fmt;
use std::marker::PhantomData;

use actix_web::{Handler, HttpRequest, HttpResponse, Responder};

use super::VersionConstraint;

/// The version constraints one `#[versioned(...)]` attribute records, as an
/// associated constant of the type the attribute writes into the handler's
/// return type (a hidden tuple of one type per constraint, so the attribute
/// adds no item beside the function and works on associated functions).
///
/// Implemented for that type only; [`Versioned`] names it.
///
/// ```
/// use problem_core::version::{VersionConstraint, VersionConstraints, V1};
///
/// struct OnlyV1;
/// impl VersionConstraints for OnlyV1 {
///     const CONSTRAINTS: &'static [VersionConstraint] = &[VersionConstraint::Exact(V1)];
/// }
/// assert_eq!(OnlyV1::CONSTRAINTS.len(), 1);
/// ```
pub trait VersionConstraints {
    /// The constraints, in the order the attribute lists them (spec,
    /// "Versioning": the versions a handler serves).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint, VersionConstraints, V1};
    /// struct OneAndLater;
    /// impl VersionConstraints for OneAndLater {
    ///     const CONSTRAINTS: &'static [VersionConstraint] = &[VersionConstraint::Exact(V1), VersionConstraint::Minimum(ApiVersion::new(2, 1))];
    /// }
    /// assert_eq!(OneAndLater::CONSTRAINTS[1].to_string(), "2.1+");
    /// ```
    const CONSTRAINTS: &'static [VersionConstraint];
}

/// The output of a `#[versioned(...)]` handler: the handler's own output
/// `R`, answered exactly as `R` answers (same status, headers and body).
///
/// `C` is the type that carries the handler's constraints
/// ([`VersionConstraints`]). Calling a `#[versioned]` handler directly
/// (in a test, say) gives a `Versioned<R, C>`; [`into_inner`](Self::into_inner)
/// gives back `R`.
///
/// ```
/// use problem_core::versioned;
///
/// #[versioned("1.0")]
/// async fn hello() -> &'static str { "hello" }
///
/// # actix_web::rt::System::new().block_on(async {
/// assert_eq!(hello().await.into_inner(), "hello");
/// # });
/// ```
pub struct Versioned<R, C> {
    inner: R,
    constraints: PhantomData<fn() -> C>,
}

impl<R, C> Versioned<R, C> {
    /// Wraps a handler's output (what the generated handler does).
    ///
    /// ```
    /// use problem_core::version::{Versioned, VersionConstraint, VersionConstraints};
    /// struct Any;
    /// impl VersionConstraints for Any { const CONSTRAINTS: &'static [VersionConstraint] = &[]; }
    /// let out: Versioned<&str, Any> = Versioned::new("hi");
    /// assert_eq!(out.into_inner(), "hi");
    /// ```
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            constraints: PhantomData,
        }
    }

    /// The handler's own output.
    ///
    /// ```
    /// use problem_core::version::{Versioned, VersionConstraint, VersionConstraints};
    /// struct Any;
    /// impl VersionConstraints for Any { const CONSTRAINTS: &'static [VersionConstraint] = &[]; }
    /// assert_eq!(Versioned::<_, Any>::new(7).into_inner(), 7);
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: fmt::Debug, C> fmt::Debug for Versioned<R, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Versioned").field(&self.inner).finish()
    }
}

impl<R: Responder, C> Responder for Versioned<R, C> {
    type Body = R::Body;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse<Self::Body> {
        self.inner.respond_to(req)
    }
}

/// The output type of a handler that carries `#[versioned(...)]`
/// constraints: implemented for [`Versioned`] only.
///
/// `versioned![...]` requires it of every listed handler's output; a
/// handler without the attribute fails to compile with a message that
/// says to add `#[versioned("...")]` to it.
///
/// ```
/// use problem_core::version::{Versioned, VersionedOutput, VersionConstraint, VersionConstraints, V2};
/// struct Two;
/// impl VersionConstraints for Two {
///     const CONSTRAINTS: &'static [VersionConstraint] = &[VersionConstraint::Exact(V2)];
/// }
/// assert_eq!(<Versioned<String, Two> as VersionedOutput>::CONSTRAINTS[0], VersionConstraint::Exact(V2));
/// ```
#[diagnostic::on_unimplemented(
    message = "a handler listed in `versioned![...]` has no #[versioned(...)] attribute",
    label = "this function has no #[versioned(...)] attribute",
    note = "add #[versioned(\"...\")] to that function, naming the API versions it serves: e.g. #[versioned(\"1.0\")], #[versioned(\"2.x\")] or #[versioned(\"2.1+\")]"
)]
pub trait VersionedOutput {
    /// The handler's constraints, as its `#[versioned(...)]` attribute lists
    /// them.
    ///
    /// ```
    /// use problem_core::versioned;
    /// use problem_core::version::{ApiVersion, VersionConstraint, V1, constraints_of};
    /// #[versioned("1.0", "2.1+")]
    /// async fn list() -> &'static str { "books" }
    /// assert_eq!(constraints_of(&list), [VersionConstraint::Exact(V1), VersionConstraint::Minimum(ApiVersion::new(2, 1))]);
    /// ```
    const CONSTRAINTS: &'static [VersionConstraint];
}

impl<R, C: VersionConstraints> VersionedOutput for Versioned<R, C> {
    const CONSTRAINTS: &'static [VersionConstraint] = C::CONSTRAINTS;
}

/// The constraints a `#[versioned(...)]` handler records; usable in const
/// context (to check, as `versioned![...]` does, that handlers do not
/// overlap).
///
/// # Errors
/// A compile error when `handler` has no `#[versioned(...)]` attribute
/// (see [`VersionedOutput`]).
///
/// ```
/// use problem_core::versioned;
/// use problem_core::version::{constraints_of, VersionConstraint, V1};
///
/// #[versioned("1.0")]
/// async fn hello() -> &'static str { "hello" }
///
/// const HELLO: &[VersionConstraint] = constraints_of(&hello);
/// assert_eq!(HELLO, &[VersionConstraint::Exact(V1)]);
/// ```
pub const fn constraints_of<F, Args>(_handler: &F) -> &'static [VersionConstraint]
where
    F: Handler<Args>,
    F::Output: VersionedOutput,
{
    <F::Output as VersionedOutput>::CONSTRAINTS
}
