"""The catalog through a client generated from its own /openapi.json (issue 14).

scripts/python-client-check.sh generates the package `catalog_client` with
openapi-python-client, puts it on PYTHONPATH and runs this file with the
running catalog's address in CATALOG_BASE_URL. Every request below is a call
of a generated function: no hand-written request, no parameter the generated
signature does not have. What the generated client sends is what the
document describes (only the parameters passed, arrays exploded as
`id__in=5&id__in=6`), so a document that misleads generators fails here.

Environment:
  CATALOG_BASE_URL      http://127.0.0.1:<port>
  CATALOG_EDITOR_TOKEN  a bearer token that may create books
  CATALOG_ADMIN_TOKEN   a bearer token that may also delete them
  CATALOG_SEED_ROWS     how many books the catalog was seeded with

Run: python test_catalog_client.py (runs every step; exits 1 if one failed).
"""

import base64
import datetime
import inspect
import io
import json
import os
import sys
import time
import traceback
from http import HTTPStatus

import attrs
import httpx

from catalog_client import AuthenticatedClient, Client
from catalog_client.api.books import (
    create_book,
    delete_book,
    get_book,
    get_cover,
    list_books,
    put_cover,
)
from catalog_client.models import (
    Book,
    BookCursorPage,
    BookFields,
    BookPage,
    DuplicateIsbn,
    NewBook,
    ProblemDetails,
    PutCoverBody,
)
from catalog_client.types import UNSET, File

BASE_URL = os.environ["CATALOG_BASE_URL"]
EDITOR_TOKEN = os.environ["CATALOG_EDITOR_TOKEN"]
ADMIN_TOKEN = os.environ["CATALOG_ADMIN_TOKEN"]
SEED_ROWS = int(os.environ["CATALOG_SEED_ROWS"])
# A bound on the requests one walk may make, so a client that never reaches
# the end fails instead of hanging.
MAX_PAGES = 1000
TIMEOUT = httpx.Timeout(10.0)


def client() -> Client:
    return Client(base_url=BASE_URL, timeout=TIMEOUT, raise_on_unexpected_status=True)


def authed(token: str = EDITOR_TOKEN) -> AuthenticatedClient:
    return AuthenticatedClient(
        base_url=BASE_URL, token=token, timeout=TIMEOUT, raise_on_unexpected_status=True
    )


# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
STALE = '"0000000000000000"'


def offset_walk(per_page: int, **filters) -> tuple[list[BookFields], list[int]]:
    """Every page of an offset listing, page 1 to `meta.total_pages`.

    Returns the books and the `meta.total` each page reported."""
    books: list[BookFields] = []
    totals: list[int] = []
    page = 1
    with client() as c:
        while True:
            assert page <= MAX_PAGES, f"more than {MAX_PAGES} pages"
            r = list_books.sync_detailed(client=c, page=page, per_page=per_page, **filters)
            assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
            body = r.parsed
            assert isinstance(body, BookPage), type(body)
            assert body.meta.page == page, body.meta
            assert body.meta.per_page == per_page, body.meta
            total, total_pages = body.meta.total, body.meta.total_pages
            assert total is not UNSET and total_pages is not UNSET, body.meta
            assert total_pages == max(1, -(-total // per_page)), body.meta
            expected_len = per_page if page < total_pages else total - per_page * (total_pages - 1)
            assert len(body.data) == expected_len, (page, len(body.data), expected_len)
            # List items are BookFields (every member optional, for sparse
            # fieldsets); without `fields` or `exclude` each has them all.
            for b in body.data:
                assert isinstance(b, BookFields), type(b)
                assert not [a.name for a in attrs.fields(BookFields) if getattr(b, a.name) is UNSET], b
            books.extend(body.data)
            totals.append(total)
            if page >= total_pages:
                return books, totals
            page += 1


def test_offset_listing_to_the_end() -> list[BookFields]:
    books, totals = offset_walk(per_page=40)
    ids = [b.id for b in books]
    assert set(totals) == {SEED_ROWS}, set(totals)
    assert len(ids) == SEED_ROWS, len(ids)
    assert len(set(ids)) == SEED_ROWS, "a book was listed twice"
    return books


def test_keyset_listing_visits_every_book_once(all_ids: set[int]) -> None:
    limit = 37
    seen: list[int] = []
    pages = 0
    cursor = UNSET
    with client() as c:
        while True:
            pages += 1
            assert pages <= MAX_PAGES, f"more than {MAX_PAGES} pages"
            r = list_books.sync_detailed(client=c, limit=limit, cursor=cursor)
            assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
            body = r.parsed
            assert isinstance(body, BookCursorPage), type(body)
            assert body.meta.limit == limit, body.meta
            assert 1 <= len(body.data) <= limit, len(body.data)
            seen.extend(b.id for b in body.data)
            if body.meta.next_cursor is None:
                # Only the last page is short or exactly full.
                break
            assert len(body.data) == limit, (pages, len(body.data))
            cursor = body.meta.next_cursor
    assert len(seen) == len(set(seen)), "the keyset walk visited a book twice"
    assert set(seen) == all_ids, (
        f"missing {sorted(all_ids - set(seen))[:10]}, extra {sorted(set(seen) - all_ids)[:10]}"
    )
    assert pages == -(-len(all_ids) // limit), pages


def test_exploded_in_lists(books: list[BookFields]) -> None:
    wanted = [5, 17, 230]
    with client() as c:
        r = list_books.sync_detailed(client=c, id_in=wanted, per_page=50)
    assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
    body = r.parsed
    assert isinstance(body, BookPage), type(body)
    # The generated client sent the array exploded, one `id__in` per item
    # (the self link repeats the query as it was received).
    assert body.links.self_ == "/books?per_page=50&id__in=5&id__in=17&id__in=230", body.links.self_
    assert sorted(b.id for b in body.data) == wanted, [b.id for b in body.data]
    assert body.meta.total == len(wanted), body.meta

    # Two values of another list-valued parameter, checked against the
    # books the offset walk saw.
    years = sorted({b.year for b in books})[:2]
    expected = sorted(b.id for b in books if b.year in years)
    assert expected, years
    got, totals = offset_walk(per_page=25, year_in=years)
    assert sorted(b.id for b in got) == expected, (years, len(got), len(expected))
    assert set(totals) == {len(expected)}, totals


def test_create_book_and_duplicate_isbn_problem(books: list[BookFields]) -> None:
    # The catalog starts empty but for its seed (978-prefixed ISBNs).
    isbn = "9791234567896"
    assert isbn not in {b.isbn for b in books}, isbn
    new = NewBook(
        isbn=isbn,
        title="Generated Clients and Their Servers",
        author="Ada Generator",
        year=2024,
        price=31.5,
        genre="reference",
        rating=4.5,
        subtitle="A field guide",
        published_at=datetime.date(2024, 3, 14),
        in_stock=False,
    )

    # Without the token: the 401 problem, parsed.
    with client() as c:
        r = create_book.sync_detailed(client=c, body=new)
    assert r.status_code == HTTPStatus.UNAUTHORIZED, (r.status_code, r.content)
    assert isinstance(r.parsed, ProblemDetails), type(r.parsed)
    assert json.loads(r.content) == {
        "type": "about:blank",
        "title": "Unauthorized",
        "status": 401,
        "instance": "/books",
    }, r.content
    assert r.headers["www-authenticate"] == 'Bearer realm="catalog"', r.headers

    with authed() as c:
        r = create_book.sync_detailed(client=c, body=new)
        assert r.status_code == HTTPStatus.CREATED, (r.status_code, r.content)
        created = r.parsed
        assert isinstance(created, Book), type(created)
        assert created.id not in {b.id for b in books}, created.id
        assert (
            created.isbn,
            created.title,
            created.author,
            created.year,
            created.price,
            created.genre,
            created.rating,
            created.subtitle,
            created.published_at,
            created.in_stock,
        ) == (
            isbn,
            "Generated Clients and Their Servers",
            "Ada Generator",
            2024,
            31.5,
            "reference",
            4.5,
            "A field guide",
            datetime.date(2024, 3, 14),
            False,
        ), created

        r = get_book.sync_detailed(client=c, id=created.id)
        assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
        assert r.parsed == created, (r.parsed, created)

        # The same ISBN again: the 409 problem, parsed as the document's
        # DuplicateIsbn schema.
        r = create_book.sync_detailed(client=c, body=new)
        assert r.status_code == HTTPStatus.CONFLICT, (r.status_code, r.content)
        assert r.headers["content-type"] == "application/problem+json; charset=utf-8", r.headers
        problem = r.parsed
        assert isinstance(problem, DuplicateIsbn), type(problem)
        assert problem.type_ == "/problems/duplicate-isbn", problem.type_
        assert problem.title == "Conflict", problem.title
        assert problem.status == 409, problem.status
        assert problem.detail == f"A book with ISBN {isbn} already exists", problem.detail
        assert problem.instance == "/books", problem.instance
        assert problem.isbn == isbn, problem.isbn
        assert problem.correlation_id is UNSET and problem.stack is UNSET, problem
        assert problem.additional_properties == {}, problem.additional_properties

    # Still one book with that ISBN.
    with client() as c:
        r = list_books.sync_detailed(client=c, isbn=isbn, per_page=10)
    assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
    assert isinstance(r.parsed, BookPage), type(r.parsed)
    assert [b.id for b in r.parsed.data] == [created.id], r.parsed.data


def assert_precondition_failed(r, instance: str) -> None:
    assert r.status_code == HTTPStatus.PRECONDITION_FAILED, (r.status_code, r.content)
    problem = r.parsed
    assert isinstance(problem, ProblemDetails), type(problem)
    assert (problem.type_, problem.title, problem.status, problem.detail, problem.instance) == (
        "about:blank",
        "Precondition Failed",
        412,
        "The resource has changed since it was read",
        instance,
    ), problem


def test_conditional_writes_with_if_match() -> None:
    """DELETE /books/{id} and PUT /books/{id}/cover with If-Match (412 when
    stale, nothing written), the cover uploaded as a file and read back."""
    missing = [
        f"{op} declares no If-Match header parameter"
        for op, fn in (("DELETE /books/{id}", delete_book), ("PUT /books/{id}/cover", put_cover))
        if "if_match" not in inspect.signature(fn.sync_detailed).parameters
    ]
    cover_type = PutCoverBody.__annotations__.get("cover")
    if "File" not in str(cover_type):
        missing.append(
            f"PUT /books/{{id}}/cover's multipart member `cover` is generated as {cover_type!r}, not File "
            "(no `format: binary`), so the client sends it as a text/plain string"
        )
    assert not missing, "document defect: " + "; ".join(missing)

    with authed(ADMIN_TOKEN) as c:
        r = get_book.sync_detailed(client=c, id=2)
        assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
        tag = r.headers["etag"]
        assert_precondition_failed(delete_book.sync_detailed(client=c, id=2, if_match=STALE), "/books/2")
        r = get_book.sync_detailed(client=c, id=2)
        assert r.status_code == HTTPStatus.OK, "the 412 deleted the book"
        r = delete_book.sync_detailed(client=c, id=2, if_match=tag)
        assert r.status_code == HTTPStatus.NO_CONTENT, (r.status_code, r.content)
        r = get_book.sync_detailed(client=c, id=2)
        assert r.status_code == HTTPStatus.NOT_FOUND, (r.status_code, r.content)
        assert isinstance(r.parsed, ProblemDetails), type(r.parsed)
        assert json.loads(r.content) == {
            "type": "about:blank",
            "title": "Not Found",
            "status": 404,
            "detail": "Book 2 not found",
            "instance": "/books/2",
        }, r.content

        def upload(**kw):
            body = PutCoverBody(cover=File(payload=io.BytesIO(PNG), file_name="cover.png", mime_type="image/png"))
            return put_cover.sync_detailed(client=c, id=4, body=body, **kw)

        # No cover yet: no tag matches.
        assert_precondition_failed(upload(if_match=STALE), "/books/4/cover")
        r = get_cover.sync_detailed(client=c, id=4)
        assert r.status_code == HTTPStatus.NOT_FOUND, "the 412 stored the cover"
        r = upload()
        assert r.status_code == HTTPStatus.CREATED, (r.status_code, r.content)
        r = get_cover.sync_detailed(client=c, id=4)
        assert r.status_code == HTTPStatus.OK, (r.status_code, r.content)
        assert r.headers["content-type"] == "image/png", r.headers
        # `format: binary` beside `contentMediaType`: the download is a
        # File of the bytes sent, not text.
        assert isinstance(r.parsed, File), r.parsed
        assert r.parsed.payload.read() == PNG, r.parsed
        tag = r.headers["etag"]
        assert_precondition_failed(upload(if_match=STALE), "/books/4/cover")
        r = upload(if_match=tag)
        assert r.status_code == HTTPStatus.NO_CONTENT, (r.status_code, r.content)


def main() -> int:
    results: dict = {}
    steps = [
        ("offset listing, page 1 to the last", lambda: results.setdefault("books", test_offset_listing_to_the_end())),
        (
            "keyset listing, limit + meta.next_cursor until null, every book once",
            lambda: test_keyset_listing_visits_every_book_once({b.id for b in results["books"]}),
        ),
        ("exploded __in lists (id__in, year__in)", lambda: test_exploded_in_lists(results["books"])),
        (
            "create a book with the bearer token, then the 409 duplicate-isbn problem",
            lambda: test_create_book_and_duplicate_isbn_problem(results["books"]),
        ),
        (
            "If-Match on DELETE /books/{id} and PUT /books/{id}/cover (412 when stale), the cover as a file",
            test_conditional_writes_with_if_match,
        ),
    ]
    failed = []
    for name, step in steps:
        started = time.monotonic()
        try:
            step()
        except Exception:  # noqa: BLE001 - report, go on with the next step
            print(f"FAIL  {name}", flush=True)
            traceback.print_exc()
            failed.append(name)
            if "books" not in results:
                break  # every later step needs the listing
            continue
        print(f"ok    {name} ({time.monotonic() - started:.2f}s)", flush=True)
    if failed:
        print(f"python client: {len(failed)} failed: {'; '.join(failed)}")
        return 1
    print("python client: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
