//! The generated local bindings (`__self_N`, `__formatter`, `__extensions`,
//! `__headers`, `__value`, `__source`, `__schemas`) are shadowed in the
//! expansion's scope: user unit structs of those names do not clash.
#![deny(warnings)]
#![allow(dead_code, non_camel_case_types)]
use problem_core::Problem;

struct __formatter;
struct __extensions;
struct __headers;
struct __value;
struct __source;
struct __schemas;
struct __self_0;
struct __self_1;
struct __self_2;
struct __self_1_count;
type Cow = u8;
type HeaderMap = u8;
type StatusCode = u8;

#[derive(Debug, Problem)]
#[problem(status = 429, detail = "{0} {1:?}")]
struct Limited(
    #[problem(header = "Retry-After")] u32,
    #[problem(rename = "why")] Option<std::string::String>,
);

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "{id:>width$}")]
struct NotFound {
    id: u64,
    width: usize,
    #[problem(header = "X-Trace")]
    trace: Option<u32>,
    #[problem(source)]
    cause: Option<std::io::Error>,
}

#[derive(Debug, Problem)]
#[problem(status = 404)]
struct Plain;

fn main() {
    let e = Limited(5, Some("x".into()));
    assert_eq!(e.to_string(), "5 Some(\"x\")");
    assert_eq!(e.headers().unwrap().get("retry-after").unwrap(), "5");
    assert!(e.extensions().unwrap().get("why").is_some());
    let n = NotFound {
        id: 7,
        width: 3,
        trace: Some(1),
        cause: None,
    };
    assert_eq!(n.to_string(), "  7");
    assert!(std::error::Error::source(&n).is_none());
    assert_eq!(Plain.to_string(), "Not Found");
}
