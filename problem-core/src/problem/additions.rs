//! The extension members and response headers a problem builder adds
//! ([`HttpException`](super::HttpException)'s and
//! [`Customized`](super::Customized)'s `with_extension` and `with_header`),
//! with the first failure of each kind kept for
//! [`Problem::extensions`](super::Problem::extensions) and
//! [`Problem::headers`](super::Problem::headers). One home, so that both
//! builders add, fail and report alike.

use actix_web::http::header::{HeaderMap, TryIntoHeaderPair};
use serde::Serialize;

use super::details::Extensions;
use super::exception::ProblemBuildError;

/// Extension members and headers added by a builder, and what failed.
#[derive(Default)]
pub(crate) struct Additions {
    pub(crate) extensions: Extensions,
    pub(crate) headers: HeaderMap,
    /// Boxed: a failure is rare, and the builder stays small without one.
    failures: Option<Box<Failures>>,
}

/// The first failure of each kind: an extension failing does not hide a
/// header failing, nor the other way round.
#[derive(Default)]
struct Failures {
    extension: Option<ProblemBuildError>,
    header: Option<ProblemBuildError>,
}

impl Additions {
    /// Adds or replaces the extension member `key`; a value that fails to
    /// serialize is kept as the extension failure (the first one wins).
    pub(crate) fn add_extension(&mut self, key: String, value: impl Serialize) {
        match serde_json::to_value(value) {
            Ok(v) => {
                self.extensions.insert(key, v);
            }
            Err(e) => {
                let failures = self.failures.get_or_insert_with(Box::default);
                failures
                    .extension
                    .get_or_insert(ProblemBuildError::Extension {
                        key,
                        message: e.to_string(),
                    });
            }
        }
    }

    /// Appends a header; an invalid name or value is kept as the header
    /// failure (the first one wins).
    pub(crate) fn add_header(&mut self, header: impl TryIntoHeaderPair) {
        match header.try_into_pair() {
            Ok((name, value)) => self.headers.append(name, value),
            Err(e) => {
                let message = actix_web::http::Error::from(e.into()).to_string();
                let failures = self.failures.get_or_insert_with(Box::default);
                failures
                    .header
                    .get_or_insert(ProblemBuildError::Header { message });
            }
        }
    }

    /// `Err` with the first extension that failed to serialize.
    pub(crate) fn extension_failure(&self) -> Result<(), ProblemBuildError> {
        match self.failures.as_deref() {
            Some(Failures {
                extension: Some(e), ..
            }) => Err(e.clone()),
            Some(Failures {
                extension: None, ..
            })
            | None => Ok(()),
        }
    }

    /// `Err` with the first header that was invalid.
    pub(crate) fn header_failure(&self) -> Result<(), ProblemBuildError> {
        match self.failures.as_deref() {
            Some(Failures {
                header: Some(e), ..
            }) => Err(e.clone()),
            Some(Failures { header: None, .. }) | None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn each_kind_keeps_its_first_failure() {
        let bad: HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let mut a = Additions::default();
        assert_eq!(a.extension_failure(), Ok(()));
        assert_eq!(a.header_failure(), Ok(()));
        a.add_header(("Bad Name", "1"));
        a.add_extension("bad".into(), &bad);
        a.add_extension("worse".into(), &bad);
        a.add_header(("Retry-After", "1\n"));
        a.add_extension("good".into(), 1);
        a.add_header(("Retry-After", "120"));
        match a.extension_failure() {
            Err(ProblemBuildError::Extension { key, .. }) => assert_eq!(key, "bad"),
            other => panic!("extension failure: {other:?}"),
        }
        assert_eq!(
            a.header_failure(),
            Err(ProblemBuildError::Header {
                message: "error processing HTTP: invalid HTTP header name".into()
            })
        );
        assert_eq!(
            a.extensions,
            serde_json::json!({"good": 1}).as_object().unwrap().clone()
        );
        assert_eq!(a.headers.get("retry-after").unwrap(), "120");
    }
}
