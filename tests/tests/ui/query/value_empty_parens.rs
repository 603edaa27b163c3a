use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status {
    Draft,
    Pending(),
    Withdrawn {},
}

fn main() {}
