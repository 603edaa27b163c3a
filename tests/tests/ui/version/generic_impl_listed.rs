// A handler of a generic `impl<T>` listed in `versioned![...]`, which
// names handlers without generic arguments: rustc cannot infer `T` (E0282,
// documented on `#[versioned]`; `Repo::<u8>::list` is refused by
// `versioned!` itself).
use actix_web::web;
use problem_core::{version, versioned};

struct Repo<T>(std::marker::PhantomData<T>);

impl<T> Repo<T> {
    #[versioned("1.0")]
    async fn list() -> &'static str {
        "v1"
    }
}

fn main() {
    let _ = web::get().to(version::versioned![Repo::list]);
}
