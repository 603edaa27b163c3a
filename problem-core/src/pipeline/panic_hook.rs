//! Panics the pipeline catches write nothing but their one log line
//! (hostile-input rule "Panics"): the process's panic hook is told, for
//! the thread it runs on, whether the panic will be caught.
//!
//! Rust reports a panic through the process-wide panic hook before it
//! unwinds; the default hook writes the message (and, with
//! `RUST_BACKTRACE`, a backtrace) to stderr. The hook installed here stays
//! silent for a panic raised while the pipeline or the route table polls a
//! request's future on this thread ([`Catching`]) and keeps its location
//! for the development `stack`; every other panic goes to the hook that
//! was installed before. A per-thread counter is the only context a panic
//! hook has: it receives nothing but the panic.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::sync::Once;
use std::task::{Context, Poll};

thread_local! {
    /// How many [`Catching`] polls are running on this thread.
    static CATCHING: Cell<u32> = const { Cell::new(0) };
    /// The location of the last panic caught on this thread.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static INSTALL: Once = Once::new();

/// Installs, once per process, the panic hook that keeps the panics the
/// pipeline catches off stderr (their log line is written by the pipeline,
/// with a correlation id) and hands every other panic to the hook that was
/// installed before. [`PipelineBuilder::build`](super::PipelineBuilder::build)
/// calls it; calling it again does nothing.
///
/// ```
/// problem_core::pipeline::install_panic_hook();
/// problem_core::pipeline::install_panic_hook(); // once only
/// ```
pub fn install_panic_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) > 0 {
                let location = info.location().map(ToString::to_string);
                LOCATION.with(|slot| *slot.borrow_mut() = location);
            } else {
                previous(info);
            }
        }));
    });
}

/// The location (`file:line:column`) of the last panic caught on this
/// thread, taken.
pub(crate) fn take_panic_location() -> Option<String> {
    LOCATION.with(|slot| slot.borrow_mut().take())
}

/// Runs `f` (the application's code the pipeline calls outside a request's
/// future: an error's `Display` or `error_response`, an exception filter,
/// the logger) and catches a panic in it, as the request's future is
/// caught: silent on stderr, its location kept for the development `stack`.
pub(crate) fn catch_sync<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    let _polling = Polling::enter();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
}

/// Marks this thread as catching panics while the inner future is polled:
/// wrap the `catch_unwind` future in it.
pub(crate) struct Catching<F>(pub(crate) F);

/// Decrements the counter when a poll ends, unwinding included.
struct Polling;

impl Polling {
    fn enter() -> Self {
        CATCHING.with(|c| c.set(c.get().saturating_add(1)));
        Polling
    }
}

impl Drop for Polling {
    fn drop(&mut self) {
        CATCHING.with(|c| c.set(c.get().saturating_sub(1)));
    }
}

impl<F: Future + Unpin> Future for Catching<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let _polling = Polling::enter();
        Pin::new(&mut self.0).poll(cx)
    }
}
