//! Problem JSON deserialization (`ProblemDetails: Deserialize`).
//!
//! Properties: never panics; a document that deserializes re-serializes,
//! and that text deserializes to an equal value and serializes to the same
//! text (extension numbers included: any finite
//! f64); `problem_response` renders it without panicking, with the problem
//! content type.
#![no_main]

use actix_web::http::header::{CONTENT_TYPE, HeaderMap};
use libfuzzer_sys::fuzz_target;
use problem_core::{ProblemDetails, problem_response};

fn check(data: &[u8]) {
    let Ok(p) = serde_json::from_slice::<ProblemDetails>(data) else {
        return;
    };
    let text = serde_json::to_string(&p).expect("a parsed problem serializes");
    let back: ProblemDetails = match serde_json::from_str(&text) {
        Ok(b) => b,
        Err(e) => panic!("{text} does not parse back: {e}"),
    };
    assert_eq!(back, p, "round trip changed the problem: {text}");
    assert_eq!(serde_json::to_string(&back).expect("serializes"), text);
    let res = problem_response(&p, &HeaderMap::new());
    assert_eq!(
        res.headers().get(CONTENT_TYPE).map(|v| v.as_bytes()),
        Some(&b"application/problem+json; charset=utf-8"[..])
    );
}

fuzz_target!(|data: &[u8]| {
    check(data);
    // Extension members holding any finite f64 (from the first 8 bytes),
    // written as serde_json writes them.
    if let Some(bits) = data.get(..8) {
        let f = f64::from_le_bytes(bits.try_into().expect("8 bytes"));
        if f.is_finite() {
            let doc = format!(
                r#"{{"status":400,"n":{},"list":[{}]}}"#,
                serde_json::to_string(&f).expect("finite"),
                serde_json::to_string(&(f / 3.0)).expect("finite")
            );
            check(doc.as_bytes());
        }
    }
});
