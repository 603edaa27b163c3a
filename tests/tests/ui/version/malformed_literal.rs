// A literal in no notation the macro knows: the error lists the forms.
// (Other notations get the literal to write: `constraint_hints.rs`,
// `constraint_notations.rs`.)
use problem_core::versioned;

#[versioned("1.0", "latest")]
async fn handler() -> &'static str {
    "hi"
}

fn main() {}
