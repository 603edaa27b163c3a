// #[versioned] on a trait's method declaration: there is no handler body.
use problem_core::versioned;

trait Api {
    #[versioned("1.0")]
    async fn list() -> &'static str;
}

fn main() {}
