// `filter` takes problem types; a foreign error type's filter is `filter_error`.
use actix_web::HttpResponse;
use problem_core::server::ProblemApp;

fn main() {
    let _ = ProblemApp::builder()
        .filter::<std::io::Error, _>(|_err, _ctx| HttpResponse::ServiceUnavailable().finish());
}
