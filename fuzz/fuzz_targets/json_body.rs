//! The JSON body reader (`pipeline::Body`), into a `serde_json::Value` and
//! into a typed struct with `deny_unknown_fields`, optional members,
//! floats, a small integer, an enum and a nested object.
//!
//! Properties (the crate's hostile-input rules for bodies):
//! - never panics; every refusal is a 400 problem document whose detail is
//!   `Malformed JSON body` or `Request validation failed`;
//! - a body read is UTF-8, one well-formed JSON value with nothing but
//!   whitespace after it, and what it gives holds no non-finite number and
//!   no U+0000; read into a `Value`, it is what `serde_json` reads;
//! - a UTF-8, well-formed document is never `Malformed JSON body`
//!   (syntax is checked before fields, and the other way round);
//! - `Request validation failed` lists at least one issue, each in the
//!   body with a JSON pointer, and comes only from a well-formed document
//!   or one whose only fault is a non-finite token (`NaN`, `Infinity`, ...);
//! - a well-formed `Value` document without U+0000 is read, as `serde_json`
//!   reads it.
#![no_main]

use actix_web::body::to_bytes;
use actix_web::test::TestRequest;
use actix_web::FromRequest;
use libfuzzer_sys::fuzz_target;
use problem_core::pipeline::Body;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Book {
    title: String,
    #[serde(default)]
    year: Option<i32>,
    #[serde(default)]
    price: Option<f64>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    meta: Option<Meta>,
    #[serde(default)]
    genre: Option<Genre>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Genre {
    Fiction,
    Poetry,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Meta {
    rating: f32,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    count: Option<u8>,
}

impl Book {
    fn clean(&self) -> bool {
        let text = |s: &str| !s.contains('\0');
        text(&self.title)
            && self.price.is_none_or(f64::is_finite)
            && self.tags.iter().all(|t| text(t))
            && self.meta.as_ref().is_none_or(|m| {
                m.rating.is_finite() && m.note.as_deref().is_none_or(text)
            })
    }
}

/// Whether a value holds no U+0000 in a string or a member name (a JSON
/// number in a `Value` is always finite).
fn clean(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.contains('\0'),
        Value::Array(items) => items.iter().all(clean),
        Value::Object(members) => members.iter().all(|(k, v)| !k.contains('\0') && clean(v)),
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
    }
}

const NON_FINITE: [&[u8]; 3] = [b"NaN", b"Infinity", b"inf"];

/// The refusal's status and body.
async fn refusal(err: actix_web::Error) -> (u16, Value) {
    let res = err.as_response_error().error_response();
    let status = res.status().as_u16();
    let bytes = to_bytes(res.into_body()).await.unwrap_or_default();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Checks a refusal: its shape, and that its kind fits the document.
fn check_refusal(data: &[u8], utf8: bool, well_formed: bool, status: u16, body: &Value) {
    assert_eq!(status, 400, "{body}");
    let detail = body["detail"].as_str().unwrap_or_default();
    match detail {
        "Malformed JSON body" => {
            assert!(!(utf8 && well_formed), "a well-formed document read as malformed: {body}");
        }
        "Request validation failed" => {
            let issues = body["issues"].as_array().expect("issues");
            assert!(!issues.is_empty(), "{body}");
            for issue in issues {
                assert_eq!(issue["location"], "body", "{body}");
                let name = issue["name"].as_str().expect("name");
                assert!(name.is_empty() || name.starts_with('/'), "{body}");
                assert!(!issue["code"].as_str().unwrap_or_default().is_empty(), "{body}");
            }
            let token = NON_FINITE
                .iter()
                .any(|t| data.windows(t.len()).any(|w| w == *t));
            assert!(
                utf8 && (well_formed || token),
                "a field error in a broken document: {body}"
            );
        }
        other => panic!("unexpected detail {other:?}: {body}"),
    }
}

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static RT: actix_web::rt::Runtime = actix_web::rt::Runtime::new().expect("runtime");
    }
    let utf8 = std::str::from_utf8(data).is_ok();
    let well_formed = serde_json::from_slice::<IgnoredAny>(data).is_ok();
    let request = || {
        TestRequest::post()
            .insert_header(("content-type", "application/json"))
            .set_payload(data.to_vec())
            .to_http_parts()
    };
    RT.with(|rt| {
        rt.block_on(async {
            let (req, mut payload) = request();
            match Body::<Value>::from_request(&req, &mut payload).await {
                Ok(Body(v)) => {
                    assert!(utf8 && well_formed, "read a broken document: {v}");
                    assert!(clean(&v), "read U+0000: {v}");
                    let serde: Value = serde_json::from_slice(data).expect("serde_json reads it");
                    assert_eq!(v, serde);
                }
                Err(err) => {
                    let (status, body) = refusal(err).await;
                    check_refusal(data, utf8, well_formed, status, &body);
                    if let Ok(v) = serde_json::from_slice::<Value>(data) {
                        assert!(!clean(&v), "refused a clean document {v}: {body}");
                    }
                }
            }

            let (req, mut payload) = request();
            match Body::<Book>::from_request(&req, &mut payload).await {
                Ok(Body(book)) => {
                    assert!(utf8 && well_formed, "read a broken document: {book:?}");
                    assert!(book.clean(), "read a non-finite number or U+0000: {book:?}");
                }
                Err(err) => {
                    let (status, body) = refusal(err).await;
                    check_refusal(data, utf8, well_formed, status, &body);
                }
            }
        })
    });
});
