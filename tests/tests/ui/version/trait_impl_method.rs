// `#[versioned]` on a method of a trait impl, which the macro cannot tell
// from an inherent one: it changes the return type the trait fixes, so
// rustc reports E0271 on the attribute (documented on `#[versioned]`).
use problem_core::versioned;

trait Api {
    async fn list() -> &'static str;
}

struct Books;

impl Api for Books {
    #[versioned("1.0")]
    async fn list() -> &'static str {
        "v1"
    }
}

fn main() {}
