//! Problem documents (RFC 9457) and HTTP exceptions
//! (spec, "Resources and fields" and "Errors").
//!
//! - [`ProblemDetails`]: the body, as a value (serialize and deserialize).
//! - [`Problem`]: the trait every problem type implements.
//! - [`HttpException`] and the built-ins ([`NotFoundException`], ...),
//!   [`ValidationException`] with its [`Issue`] list.
//! - [`problem_response`]: the actix-web response of a body.
//! - [`DocumentedProblem`], [`ProblemTypeDoc`]: problem type documentation
//!   (RFC 9457 §3.1.1), served at the type's URI.
//!
//! ```
//! use problem_core::problem::{NotFoundException, Problem, ProblemDetails, problem_response};
//!
//! let err = NotFoundException::new().with_detail("Book 7 not found");
//! let body: ProblemDetails = err.to_problem("/books/7")?;
//! assert_eq!(
//!     serde_json::to_string(&body)?,
//!     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/books/7"}"#
//! );
//! let res = problem_response(&body, &err.headers()?);
//! assert_eq!(res.status(), 404);
//! assert_eq!(res.headers().get("content-type").unwrap(), "application/problem+json; charset=utf-8");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod additions;
mod builtin;
mod custom;
pub(crate) mod derive_support;
mod details;
mod exception;
mod json;
pub(crate) mod redact;
mod response;
mod titles;
mod traits;
pub(crate) mod type_docs;
mod validation;

pub use builtin::{
    BadRequestException, ConflictException, ForbiddenException, InternalServerErrorException,
    MethodNotAllowedException, NotFoundException, ServiceUnavailableException,
    TooManyRequestsException, UnauthorizedException, UnprocessableEntityException,
    UnsupportedMediaTypeException,
};
pub use custom::{Customized, ProblemExt};
pub use details::{ABOUT_BLANK, Extensions, ProblemDetails};
pub use exception::{BoxError, HttpException, ProblemBuildError, ProblemOptions, StatusRangeError};
pub(crate) use response::{Deferred, find_route_problem, route_error};
pub use response::{PROBLEM_JSON, ProblemSource, problem_response, standalone_response};
#[allow(unused_imports)]
pub(crate) use response::{fallback_response, finish_document, render_document};
pub use titles::{STATUS_TITLES, status_title};
pub use traits::Problem;
pub use type_docs::{DocumentedProblem, MemberDoc, ProblemTypeDoc};
pub use validation::{Issue, IssueLocation, IssueMembers, ValidationException};
