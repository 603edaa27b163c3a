//! The problem type pages (RFC 9457 §3.1.1: a `type` URI, dereferenced,
//! documents the problem type) as OpenAPI path items.

use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder};
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, Paths, ResponseBuilder};

use crate::DocumentedProblem;
use crate::problem::type_docs::{page_route, served_docs};

/// The path items of the pages
/// [`ProblemAppBuilder::problem_type`](crate::server::ProblemAppBuilder::problem_type)
/// serves for `P`: for each case whose `type` is a path on this origin
/// ([`ProblemTypeDoc::is_served`](crate::ProblemTypeDoc::is_served)), once
/// per [page path](crate::ProblemTypeDoc::page_path) (the type up to its
/// query or fragment; the first type of a path, and none whose path
/// `ProblemAppBuilder::build` refuses), a `GET` on that path whose `200` is the HTML page
/// (`text/html`) or, when the client prefers it, its JSON form
/// (`application/json`: `type`, `title`, `status`, `description` and
/// `members`, each member `name`, `type`, `required`, `description`; see
/// [`ProblemTypeDoc::to_json`](crate::ProblemTypeDoc::to_json)). The
/// operation's summary is the title, its description the type's doc
/// comment, its `operationId` `problem_type` followed by the path's
/// letters and digits, `_` for every other character.
/// Feature `openapi`.
///
/// Add them to the document beside the routes' own, then apply the
/// modifiers that apply to
/// every operation ([`PipelineResponses`](super::PipelineResponses),
/// [`ConditionalGetResponses`](super::ConditionalGetResponses)).
///
/// Each operation carries the extension `x-version-neutral: true`: the
/// pages are version-neutral (the server answers them for every version,
/// without version headers), so
/// [`document_version`](super::document_version) leaves them as they are.
///
/// ```
/// use problem_core::Problem;
/// use problem_core::openapi::problem_type_paths;
///
/// /// A book with this ISBN already exists.
/// #[derive(Debug, Problem)]
/// enum BookProblem {
///     #[problem(status = 409, title = "Conflict", type = "/problems/duplicate-isbn")]
///     DuplicateIsbn { isbn: String },
///     // `about:blank`: no page.
///     #[problem(status = 410)]
///     Gone,
/// }
///
/// let paths = problem_type_paths::<BookProblem>();
/// let json = serde_json::to_value(&paths).unwrap();
/// assert_eq!(json.as_object().unwrap().len(), 1);
/// let get = &json["/problems/duplicate-isbn"]["get"];
/// assert_eq!(get["operationId"], "problem_type_problems_duplicate_isbn");
/// assert_eq!(get["summary"], "Conflict");
/// let ok = &get["responses"]["200"]["content"];
/// assert_eq!(ok["text/html"]["schema"]["type"], "string");
/// assert_eq!(
///     ok["application/json"]["schema"]["required"],
///     serde_json::json!(["type", "title", "status", "description", "members"])
/// );
/// assert_eq!(get["x-version-neutral"], true);
/// ```
pub fn problem_type_paths<P: DocumentedProblem>() -> Paths {
    let mut paths = Paths::new();
    let mut documented: Vec<&str> = Vec::new();
    for doc in served_docs::<P>() {
        // The page's path, as `ProblemAppBuilder::problem_type` serves it;
        // one it refuses (or a second type on one path) is not documented.
        let Some(path) = doc
            .page_path()
            .filter(|p| page_route(p).is_ok() && !documented.contains(p))
        else {
            continue;
        };
        documented.push(path);
        let ok = ResponseBuilder::new()
            .description("The problem type's documentation: HTML, or JSON when preferred.")
            // JSON first: code generators type an operation by its first
            // media type (OpenAPI Generator's clients return the HTML
            // page's string otherwise, even for the JSON they asked for).
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(page_schema())).build(),
            )
            .content(
                "text/html",
                ContentBuilder::new()
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .build(),
            )
            .build();
        let operation = OperationBuilder::new()
            .operation_id(Some(operation_id(path)))
            .summary(Some(doc.title))
            .description((!doc.description.is_empty()).then_some(doc.description))
            .response("200", ok)
            .extensions(Some(
                ExtensionsBuilder::new()
                    .add(super::VERSION_NEUTRAL_EXTENSION, true)
                    .build(),
            ))
            .build();
        paths.add_path_operation(path, vec![HttpMethod::Get], operation);
    }
    paths
}

/// `problem_type` and the path's ASCII letters and digits, `_` for every
/// other character (`/problems/duplicate-isbn`:
/// `problem_type_problems_duplicate_isbn`).
fn operation_id(path: &str) -> String {
    let mut id = String::from("problem_type");
    id.extend(path.chars().map(|c| match c.is_ascii_alphanumeric() {
        true => c,
        false => '_',
    }));
    id
}

/// The schema of [`ProblemTypeDoc::to_json`](crate::ProblemTypeDoc::to_json).
fn page_schema() -> ObjectBuilder {
    let text = || ObjectBuilder::new().schema_type(Type::String);
    let member = ObjectBuilder::new()
        .property("name", text())
        .property("type", text().description(Some("The member's JSON type.")))
        .property("required", ObjectBuilder::new().schema_type(Type::Boolean))
        .property("description", text())
        .required("name")
        .required("type")
        .required("required")
        .required("description");
    ObjectBuilder::new()
        .property(
            "type",
            text().description(Some("The problem type URI reference.")),
        )
        .property("title", text())
        .property("status", ObjectBuilder::new().schema_type(Type::Integer))
        .property("description", text())
        .property(
            "members",
            ArrayBuilder::new()
                .items(member)
                .description(Some("The extension members, in order.")),
        )
        .required("type")
        .required("title")
        .required("status")
        .required("description")
        .required("members")
}
