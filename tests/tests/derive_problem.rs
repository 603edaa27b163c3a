//! `#[derive(Problem)]`: every feature, with whole problem bodies compared
//! exactly (issue 2; spec "HTTP exception": user-defined subclasses).

use std::collections::HashMap;
use std::error::Error as _;
use std::fmt;

use actix_web::ResponseError;
use actix_web::body::MessageBody;
use problem_core::{Problem, ProblemBuildError, ProblemExt};
use serde::Serialize;

/// The problem body of `p` for `instance`, as a JSON string.
fn body<P: Problem>(p: &P, instance: &str) -> String {
    serde_json::to_string(&p.to_problem(instance).unwrap()).unwrap()
}

fn header_list<P: Problem>(p: &P) -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = p
        .headers()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
        .collect();
    list.sort();
    list
}

// ---------------------------------------------------------------- structs

#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
struct DuplicateIsbn {
    isbn: String,
    #[problem(skip)]
    internal_id: i64,
}

#[test]
fn issue_example_body_name_message() {
    let err = DuplicateIsbn {
        isbn: "978-3-16-148410-0".into(),
        internal_id: 42,
    };
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"/problems/duplicate-isbn","title":"Conflict","status":409,"detail":"A book with ISBN 978-3-16-148410-0 already exists","instance":"/books","isbn":"978-3-16-148410-0"}"#
    );
    assert_eq!(err.name(), "DuplicateIsbn");
    assert_eq!(
        err.to_string(),
        "A book with ISBN 978-3-16-148410-0 already exists"
    );
    assert_eq!(err.status().as_u16(), 409);
    assert_eq!(err.problem_type(), "/problems/duplicate-isbn");
    assert_eq!(err.title(), "Conflict");
    assert_eq!(
        err.detail().as_deref(),
        Some("A book with ISBN 978-3-16-148410-0 already exists")
    );
    assert!(err.source().is_none());
    assert!(Problem::cause(&err).is_none());
    assert!(err.headers().unwrap().is_empty());
    assert_eq!(err.internal_id, 42);
    assert_eq!(ResponseError::status_code(&err).as_u16(), 409);
}

#[derive(Debug, Problem)]
#[problem(status = 502)]
struct UpstreamDown;

#[derive(Debug, Problem)]
#[problem(status = 499)]
struct ClientClosed {}

#[derive(Debug, Problem)]
#[problem(status = 422)]
struct Unprocessable();

#[test]
fn defaults_title_from_status_type_about_blank_message_is_title() {
    assert_eq!(
        body(&UpstreamDown, "/x"),
        r#"{"type":"about:blank","title":"Bad Gateway","status":502,"instance":"/x"}"#
    );
    assert_eq!(UpstreamDown.to_string(), "Bad Gateway");
    assert_eq!(UpstreamDown.detail(), None);
    assert_eq!(UpstreamDown.name(), "UpstreamDown");

    assert_eq!(
        body(&ClientClosed {}, ""),
        r#"{"type":"about:blank","title":"Error","status":499,"instance":""}"#
    );
    assert_eq!(ClientClosed {}.to_string(), "Error");

    assert_eq!(
        body(&Unprocessable(), "/y"),
        r#"{"type":"about:blank","title":"Unprocessable Content","status":422,"instance":"/y"}"#
    );
}

#[derive(Debug, Serialize)]
struct Money {
    amount: u64,
    currency: &'static str,
}

#[derive(Debug, Problem)]
#[problem(status = 402, detail = "Balance {balance:.2} is below {price:?}")]
struct OutOfCredit {
    balance: f64,
    #[problem(rename = "accountPrice")]
    price: Money,
    #[problem(rename = "accounts")]
    account_ids: Vec<u32>,
    note: Option<String>,
    tags: HashMap<String, u8>,
}

#[test]
fn extensions_in_field_order_with_rename_and_option() {
    let mut err = OutOfCredit {
        balance: 4.256,
        price: Money {
            amount: 10,
            currency: "EUR",
        },
        account_ids: vec![1, 2],
        note: None,
        tags: HashMap::new(),
    };
    assert_eq!(
        body(&err, "/pay"),
        r#"{"type":"about:blank","title":"Payment Required","status":402,"detail":"Balance 4.26 is below Money { amount: 10, currency: \"EUR\" }","instance":"/pay","balance":4.256,"accountPrice":{"amount":10,"currency":"EUR"},"accounts":[1,2],"tags":{}}"#
    );
    err.note = Some("call us".into());
    err.tags.insert("vip".into(), 1);
    assert_eq!(
        serde_json::Value::Object(err.extensions().unwrap()),
        serde_json::json!({
            "balance": 4.256,
            "accountPrice": {"amount": 10, "currency": "EUR"},
            "accounts": [1, 2],
            "note": "call us",
            "tags": {"vip": 1}
        })
    );
}

#[derive(Debug, Problem)]
#[problem(status = 404, detail = "Book {0} not found in {1:?} ({{{2}}})")]
struct BookNotFound(u64, &'static str, #[problem(rename = "shelf")] char);

#[test]
fn tuple_fields_are_usable_in_detail_and_only_renamed_ones_are_extensions() {
    let err = BookNotFound(7, "main", 'B');
    assert_eq!(err.to_string(), r#"Book 7 not found in "main" ({B})"#);
    assert_eq!(
        body(&err, "/books/7"),
        r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found in \"main\" ({B})","instance":"/books/7","shelf":"B"}"#
    );
    assert_eq!(err.name(), "BookNotFound");
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "[{code:>width$}] {code:#06x}")]
struct Padded {
    code: u32,
    #[problem(skip)]
    width: usize,
}

#[test]
fn detail_format_specs_and_width_from_a_field() {
    let err = Padded { code: 42, width: 5 };
    assert_eq!(err.to_string(), "[   42] 0x002a");
    assert_eq!(
        body(&err, "/p"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"[   42] 0x002a","instance":"/p","code":42}"#
    );
}

// ------------------------------------------------------- reserved members

// Extension members named like standard members, from a field or added at
// run time, follow the spec's two rules (a `rename` to such a name is the
// compile error of the trybuild case problem/rename_standard_member).
#[derive(Debug, Problem)]
#[problem(status = 400)]
struct PlainBadRequest {
    other: bool,
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "real detail, type {kind}")]
struct WithDetail {
    #[problem(skip)]
    kind: &'static str,
}

/// Fields named like standard members, no `rename`: extension members so
/// named, under the same two rules.
#[derive(Debug, Problem)]
#[problem(status = 409, type = "/problems/duplicate-isbn")]
struct DuplicateBook {
    isbn: String,
    title: String,
}

/// A field named like a standard member among others: the others keep
/// their order.
#[derive(Debug, Problem)]
#[problem(status = 400)]
struct TitleAmongOthers {
    first: u8,
    title: String,
    second: u8,
    third: u8,
}

#[derive(Debug, Problem)]
enum OrderError {
    #[problem(status = 409, detail = "Order {id} cannot be cancelled")]
    NotCancellable { id: u64, status: String },
    #[problem(status = 422)]
    Rejected { detail: String, r#type: String },
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "real detail")]
struct DetailFieldGivesWay {
    detail: String,
    instance: String,
}

#[test]
fn fields_named_like_standard_members_follow_the_two_rules() {
    let dup = DuplicateBook {
        isbn: "978-0".into(),
        title: "Dune".into(),
    };
    // Rule 1: the `title` member is the problem's title.
    assert_eq!(
        body(&dup, "/books"),
        r#"{"type":"/problems/duplicate-isbn","title":"Conflict","status":409,"instance":"/books","isbn":"978-0"}"#
    );
    // The other members stay in field order.
    let among = TitleAmongOthers {
        first: 1,
        title: "ignored".into(),
        second: 2,
        third: 3,
    };
    assert_eq!(
        body(&among, "/r"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"instance":"/r","first":1,"second":2,"third":3}"#
    );
    let err = OrderError::NotCancellable {
        id: 7,
        status: "shipped".into(),
    };
    assert_eq!(
        body(&err, "/orders/7"),
        r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"Order 7 cannot be cancelled","instance":"/orders/7","id":7}"#
    );
    // Rule 2: with no detail, the `detail` member stands (in the detail's
    // place); the message is still the title.
    let err = OrderError::Rejected {
        detail: "the card was declined".into(),
        r#type: "card".into(),
    };
    assert_eq!(
        body(&err, "/orders"),
        r#"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"the card was declined","instance":"/orders"}"#
    );
    assert_eq!(err.to_string(), "Unprocessable Content");
    // With a detail, the `detail` member gives way; `instance` always does.
    let err = DetailFieldGivesWay {
        detail: "from the field".into(),
        instance: "/elsewhere".into(),
    };
    assert_eq!(
        body(&err, "/r"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"real detail","instance":"/r"}"#
    );
    // The problem type pages list the members that reach the body.
    use problem_core::DocumentedProblem;
    let members = |docs: Vec<problem_core::ProblemTypeDoc>| -> Vec<Vec<&'static str>> {
        docs.iter()
            .map(|d| d.members.iter().map(|m| m.name).collect())
            .collect()
    };
    assert_eq!(members(DuplicateBook::problem_type_docs()), [["isbn"]]);
    assert_eq!(
        members(OrderError::problem_type_docs()),
        [["id"], ["detail"]]
    );
    assert_eq!(
        members(DetailFieldGivesWay::problem_type_docs()),
        [Vec::<&str>::new()]
    );
    // And so does the OpenAPI schema: `title` stays the single title.
    use problem_core::openapi::utoipa::PartialSchema;
    let schema = serde_json::to_value(DuplicateBook::schema()).unwrap();
    assert_eq!(
        schema["properties"]["title"]["enum"],
        serde_json::json!(["Conflict"])
    );
    assert_eq!(
        schema["required"],
        serde_json::json!(["type", "title", "status", "instance", "isbn"])
    );
}

#[test]
fn extension_members_named_like_standard_members_follow_the_two_rules() {
    let err = PlainBadRequest { other: true }
        .customize()
        .with_extension("type", "fake")
        .with_extension("title", "fake")
        .with_extension("status", 999)
        .with_extension("instance", "fake")
        .with_extension("detail", "from extension");
    // Rule 1: type/title/status/instance are overwritten; rule 2: `detail`
    // stands when the problem has no detail.
    assert_eq!(
        body(&err, "/r"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"from extension","instance":"/r","other":true}"#
    );
    // The message is still the title: an extension is not the detail.
    assert_eq!(err.to_string(), "Bad Request");

    let err = WithDetail { kind: "fake" }
        .customize()
        .with_extension("type", "fake")
        .with_extension("detail", "from extension");
    assert_eq!(
        body(&err, "/r"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"real detail, type fake","instance":"/r"}"#
    );
}

// ------------------------------------------------------------------ source

#[derive(Debug)]
struct DbError;
impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection refused: postgres://app:s3cret@db:5432")
    }
}
impl std::error::Error for DbError {}

#[derive(Debug, Problem)]
#[problem(status = 503, detail = "Storage unavailable")]
struct StorageDown {
    source: DbError,
    shard: u8,
}

#[derive(Debug, Problem)]
#[problem(status = 500)]
struct Wrapped {
    #[problem(source)]
    cause: Box<dyn std::error::Error + Send + Sync>,
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "bad input: {0:?}")]
struct BadInput(#[problem(source)] Option<std::num::ParseIntError>);

#[derive(Debug, Problem)]
#[problem(status = 400)]
struct SourceAsData {
    #[problem(rename = "source")]
    source: String,
}

#[test]
fn source_is_the_cause_and_never_serialized() {
    let err = StorageDown {
        source: DbError,
        shard: 3,
    };
    assert_eq!(
        err.source().unwrap().to_string(),
        "connection refused: postgres://app:s3cret@db:5432"
    );
    assert!(Problem::cause(&err).unwrap().is::<DbError>());
    assert_eq!(
        body(&err, "/s"),
        r#"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Storage unavailable","instance":"/s","shard":3}"#
    );

    let err = Wrapped {
        cause: "disk full".into(),
    };
    assert_eq!(err.source().unwrap().to_string(), "disk full");
    assert_eq!(
        body(&err, "/w"),
        r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":"/w"}"#
    );

    let parse_err = "x".parse::<u8>().unwrap_err();
    let err = BadInput(Some(parse_err.clone()));
    assert_eq!(err.source().unwrap().to_string(), parse_err.to_string());
    assert!(BadInput(None).source().is_none());
}

#[test]
fn a_renamed_field_called_source_is_data() {
    let err = SourceAsData {
        source: "import".into(),
    };
    assert!(err.source().is_none());
    assert_eq!(
        body(&err, "/i"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"instance":"/i","source":"import"}"#
    );
}

// ----------------------------------------------------------------- headers

#[derive(Debug, Problem)]
#[problem(status = 429, detail = "Try again in {retry_after} seconds")]
struct RateLimited {
    #[problem(header = "Retry-After")]
    retry_after: u32,
    #[problem(header = "X-RateLimit-Policy")]
    policy: Option<String>,
    limit: u32,
}

#[test]
fn header_fields_are_headers_not_extensions() {
    let err = RateLimited {
        retry_after: 30,
        policy: Some("100;w=60".into()),
        limit: 100,
    };
    assert_eq!(
        header_list(&err),
        vec![
            ("retry-after".to_owned(), "30".to_owned()),
            ("x-ratelimit-policy".to_owned(), "100;w=60".to_owned()),
        ]
    );
    assert_eq!(
        body(&err, "/api"),
        r#"{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"Try again in 30 seconds","instance":"/api","limit":100}"#
    );
    let err = RateLimited {
        retry_after: 5,
        policy: None,
        limit: 1,
    };
    assert_eq!(
        header_list(&err),
        vec![("retry-after".to_owned(), "5".to_owned())]
    );
}

#[derive(Debug, Problem)]
#[problem(status = 401)]
struct Unauthenticated {
    #[problem(header = "WWW-Authenticate")]
    challenge: String,
}

#[test]
fn an_invalid_header_value_is_an_error_not_a_panic() {
    let err = Unauthenticated {
        challenge: "Bearer\r\nSet-Cookie: x=1".into(),
    };
    assert!(matches!(
        err.headers(),
        Err(ProblemBuildError::Header { .. })
    ));
    let res = err.error_response();
    assert_eq!(res.status().as_u16(), 500);
    assert_eq!(
        res.into_body().try_into_bytes().unwrap(),
        r#"{"type":"about:blank","title":"Internal Server Error","status":500,"instance":""}"#
    );
    let ok = Unauthenticated {
        challenge: r#"Bearer realm="books""#.into(),
    };
    assert_eq!(
        header_list(&ok),
        vec![(
            "www-authenticate".to_owned(),
            r#"Bearer realm="books""#.to_owned()
        )]
    );
}

// ------------------------------------------------- serialization failure

#[derive(Debug, Problem)]
#[problem(status = 400)]
struct Unserializable {
    bad: HashMap<(u8, u8), u8>,
}

#[test]
fn an_extension_that_fails_to_serialize_is_an_error_not_a_panic() {
    let err = Unserializable {
        bad: [((1, 2), 3)].into(),
    };
    match err.extensions() {
        Err(ProblemBuildError::Extension { key, .. }) => assert_eq!(key, "bad"),
        other => panic!("expected an extension error, got {other:?}"),
    }
    assert!(err.to_problem("/u").is_err());
    let res = err.error_response();
    assert_eq!(res.status().as_u16(), 500);
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "application/problem+json; charset=utf-8"
    );
}

// ------------------------------------------------------------------- enums

#[derive(Debug, Problem)]
#[problem(status = 400, type = "/problems/catalog", title = "Catalog error")]
enum CatalogError {
    #[problem(status = 404, title = "Not Found", detail = "Book {0} not found")]
    BookNotFound(u64),
    #[problem(detail = "Title {title:?} is too long ({len} > {max})")]
    TitleTooLong {
        #[problem(skip)]
        title: String,
        len: usize,
        max: usize,
    },
    #[problem(status = 503, type = "/problems/maintenance")]
    Maintenance {
        #[problem(header = "Retry-After")]
        retry_after: u32,
    },
    #[problem(
        status = 500,
        title = "Internal Server Error",
        detail = "Storage failed"
    )]
    Storage(#[problem(source)] DbError),
}

#[test]
fn enum_variants_with_enum_level_defaults() {
    let err = CatalogError::BookNotFound(7);
    assert_eq!(
        body(&err, "/books/7"),
        r#"{"type":"/problems/catalog","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/books/7"}"#
    );
    assert_eq!(err.name(), "CatalogError");
    assert_eq!(err.to_string(), "Book 7 not found");

    let err = CatalogError::TitleTooLong {
        title: "Long".into(),
        len: 300,
        max: 255,
    };
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"/problems/catalog","title":"Catalog error","status":400,"detail":"Title \"Long\" is too long (300 > 255)","instance":"/books","len":300,"max":255}"#
    );

    let err = CatalogError::Maintenance { retry_after: 120 };
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"/problems/maintenance","title":"Catalog error","status":503,"instance":"/books"}"#
    );
    assert_eq!(err.to_string(), "Catalog error");
    assert_eq!(
        header_list(&err),
        vec![("retry-after".to_owned(), "120".to_owned())]
    );
    assert!(err.source().is_none());

    let err = CatalogError::Storage(DbError);
    assert!(err.source().unwrap().is::<DbError>());
    assert_eq!(err.status().as_u16(), 500);
    assert_eq!(err.to_string(), "Storage failed");
    assert!(header_list(&err).is_empty());
}

#[derive(Debug, Problem)]
enum Empty {}

#[test]
fn an_empty_enum_derives() {
    fn assert_problem<P: Problem>() {}
    assert_problem::<Empty>();
}

// ---------------------------------------------------------------- generics

#[derive(Debug, Problem)]
#[problem(status = 409, detail = "{resource} {id} already exists")]
struct AlreadyExists<Id> {
    #[problem(skip)]
    resource: &'static str,
    id: Id,
}

#[derive(Debug, Problem)]
#[problem(status = 502, detail = "Upstream {name} failed")]
struct UpstreamFailed<E>
where
    E: std::error::Error + Send + Sync + 'static,
{
    name: String,
    #[problem(source)]
    error: E,
}

#[test]
fn generic_types() {
    let err = AlreadyExists {
        resource: "Book",
        id: 7_u64,
    };
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"Book 7 already exists","instance":"/books","id":7}"#
    );
    assert_eq!(err.name(), "AlreadyExists");
    let err = AlreadyExists {
        resource: "Author",
        id: "tolkien".to_owned(),
    };
    assert_eq!(err.to_string(), "Author tolkien already exists");

    let err = UpstreamFailed {
        name: "isbn-db".into(),
        error: DbError,
    };
    assert!(err.source().unwrap().is::<DbError>());
    assert_eq!(err.name(), "UpstreamFailed");
    assert_eq!(
        body(&err, "/"),
        r#"{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"Upstream isbn-db failed","instance":"/","name":"isbn-db"}"#
    );
}

#[derive(Debug, Problem)]
#[problem(status = 400, detail = "{field} is too long")]
struct TooLong<'a, const N: usize> {
    field: &'a str,
}

#[test]
fn lifetime_and_const_generics() {
    let err: TooLong<'static, 80> = TooLong { field: "title" };
    assert_eq!(err.to_string(), "title is too long");
    assert_eq!(
        body(&err, "/books"),
        r#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"title is too long","instance":"/books","field":"title"}"#
    );
}

// --------------------------------------------------------------- overrides

#[test]
fn caller_overrides_detail_extensions_and_headers_with_customize() {
    let err = RateLimited {
        retry_after: 30,
        policy: None,
        limit: 100,
    }
    .customize()
    .with_detail("Quota exhausted")
    .with_extension("limit", 50)
    .with_extension("window", "1m")
    .with_header(("Retry-After", "60"));
    assert_eq!(err.to_string(), "Quota exhausted");
    assert_eq!(err.name(), "RateLimited");
    assert_eq!(err.status().as_u16(), 429);
    assert_eq!(
        body(&err, "/api"),
        r#"{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"Quota exhausted","instance":"/api","limit":50,"window":"1m"}"#
    );
    assert_eq!(
        header_list(&err),
        vec![("retry-after".to_owned(), "60".to_owned())]
    );
    assert_eq!(err.inner().retry_after, 30);

    // A customized problem is still caught as its own type.
    let actix_err: actix_web::Error = err.into();
    let caught = RateLimited::catch(&actix_err).unwrap();
    assert_eq!(caught.limit, 100);
}

#[test]
fn catch_finds_a_derived_problem_in_an_actix_error() {
    let actix_err: actix_web::Error = DuplicateIsbn {
        isbn: "1".into(),
        internal_id: 1,
    }
    .into();
    assert_eq!(DuplicateIsbn::catch(&actix_err).unwrap().isbn, "1");
    assert!(UpstreamDown::catch(&actix_err).is_none());
    assert_eq!(actix_err.as_response_error().status_code().as_u16(), 409);
}
