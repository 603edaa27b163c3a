// The last call of the `.routes(..)` closure ends in `;`: the closure
// returns `()`, and the error says to drop the `;`.
use actix_web::HttpResponse;
use problem_core::server::ProblemApp;

async fn list() -> HttpResponse { HttpResponse::Ok().finish() }

fn main() {
    let _ = ProblemApp::builder().routes(|r| {
        r.get("/books", list);
    });
}
