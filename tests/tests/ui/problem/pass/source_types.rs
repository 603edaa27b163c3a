//! Every kind of `source` field the derive accepts, each returned by
//! `Error::source`: an error type, a boxed or shared `dyn Error`, a type
//! that dereferences to `dyn Error` (as `anyhow::Error` does), an `Option`
//! of one, and a generic error.
#![deny(warnings)]

use std::error::Error;
use std::sync::Arc;

use problem_core::Problem;

/// Dereferences to `dyn Error + Send + Sync` without being an error itself.
#[derive(Debug)]
struct Report(Box<dyn Error + Send + Sync>);

impl std::ops::Deref for Report {
    type Target = dyn Error + Send + Sync;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

#[derive(Debug, Problem)]
#[problem(status = 500)]
enum Failure<E: Error + Send + Sync + 'static> {
    Io(#[problem(source)] std::io::Error),
    Boxed(#[problem(source)] Box<dyn Error + Send + Sync>),
    Shared(#[problem(source)] Arc<dyn Error + Send + Sync>),
    Reported(#[problem(source)] Report),
    Maybe(#[problem(source)] Option<Box<dyn Error + Send + Sync>>),
    Generic { source: E },
}

fn cause<E: Error + Send + Sync + 'static>(f: &Failure<E>) -> Option<String> {
    f.source().map(|s| s.to_string())
}

fn main() {
    let io = || std::io::Error::other("disk full");
    let f: [Failure<std::fmt::Error>; 7] = [
        Failure::Io(io()),
        Failure::Boxed("timed out".into()),
        Failure::Shared(Arc::new(io())),
        Failure::Reported(Report("refused".into())),
        Failure::Maybe(Some("reset".into())),
        Failure::Maybe(None),
        Failure::Generic {
            source: std::fmt::Error,
        },
    ];
    let causes: Vec<Option<String>> = f.iter().map(cause).collect();
    assert_eq!(
        causes,
        [
            Some("disk full".to_owned()),
            Some("timed out".to_owned()),
            Some("disk full".to_owned()),
            Some("refused".to_owned()),
            Some("reset".to_owned()),
            None,
            Some(std::fmt::Error.to_string()),
        ]
    );
    assert_eq!(f[0].status().as_u16(), 500);
}
