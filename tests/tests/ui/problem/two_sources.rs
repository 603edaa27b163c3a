use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct TwoCauses {
    #[problem(source)]
    io: std::io::Error,
    #[problem(source)]
    fmt: std::fmt::Error,
}

fn main() {}
