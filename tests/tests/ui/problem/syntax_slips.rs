// Slips in the attribute's syntax: syn's message, and the form to write.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(404)]
struct NotFound;

#[derive(Debug, Problem)]
#[problem(status = 409; title = "Conflict")]
struct Conflict;

#[derive(Debug, Problem)]
#[problem(status = 400)]
struct BadInput {
    #[problem("id")]
    id: u64,
}

// Other crates' key names get the key that says it here.
#[derive(Debug, Problem)]
#[problem(message = "gone", status = 410)]
struct Gone;

// The whole value is underlined, not its first token.
#[derive(Debug, Problem)]
#[problem(status = -410)]
struct Negative;

fn main() {}
