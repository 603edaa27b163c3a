// Fields that are not `Send + Sync`: one error on each field's type, none
// on the derive, saying what to write; the type's uses add none.
use problem_core::Problem;
use std::rc::Rc;

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct StorageFailed {
    #[problem(source)]
    cause: Box<dyn std::error::Error>,
}

#[derive(Debug, Problem)]
#[problem(status = 503)]
struct Unavailable {
    #[problem(skip)]
    state: std::sync::Arc<dyn std::any::Any + Send>,
}

#[derive(Debug, Problem)]
#[problem(status = 400)]
enum CatalogError {
    #[problem(status = 409)]
    Duplicate { isbn: Rc<str> },
    Invalid,
}

fn main() {
    let _ = CatalogError::Invalid.to_string();
    let _ = StorageFailed { cause: "x".into() }.to_string();
}
