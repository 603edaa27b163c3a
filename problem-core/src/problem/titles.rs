//! Status titles: the spec's `STATUS_TITLES` table and the title fallback rule.

use actix_web::http::StatusCode;

/// The titles the service spec fixes for its built-in exceptions, plus
/// `413 Content Too Large` and `421 Misdirected Request`
/// (spec, "HTTP exception", `STATUS_TITLES`).
///
/// Pairs of `(status, title)`, sorted by status. Use [`status_title`] to
/// apply the full fallback rule.
///
/// ```
/// use problem_core::STATUS_TITLES;
/// assert!(STATUS_TITLES.contains(&(422, "Unprocessable Content")));
/// ```
pub const STATUS_TITLES: &[(u16, &str)] = &[
    (400, "Bad Request"),
    (401, "Unauthorized"),
    (403, "Forbidden"),
    (404, "Not Found"),
    (405, "Method Not Allowed"),
    (409, "Conflict"),
    (413, "Content Too Large"),
    (415, "Unsupported Media Type"),
    (421, "Misdirected Request"),
    (422, "Unprocessable Content"),
    (429, "Too Many Requests"),
    (500, "Internal Server Error"),
    (503, "Service Unavailable"),
];

/// The default title of a status: its [`STATUS_TITLES`] entry, else the
/// standard reason phrase (`http::StatusCode::canonical_reason`), else
/// `"Error"` (spec, "HTTP exception", option `title`).
///
/// ```
/// use problem_core::status_title;
/// assert_eq!(status_title(413), "Content Too Large");
/// assert_eq!(status_title(502), "Bad Gateway");
/// assert_eq!(status_title(499), "Error");
/// ```
pub fn status_title(status: u16) -> &'static str {
    if let Ok(i) = STATUS_TITLES.binary_search_by_key(&status, |(s, _)| *s)
        && let Some((_, title)) = STATUS_TITLES.get(i)
    {
        return title;
    }
    StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(STATUS_TITLES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn every_spec_title() {
        let expected = [
            (400, "Bad Request"),
            (401, "Unauthorized"),
            (403, "Forbidden"),
            (404, "Not Found"),
            (405, "Method Not Allowed"),
            (409, "Conflict"),
            (413, "Content Too Large"),
            (415, "Unsupported Media Type"),
            (421, "Misdirected Request"),
            (422, "Unprocessable Content"),
            (429, "Too Many Requests"),
            (500, "Internal Server Error"),
            (503, "Service Unavailable"),
            (502, "Bad Gateway"),
            (504, "Gateway Timeout"),
            (410, "Gone"),
            (499, "Error"),
            (599, "Error"),
        ];
        for (status, title) in expected {
            assert_eq!(status_title(status), title, "status {status}");
        }
    }
}
