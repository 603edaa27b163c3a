//! Whether an error pipeline is polling its inner service on this thread
//! (the route table then leaves its 404 and 405 documents to it).

thread_local! {
    /// How many error pipelines are polling their inner service on this
    /// thread right now (see [`PipelineScope`]).
    static PIPELINES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Marks the polling of a pipeline's inner service on this thread: while a
/// scope is alive, an error returned by the route table is rendered by the
/// pipeline, so the route table need not render it first
/// (`problem::Deferred`).
pub(crate) struct PipelineScope(());

impl PipelineScope {
    pub(crate) fn enter() -> Self {
        PIPELINES.with(|p| p.set(p.get().saturating_add(1)));
        Self(())
    }
}

impl Drop for PipelineScope {
    fn drop(&mut self) {
        PIPELINES.with(|p| p.set(p.get().saturating_sub(1)));
    }
}

/// Whether an error pipeline is polling its inner service on this thread.
pub(crate) fn inside_pipeline() -> bool {
    PIPELINES.with(|p| p.get() > 0)
}
