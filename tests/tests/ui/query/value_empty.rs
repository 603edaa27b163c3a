use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status {
    #[serde(skip)]
    Hidden,
}

fn main() {}
