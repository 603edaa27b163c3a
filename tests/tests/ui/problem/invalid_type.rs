use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "")]
struct Empty;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/duplicate isbn")]
struct Spaced;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/<isbn>")]
struct Angled;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/a|b")]
struct Piped;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/100%")]
struct Percent;

#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/{isbn}")]
struct Braced {
    isbn: String,
}

fn main() {}
