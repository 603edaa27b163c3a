use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status<T> {
    Draft,
    #[serde(skip)]
    Other(T),
}

fn main() {}
