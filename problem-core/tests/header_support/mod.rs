//! Header lists compared whole: a response's headers and the expected ones,
//! each as sorted `(name, value)` pairs.

use actix_web::dev::ServiceResponse;

/// Every header of `res`, as sorted `(name, value)` pairs.
pub(crate) fn headers<B>(res: &ServiceResponse<B>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = res
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
        .collect();
    out.sort();
    out
}

/// `list` as sorted `(name, value)` pairs, to compare with [`headers`].
pub(crate) fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = list
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    out.sort();
    out
}
