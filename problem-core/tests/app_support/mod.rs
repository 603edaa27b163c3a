//! A `ProblemApp` served as a test service, wired as a user wires it.

/// The app as a user wires it: routes, versioning inside the pipeline.
pub(crate) async fn serve(
    app: problem_core::server::ProblemApp,
) -> impl actix_web::dev::Service<
    actix_http::Request,
    Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    let a = app.clone();
    actix_web::test::init_service(
        actix_web::App::new()
            .configure(move |c| a.configure(c))
            .wrap(app.versioning())
            .wrap(app.pipeline()),
    )
    .await
}
