//! What a route's handler extracts, known when the route is added, so that
//! a handler needing setup the application lacks is an error at build, not
//! a 500 at run time.
//!
//! A handler's arguments are a tuple type (`(web::Path<u32>, ApiVersion)`);
//! Rust cannot ask a type parameter for its elements without a bound every
//! caller would have to repeat (generic wrappers over `Routes::get`, a
//! handler type implementing `Handler<HttpRequest>`), so the tuple's type
//! name is read instead. A name in an unexpected shape only loses the
//! check (the request-time 500 stays), never refuses a handler wrongly: no
//! other type is named like `ApiVersion`.

use std::any::type_name;

use crate::version::ApiVersion;

/// Whether a handler with arguments `Args` takes the [`ApiVersion`]
/// extractor itself (not `Option<ApiVersion>`, which is served without a
/// version).
pub(crate) fn takes_api_version<Args: 'static>() -> bool {
    takes(type_name::<Args>(), type_name::<ApiVersion>())
}

/// Whether the tuple type named `args` (or `args` itself) is `target`.
fn takes(args: &str, target: &str) -> bool {
    if args == target {
        return true;
    }
    let Some(inner) = args.strip_prefix('(').and_then(|a| a.strip_suffix(')')) else {
        return false;
    };
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                if inner[start..i].trim() == target {
                    return true;
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    inner[start..].trim() == target
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::{HttpRequest, web};

    #[test]
    fn finds_the_extractor_among_the_arguments() {
        assert!(takes_api_version::<(ApiVersion,)>());
        assert!(takes_api_version::<(web::Path<(u32, String)>, ApiVersion)>());
        assert!(takes_api_version::<(ApiVersion, HttpRequest)>());
        assert!(takes_api_version::<ApiVersion>());
        assert!(!takes_api_version::<(Option<ApiVersion>,)>());
        assert!(!takes_api_version::<(Result<ApiVersion, actix_web::Error>,)>());
        assert!(!takes_api_version::<(web::Data<ApiVersion>, HttpRequest)>());
        assert!(!takes_api_version::<()>());
        assert!(!takes_api_version::<HttpRequest>());
    }
}
