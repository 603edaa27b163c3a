//! What the three derive crates (`problem-derive`, `query-derive`,
//! `version-macros`) share, as `serde_derive_internals` serves serde's:
//! the collector that reports every mistake of an input at once, and the
//! reading of `#[serde(..)]` attributes with serde's `rename_all` rules,
//! and the "did you mean" rule for a misspelt key.
//! Feature `derive`; not for users (hidden from the docs).

mod rename;
pub mod serde_attr;
mod suggest;

pub use rename::RenameRule;
pub use suggest::closest;

/// Every mistake of one input, combined into one `syn::Error`
/// (`syn::Error::combine`), so the compiler shows them all at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Records a mistake.
    pub fn push(&mut self, err: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    /// `Ok` when nothing was recorded, else every mistake.
    ///
    /// # Errors
    /// The recorded mistakes, combined.
    pub fn finish(self) -> syn::Result<()> {
        match self.0 {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}
