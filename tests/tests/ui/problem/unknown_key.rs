use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, titel = "Conflict")]
struct Typo;

#[derive(Debug, Problem)]
#[problem(status = 409, code = "E1")]
struct Unknown;

#[derive(Debug, Problem)]
#[problem(status = 409)]
struct FieldTypo {
    #[problem(skp)]
    internal_id: i64,
}

fn main() {}
