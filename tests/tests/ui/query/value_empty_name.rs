use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status {
    Draft,
    #[serde(rename = "")]
    Unknown,
}

fn main() {}
