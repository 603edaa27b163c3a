//! The form-field limit on every form body: a request whose body is
//! `application/x-www-form-urlencoded` and holds more than 1000 fields is
//! answered with the `413` problem `The request body has more than 1000
//! fields.` (spec, "Limits" and "Errors raised by the service itself"),
//! whichever extractor reads it: actix-web's own `web::Form` as well as
//! the crate's body extractors.
//!
//! The pipeline wraps the payload of such a request in [`FieldCount`] as
//! it routes it, which counts the fields as the handler's extractor reads
//! the bytes (the pieces between `&` that are not empty, as
//! `form_urlencoded` parses them) and fails the read that brings the
//! 1001st with [`TooManyFormFields`], before the rest of the body is read
//! or parsed; the rest is set aside ([`ParkedPayload`]) and the connection
//! closed after the 413, as after the body timeout's 408.
//!
//! A form sent with a `Content-Encoding` (other than `identity`) is not
//! counted here: its bytes are not its fields until decoded. The crate's
//! body extractors refuse such a body (415); `web::Form`, with actix-web's
//! compression features, decodes it and is then outside this limit.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest};
use futures_util::Stream;

use super::deadline::ParkedPayload;
use crate::spec::MAX_PARAMETERS;

/// The error a form body's read yields once it holds more than 1000 fields
/// (inside a `PayloadError::Io` of kind `InvalidData`); the pipeline and
/// the body extractors answer it with the `413` problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the form body has more than {MAX_PARAMETERS} fields")]
pub(crate) struct TooManyFormFields;

/// Whether a payload error is the form-field limit.
pub(crate) fn is_too_many_form_fields(err: &PayloadError) -> bool {
    super::deadline::is_payload_io::<TooManyFormFields>(err)
}

/// Whether the request's body is counted: a form as the crate's body
/// extractors tell one ([`format_of`](super::body::format_of)), sent
/// without a content coding (none, or `identity`:
/// [`unsupported_content_encoding`](super::framework::unsupported_content_encoding)).
fn is_counted(req: &HttpRequest) -> bool {
    super::body::format_of(req) == Some(super::body::Format::Form)
        && super::framework::unsupported_content_encoding(req).is_none()
}

/// Wraps the payload of a form request (with no content coding) in a
/// [`FieldCount`], which sets the unread rest aside in the request's
/// [`ParkedPayload`] when it refuses the body.
pub(crate) fn count_form_fields(req: &mut ServiceRequest) {
    if !is_counted(req.request()) {
        return;
    }
    let parked = req.extensions().get::<ParkedPayload>().cloned();
    let payload = req.take_payload();
    req.set_payload(Payload::Stream {
        payload: Box::pin(FieldCount::new(payload, parked)),
    });
}

/// A form body's payload that fails once more than 1000 fields arrived.
pub(crate) struct FieldCount {
    inner: Payload,
    parked: Option<ParkedPayload>,
    /// Fields ended by a `&` so far.
    fields: usize,
    /// Whether the last piece (not yet ended by `&`) holds a byte.
    open: bool,
    over: bool,
}

impl FieldCount {
    pub(crate) fn new(inner: Payload, parked: Option<ParkedPayload>) -> Self {
        Self {
            inner,
            parked,
            fields: 0,
            open: false,
            over: false,
        }
    }

    /// Counts the fields `chunk` ends or opens; whether the body is now
    /// over the limit.
    fn count(&mut self, chunk: &[u8]) -> bool {
        let mut start = 0;
        for amp in memchr::memchr_iter(b'&', chunk) {
            if amp > start || self.open {
                self.fields += 1;
            }
            self.open = false;
            start = amp + 1;
        }
        if chunk.len() > start {
            self.open = true;
        }
        self.fields + usize::from(self.open) > MAX_PARAMETERS
    }
}

impl Stream for FieldCount {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.over {
            return Poll::Ready(None);
        }
        let polled = Pin::new(&mut this.inner).poll_next(cx);
        if let Poll::Ready(Some(Ok(chunk))) = &polled
            && this.count(chunk)
        {
            this.over = true;
            // The rest is never read: set aside, so that the connection
            // closes after the answer rather than draining it.
            let rest = std::mem::replace(&mut this.inner, Payload::None);
            if let Some(parked) = &this.parked {
                parked.park(rest);
            }
            return Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                TooManyFormFields,
            )))));
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields `form_urlencoded` parses from `body`, counted by
    /// [`FieldCount::count`] over `body` cut into pieces of `step` bytes.
    fn counted(body: &[u8], step: usize) -> usize {
        let mut c = FieldCount::new(Payload::None, None);
        for piece in body.chunks(step.max(1)) {
            c.count(piece);
        }
        c.fields + usize::from(c.open)
    }

    #[test]
    fn counts_as_form_urlencoded_parses_in_any_cut() {
        for body in [
            &b""[..],
            b"a=1",
            b"a=1&b=2",
            b"&&a=1&&b&&",
            b"&",
            b"a",
            b"=&=",
            b"a=1&b=2&c=%26&d",
        ] {
            let want = form_urlencoded::parse(body).count();
            for step in 1..=body.len().max(1) {
                assert_eq!(counted(body, step), want, "{body:?} in pieces of {step}");
            }
        }
    }

    #[test]
    fn the_1001st_field_is_over() {
        let body: Vec<u8> = (0..1000)
            .map(|i| format!("k{i}=1&"))
            .collect::<String>()
            .into();
        let mut c = FieldCount::new(Payload::None, None);
        assert!(!c.count(&body));
        assert!(!c.count(b"&&"));
        assert!(c.count(b"x"));
    }

    fn counts_headers(headers: &[(&'static str, &str)]) -> bool {
        let mut req = actix_web::test::TestRequest::post();
        for (name, value) in headers {
            req = req.insert_header((*name, value.to_string()));
        }
        is_counted(&req.to_http_request())
    }

    #[test]
    fn a_content_coding_other_than_identity_is_not_counted() {
        let form = ("content-type", "application/x-www-form-urlencoded");
        assert!(counts_headers(&[form]));
        for (value, encoded) in [
            ("identity", false),
            ("Identity", false),
            ("gzip", true),
            ("identity, br", true),
            ("", false),
        ] {
            assert_eq!(
                counts_headers(&[form, ("content-encoding", value)]),
                !encoded,
                "{value}"
            );
        }
    }

    #[test]
    fn forms_are_told_by_their_media_type() {
        assert!(!counts_headers(&[]));
        for (value, form) in [
            ("application/x-www-form-urlencoded", true),
            ("Application/X-WWW-Form-Urlencoded; charset=utf-8", true),
            ("application/json", false),
            ("multipart/form-data; boundary=x", false),
        ] {
            assert_eq!(counts_headers(&[("content-type", value)]), form, "{value}");
        }
    }
}
