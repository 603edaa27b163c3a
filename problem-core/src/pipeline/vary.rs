//! [`merge_vary`]: adds field names to a response's `Vary` (RFC 9110
//! §12.5.5) without losing the ones already there.

use actix_web::http::header::{self, HeaderMap, HeaderValue};

/// Adds the field names of `names` (a comma-separated list, e.g.
/// `X-API-Version, Accept`) to the `Vary` of `headers` (RFC 9110 §12.5.5):
/// the names already listed (compared case-insensitively, over every
/// `Vary` line) are kept in their order, the missing ones appended, and
/// the result written as one `Vary` line. A `Vary: *` is left alone (it
/// already covers every field).
///
/// ```
/// use actix_web::http::header::{HeaderMap, HeaderValue, VARY};
/// use problem_core::pipeline::merge_vary;
///
/// let mut h = HeaderMap::new();
/// merge_vary(&mut h, &HeaderValue::from_static("X-API-Version, Accept"));
/// assert_eq!(h.get(VARY).unwrap(), "X-API-Version, Accept");
///
/// let mut h = HeaderMap::new();
/// h.insert(VARY, HeaderValue::from_static("Origin, accept"));
/// merge_vary(&mut h, &HeaderValue::from_static("X-API-Version, Accept"));
/// assert_eq!(h.get(VARY).unwrap(), "Origin, accept, X-API-Version");
/// assert_eq!(h.get_all(VARY).count(), 1);
/// ```
pub fn merge_vary(headers: &mut HeaderMap, names: &HeaderValue) {
    let Ok(added) = names.to_str() else {
        return;
    };
    if !headers.contains_key(header::VARY) {
        headers.insert(header::VARY, names.clone());
        return;
    }
    let mut listed: Vec<String> = Vec::new();
    for line in headers.get_all(header::VARY) {
        let Ok(line) = line.to_str() else {
            // An unreadable existing line: keep it as it is, add ours beside it.
            headers.append(header::VARY, names.clone());
            return;
        };
        for name in line.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "*" {
                return;
            }
            if !listed.iter().any(|l| l.eq_ignore_ascii_case(name)) {
                listed.push(name.to_owned());
            }
        }
    }
    for name in added.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !listed.iter().any(|l| l.eq_ignore_ascii_case(name)) {
            listed.push(name.to_owned());
        }
    }
    if let Ok(value) = HeaderValue::from_str(&listed.join(", ")) {
        headers.insert(header::VARY, value);
    }
}
