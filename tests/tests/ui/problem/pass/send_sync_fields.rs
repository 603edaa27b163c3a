//! Fields whose types are `Send + Sync` though they mention a trait object
//! without those bounds: in a function pointer's or a closure's arguments.
#![deny(warnings)]
// The field types are spelled out on purpose: they are what is tested.
#![allow(clippy::type_complexity)]

use std::any::Any;
use std::sync::Arc;

use problem_core::Problem;

#[derive(Problem)]
#[problem(status = 503, detail = "try again later")]
struct Unavailable {
    #[problem(skip)]
    describe: Arc<dyn Fn(&dyn Any) -> String + Send + Sync>,
    #[problem(skip)]
    check: fn(&dyn Any) -> bool,
    #[problem(source)]
    cause: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl std::fmt::Debug for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Unavailable")
    }
}

fn main() {
    let err = Unavailable {
        describe: Arc::new(|_| String::new()),
        check: |_| true,
        cause: "down".into(),
    };
    assert_eq!(err.to_string(), "try again later");
    assert!((err.check)(&1u8));
    assert!((err.describe)(&1u8).is_empty());
    assert_eq!(err.status().as_u16(), 503);
}
