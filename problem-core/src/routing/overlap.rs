//! Paths whose patterns can match the same request (`GET /books/new` and
//! `DELETE /books/{id}` both match `/books/new`): actix-web answers with the
//! first resource whose pattern (and guard) matches, and a resource without
//! a route for the method answers 405 rather than letting a later one try.
//! So the resource of a path that shares requests with another takes only
//! its own methods (a routing guard, [`MethodIn`]): actix-web then tries the
//! next resource that matches. Each refusal is noted in the request, and a
//! request no such resource takes reaches, after all of them, one that
//! answers it (`OPTIONS`: 204; else 405) with the methods of every path that
//! refused it ([`refused_by`]).

use std::sync::Arc;

use actix_web::guard::{Guard, GuardContext};
use actix_web::http::Method;
use actix_web::{HttpMessage, HttpRequest};

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

/// The segments of a normalized path, split at the slashes outside `{..}`
/// (a pattern such as `{name:[^/]+}` holds one).
pub(super) fn segments(path: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut pieces = Vec::new();
    for (i, c) in path.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '/' if depth == 0 => {
                pieces.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&path[start..]);
    pieces.into_iter()
}

/// Whether some request path may match both `a` and `b` (normalized
/// paths). Conservative: `true` unless two static segments differ, or the
/// segment counts differ, before any segment with a pattern of its own
/// (which may take slashes) or a tail.
pub(super) fn may_overlap(a: &str, b: &str) -> bool {
    let (mut sa, mut sb) = (segments(a), segments(b));
    loop {
        let (x, y) = match (sa.next(), sb.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => (x, y),
            (Some(s), None) | (None, Some(s)) => {
                return matches!(Segment::of(s), Segment::Pattern | Segment::Tail);
            }
        };
        match (Segment::of(x), Segment::of(y)) {
            (Segment::Pattern | Segment::Tail, _) | (_, Segment::Pattern | Segment::Tail) => {
                return true;
            }
            (Segment::Static, Segment::Static) => {
                if x != y {
                    return false;
                }
            }
            (Segment::Static | Segment::Param, Segment::Param)
            | (Segment::Param, Segment::Static) => {}
        }
    }
}

/// actix-web's routing guard on the resource of a path that shares
/// requests with another: the request's method is one it takes (else
/// actix-web tries the next resource that matches, and the refusal is
/// noted for [`refused_by`]).
pub(super) struct MethodIn {
    /// The methods this resource answers.
    pub(super) takes: Vec<Method>,
    /// The path's registered methods, for `Allow` (shared with the
    /// requests it refuses, not copied).
    pub(super) registered: Arc<[String]>,
}

/// The registered methods of the paths whose resources refused a request,
/// in the order they were tried.
#[derive(Default)]
struct Refused(Vec<Arc<[String]>>);

impl Guard for MethodIn {
    fn check(&self, ctx: &GuardContext<'_>) -> bool {
        if self.takes.contains(&ctx.head().method) {
            return true;
        }
        let mut data = ctx.req_data_mut();
        if data.get::<Refused>().is_none() {
            data.insert(Refused::default());
        }
        if let Some(refused) = data.get_mut::<Refused>() {
            refused.0.push(self.registered.clone());
        }
        false
    }
}

/// The registered methods of each path whose [`MethodIn`] guard refused
/// `req`, in the order they were tried.
pub(super) fn refused_by(req: &HttpRequest) -> Vec<Arc<[String]>> {
    req.extensions()
        .get::<Refused>()
        .map(|r| r.0.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_split_outside_braces() {
        let s: Vec<&str> = segments("/files/{name:[^/]+}/x").collect();
        assert_eq!(s, ["", "files", "{name:[^/]+}", "x"]);
    }

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
            ("/files/{name:[^/]+}", "/files/{id}", true),
            ("/files/{f:.+\\.pdf}", "/files/a/b", true),
            ("/a/{p:.+/x}", "/a/{b}/x", true),
            ("/a/{p:\\d+}", "/b/{q}", false),
        ] {
            assert_eq!(may_overlap(a, b), overlap, "{a} {b}");
            assert_eq!(may_overlap(b, a), overlap, "{b} {a}");
        }
    }
}
