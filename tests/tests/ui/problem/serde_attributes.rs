// serde attributes that would change the problem document's members, which
// `#[derive(Problem)]` writes itself: each is one error naming the
// `#[problem(..)]` key to write instead. A `skip` would otherwise send the
// field to the client.
use problem_core::Problem;

#[derive(Debug, serde::Serialize, Problem)]
#[serde(rename_all = "camelCase")]
#[problem(status = 409)]
struct DuplicateBook {
    book_id: u64,
    #[serde(skip)]
    secret: String,
    #[serde(rename = "ISBN")]
    isbn: String,
    title_text: String,
    #[problem(rename = "shelfCode")]
    shelf_code: String,
}

/// Sent as `***` in the type's own JSON.
fn mask<S: serde::Serializer>(_: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str("***")
}

#[derive(Debug, serde::Serialize, Problem)]
#[problem(status = 402)]
struct PaymentFailed {
    #[serde(serialize_with = "mask")]
    card: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    declined_by: Vec<String>,
}

/// An `Option` behind an alias: the derive cannot see it is one.
type MaybeHint = Option<String>;

#[derive(Debug, serde::Serialize, Problem)]
#[problem(status = 404)]
struct NotFound {
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: MaybeHint,
}

#[derive(Debug, serde::Serialize, Problem)]
#[problem(status = 400)]
enum OrderError {
    #[serde(rename_all = "kebab-case")]
    Rejected { card_type: String },
    #[serde(rename_all = "kebab-case")]
    Plain { id: u64 },
}

fn main() {}
