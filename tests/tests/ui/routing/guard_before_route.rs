// The old form: a guard given before the route. It must not compile, so a
// guard can never land on another route than the one it protects.
use actix_web::{HttpRequest, HttpResponse};
use problem_core::routing::Routes;

async fn list() -> HttpResponse { HttpResponse::Ok().finish() }
async fn create() -> HttpResponse { HttpResponse::Created().finish() }

async fn admin_only(req: HttpRequest) -> Result<bool, actix_web::Error> {
    Ok(req.headers().contains_key("authorization"))
}

fn main() {
    let _ = Routes::new()
        .get("/orders", list)
        .guard(admin_only)
        .post("/orders", create);
}
