// A generic `QueryValue` enum: the error covers all its generic parameters.
use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status<'a, T> {
    Draft,
    #[serde(skip)]
    Other(&'a T),
}

fn main() {}
