use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
#[serde(tag = "kind")]
enum Status {
    Draft,
}

#[derive(serde::Serialize, QueryValue)]
enum Binding {
    Hardcover,
    #[serde(untagged)]
    Unknown,
}

fn main() {}
