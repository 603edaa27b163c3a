// One bad attribute, and the type used everywhere a `CollectionQuery` is
// needed: the derive's placeholder impl keeps the uses compiling, so the
// bad attribute is the only error.
use problem_core::CollectionQuery;
use problem_core::query::{Collection, QueryConfig, TypedQuery};

#[derive(CollectionQuery)]
#[query(key = "id")]
struct BookQuery {
    #[query(filter(eq), sort)]
    id: i64,
    #[query(filter(eq, contains), search, sortable)]
    title: String,
}

async fn list(q: Collection<BookQuery>) -> actix_web::HttpResponse {
    let _ = q.page(Vec::<i64>::new(), None);
    actix_web::HttpResponse::Ok().finish()
}

fn main() {
    let _ = TypedQuery::<BookQuery>::from_query_str("id=1", &QueryConfig::default());
    let _ = actix_web::web::get().to(list);
}
