use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409)]
struct Clash {
    book_id: u64,
    #[problem(rename = "book_id")]
    legacy_id: u64,
    #[problem(rename = "")]
    nameless: u64,
}

fn main() {}
