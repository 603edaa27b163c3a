// One bad attribute, and the type used as a problem, an error, a
// response and a documented problem type: the derive's placeholder impls keep the uses compiling, so the
// bad attribute is the only error.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 409, titel = "Conflict")]
struct DuplicateOrder {
    id: u64,
}

fn as_problem(_: &dyn Problem) {}
fn as_error(_: &dyn std::error::Error) {}

async fn create() -> Result<actix_web::HttpResponse, DuplicateOrder> {
    Err(DuplicateOrder { id: 7 })
}

fn main() {
    let err = DuplicateOrder { id: 7 };
    as_problem(&err);
    as_error(&err);
    let _ = err.to_string();
    let _ = actix_web::web::post().to(create);
    let _ = problem_core::server::ProblemApp::builder().problem_type::<DuplicateOrder>();
}
