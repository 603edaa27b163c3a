use actix_web::web;
use problem_core::versioned;

#[versioned("1.0")]
async fn list<T: serde::Serialize + Default>() -> web::Json<T> {
    web::Json(T::default())
}

#[versioned("1.0")]
async fn show<const N: usize>() -> String {
    N.to_string()
}

#[versioned("1.0")]
async fn search(q: impl actix_web::FromRequest) -> &'static str {
    let _ = q;
    "found"
}

// Lifetime parameters are fine.
#[versioned("1.0")]
async fn greet<'a>(name: web::Path<String>) -> String {
    let s: &str = &name;
    s.to_owned()
}

fn main() {}
