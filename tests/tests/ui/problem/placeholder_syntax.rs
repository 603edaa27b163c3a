use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "ISBN {} exists")]
struct Positional {
    isbn: String,
}

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "ISBN {isbn exists")]
struct Unclosed {
    isbn: String,
}

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "set } exists")]
struct Unmatched;

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "{is-bn}")]
struct NotAName;

fn main() {}
