//! Under `forbid`, an `#[allow]` in generated code is error E0453: the
//! macros generate none for the lints a crate may forbid, rustc's and
//! clippy's alike (`cargo clippy` checks this case with the others).
#![forbid(clippy::pedantic, clippy::nursery, clippy::unused_async)]
#![deny(warnings)]

use actix_web::{App, HttpResponse, test, web};
use problem_core::version::{self, ApiVersion};
use problem_core::{CollectionQuery, Problem, versioned};
use serde::Serialize;

#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
struct DuplicateIsbn {
    isbn: String,
    #[problem(skip)]
    internal_id: i64,
}

#[derive(Debug, Problem)]
enum ShelfError {
    #[problem(status = 404, detail = "No shelf {0}")]
    Missing(u32),
    #[problem(status = 503, title = "Shelf Offline")]
    Offline {
        #[problem(source)]
        cause: std::io::Error,
    },
}

#[derive(Serialize, CollectionQuery)]
#[query(default_sort = "-year")]
struct Book {
    #[query(filter(eq, gt), sort)]
    id: i64,
    #[query(filter(eq, contains), sort, search)]
    title: String,
    #[query(filter(eq, gte, lt), sort)]
    year: i32,
}

#[versioned("1.x")]
async fn list_v1(v: ApiVersion) -> String {
    v.to_string()
}

#[versioned("2.x")]
async fn list_v2() -> HttpResponse {
    HttpResponse::Ok().body("v2")
}

struct Shelf;

impl Shelf {
    const fn name() -> &'static str {
        "shelf"
    }

    #[versioned("1.x")]
    async fn get_v1() -> String {
        Self::name().to_owned()
    }
}

fn main() {
    let duplicate = DuplicateIsbn {
        isbn: "9780000000000".to_owned(),
        internal_id: 7,
    };
    assert_eq!(duplicate.internal_id, 7);
    assert_eq!(
        duplicate.to_string(),
        "A book with ISBN 9780000000000 already exists"
    );
    assert_eq!(ShelfError::Missing(3).to_string(), "No shelf 3");
    let offline = ShelfError::Offline {
        cause: std::io::Error::other("unplugged"),
    };
    assert_eq!(offline.to_string(), "Shelf Offline");
    let book = Book {
        id: 1,
        title: "Rain".to_owned(),
        year: 1990,
    };
    assert_eq!((book.id, book.title.as_str(), book.year), (1, "Rain", 1990));
    actix_web::rt::System::new().block_on(async {
        assert_eq!(Shelf::get_v1().await.into_inner(), "shelf");
        let app = test::init_service(
            App::new()
                .route(
                    "/books",
                    web::get().to(version::versioned![list_v1, list_v2]),
                )
                // A #[versioned] function is still an actix-web handler on its own.
                .route("/v2", web::get().to(list_v2)),
        )
        .await;
        let request = test::TestRequest::get().uri("/v2").to_request();
        assert_eq!(test::call_and_read_body(&app, request).await, "v2");
    });
}
