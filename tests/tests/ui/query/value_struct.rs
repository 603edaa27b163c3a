use problem_core::QueryValue;

#[derive(QueryValue)]
struct Isbn(String);

fn main() {}
