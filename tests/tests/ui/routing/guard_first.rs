// A guard with no route before it: `guarded` only exists after a route.
use actix_web::{HttpRequest, HttpResponse};
use problem_core::routing::Routes;

async fn create() -> HttpResponse { HttpResponse::Created().finish() }

async fn admin_only(req: HttpRequest) -> Result<bool, actix_web::Error> {
    Ok(req.headers().contains_key("authorization"))
}

fn main() {
    let _ = Routes::new().guarded(admin_only).post("/orders", create);
}
