use problem_core::versioned;

#[versioned("1.0")]
struct Handler;

fn main() {}
