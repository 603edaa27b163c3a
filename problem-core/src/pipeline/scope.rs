//! Whether the error pipeline is installed around a route table: set once,
//! at application setup, when the pipeline's middleware is built around
//! the application's services; read by the route table's 404 and 405
//! answers, which then leave their documents to the pipeline.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag a [`Pipeline`](super::Pipeline) sets when its middleware is
/// built (actix-web builds every middleware before the first request) and
/// a route table is given at registration
/// ([`ProblemApp::configure`](crate::server::ProblemApp::configure) gives
/// it its own pipeline's flag). Unset, the route table answers its 404 and
/// 405 with their standalone documents; set, with the status and a marker
/// only, and the pipeline renders the document once, with `instance`.
#[derive(Debug, Clone, Default)]
pub(crate) struct PipelineInstalled(Arc<AtomicBool>);

impl PipelineInstalled {
    /// Marks the pipeline as installed.
    pub(crate) fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the pipeline is installed.
    pub(crate) fn get(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
