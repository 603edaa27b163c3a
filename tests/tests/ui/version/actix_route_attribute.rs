// actix-web's `#[get]` below `#[versioned]`: the handler would become a
// service struct that `versioned![...]` cannot dispatch to.
use problem_core::versioned;

#[versioned("1.0")]
#[actix_web::get("/books")]
async fn list_v1() -> &'static str {
    "v1"
}

fn main() {}
