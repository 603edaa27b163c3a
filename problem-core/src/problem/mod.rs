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
