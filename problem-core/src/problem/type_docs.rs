//! Problem type documentation (RFC 9457 §3.1.1 "type": a URI reference
//! that, when dereferenced, should provide human-readable documentation
//! for the problem type; §4 "Defining New Problem Types").
//!
//! `#[derive(Problem)]` implements [`DocumentedProblem`]: each case's
//! `type`, title, status, doc comment and extension members with their
//! JSON types, as [`ProblemTypeDoc`]s.
//! [`ProblemAppBuilder::problem_type`](crate::server::ProblemAppBuilder::problem_type)
//! serves them at their `type` path.

use actix_web::http::header::{self, Accept, Header, HeaderValue, Quality};
use actix_web::{HttpRequest, HttpResponse};
use serde_json::{Value as Json, json};
use std::borrow::Cow;

use super::details::ABOUT_BLANK;

/// One problem type, described (RFC 9457 §4: type URI, title, status,
/// extension members).
///
/// ```
/// use problem_core::{DocumentedProblem, Problem};
///
/// /// A book with this ISBN already exists.
/// #[derive(Debug, Problem)]
/// #[problem(status = 409, title = "Conflict", type = "/problems/duplicate-isbn")]
/// struct DuplicateIsbn {
///     /// The ISBN.
///     isbn: String,
///     copies: Option<u32>,
/// }
///
/// let docs = DuplicateIsbn::problem_type_docs();
/// assert_eq!(docs.len(), 1);
/// assert_eq!(docs[0].problem_type, "/problems/duplicate-isbn");
/// assert_eq!(docs[0].description, "A book with this ISBN already exists.");
/// assert_eq!(
///     docs[0].to_json(),
///     serde_json::json!({
///         "type": "/problems/duplicate-isbn", "title": "Conflict", "status": 409,
///         "description": "A book with this ISBN already exists.",
///         "members": [
///             {"name": "isbn", "type": "string", "required": true, "description": "The ISBN."},
///             {"name": "copies", "type": "integer", "required": false, "description": ""}
///         ]
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProblemTypeDoc {
    /// The `type` URI reference (`about:blank` when the type has none).
    pub problem_type: &'static str,
    /// The title.
    pub title: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// The type's doc comment (the variant's, else the enum's, for an enum).
    pub description: &'static str,
    /// The extension members, in field order.
    pub members: Vec<MemberDoc>,
}

/// One extension member of a problem type (RFC 9457 §3.2 "Extension
/// Members").
///
/// ```
/// use problem_core::{DocumentedProblem, Problem};
/// #[derive(Debug, Problem)]
/// #[problem(status = 429, type = "/problems/quota")]
/// struct Quota {
///     /// Seconds until the quota resets.
///     reset: u32,
///     plan: Option<String>,
/// }
/// let members = &Quota::problem_type_docs()[0].members;
/// assert_eq!((members[0].name, members[0].json_type, members[0].required), ("reset", "integer", true));
/// assert_eq!(members[0].description, "Seconds until the quota resets.");
/// assert_eq!((members[1].name, members[1].json_type, members[1].required), ("plan", "string", false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemberDoc {
    /// The member's name.
    pub name: &'static str,
    /// Its JSON type: `string`, `integer`, `number`, `boolean`, `array`,
    /// `object`, or `any` when the Rust type does not tell.
    pub json_type: &'static str,
    /// Whether every instance has it (`Option` fields are optional).
    pub required: bool,
    /// The field's doc comment.
    pub description: &'static str,
}

/// A problem type that describes itself (RFC 9457 §4): implemented by
/// `#[derive(Problem)]`, one [`ProblemTypeDoc`] per struct or enum variant.
///
/// ```
/// use problem_core::{DocumentedProblem, Problem};
///
/// #[derive(Debug, Problem)]
/// enum OrderProblem {
///     /// The order is already paid.
///     #[problem(status = 409, type = "/problems/paid")]
///     Paid,
///     #[problem(status = 410)]
///     Gone,
/// }
/// let docs = OrderProblem::problem_type_docs();
/// assert_eq!(docs[0].title, "Conflict");
/// assert_eq!(docs[0].description, "The order is already paid.");
/// assert_eq!(docs[1].problem_type, "about:blank");
/// ```
pub trait DocumentedProblem {
    /// The description of each case, in declaration order.
    ///
    /// ```
    /// use problem_core::{DocumentedProblem, Problem};
    /// /// The ISBN is already in the catalog.
    /// #[derive(Debug, Problem)]
    /// #[problem(status = 409, type = "/problems/duplicate-isbn")]
    /// struct DuplicateIsbn;
    /// let doc = &DuplicateIsbn::problem_type_docs()[0];
    /// assert_eq!((doc.problem_type, doc.status, doc.title), ("/problems/duplicate-isbn", 409, "Conflict"));
    /// assert_eq!(doc.description, "The ISBN is already in the catalog.");
    /// ```
    fn problem_type_docs() -> Vec<ProblemTypeDoc>;
}

/// The cases of `P` whose page is served ([`ProblemTypeDoc::is_served`]),
/// the first of each `type`, in case order: what
/// `ProblemAppBuilder::problem_type` serves (and checks with
/// [`page_route`]) and `openapi::problem_type_paths` documents.
pub(crate) fn served_docs<P: DocumentedProblem>() -> Vec<ProblemTypeDoc> {
    let mut served: Vec<ProblemTypeDoc> = Vec::new();
    for doc in P::problem_type_docs() {
        if doc.is_served() && served.iter().all(|d| d.problem_type != doc.problem_type) {
            served.push(doc);
        }
    }
    served
}

/// The path a served type's [page](ProblemTypeDoc::page_path) is routed
/// on, or why it cannot be routed where a client dereferencing the type
/// asks for it.
///
/// actix-web's router matches a request's path after decoding every
/// percent-escape but those of `%`, `/` and `+` (`actix_router::Quoter`),
/// so a type written percent-encoded, as it must be (`/problems/caf%C3%A9`),
/// is routed on the path decoded the same way (`/problems/café`). Refused:
/// a `.` or `..` segment, which a client resolves to another path (RFC
/// 3986 §5.2.4), before or after decoding; escapes that decode to bytes
/// that are not UTF-8; and a `{`, `}` or a segment starting with `:`
/// after decoding, which would be a path parameter.
pub(crate) fn page_route(path: &str) -> Result<Cow<'_, str>, &'static str> {
    let dot_segment = |p: &str| p.split('/').any(|seg| seg == "." || seg == "..");
    if dot_segment(path) {
        return Err(
            "has a `.` or `..` segment, so a client resolves it to another path: write the path it resolves to",
        );
    }
    let routed = match crate::routing::path::routed_bytes(path) {
        None => Cow::Borrowed(path),
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).map_err(|_| {
            "has percent-escapes that decode to bytes that are not UTF-8, so no request path matches it: encode UTF-8 text (`%C3%A9` for `é`)"
        })?),
    };
    if dot_segment(&routed) {
        Err(
            "has a `.` or `..` segment once decoded (`%2E`), so a client resolves it to another path: write the path it resolves to",
        )
    } else if routed.contains(['{', '}']) {
        Err(
            "holds `{` or `}` (decoded), which the router reads as a path parameter: name the type without them",
        )
    } else if routed.split('/').any(|seg| seg.starts_with(':')) {
        Err(
            "has a segment starting with `:`, which would be a path parameter: name the type without it",
        )
    } else {
        Ok(routed)
    }
}

impl ProblemTypeDoc {
    /// The description as JSON: `type`, `title`, `status`, `description`,
    /// `members` (each `name`, `type`, `required`, `description`).
    ///
    /// ```
    /// use problem_core::{DocumentedProblem, Problem};
    /// /// The order is already paid.
    /// #[derive(Debug, Problem)]
    /// #[problem(status = 409, type = "/problems/paid")]
    /// struct Paid;
    /// assert_eq!(
    ///     Paid::problem_type_docs()[0].to_json().to_string(),
    ///     r#"{"type":"/problems/paid","title":"Conflict","status":409,"description":"The order is already paid.","members":[]}"#
    /// );
    /// ```
    pub fn to_json(&self) -> Json {
        let members: Vec<Json> = self
            .members
            .iter()
            .map(|m| {
                json!({"name": m.name, "type": m.json_type, "required": m.required,
                       "description": m.description})
            })
            .collect();
        json!({
            "type": self.problem_type,
            "title": self.title,
            "status": self.status,
            "description": self.description,
            "members": members,
        })
    }

    /// The description as an HTML page (every text escaped): the title, the
    /// type and status, the doc comment (paragraphs at blank lines) and a
    /// table of the extension members.
    ///
    /// ```
    /// use problem_core::{DocumentedProblem, Problem};
    /// /// Stock is <low>.
    /// #[derive(Debug, Problem)]
    /// #[problem(status = 409, type = "/problems/stock")]
    /// struct Stock { left: u8 }
    /// let html = Stock::problem_type_docs()[0].to_html();
    /// assert!(html.contains("<h1>Conflict</h1>"));
    /// assert!(html.contains("<p>Stock is &lt;low&gt;.</p>"));
    /// assert!(html.contains("<tr><td><code>left</code></td><td>integer</td><td>yes</td><td></td></tr>"));
    /// ```
    pub fn to_html(&self) -> String {
        use html_escape::encode_text as esc;
        let mut out = String::new();
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>");
        out.push_str(&esc(self.title));
        out.push_str("</title></head>\n<body>\n<h1>");
        out.push_str(&esc(self.title));
        out.push_str("</h1>\n<p>Problem type <code>");
        out.push_str(&esc(self.problem_type));
        out.push_str(&format!("</code>, HTTP status {}.</p>\n", self.status));
        for para in self
            .description
            .split("\n\n")
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            out.push_str("<p>");
            out.push_str(&esc(para));
            out.push_str("</p>\n");
        }
        if self.members.is_empty() {
            out.push_str("<p>No extension members.</p>\n");
        } else {
            out.push_str("<h2>Extension members</h2>\n<table>\n<thead><tr><th>Member</th><th>JSON type</th><th>Required</th><th>Description</th></tr></thead>\n<tbody>\n");
            for m in &self.members {
                out.push_str(&format!(
                    "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    esc(m.name),
                    esc(m.json_type),
                    if m.required { "yes" } else { "no" },
                    esc(m.description)
                ));
            }
            out.push_str("</tbody>\n</table>\n");
        }
        out.push_str("</body>\n</html>\n");
        out
    }

    /// Whether the application serves this type: a path on its own origin
    /// (starts with `/`, not `//`); never `about:blank` (RFC 9457 §4.2.1).
    /// Its page answers at [`page_path`](Self::page_path);
    /// `ProblemAppBuilder::build` refuses a type whose page path cannot be
    /// routed (a `.` or `..` segment, escapes that decode to bytes that
    /// are not UTF-8 or to `{`/`}`, a segment starting with `:`).
    ///
    /// ```
    /// use problem_core::{DocumentedProblem, Problem};
    /// #[derive(Debug, Problem)]
    /// enum OrderProblem {
    ///     #[problem(status = 409, type = "/problems/paid")]
    ///     Paid,
    ///     #[problem(status = 410)]
    ///     Gone,
    ///     #[problem(status = 402, type = "https://errors.example/payment")]
    ///     Payment,
    /// }
    /// let served: Vec<bool> = OrderProblem::problem_type_docs().iter().map(|d| d.is_served()).collect();
    /// assert_eq!(served, [true, false, false]);
    /// ```
    pub fn is_served(&self) -> bool {
        self.problem_type != ABOUT_BLANK
            && self.problem_type.starts_with('/')
            && !self.problem_type.starts_with("//")
    }

    /// The path the page of a [served](Self::is_served) type answers at:
    /// what a client dereferencing the type asks for, the type up to its
    /// query or fragment (`/problems/locked#retry` and
    /// `/problems/locked?v=2` at `/problems/locked`); `None` when the type
    /// is not served.
    ///
    /// ```
    /// use problem_core::{DocumentedProblem, Problem};
    /// #[derive(Debug, Problem)]
    /// enum Locked {
    ///     #[problem(status = 423, type = "/problems/locked#retry")]
    ///     Retry,
    ///     #[problem(status = 423)]
    ///     Plain,
    /// }
    /// let paths: Vec<Option<&str>> = Locked::problem_type_docs().iter().map(|d| d.page_path()).collect();
    /// assert_eq!(paths, [Some("/problems/locked"), None]);
    /// ```
    pub fn page_path(&self) -> Option<&'static str> {
        let t = self.problem_type;
        self.is_served()
            .then(|| t.split(['?', '#']).next().unwrap_or(t))
    }

    /// The answer to `GET` on the type's path: `200`, HTML
    /// (`text/html; charset=utf-8`) unless the request's `Accept` ranks
    /// `application/json` before `text/html` (RFC 9110 §12.5.1), then
    /// [`to_json`](Self::to_json) as `application/json`; `Vary: Accept`.
    ///
    /// ```
    /// use actix_web::test::TestRequest;
    /// use problem_core::{DocumentedProblem, Problem};
    /// #[derive(Debug, Problem)]
    /// #[problem(status = 409, type = "/problems/x")]
    /// struct X;
    /// let doc = &X::problem_type_docs()[0];
    /// let req = TestRequest::get().insert_header(("Accept", "application/json")).to_http_request();
    /// assert_eq!(doc.respond(&req).headers().get("content-type").unwrap(), "application/json");
    /// let req = TestRequest::get().to_http_request();
    /// assert_eq!(doc.respond(&req).headers().get("content-type").unwrap(), "text/html; charset=utf-8");
    /// ```
    pub fn respond(&self, req: &HttpRequest) -> HttpResponse {
        let (content_type, body) = if prefers_json(req) {
            ("application/json", self.to_json().to_string())
        } else {
            ("text/html; charset=utf-8", self.to_html())
        };
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(content_type)))
            .insert_header((header::VARY, HeaderValue::from_static("Accept")))
            .body(body)
    }
}

/// Whether the client prefers JSON to HTML (RFC 9110 §12.5.1): each of the
/// two takes the `q` of the most specific range that matches it
/// (`application/json` over `application/*` over `*/*`; none: `q=0`), and
/// JSON is chosen only when its `q` is higher. HTML without `Accept`, when
/// it does not parse, on a tie, and when neither is acceptable.
fn prefers_json(req: &HttpRequest) -> bool {
    let Ok(accept) = Accept::parse(req) else {
        return false;
    };
    let quality = |type_: &str, subtype: &str| {
        let mut best: Option<(u8, Quality)> = None;
        for range in accept.iter() {
            let (t, s) = (range.item.type_().as_str(), range.item.subtype().as_str());
            let specificity = match (t == type_, s == subtype, t == "*", s == "*") {
                (true, true, _, _) => 3,
                (true, false, _, true) => 2,
                (false, _, true, true) => 1,
                _ => continue,
            };
            if best.is_none_or(|(b, _)| specificity > b) {
                best = Some((specificity, range.quality));
            }
        }
        best.map_or(Quality::ZERO, |(_, q)| q)
    };
    quality("application", "json") > quality("text", "html")
}

/// Builds a [`ProblemTypeDoc`] (for `#[derive(Problem)]`).
#[doc(hidden)]
pub fn type_doc(
    problem_type: &'static str,
    title: &'static str,
    status: u16,
    description: &'static str,
    members: Vec<MemberDoc>,
) -> ProblemTypeDoc {
    ProblemTypeDoc {
        problem_type,
        title,
        status,
        description,
        members,
    }
}

/// Builds a [`MemberDoc`] (for `#[derive(Problem)]`).
#[doc(hidden)]
pub fn member_doc(
    name: &'static str,
    json_type: &'static str,
    required: bool,
    description: &'static str,
) -> MemberDoc {
    MemberDoc {
        name,
        json_type,
        required,
        description,
    }
}

/// The JSON type of a Rust type, chosen by autoref specialization:
/// `(&&JsonTypeOf::<T>::NEW).json_type()` is [`KnownJsonType::JSON_TYPE`]
/// when `T` implements it, else `any` (for `#[derive(Problem)]`).
#[doc(hidden)]
pub struct JsonTypeOf<T: ?Sized>(std::marker::PhantomData<T>);

impl<T: ?Sized> JsonTypeOf<T> {
    /// The marker value.
    pub const NEW: Self = Self(std::marker::PhantomData);
}

/// Rust types whose JSON type (as `serde_json` writes them) is known.
#[doc(hidden)]
pub trait KnownJsonType {
    /// `string`, `integer`, `number`, `boolean`, `array` or `object`.
    const JSON_TYPE: &'static str;
}

#[doc(hidden)]
pub trait ViaKnownJsonType {
    fn json_type(&self) -> &'static str;
}

impl<T: KnownJsonType + ?Sized> ViaKnownJsonType for &JsonTypeOf<T> {
    fn json_type(&self) -> &'static str {
        T::JSON_TYPE
    }
}

#[doc(hidden)]
pub trait ViaAnyJsonType {
    fn json_type(&self) -> &'static str;
}

impl<T: ?Sized> ViaAnyJsonType for JsonTypeOf<T> {
    fn json_type(&self) -> &'static str {
        "any"
    }
}

macro_rules! known {
    ($json:literal: $($t:ty),*) => {
        $(impl KnownJsonType for $t { const JSON_TYPE: &'static str = $json; })*
    };
}
known!("string": String, str, char, std::borrow::Cow<'_, str>);
known!("integer": i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
known!("number": f32, f64);
known!("boolean": bool);
known!("object": serde_json::Map<String, Json>);

impl<T> KnownJsonType for Vec<T> {
    const JSON_TYPE: &'static str = "array";
}
impl<T> KnownJsonType for [T] {
    const JSON_TYPE: &'static str = "array";
}
impl<T, const N: usize> KnownJsonType for [T; N] {
    const JSON_TYPE: &'static str = "array";
}
impl<T> KnownJsonType for std::collections::VecDeque<T> {
    const JSON_TYPE: &'static str = "array";
}
impl<T, S> KnownJsonType for std::collections::HashSet<T, S> {
    const JSON_TYPE: &'static str = "array";
}
impl<T> KnownJsonType for std::collections::BTreeSet<T> {
    const JSON_TYPE: &'static str = "array";
}
impl<K, V, S> KnownJsonType for std::collections::HashMap<K, V, S> {
    const JSON_TYPE: &'static str = "object";
}
impl<K, V> KnownJsonType for std::collections::BTreeMap<K, V> {
    const JSON_TYPE: &'static str = "object";
}
impl<T: KnownJsonType + ?Sized> KnownJsonType for &T {
    const JSON_TYPE: &'static str = T::JSON_TYPE;
}
impl<T: KnownJsonType + ?Sized> KnownJsonType for Box<T> {
    const JSON_TYPE: &'static str = T::JSON_TYPE;
}
impl<T: KnownJsonType + ?Sized> KnownJsonType for std::sync::Arc<T> {
    const JSON_TYPE: &'static str = T::JSON_TYPE;
}
impl<T: KnownJsonType + ?Sized> KnownJsonType for std::rc::Rc<T> {
    const JSON_TYPE: &'static str = T::JSON_TYPE;
}

#[cfg(test)]
mod negotiation_tests {
    use actix_web::test::TestRequest;

    use super::prefers_json;

    #[test]
    fn json_only_when_preferred_by_quality() {
        let json = |accept: Option<&str>| {
            let req = match accept {
                Some(a) => TestRequest::get().insert_header(("Accept", a)),
                None => TestRequest::get(),
            };
            prefers_json(&req.to_http_request())
        };
        assert!(!json(None));
        assert!(json(Some("application/json")));
        assert!(json(Some("application/*")));
        assert!(json(Some("text/html;q=0.5, application/json")));
        assert!(json(Some("*/*;q=0.1, application/json;q=0.2")));
        assert!(json(Some("text/html;q=0, */*")));
        assert!(!json(Some("application/json;q=0")));
        assert!(!json(Some("application/json;q=0, */*")));
        assert!(!json(Some("text/html, application/json")));
        assert!(!json(Some("*/*")));
        assert!(!json(Some("text/*")));
        assert!(!json(Some("image/png")));
        assert!(!json(Some("not a media type")));
    }
}
