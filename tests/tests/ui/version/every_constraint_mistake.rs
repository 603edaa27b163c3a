// Every malformed constraint of the attribute is reported at once, and
// with them a mistake of the signature.
use problem_core::versioned;

#[versioned("1.0.0", "2.0", ">=3", "4.x", "5.0..4.0")]
fn list_books() -> &'static str {
    "books"
}

fn main() {}
