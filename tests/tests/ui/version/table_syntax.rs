// Syntax slips in `versioned![...]`: each error shows the form to write.
use problem_core::version;
use problem_core::versioned;

#[versioned("1.0")]
async fn a() -> &'static str {
    "a"
}

#[versioned("2.0")]
async fn b() -> &'static str {
    "b"
}

fn main() {
    let _ = version::versioned![a b];
    let _ = version::versioned![a, fallback = ];
    let _ = version::versioned![a, fallback =, b];
    let _ = version::versioned![a(), b];
}
