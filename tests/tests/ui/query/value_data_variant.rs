use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status {
    Draft,
    Withdrawn { reason: String },
}

fn main() {}
