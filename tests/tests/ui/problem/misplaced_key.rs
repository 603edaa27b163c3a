use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, skip)]
struct FieldKeyOnType;

#[derive(Debug, Problem)]
#[problem(status = 409)]
struct TypeKeyOnField {
    #[problem(title = "Conflict")]
    isbn: String,
}

fn main() {}
