#![deny(clippy::pedantic)] // generated code adds no lint, `unused_async` included
//! `#[versioned]` on associated functions: listed as `Type::function`,
//! still handlers on their own, and `Self` in the body works.
#![deny(warnings)]
// `#[cfg(all())]` below is on purpose: attributes pass through `#[versioned]`.
#![allow(clippy::non_minimal_cfg)]

use actix_web::{App, test, web};
use problem_core::version;
use problem_core::versioned;

struct Books;

impl Books {
    fn shelf() -> &'static str {
        "shelf"
    }

    #[versioned("1.0")]
    async fn list_v1() -> String {
        "v1".to_owned()
    }

    /// Patterns, `return` and `?` keep their meaning next to `Self`.
    #[versioned("2.x")]
    #[allow(unused_mut)]
    #[cfg(all())]
    async fn list_v2(mut q: web::Query<Vec<(String, u8)>>) -> Result<String, actix_web::Error> {
        let Some((name, n)) = q.first() else {
            return Ok(Self::shelf().to_owned());
        };
        let parsed: u8 = n
            .to_string()
            .parse()
            .map_err(actix_web::error::ErrorBadRequest)?;
        Ok(format!("{} {name} {parsed}", Self::shelf()))
    }
}

fn main() {
    actix_web::rt::System::new().block_on(async {
        assert_eq!(Books::list_v1().await.into_inner(), "v1");
        let app = test::init_service(
            App::new()
                .route(
                    "/books",
                    web::get().to(version::versioned![Books::list_v1, Books::list_v2]),
                )
                .route("/v2", web::get().to(Books::list_v2)),
        )
        .await;
        let req = test::TestRequest::get().uri("/v2?a=3").to_request();
        assert_eq!(test::call_and_read_body(&app, req).await, "shelf a 3");
        let req = test::TestRequest::get().uri("/v2").to_request();
        assert_eq!(test::call_and_read_body(&app, req).await, "shelf");
    });
}
