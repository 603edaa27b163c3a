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

async fn other() -> &'static str {
    "other"
}

fn main() {
    let _ = version::versioned![];
    let _ = version::versioned![a, fallback = other, b];
    let _ = version::versioned![a, fallback = other, fallback = other];
    let _ = version::versioned![a, default = other];
    let _ = version::versioned![a::<u8>];
    let _ = version::versioned![a, |x: u8| x];
}
