//! The error pipeline: every failure becomes a problem document, 5xx are
//! masked outside development and logged under a correlation id
//! (spec, "Errors", "Request handling rules").

mod sticky;

pub use sticky::{StickyHeaders, add_sticky_headers};
