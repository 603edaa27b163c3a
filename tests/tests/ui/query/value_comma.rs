use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
enum Status {
    #[serde(rename = "draft,new")]
    Draft,
}

fn main() {}
