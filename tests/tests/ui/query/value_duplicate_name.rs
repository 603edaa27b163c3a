use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
#[serde(rename_all = "lowercase")]
enum Status {
    Draft,
    #[serde(rename = "draft")]
    Sketch,
}

fn main() {}
