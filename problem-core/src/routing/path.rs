//! Request paths as actix-web's router matches them.

use std::borrow::Cow;
use std::sync::LazyLock;

use actix_router::Quoter;

/// The bytes of a request path as actix-web's router matches it: every
/// `%XX` decoded but `%25`, `%2F` and `%2B` (actix-router's default
/// `Quoter`). `None` when nothing decodes.
pub(crate) fn routed_bytes(path: &str) -> Option<Vec<u8>> {
    static QUOTER: LazyLock<Quoter> = LazyLock::new(|| Quoter::new(b"", b"%/+"));
    QUOTER.requote(path.as_bytes())
}

/// A request path as actix-web's router matches it ([`routed_bytes`],
/// bytes that are not UTF-8 replaced, as the router does), borrowed when
/// nothing decodes.
pub(crate) fn routed_path(path: &str) -> Cow<'_, str> {
    match routed_bytes(path) {
        None => Cow::Borrowed(path),
        Some(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
    }
}
