// Every attribute mistake of the struct is reported at once: on the
// struct, on each field, two in one attribute, and two operators of one
// `filter(..)`.
use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(max_size = 50)]
struct BookQuery {
    #[query(sortt)]
    id: i64,
    #[query(serch, select = "false")]
    title: String,
    #[query(filter(eqq, gt, lte(1)), sort)]
    year: i32,
}

fn main() {}
