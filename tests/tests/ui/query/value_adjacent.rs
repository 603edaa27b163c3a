use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
#[serde(tag = "t", content = "c")]
enum Status {
    Draft,
}

fn main() {}
