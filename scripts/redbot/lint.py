"""REDbot on one request; its notes as one JSON line.

Usage: python lint.py BASE_URL 'METHOD PATH [| Header: value]...'
for example
    python lint.py http://127.0.0.1:8080 'GET /books | X-API-Version: 2'
One request per process (REDbot's event loop is not reused). Prints a JSON
object with the method, path, request headers,
the response status and REDbot's notes (level, note id, summary; subnotes
flattened), the same notes REDbot's own HAR output carries.
"""

import json
import sys
from configparser import ConfigParser

import thor
from redbot.resource import HttpResource


def flatten(notes):
    for note in notes:
        yield note
        yield from flatten(getattr(note, "subnotes", []) or [])


def lint(base: str, method: str, path: str, headers: list[tuple[str, str]]) -> dict:
    parser = ConfigParser()
    # As redbot's CLI: the catalog is on loopback.
    parser.read_dict({"redbot": {"enable_local_access": "True"}})
    config = parser["redbot"]
    resource = HttpResource(config, descend=False)
    resource.set_request(base + path, method=method, headers=headers)

    @thor.events.on(resource)
    def check_done() -> None:
        thor.stop()

    resource.check()
    thor.run()
    if resource.fetch_error is not None:
        raise SystemExit(f"redbot: {method} {path}: {resource.fetch_error.desc}")
    notes = []
    for note in flatten(resource.response.notes):
        notes.append(
            {
                "level": note.level.name if hasattr(note.level, "name") else str(note.level),
                "id": note.__class__.__name__,
                "summary": note.summary % note.vars if note.vars else note.summary,
            }
        )
    return {
        "method": method,
        "path": path,
        "headers": [f"{n}: {v}" for n, v in headers],
        "status": resource.response.status_code,
        "response_headers": [f"{n}: {v.strip()}" for n, v in resource.response.headers.text],
        "notes": notes,
    }


def main() -> None:
    base = sys.argv[1].rstrip("/")
    first, *rest = [part.strip() for part in sys.argv[2].split(" | ")]
    method, path = first.split(" ", 1)
    headers = [tuple(h.split(": ", 1)) for h in rest]
    print(json.dumps(lint(base, method, path, headers)), flush=True)


if __name__ == "__main__":
    main()
