//! Paths whose patterns can match the same request (`GET /books/new` and
//! `DELETE /books/{id}` both match `/books/new`): actix-web answers with the
//! first resource whose pattern matches, and a resource without a route for
//! the method answers 405 rather than letting a later one try. So a
//! resource that shares requests with another gets a guard on its methods
//! (actix-web then tries the next resource that matches), and the 405 of a
//! path no resource takes the method for is answered by the table's
//! default service, with the methods of every path that matches.

use actix_web::guard::{Guard, GuardContext};
use actix_web::http::Method;

/// What a path segment matches, in the order resources are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Segment {
    /// Text only (`books`): that text.
    Static,
    /// A parameter with a pattern, or text and a parameter (`{id:\d+}`,
    /// `{id}.json`).
    Pattern,
    /// A plain parameter (`{id}`): any non-empty segment.
    Param,
    /// A tail (`{rest}*`) or a pattern that can take any text, slashes
    /// included (`{path:.*}`, `{rest:.+}`): the rest of the path.
    Tail,
}

impl Segment {
    pub(super) fn of(seg: &str) -> Self {
        if !seg.contains('{') {
            Self::Static
        } else if seg.ends_with("}*") || seg.contains(":.*}") || seg.contains(":.+}") {
            Self::Tail
        } else if seg.starts_with('{')
            && seg.ends_with('}')
            && !seg[1..seg.len() - 1].contains(['{', '}', ':'])
        {
            Self::Param
        } else {
            Self::Pattern
        }
    }
}

/// Whether some request path may match both `a` and `b` (normalized
/// paths). Conservative: `true` unless two static segments differ, or the
/// segment counts differ without a tail.
pub(super) fn may_overlap(a: &str, b: &str) -> bool {
    let (mut sa, mut sb) = (a.split('/'), b.split('/'));
    loop {
        match (sa.next(), sb.next()) {
            (None, None) => return true,
            (Some(x), _) if Segment::of(x) == Segment::Tail => return true,
            (_, Some(y)) if Segment::of(y) == Segment::Tail => return true,
            (None, Some(_)) | (Some(_), None) => return false,
            (Some(x), Some(y)) => {
                if Segment::of(x) == Segment::Static && Segment::of(y) == Segment::Static && x != y
                {
                    return false;
                }
            }
        }
    }
}

/// Whether every request path `inner` matches is matched by `outer` too
/// (normalized paths): segment by segment, the same text, a plain
/// parameter in `outer` over any non-empty segment of `inner`, the same
/// pattern (parameter names aside), or a tail in `outer` over the rest.
pub(super) fn covers(outer: &str, inner: &str) -> bool {
    let (mut so, mut si) = (outer.split('/'), inner.split('/'));
    loop {
        match (so.next(), si.next()) {
            (None, None) => return true,
            (Some(y), _) if Segment::of(y) == Segment::Tail => return true,
            (None, Some(_)) | (Some(_), None) => return false,
            (Some(y), Some(x)) => {
                let fits = match Segment::of(y) {
                    Segment::Static => x == y,
                    Segment::Param => !x.is_empty() && Segment::of(x) != Segment::Tail,
                    Segment::Pattern => super::shape(x) == super::shape(y),
                    Segment::Tail => true,
                };
                if !fits {
                    return false;
                }
            }
        }
    }
}

/// actix-web's routing guard on a resource: the request's method is one of
/// these (else actix-web tries the next resource whose pattern matches).
pub(super) struct MethodIn(pub(super) Vec<Method>);

impl Guard for MethodIn {
    fn check(&self, ctx: &GuardContext<'_>) -> bool {
        self.0.contains(&ctx.head().method)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_paths() {
        for (a, b, overlap) in [
            ("/books/new", "/books/{id}", true),
            ("/books/{id:\\d+}", "/books/{id}", true),
            ("/books/{id}/cover", "/books/{id}", false),
            ("/books/new", "/books/old", false),
            ("/books/new", "/authors/{id}", false),
            ("/api/about", "/api/{rest}*", true),
            ("/api/a/b/c", "/api/{rest}*", true),
            ("/api/a/b/c", "/{p:.*}", true),
            ("/", "/books", false),
            ("/{lang}/about", "/api/{rest}*", true),
        ] {
            assert_eq!(may_overlap(a, b), overlap, "{a} {b}");
            assert_eq!(may_overlap(b, a), overlap, "{b} {a}");
        }
    }

    #[test]
    fn covering_paths() {
        for (outer, inner, covered) in [
            ("/books/{id}", "/books/new", true),
            ("/books/{id}", "/books/{isbn:\\d+}", true),
            ("/books/{id:\\d+}", "/books/new", false),
            ("/books/{id:\\d+}", "/books/{n:\\d+}", true),
            ("/books/{id}", "/books/{id}/cover", false),
            ("/api/{rest}*", "/api/a/b", true),
            ("/api/{rest}*", "/books", false),
            ("/{lang}/about", "/api/{rest}*", false),
            ("/books/new", "/books/{id}", false),
        ] {
            assert_eq!(covers(outer, inner), covered, "{outer} {inner}");
        }
    }
}
