//! The generated code uses absolute paths only: user items named like
//! prelude or std items do not disturb it.
#![allow(dead_code, non_camel_case_types, non_snake_case)]

use problem_core::Problem as _;

struct Option;
struct Some;
struct None;
struct Result;
struct Ok;
struct Err;
struct String;
struct Cow;
struct Box;
trait Display {}
trait Error {}
trait Serialize {}
mod fmt {}
mod serde {}
mod actix_web {}
mod std {}
mod core {}
fn format_args() {}
fn write() {}

#[derive(Debug, problem_core::Problem)]
#[problem(status = 409, detail = "ISBN {isbn} ({n})")]
struct DuplicateIsbn {
    isbn: &'static str,
    #[problem(header = "X-N")]
    n: u8,
    maybe: ::std::option::Option<u8>,
    #[problem(source)]
    cause: ::std::io::Error,
}

#[derive(Debug, problem_core::Problem)]
enum E {
    #[problem(status = 400, detail = "{0}")]
    A(u8),
    #[problem(status = 500)]
    B,
}

fn main() {
    let e = DuplicateIsbn {
        isbn: "1",
        n: 2,
        maybe: ::std::option::Option::None,
        cause: ::std::io::Error::other("x"),
    };
    assert_eq!(::std::string::ToString::to_string(&e), "ISBN 1 (2)");
    assert_eq!(e.name(), "DuplicateIsbn");
    assert_eq!(E::A(1).name(), "E");
}
