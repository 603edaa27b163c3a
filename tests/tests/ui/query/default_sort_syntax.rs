use problem_core::CollectionQuery;

#[derive(CollectionQuery)]
#[query(default_sort = "title,")]
struct TrailingComma {
    id: i64,
    #[query(sort)]
    title: String,
}

#[derive(CollectionQuery)]
#[query(default_sort = "year desc,id")]
struct SpelledDescending {
    id: i64,
    #[query(sort)]
    year: i32,
}

#[derive(CollectionQuery)]
#[query(default_sort = "year ASC")]
struct SpelledAscending {
    id: i64,
    #[query(sort)]
    year: i32,
}

#[derive(CollectionQuery)]
#[query(default_sort = "year;id")]
struct Semicolon {
    id: i64,
    #[query(sort)]
    year: i32,
}

#[derive(CollectionQuery)]
#[query(default_sort = "--id")]
struct DoubleDash {
    #[query(sort)]
    id: i64,
}

fn main() {}
