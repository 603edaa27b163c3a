use problem_core::QueryValue;

#[derive(serde::Serialize, QueryValue)]
#[serde(rename_all = "snake")]
enum Status {
    Draft,
}

fn main() {}
