// A Python-style format spec in `detail`: Rust has no `f` type.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 402, detail = "Your balance is {balance:.2f}")]
struct PaymentRequired {
    balance: f64,
}

fn main() {}
