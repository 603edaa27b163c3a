use problem_core::Problem;

// A width or precision named in `detail` is a `usize` in `std::fmt`.
#[derive(Debug, Problem)]
#[problem(status = 400, detail = "[{code:>width$}] {price:.digits$}")]
struct Bad {
    code: u32,
    width: u32,
    price: f64,
    digits: usize,
}

fn main() {}
