use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem]
struct Bare;

#[derive(Debug, Problem)]
#[problem = "409"]
struct NameValue;

#[derive(Debug, Problem)]
#[problem(status = 409, title = 5)]
struct TitleNotString {
    #[problem(skip = true)]
    internal_id: i64,
    #[problem(rename)]
    other: u8,
}

fn main() {}
