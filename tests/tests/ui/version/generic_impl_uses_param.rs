// A handler in a generic `impl<T>` whose body uses `T`, which the macro
// cannot see: the body moves into an inner function, which does not see
// `T`, so rustc reports E0401 (documented on `#[versioned]`).
use problem_core::versioned;

struct Repo<T>(std::marker::PhantomData<T>);

impl<T: Default + std::fmt::Debug> Repo<T> {
    #[versioned("1.0")]
    async fn list() -> String {
        format!("{:?}", T::default())
    }
}

fn main() {}
