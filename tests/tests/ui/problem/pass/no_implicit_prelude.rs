//! The derive compiles in a `#![no_implicit_prelude]` module: the generated
//! code calls trait methods (`From::from`) fully qualified.
#![deny(warnings)]

mod inner {
    #![no_implicit_prelude]

    #[derive(Debug, ::problem_core::Problem)]
    #[problem(status = 404)]
    pub struct NotFound;

    #[derive(Debug, ::problem_core::Problem)]
    #[problem(status = 409, type = "/problems/x", detail = "{id} {name}")]
    pub struct Conflict {
        pub id: u64,
        pub name: ::std::string::String,
        #[problem(header = "Retry-After")]
        pub retry: ::std::option::Option<u32>,
        #[problem(source)]
        pub cause: ::std::option::Option<::std::io::Error>,
    }

    #[derive(Debug, ::problem_core::Problem)]
    pub enum Catalog {
        #[problem(status = 404, detail = "{0}")]
        Missing(u64),
        #[problem(status = 503)]
        Down,
    }
}

fn main() {
    let e = inner::Conflict {
        id: 1,
        name: "n".into(),
        retry: None,
        cause: None,
    };
    assert_eq!(e.to_string(), "1 n");
    assert_eq!(inner::Catalog::Missing(7).to_string(), "7");
    let _ = inner::Catalog::Down;
    let _ = inner::NotFound;
}
