//! An associated `#[versioned]` function returning `impl Responder` may
//! name `Self` in its body (the `impl` of its return type is not an `impl`
//! block).
#![deny(warnings)]

use actix_web::{App, Responder, test, web};
use problem_core::{version, versioned};

struct Books;

impl Books {
    fn shelf() -> &'static str {
        "shelf"
    }

    #[versioned("2.x")]
    async fn list_v2() -> impl Responder {
        Self::shelf()
    }
}

fn main() {
    actix_web::rt::System::new().block_on(async {
        let app = test::init_service(
            App::new()
                .route("/books", web::get().to(Books::list_v2))
                .route("/table", web::get().to(version::versioned![Books::list_v2])),
        )
        .await;
        let res =
            test::call_service(&app, test::TestRequest::get().uri("/books").to_request()).await;
        assert_eq!(test::read_body(res).await, "shelf");
    });
}
