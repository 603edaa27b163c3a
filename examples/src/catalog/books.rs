//! The book routes other than the list: one book, create, delete, covers.

use actix_web::http::header::{self, EntityTag};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, mime, web};
use futures_util::StreamExt;
use problem_core::pipeline::framework::{unsupported_content_encoding, unsupported_media_type};
use problem_core::pipeline::{
    PreconditionFailed, UnknownError, ValidBody, check_preconditions, content_type, entity_tag,
};
use problem_core::routing::OriginalPath;
use problem_core::spec::{MALFORMED_MULTIPART, MAX_PARAMETERS, TOO_MANY_FORM_FIELDS};
use problem_core::{
    BadRequestException, HttpException, Issue, IssueLocation, NotFoundException, Problem,
    ServiceUnavailableException, UnsupportedMediaTypeException, ValidationException,
};

use super::db::{CoverWrite, Db, Replacing};
use super::model::{Book, NewBook};
use super::openapi::{CoverUpload, DatabaseUnavailable, Health, Unauthorized};
use problem_core::ProblemDetails;
use problem_core::openapi::{BadRequestProblem, IfMatch, IfNoneMatch};
use sqlx::postgres::{PgDatabaseError, PgSeverity};

/// A book with this ISBN already exists.
///
/// `POST /books` answers it (409, the ISBN in the `isbn` extension member)
/// when the new book's ISBN is already in the catalog: ISBNs are unique.
/// Read the existing book with `GET /books?isbn=<isbn>` instead.
#[derive(Debug, Problem)]
#[problem(
    status = 409,
    title = "Conflict",
    type = "/problems/duplicate-isbn",
    detail = "A book with ISBN {isbn} already exists"
)]
pub struct DuplicateIsbn {
    /// The ISBN that is already taken.
    pub isbn: String,
}

/// A database failure: 503 when the database is unavailable
/// ([`unavailable_reason`]; masked, `Retry-After: 5`, logged with the
/// reason in its detail: `The database is unavailable (SQLSTATE 55P03)`),
/// else an unknown error (masked 500).
pub fn db_error(e: sqlx::Error) -> actix_web::Error {
    match unavailable_reason(&e) {
        Some(why) => ServiceUnavailableException::new()
            .with_detail(format!("The database is unavailable ({why})"))
            .with_header(("Retry-After", "5"))
            .with_cause(e)
            .into(),
        None => UnknownError::from(e).into(),
    }
}

/// Why a driver error means the database cannot serve the request now, or
/// `None` when it does not (then it is a 500): the pool timed out or is
/// closed, the connection failed (I/O, driver worker gone), or PostgreSQL
/// refused, dropped or cut it short (SQLSTATE class `08` connection
/// exception, `57P01` admin shutdown, `57P02` crash shutdown, `57P03`
/// cannot connect now, `53300` too many connections, `55P03` a lock not
/// available in time (the catalog's `lock_timeout`,
/// [`SET_LOCK_TIMEOUT`](super::db::SET_LOCK_TIMEOUT)), `57014` a statement
/// cancelled (a `statement_timeout`, an operator's `pg_cancel_backend`),
/// class `28` the service's own login refused: a wrong or changed password
/// is an outage of the service, not a bug in the request; and, as `FATAL`
/// errors only, that is on connecting, `3D000` the database does not exist
/// (dropped or renamed under the service) and `55000` it accepts no
/// connections (`ALLOW_CONNECTIONS false`): as `ERROR`s of a statement they
/// are the statement's own), or SQLite found the database busy or locked
/// by another connection or process past its busy timeout (result codes
/// `SQLITE_BUSY` 5 and `SQLITE_LOCKED` 6, with their extended codes).
///
/// The reason names the SQLSTATE (`SQLSTATE 57014`), SQLite's result code
/// (`SQLite result code 5`) or the pool's state (`pool timed out`): the
/// log line's detail, so an operator can tell a lock from a stopped
/// server. A database that refuses writes (PostgreSQL `25006`, SQLite
/// `SQLITE_READONLY`) is a deployment mistake, not an outage: a 500 on
/// both. Seen when PostgreSQL is stopped under load: queries on pooled
/// connections fail with `57P01`, new acquisitions with `PoolTimedOut`
/// (RELIABILITY.md); and when another process holds an exclusive lock on
/// the SQLite file, where the same request failed as a 500 or a 503 by
/// which step timed out first.
pub fn unavailable_reason(e: &sqlx::Error) -> Option<String> {
    match e {
        sqlx::Error::PoolTimedOut => Some("pool timed out".to_owned()),
        sqlx::Error::PoolClosed => Some("pool closed".to_owned()),
        sqlx::Error::Io(_) => Some("I/O error".to_owned()),
        sqlx::Error::WorkerCrashed => Some("driver worker crashed".to_owned()),
        sqlx::Error::Database(db) => {
            let code = db.code()?;
            let fatal = db
                .try_downcast_ref::<PgDatabaseError>()
                .is_some_and(|pg| matches!(pg.severity(), PgSeverity::Fatal | PgSeverity::Panic));
            if code.starts_with("08")
                || code.starts_with("28")
                || matches!(
                    code.as_ref(),
                    "57P01" | "57P02" | "57P03" | "53300" | "55P03" | "57014"
                )
                || (fatal && matches!(code.as_ref(), "3D000" | "55000"))
            {
                Some(format!("SQLSTATE {code}"))
            } else if code
                .parse::<u32>()
                // SQLite's (extended) result code, in decimal: its low
                // byte is the primary code.
                .is_ok_and(|n| matches!(n & 0xff, 5 | 6))
            {
                Some(format!("SQLite result code {code}"))
            } else {
                None
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::unavailable_reason;
    use std::borrow::Cow;

    /// A database error with only a SQLSTATE.
    #[derive(Debug)]
    struct Coded(&'static str);

    impl std::fmt::Display for Coded {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for Coded {}

    impl sqlx::error::DatabaseError for Coded {
        fn message(&self) -> &str {
            self.0
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    #[test]
    fn outages_are_told_from_bugs_by_sqlstate() {
        let unavailable =
            |code| unavailable_reason(&sqlx::Error::Database(Box::new(Coded(code)))).is_some();
        for code in [
            "08006", "08001", "57P01", "57P02", "57P03", "53300", "55P03", "28P01", "28000",
            // A statement cancelled.
            "57014",
            // SQLite: BUSY, LOCKED, BUSY_RECOVERY, BUSY_SNAPSHOT,
            // LOCKED_SHAREDCACHE.
            "5", "6", "261", "517", "262",
        ] {
            assert!(unavailable(code), "{code}");
        }
        // SQLite: CONSTRAINT_UNIQUE, ERROR, CORRUPT, READONLY.
        // PostgreSQL: unique violation, no such table, bad input, a
        // serialization failure, a read-only database; the database
        // missing or closed to connections as a statement's `ERROR` (not
        // the `FATAL` of connecting: `locked_database.rs` has that one).
        for code in [
            "23505", "42P01", "22P02", "40001", "25006", "3D000", "55000", "2067", "1", "11", "8",
        ] {
            assert!(!unavailable(code), "{code}");
        }
        assert_eq!(
            unavailable_reason(&sqlx::Error::Database(Box::new(Coded("55P03")))).as_deref(),
            Some("SQLSTATE 55P03")
        );
        assert_eq!(
            unavailable_reason(&sqlx::Error::Database(Box::new(Coded("517")))).as_deref(),
            Some("SQLite result code 517")
        );
        assert_eq!(
            unavailable_reason(&sqlx::Error::PoolTimedOut).as_deref(),
            Some("pool timed out")
        );
        assert_eq!(unavailable_reason(&sqlx::Error::RowNotFound), None);
    }
}

/// Parses the `{id}` path parameter: a 400 problem naming it when it is not
/// an integer in `i64`'s range, written as the query's integers are
/// (`1`, `-1`; not `+1`, so one book has one URL).
pub fn book_id(raw: &str) -> Result<i64, actix_web::Error> {
    raw.parse::<i64>()
        .ok()
        .filter(|_| !raw.starts_with('+'))
        .ok_or_else(|| {
            ValidationException::new(vec![
                Issue::new(
                    IssueLocation::Path,
                    "id",
                    "invalid_value",
                    format!("`{raw}` is not a valid integer"),
                )
                .with("expected", "integer"),
            ])
            .into()
        })
}

fn not_found(id: i64) -> actix_web::Error {
    NotFoundException::new()
        .with_detail(format!("Book {id} not found"))
        .into()
}

/// `GET /books/{id}`.
#[utoipa::path(
    get,
    path = "/books/{id}",
    operation_id = "getBook",
    tag = "books",
    summary = "One book",
    description = "The book as JSON, with a strong `ETag`; `If-None-Match` with a matching tag answers 304.",
    params(("id" = i64, Path, description = "The book's id.")),
    responses(
        (status = 200, description = "The book.", body = Book),
        (status = 400, description = "The id is not an integer (`issues` names it).",
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 404, description = "No book has this id.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
pub async fn get_book(
    db: web::Data<Db>,
    id: web::Path<String>,
) -> Result<HttpResponse, actix_web::Error> {
    let id = book_id(&id)?;
    match db.book(id).await.map_err(db_error)? {
        Some(book) => Ok(HttpResponse::Ok().json(book)),
        None => Err(not_found(id)),
    }
}

/// `POST /books`: JSON or form; 201 with `Location`.
#[utoipa::path(
    post,
    path = "/books",
    operation_id = "createBook",
    tag = "books",
    summary = "Create a book (editor or admin)",
    description = "JSON or a form; 201 with `Location`.",
    security(("bearer" = [])),
    request_body(
        content(
            (NewBook = "application/json"),
            (NewBook = "application/x-www-form-urlencoded"),
        ),
    ),
    responses(
        (status = 201, description = "The created book.", body = Book,
            headers(("Location" = String, description = "`/books/<id>`, under the path the request used (`/v2/books/<id>` for `POST /v2/books`)."))),
        (status = 400, description = "A malformed body, or one that failed validation (`issues` holds a JSON pointer per member).",
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 401, response = inline(Unauthorized)),
        DuplicateIsbn,
        (status = 413, description = "More than 1000 form fields; a body over the size limit gets an empty 413 instead.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 415, description = "The body is neither JSON nor a form, or it has a `Content-Encoding` other than `identity` (the answer then carries `Accept-Encoding: identity`).",
            body = ProblemDetails, content_type = "application/problem+json",
            headers(("Accept-Encoding" = String, description = "`identity`, when the body had a content coding."))),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
pub async fn create_book(
    req: HttpRequest,
    db: web::Data<Db>,
    body: ValidBody<NewBook>,
) -> Result<HttpResponse, actix_web::Error> {
    let new = body.into_inner();
    if db.isbn_exists(&new.isbn).await.map_err(db_error)? {
        return Err(DuplicateIsbn { isbn: new.isbn }.into());
    }
    match db.insert(&new).await {
        // Under the collection's path as the client sent it, so that a
        // client that chose its version by path (`POST /v2/books`) stays
        // on it (`/v2/books/7`).
        Ok(book) => {
            let location = match req.extensions().get::<OriginalPath>() {
                Some(path) => format!("{}/{}", path.0.trim_end_matches('/'), book.id),
                None => format!("{}/{}", req.path().trim_end_matches('/'), book.id),
            };
            Ok(HttpResponse::Created()
                .insert_header((header::LOCATION, location))
                .json(book))
        }
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(DuplicateIsbn { isbn: new.isbn }.into())
        }
        Err(e) => Err(db_error(e)),
    }
}

/// The entity tag of a book's `GET /books/{id}` representation (the same
/// JSON bytes the response carries).
fn book_tag(book: &super::model::Book) -> Result<EntityTag, actix_web::Error> {
    let bytes = serde_json::to_vec(book).map_err(UnknownError::from)?;
    Ok(entity_tag(&bytes))
}

/// `DELETE /books/{id}`: 204; with `If-Match`, 412 and nothing deleted
/// when the book changed since the client read it (RFC 9110 §13.1.1); with
/// `If-None-Match`, 412 when it has not (§13.1.2).
#[utoipa::path(
    delete,
    path = "/books/{id}",
    operation_id = "deleteBook",
    tag = "books",
    summary = "Delete a book (admin)",
    description = "204; with `If-Match`, 412 and nothing deleted when the book changed since the client read it (with `If-None-Match`, when it has not).",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "The book's id."),
        IfMatch,
        IfNoneMatch,
    ),
    responses(
        (status = 204, description = "Deleted."),
        (status = 400, description = "The id is not an integer.",
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, description = "The token is an editor's: only admins delete.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No book has this id.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version of the book, or `If-None-Match` names this one: nothing was deleted.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
pub async fn delete_book(
    req: HttpRequest,
    db: web::Data<Db>,
    id: web::Path<String>,
) -> Result<HttpResponse, actix_web::Error> {
    let id = book_id(&id)?;
    let Some(book) = db.book(id).await.map_err(db_error)? else {
        return Err(not_found(id));
    };
    check_preconditions(&req, Some(&book_tag(&book)?))?;
    if db.delete(id).await.map_err(db_error)? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(not_found(id))
    }
}

/// `PUT /books/{id}/cover`: `multipart/form-data` with a file part
/// `cover`; 201 when the book had no cover, 204 when it replaced one; with `If-Match`, 412 and nothing stored when the cover
/// changed since the client read it (`If-Match: *`: only when it has one);
/// with `If-None-Match: *`, only when it has none.
#[utoipa::path(
    put,
    path = "/books/{id}/cover",
    operation_id = "putCover",
    tag = "books",
    summary = "Upload a book's cover (editor or admin)",
    description = "`multipart/form-data` with a file part `cover`; 201 when the book had no cover, 204 when it replaced one. With `If-Match`, 412 and nothing stored when the cover changed since the client read it (`If-Match: *`: only when it has one); with `If-None-Match: *`, only when it has none.",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "The book's id."),
        IfMatch,
        IfNoneMatch,
    ),
    request_body(content = inline(CoverUpload), content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Stored: the book had no cover (RFC 9110 §9.3.4)."),
        (status = 204, description = "Stored: it replaced the book's cover."),
        (status = 400, description = "The id is not an integer, the multipart body is malformed, or it has no `cover` part.",
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 401, response = inline(Unauthorized)),
        (status = 404, description = "No book has this id.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another cover, or `*` and the book has none; or `If-None-Match` names the current cover, or `*` and the book has one: nothing was stored.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 413, description = "More than 1000 form fields; a body over the size limit gets an empty 413 instead.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 415, description = "The body is not `multipart/form-data`, it has a `Content-Encoding` other than `identity` (the answer then carries `Accept-Encoding: identity`), or the cover is not a PNG, JPEG, GIF or WebP image.",
            body = ProblemDetails, content_type = "application/problem+json",
            headers(("Accept-Encoding" = String, description = "`identity`, when the body had a content coding."))),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
pub async fn put_cover(
    req: HttpRequest,
    db: web::Data<Db>,
    id: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, actix_web::Error> {
    let id = book_id(&id)?;
    // `multipart/form-data` only: actix-multipart reads any `multipart/*`.
    let Some(content_type) = form_data(&req) else {
        return Err(unsupported_media_type(Some(&req)).into());
    };
    // The body is read as sent: a compressed one is refused, not stored.
    if let Some(coded) = unsupported_content_encoding(&req) {
        return Err(coded.into());
    }
    // actix-multipart is given the type as `mime` writes it, so whitespace
    // around `;` (RFC 9110 §8.3.1) reads as it does in the check above.
    let mut headers = header::HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_str(content_type.as_ref())
            .map_err(|_| unsupported_media_type(Some(&req)))?,
    );
    let mut form = actix_multipart::Multipart::new(&headers, payload);
    if db.book(id).await.map_err(db_error)?.is_none() {
        return Err(not_found(id));
    }
    // Preconditions first, then the content (RFC 9110 §13.2.2): a stale
    // `If-Match` is a 412 whatever the body holds.
    let current = db
        .cover(id)
        .await
        .map_err(db_error)?
        .map(|(_, bytes)| bytes);
    check_preconditions(&req, current.as_deref().map(entity_tag).as_ref())?;
    let mut cover: Option<(String, Vec<u8>)> = None;
    let mut parts = 0usize;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(multipart_error)?;
        // Every part is a form field: more than 1000 is the spec's 413.
        parts += 1;
        if parts > MAX_PARAMETERS {
            return Err(match HttpException::new(TOO_MANY_FORM_FIELDS.status) {
                Ok(e) => e.with_detail(TOO_MANY_FORM_FIELDS.detail).into(),
                Err(e) => UnknownError::from(e).into(),
            });
        }
        let is_cover = field.content_disposition().and_then(|cd| cd.get_name()) == Some("cover");
        let content_type = field
            .content_type()
            .map(|m| m.to_string())
            .unwrap_or_else(|| "application/octet-stream".into());
        let mut data = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(multipart_error)?;
            if is_cover && cover.is_none() {
                data.extend_from_slice(&chunk);
            }
        }
        if is_cover && cover.is_none() {
            cover = Some((content_type, data));
        }
    }
    let Some((content_type, data)) = cover else {
        return Err(ValidationException::new(vec![Issue::new(
            IssueLocation::Body,
            "/cover",
            "required",
            "a file part named `cover` is required",
        )])
        .into());
    };
    let media_type = cover_media_type(&content_type, &data)?;
    // With a precondition, the write applies only to the state the check
    // saw (that cover, or none): a writer that changed it in between makes
    // this one a 412.
    let conditional = req.headers().contains_key(header::IF_MATCH)
        || req.headers().contains_key(header::IF_NONE_MATCH);
    let replacing = match (conditional, current.as_deref()) {
        (false, _) => Replacing::Whatever,
        (true, Some(seen)) => Replacing::Exactly(seen),
        (true, None) => Replacing::Nothing,
    };
    match db
        .put_cover(id, media_type, data, replacing)
        .await
        .map_err(db_error)?
    {
        // RFC 9110 §9.3.4: a PUT that creates the target's first
        // representation answers 201 (the target URI names it).
        CoverWrite::Created => Ok(HttpResponse::Created().finish()),
        CoverWrite::Replaced => Ok(HttpResponse::NoContent().finish()),
        CoverWrite::Changed => Err(PreconditionFailed.into()),
        // Deleted while its cover was uploading.
        CoverWrite::NoBook => Err(not_found(id)),
    }
}

/// An error reading the cover upload's parts. actix-multipart reports a
/// line longer than its parser's buffer (64 KiB: a preamble line, a part
/// header, a file name) as a payload overflow, the error its size limits
/// give; the pipeline answers that as a body over the limit, the spec's
/// empty 413. Here the body is within the limit (the pipeline refused a
/// larger one before routing) and no size limit applies to the parts, so
/// the overflow can only be such a line: the 400 `Malformed multipart
/// body`. Any other error goes to the pipeline as it is.
fn multipart_error(e: actix_multipart::MultipartError) -> actix_web::Error {
    match e {
        actix_multipart::MultipartError::Payload(actix_web::error::PayloadError::Overflow) => {
            BadRequestException::new()
                .with_detail(MALFORMED_MULTIPART.detail)
                .into()
        }
        other => other.into(),
    }
}

/// The request's `Content-Type` when it is `multipart/form-data` (with its
/// parameters), the one multipart type a cover upload takes.
fn form_data(req: &HttpRequest) -> Option<mime::Mime> {
    content_type(req).filter(|m| m.type_() == mime::MULTIPART && m.subtype() == mime::FORM_DATA)
}

/// The image types a cover may be, as sniffed from its bytes.
pub const COVER_MEDIA_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The media type of an uploaded cover, determined from its bytes (never
/// the client's claim): one of [`COVER_MEDIA_TYPES`]; anything else is a
/// 415 problem, detail `Unsupported content type: <type>` naming the
/// sniffed type, or the claimed one when the bytes match no known type.
pub fn cover_media_type(claimed: &str, data: &[u8]) -> Result<&'static str, actix_web::Error> {
    let sniffed = infer::get(data).map(|t| t.mime_type());
    match sniffed.and_then(|m| COVER_MEDIA_TYPES.into_iter().find(|t| *t == m)) {
        Some(media_type) => Ok(media_type),
        None => Err(UnsupportedMediaTypeException::new()
            .with_detail(format!(
                "Unsupported content type: {}",
                sniffed.unwrap_or(claimed)
            ))
            .into()),
    }
}

/// `GET /books/{id}/cover`: the stored bytes, or 404. Served with the media
/// type sniffed at upload, `X-Content-Type-Options: nosniff` and
/// `Content-Security-Policy: sandbox`, so a stored file never runs as a
/// page of this origin.
#[utoipa::path(
    get,
    path = "/books/{id}/cover",
    operation_id = "getCover",
    tag = "books",
    summary = "A book's cover",
    description = "The stored bytes, served with the media type sniffed at upload, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`.",
    params(("id" = i64, Path, description = "The book's id.")),
    responses(
        // Its content, one entry per media type of COVER_MEDIA_TYPES: the
        // document's `CoverMediaTypes` modifier.
        (status = 200, description = "The stored image, with the media type sniffed when it was uploaded.",
            headers(
                ("X-Content-Type-Options" = String, description = "`nosniff`: the media type is the one sent."),
                ("Content-Security-Policy" = String, description = "`sandbox`: the file never runs as a page of this origin."),
            )),
        (status = 400, description = "The id is not an integer.",
            body = BadRequestProblem, content_type = "application/problem+json"),
        (status = 404, description = "No book has this id, or it has no cover.",
            body = ProblemDetails, content_type = "application/problem+json"),
        (status = 503, response = inline(DatabaseUnavailable)),
    )
)]
pub async fn get_cover(
    db: web::Data<Db>,
    id: web::Path<String>,
) -> Result<HttpResponse, actix_web::Error> {
    let id = book_id(&id)?;
    match db.cover(id).await.map_err(db_error)? {
        Some((content_type, data)) => Ok(HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, content_type))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .insert_header((header::CONTENT_SECURITY_POLICY, "sandbox"))
            .body(data)),
        // The book, or its cover: each 404 says which is missing.
        None => match db.book(id).await.map_err(db_error)? {
            None => Err(not_found(id)),
            Some(_) => Err(NotFoundException::new()
                .with_detail(format!("Book {id} has no cover"))
                .into()),
        },
    }
}

/// `GET /health`: version-neutral.
#[utoipa::path(
    get,
    path = "/health",
    operation_id = "health",
    tag = "system",
    summary = "Liveness (version-neutral)",
    responses((status = 200, description = "The service is up.", body = inline(Health))),
)]
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"status": "ok"}))
}
