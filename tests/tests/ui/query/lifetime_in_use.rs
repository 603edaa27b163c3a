// A struct with a lifetime (refused), used as a `CollectionQuery` with
// `'static`, the only lifetime one can have: the derive's placeholder impl
// keeps the uses compiling, so the refusal is the only error.
use problem_core::CollectionQuery;
use problem_core::query::{Collection, QueryConfig, TypedQuery};

#[derive(CollectionQuery)]
struct BookQuery<'a, T: 'a>
where
    T: 'a,
{
    id: i64,
    note: &'a str,
    extra: T,
}

async fn list(q: Collection<BookQuery<'static, u8>>) -> actix_web::HttpResponse {
    let _ = q.page(Vec::<i64>::new(), None);
    actix_web::HttpResponse::Ok().finish()
}

fn main() {
    let _ = TypedQuery::<BookQuery<'static, u8>>::from_query_str("", &QueryConfig::default());
    let _ = actix_web::web::get().to(list);
}
