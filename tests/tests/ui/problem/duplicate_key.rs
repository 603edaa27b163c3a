use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 400, status = 404)]
struct Twice;

#[derive(Debug, Problem)]
#[problem(status = 400)]
#[problem(title = "A", title = "B")]
struct TwoTitles;

#[derive(Debug, Problem)]
#[problem(status = 400)]
#[problem(status = 401)]
struct TwoAttributes;

#[derive(Debug, Problem)]
#[problem(status = 400)]
struct FieldTwice {
    #[problem(skip, skip)]
    internal_id: i64,
}

fn main() {}
