//! The body timeout: a request body not fully received in time is
//! answered with a `408 Request Timeout` problem and the connection is
//! closed (RFC 9110 §15.5.9; hostile-input rule "Slow bodies").
//!
//! The pipeline wraps the payload of every request that has a body
//! (`Content-Length` above 0, or chunked) in [`Deadline`]: once the
//! timeout has passed since the body was first read, the next read that
//! waits for the client fails with [`BodyTimedOut`], which the body
//! extractors and the pipeline answer as the 408. The time counts from the
//! first read, not from the request's arrival: a handler that awaits
//! something else first (a lock, a precondition read from the database)
//! keeps the client's bytes waiting in the socket's buffers, and that wait
//! is the server's, not a slow client's.
//!
//! Closing: actix-http closes the connection after a response when the
//! request's payload is unfinished and still held, but *drains* a chunked
//! payload that was dropped, keeping the connection (and answering what
//! the client sends after it). So on expiry the payload is parked in the
//! request ([`ParkedPayload`]), and the pipeline moves it into the 408's
//! body: it is alive when actix-http has written the response and decides,
//! and actix-http closes, for chunked bodies as for `Content-Length` ones.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpResponse;
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_util::Stream;

pub use crate::spec::DEFAULT_BODY_TIMEOUT;

/// The error a payload read yields after the body timeout (inside a
/// `PayloadError::Io` of kind `TimedOut`).
///
/// ```
/// use problem_core::pipeline::BodyTimedOut;
/// let e = BodyTimedOut { timeout: std::time::Duration::from_secs(30) };
/// assert_eq!(e.to_string(), "the request body was not received within 30 s");
/// let e = BodyTimedOut { timeout: std::time::Duration::from_millis(1500) };
/// assert_eq!(e.to_string(), "the request body was not received within 1500 ms");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the request body was not received within {}", seconds_or_millis(*timeout))]
pub struct BodyTimedOut {
    /// The configured timeout.
    pub timeout: Duration,
}

/// `30 s` for whole seconds, else `1500 ms` (whole milliseconds).
fn seconds_or_millis(timeout: Duration) -> String {
    if timeout.subsec_nanos() == 0 {
        format!("{} s", timeout.as_secs())
    } else {
        format!("{} ms", timeout.as_millis())
    }
}

/// Whether a payload error is the body timeout.
pub(crate) fn is_body_timeout(err: &PayloadError) -> bool {
    is_payload_io::<BodyTimedOut>(err)
}

/// Whether a payload error is an `io::Error` holding an `E` (the errors
/// the pipeline's payload wrappers fail a read with).
pub(crate) fn is_payload_io<E: std::error::Error + 'static>(err: &PayloadError) -> bool {
    if let PayloadError::Io(e) = err {
        e.get_ref()
            .is_some_and(|inner| inner.downcast_ref::<E>().is_some())
    } else {
        false
    }
}

/// Where an expired [`Deadline`] leaves the unfinished payload (a request
/// extension): the pipeline hands it to the 408 ([`ParkedPayload::hold_in`]).
#[derive(Clone, Default)]
pub(crate) struct ParkedPayload(Rc<RefCell<Option<Payload>>>);

impl ParkedPayload {
    /// Sets `rest`, the unread rest of a body, aside for the answer.
    pub(crate) fn park(&self, rest: Payload) {
        *self.0.borrow_mut() = Some(rest);
    }

    /// Whether an unread rest of the body is set aside.
    pub(crate) fn holds(&self) -> bool {
        self.0.borrow().is_some()
    }

    /// `res` with the parked payload, if any, owned by its body: actix-http
    /// decides whether to close when the body has been written, and the
    /// payload must be alive then.
    pub(crate) fn hold_in(&self, res: HttpResponse) -> HttpResponse {
        let parked = self.0.borrow_mut().take();
        match parked {
            Some(payload) => hold_payload(res, payload),
            None => res,
        }
    }
}

/// `res` with `payload`, an unfinished request body, owned by its body:
/// alive when actix-http has written the response, so that it closes the
/// connection instead of reading the rest of a chunked body (see the
/// module's doc). For the 408 and for the 413 of a chunked body over the
/// limit.
pub(crate) fn hold_payload(res: HttpResponse, payload: Payload) -> HttpResponse {
    res.map_body(|_, body| {
        BoxBody::new(Holding {
            body,
            _payload: payload,
        })
    })
}

/// A body that keeps the unfinished payload alive until it is dropped.
struct Holding {
    body: BoxBody,
    _payload: Payload,
}

impl MessageBody for Holding {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_next(cx)
    }
}

/// A payload that fails with [`BodyTimedOut`] once its deadline passes,
/// the timeout counted from its first read.
pub(crate) struct Deadline {
    inner: Payload,
    /// Started by the first read.
    sleep: Option<Pin<Box<actix_web::rt::time::Sleep>>>,
    timeout: Duration,
    expired: bool,
    parked: ParkedPayload,
}

impl Deadline {
    pub(crate) fn new(inner: Payload, timeout: Duration, parked: ParkedPayload) -> Self {
        Self {
            inner,
            sleep: None,
            timeout,
            expired: false,
            parked,
        }
    }
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        let timeout = this.timeout;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(actix_web::rt::time::sleep(timeout)));
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(item) => Poll::Ready(item),
            Poll::Pending => match sleep.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.expired = true;
                    let rest = std::mem::replace(&mut this.inner, Payload::None);
                    *this.parked.0.borrow_mut() = Some(rest);
                    Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        BodyTimedOut {
                            timeout: this.timeout,
                        },
                    )))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
