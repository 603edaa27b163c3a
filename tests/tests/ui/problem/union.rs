use problem_core::Problem;

#[derive(Problem)]
#[problem(status = 400)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
