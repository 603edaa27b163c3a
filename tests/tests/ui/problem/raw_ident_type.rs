// A raw identifier as the type's name, with a mistake: the mistake alone
// is reported (the placeholder impls name the type as written).
use problem_core::Problem;

#[allow(non_camel_case_types)]
#[derive(Debug, Problem)]
#[problem(status = 40)]
struct r#match;

#[derive(Debug, Problem)]
#[problem(status = 404, titel = "Not found")]
struct r#NotFound;

fn main() {}
